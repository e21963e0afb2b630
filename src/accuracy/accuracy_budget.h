#pragma once
// --auto-tolerance's budget: its text form, and whether a candidate's measured
// accuracy cost keeps it (docs/accuracy.md, "auto within a budget").

#include <string>

#include "accuracy/precision_cost.h"
#include "tracebench/backend.h"

namespace tracebench {

/// "exact", "bf16" or "int8", as --auto-tolerance takes them by name.
const char* numerics_label(Numerics numerics);

/// Reads --auto-tolerance: a numerics name ("exact", "bf16", "int8"), or
/// measures with their bounds, comma-separated ("sqnr=30", "top1=99",
/// "sqnr=30,top1=99"). Throws std::invalid_argument with a message that names
/// the accepted forms.
AccuracyBudget parse_accuracy_budget(const std::string& text);

/// The text parse_accuracy_budget reads back to `budget`.
std::string accuracy_budget_label(const AccuracyBudget& budget);

/// "" when a candidate whose outputs measured `sqnr` and `top1` against
/// float32 keeps every bound of `budget`; otherwise why not ("sqnr 21.3 dB is
/// below the budget's 30"). A bound whose measure could not be had (top-1 of
/// a model that is no classifier) is not kept.
std::string budget_shortfall(const AccuracyBudget& budget, double sqnr, const Top1Agreement& top1);

}  // namespace tracebench
