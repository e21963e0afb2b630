#include "runner/save_optimized.h"

#include <filesystem>

#include "backends/graph_module.h"
#include "util/files.h"
#include "util/text.h"

namespace tracebench {

namespace {

namespace fs = std::filesystem;

void warn(ResultRow& row, const std::string& code, const std::string& message) {
  row.add_warning(code, row.backend + ": " + message);
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
