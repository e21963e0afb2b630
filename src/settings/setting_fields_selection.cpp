#include "settings/setting_field_builders.h"

#include "accuracy/accuracy_budget.h"

namespace tracebench {

using namespace setting_builders;

namespace {

// --auto-tolerance: a numerics name or a budget by measure
// (accuracy/accuracy_budget.h); a text it cannot read is a usage error.
Declare accuracy_budget_option() {
  return [](CLI::App& app, RunOptions& options, const SettingFlag& flag) {
    return app.add_option_function<std::string>(
        flag.names,
        [&options](const std::string& text) {
          try {
            options.auto_tolerance = parse_accuracy_budget(text);
          } catch (const std::invalid_argument& error) {
            throw CLI::ValidationError("--auto-tolerance", error.what());
          }
        },
        flag.help);
  };
}

}  // namespace

std::vector<SettingField> selection_settings() {
  return {
      // What is measured.
      {"measure",
       {{"--performance", "Measure each backend's speedup over eager", chooses()},
        {"--accuracy", "Check each backend's outputs against eager and an fp64 reference",
         bound(&RunOptions::accuracy)}},
       kChild,
       kChangesNumbers,
       kOneValue,
       [](const RunOptions& o) { return json(o.accuracy ? "accuracy" : "performance"); }},
      {"mode",
       {{"--training", "One training iteration (forward, loss, backward, optimizer step)",
         sets(&RunOptions::mode, Mode::kTraining)},
        {"--inference", "Inference (the default)", sets(&RunOptions::mode, Mode::kInference)}},
       kChild,
       kChangesNumbers,
       kOneValue,
       [](const RunOptions& o) { return json(mode_label(o.mode)); }},
      {"precision",
       {{"--float32", "float32 parameters and inputs (the default)",
         sets(&RunOptions::precision, Precision::kFloat32)},
        {"--bfloat16", "Cast model and float inputs to bfloat16",
         sets(&RunOptions::precision, Precision::kBFloat16)},
        {"--amp", "CPU autocast to bfloat16 around every call",
         sets(&RunOptions::precision, Precision::kAmp)}},
       kChild,
       kChangesNumbers,
       kOneValue,
       [](const RunOptions& o) { return json(precision_label(o.precision)); }},
      {"optimizer",
       {{"--optimizer", "Optimizer for --training: sgd or adam", bound(&RunOptions::optimizer)}},
       kChild,
       kChangesNumbers,
       kOneValue,
       [](const RunOptions& o) {
         return o.mode == Mode::kTraining ? json(o.optimizer) : json(nullptr);
       }},
      // The parent writes a model's run's list into each child's arguments: this one
      // and the candidates that crashed an earlier child (settings/model_run.h).
      {"auto_skip",
       {{"--auto-skip",
         "Backends --backend=auto leaves out of its candidates, comma-separated, where their "
         "compile costs more than the answer is worth (default: none; auto also leaves out one "
         "that crashed on the model, and its row says so)",
         comma_list(&RunOptions::auto_skip)}},
       kEachChild,
       kChangesNumbers,
       kOneValue,
       value_of(&RunOptions::auto_skip)},
      {"auto_tolerance",
       {{"--auto-tolerance",
         "What --backend=auto may give up for speed: by name the loosest arithmetic, exact "
         "(float32 rules), bf16 or int8; or by measure a budget on the evaluation set that any "
         "precision may keep: sqnr=DB, top1=PERCENT or both, comma-separated (sqnr=30,top1=99) "
         "(default: exact)",
         accuracy_budget_option()}},
       kChild,
       kChangesNumbers,  // auto runs another candidate under another budget
       kOneValue,
       [](const RunOptions& o) { return json(accuracy_budget_label(o.auto_tolerance)); }},

      // Which models and backends.
      {"only",
       {{"--only",
         "Model to run: a built-in NAME, or path:FILE,class:NAME for a class in a .cpp/.pt/.py "
         "file (relative paths are from the current directory); repeatable (default: every "
         "built-in model, narrowed by -k/-x)",
         bound(&RunOptions::only)}},
       kEachChild,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::only)},
      {"backends",
       {{"--backend", "Backends to compare with eager, comma-separated",
         comma_list(&RunOptions::backends)}},
       kEachChild,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::backends)},
      {"filters",
       {{"-k,--filter",
         "Keep built-in models whose name matches this regex (case-insensitive); repeatable "
         "(default: keep all)",
         bound(&RunOptions::filters)}},
       kParent,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::filters)},
      {"excludes",
       {{"-x,--exclude",
         "Drop built-in models whose name matches this regex; repeatable (default: none)",
         bound(&RunOptions::excludes)}},
       kParent,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::excludes)},
  };
}

}  // namespace tracebench
