#include "artefacts/profile_pass.h"

#include <filesystem>

#include "execution/status_rows.h"
#include "measure/op_profile.h"
#include "util/error_text.h"
#include "util/files.h"

namespace tracebench {

std::string profile_trace_path(const std::string& dir, const std::string& model,
                               const std::string& backend) {
  return model_backend_file(dir, model, backend, ".json");
}

void profile_row(ResultRow& row, CompiledModel& compiled, const std::vector<c10::IValue>& inputs,
                 const std::string& dir) {
  const std::string path = profile_trace_path(dir, row.model, row.backend);
  try {
    std::filesystem::create_directories(dir);
    row.top_ops = profile_ops([&] { compiled.run(inputs); }, path);
    row.profile_trace = path;
  } catch (const std::exception& error) {
    row.add_warning("not_profiled",
                    row.backend + ": --profile: no profile written: " + describe_error(error));
  }
}

}  // namespace tracebench
