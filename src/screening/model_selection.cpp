#include "screening/model_selection.h"

#include <filesystem>
#include <regex>

#include "tracebench/error.h"
#include "zoo/zoo.h"

namespace tracebench {

namespace {

std::vector<std::regex> compile_patterns(const std::vector<std::string>& patterns,
                                         const char* flag) {
  std::vector<std::regex> compiled;
  for (const auto& pattern : patterns) {
    try {
      compiled.emplace_back(pattern, std::regex::icase | std::regex::ECMAScript);
    } catch (const std::regex_error& error) {
      throw UsageError(std::string("bad regular expression '") + pattern + "' for " + flag + ": " +
                       error.what());
    }
  }
  return compiled;
}

bool matches_any(const std::string& name, const std::vector<std::regex>& patterns) {
  for (const auto& pattern : patterns) {
    if (std::regex_search(name, pattern)) return true;
  }
  return false;
}

}  // namespace

std::vector<ModelSpec> select_models(const RunOptions& options) {
  std::vector<ModelSpec> specs;
  if (!options.only.empty()) {
    for (const auto& text : options.only) {
      specs.push_back(parse_model_spec(text, std::filesystem::current_path()));
    }
    return specs;
  }
  const auto keep = compile_patterns(options.filters, "-k/--filter");
  const auto drop = compile_patterns(options.excludes, "-x/--exclude");
  for (const auto& entry : zoo_models()) {
    if (!keep.empty() && !matches_any(entry.name, keep)) continue;
    if (matches_any(entry.name, drop)) continue;
    ModelSpec spec;
    spec.name = entry.name;
    specs.push_back(spec);
  }
  if (specs.empty()) {
    throw UsageError("no built-in model matches the -k/-x filters; see `tracebench list`");
  }
  return specs;
}

}  // namespace tracebench
