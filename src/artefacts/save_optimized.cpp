#include "artefacts/save_optimized.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "backends/graph/graph_module.h"
#include "util/files.h"
#include "util/text.h"

namespace tracebench {

namespace {

namespace fs = std::filesystem;

void warn(ResultRow& row, const std::string& code, const std::string& message) {
  row.add_warning(code, row.backend + ": " + message);
}

// A runtime's own files, each with `path`'s stem and its own extension, and
// the runtime and its settings beside them (<path>.settings.json) for
// whoever loads them to run them the same way.
void save_native_files(ResultRow& row, const CompiledModel& compiled,
                       const std::vector<std::string>& files, const fs::path& path) {
  try {
    if (!path.parent_path().empty()) fs::create_directories(path.parent_path());
    for (const auto& file : files) {
      fs::copy_file(file, fs::path(path).replace_extension(fs::path(file).extension()),
                    fs::copy_options::overwrite_existing);
    }
    nlohmann::json settings = {{"runtime", compiled.runtime()},
                               {"settings", compiled.runtime_settings()}};
    std::ofstream(fs::path(path).replace_extension(".settings.json")) << settings.dump(2) << "\n";
  } catch (const std::exception& error) {
    warn(row, "not_saved",
         "--save-optimized: " + path.string() + " not written: " + first_line(error.what()));
  }
}

}  // namespace

bool names_one_saved_module(const std::string& path) { return fs::path(path).extension() == ".pt"; }

std::string saved_module_path(const std::string& path, const std::string& model,
                              const std::string& backend) {
  if (names_one_saved_module(path)) return path;
  return model_backend_file(path, model, backend, ".pt");
}

void save_optimized_module(ResultRow& row, const CompiledModel& compiled, const std::string& path) {
  const SaveableGraph saveable = compiled.saveable_graph();
  const std::string backend = row.chosen.empty() ? row.backend : row.chosen;
  if (!saveable.native_files.empty()) {
    return save_native_files(
        row, compiled, saveable.native_files,
        fs::path(path).replace_extension(fs::path(saveable.native_files.front()).extension()));
  }
  if (!saveable.graph) {
    warn(row, "not_saved",
         "--save-optimized: " + backend +
             " has no TorchScript form to save (it runs the model "
             "as it is); pick a tracing backend");
    return;
  }
  try {
    const auto parent = fs::path(path).parent_path();
    if (!parent.empty()) fs::create_directories(parent);
    module_of_graph(saveable.graph).save(path);
  } catch (const std::exception& error) {
    warn(row, "not_saved",
         "--save-optimized: " + path + " not written: " + first_line(error.what()));
    return;
  }
  if (!saveable.loader_step.empty()) {
    warn(row, "saved_frozen",
         path + " holds " + backend +
             "'s frozen graph from before its oneDNN step, whose weights TorchScript cannot "
             "load; after loading, " +
             saveable.loader_step + " makes ofi's graph of it");
  }
}

}  // namespace tracebench
