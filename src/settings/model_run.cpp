#include "settings/model_run.h"

#include <filesystem>

#include "settings/sweep.h"
#include "util/files.h"
#include "util/text.h"

namespace tracebench {

ModelRun model_run(const RunOptions& request, const RunPoint& point) {
  ModelRun run{request, point, request.backends, request.auto_skip, request.profile_dir};
  // A sweep's points keep their traces apart: DIR/batch_8__2_threads/.
  const std::string label = sweep_point_label(point, request);
  if (!label.empty() && !run.profile_dir.empty()) {
    run.profile_dir = (std::filesystem::path(run.profile_dir) / file_name_part(label)).string();
  }
  return run;
}

ModelRun first_point_run(const RunOptions& request) {
  return model_run(request, sweep_points(request).front());
}

std::vector<std::string> model_run_arguments(const ModelRun& run) {
  std::vector<std::string> arguments = {"--backend=" + join(run.backends, ",")};
  if (run.point.batch_size) {
    arguments.push_back("--batch-size=" + std::to_string(*run.point.batch_size));
  }
  arguments.push_back("--threads=" + std::to_string(run.point.threads));
  if (!run.auto_skip.empty()) arguments.push_back("--auto-skip=" + join(run.auto_skip, ","));
  if (!run.profile_dir.empty()) arguments.push_back("--profile=" + run.profile_dir);
  return arguments;
}

}  // namespace tracebench
