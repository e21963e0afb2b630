#include "accuracy/accuracy_budget.h"

#include <cmath>
#include <stdexcept>

#include "util/text.h"

namespace tracebench {

namespace {

constexpr const char* kAcceptedForms =
    "exact, bf16, int8, or measures with their bounds such as sqnr=30 (dB), top1=99 (%) or "
    "sqnr=30,top1=99";

constexpr Numerics kNamedNumerics[] = {Numerics::kExact, Numerics::kBFloat16, Numerics::kInt8};

std::string bound_text(double value) { return printf_string("%g", value); }

// The bound of "measure=value"; throws naming the accepted forms.
double parse_bound(const std::string& term, const std::string& value, double low, double high) {
  size_t used = 0;
  double bound = 0;
  try {
    bound = std::stod(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != value.size() || !std::isfinite(bound) || bound < low || bound > high) {
    throw std::invalid_argument("'" + term + "' needs a number from " + bound_text(low) + " to " +
                                bound_text(high) + "; give " + kAcceptedForms);
  }
  return bound;
}

}  // namespace

const char* numerics_label(Numerics numerics) {
  switch (numerics) {
    case Numerics::kBFloat16:
      return "bf16";
    case Numerics::kInt8:
      return "int8";
    case Numerics::kExact:
      break;
  }
  return "exact";
}

AccuracyBudget parse_accuracy_budget(const std::string& text) {
  for (const Numerics numerics : kNamedNumerics) {
    if (text == numerics_label(numerics)) return AccuracyBudget{numerics, {}, {}};
  }
  // A budget by measure lets auto try every numerics: the bounds decide.
  AccuracyBudget budget{Numerics::kInt8, {}, {}};
  const auto terms = split(text, ',');
  if (terms.empty())
    throw std::invalid_argument(std::string("no accuracy budget; give ") + kAcceptedForms);
  for (const auto& term : terms) {
    const auto equals = term.find('=');
    const std::string measure = term.substr(0, equals);
    const std::string value = equals == std::string::npos ? "" : term.substr(equals + 1);
    if (measure != "sqnr" && measure != "top1") {
      throw std::invalid_argument("unknown accuracy budget '" + term + "'; give " + kAcceptedForms);
    }
    auto& bound = measure == "sqnr" ? budget.min_sqnr_db : budget.min_top1_percent;
    if (bound)
      throw std::invalid_argument("'" + term + "' repeats a measure; give " + kAcceptedForms);
    bound = parse_bound(term, value, 0, measure == "sqnr" ? 200 : 100);
  }
  return budget;
}

std::string accuracy_budget_label(const AccuracyBudget& budget) {
  if (!budget.by_measure()) return numerics_label(budget.loosest);
  std::vector<std::string> terms;
  if (budget.min_sqnr_db) terms.push_back("sqnr=" + bound_text(*budget.min_sqnr_db));
  if (budget.min_top1_percent) terms.push_back("top1=" + bound_text(*budget.min_top1_percent));
  return join(terms, ",");
}

std::string budget_shortfall(const AccuracyBudget& budget, double sqnr, const Top1Agreement& top1) {
  // NaN compares false: a measure that could not be had keeps no bound.
  if (budget.min_sqnr_db && !(sqnr >= *budget.min_sqnr_db)) {
    if (std::isnan(sqnr)) return "its sqnr cannot be measured (no floating-point output)";
    return "sqnr " + printf_string("%.1f", sqnr) + " dB is below the budget's " +
           bound_text(*budget.min_sqnr_db);
  }
  if (budget.min_top1_percent && !(top1.percent >= *budget.min_top1_percent)) {
    if (std::isnan(top1.percent)) return "its top-1 agreement cannot be measured: " + top1.why_not;
    return "top-1 agreement " + printf_string("%.1f", top1.percent) + "% is below the budget's " +
           bound_text(*budget.min_top1_percent) + "%";
  }
  return "";
}

}  // namespace tracebench
