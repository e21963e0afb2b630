#include "sources/python_loader.h"

#include <cctype>
#include <fstream>

#include <nlohmann/json.hpp>

#include "sources/script_loader.h"
#include "tracebench/error.h"
#include "util/build_config.h"
#include "util/cache.h"
#include "util/files.h"
#include "util/python_interpreter.h"
#include "util/subprocess.h"
#include "util/text.h"

namespace tracebench {

namespace {

std::string shapes_argument(const std::vector<std::vector<int64_t>>& shapes) {
  std::string text;
  for (const auto& shape : shapes) {
    if (!text.empty()) text += ",";
    for (size_t i = 0; i < shape.size(); ++i) text += (i ? "x" : "") + std::to_string(shape[i]);
  }
  return text;
}

// The exporter prints its own one-line diagnosis last ("error: ..."); for
// anything else (a crash of the interpreter) the last line is the best clue.
std::string exporter_diagnosis(const std::string& output) {
  const std::string line = last_nonempty_line(output);
  if (line.empty()) return "no output";
  const std::string prefix = "error: ";
  return line.rfind(prefix, 0) == 0 ? line.substr(prefix.size()) : line;
}

// The exporter's manifest (python/export_model.py --manifest): the module
// files it imported from outside the installation, the interpreter and torch.
std::vector<std::filesystem::path> files_read_by_export(const std::filesystem::path& manifest) {
  std::ifstream in(manifest);
  const auto json = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  std::vector<std::filesystem::path> files;
  if (!json.is_object()) return files;
  for (const char* key : {"files", "environment_files"}) {
    for (const auto& path : json.value(key, nlohmann::json::array())) {
      files.emplace_back(path.get<std::string>());
    }
  }
  return files;
}

// The TorchScript name the exporter gives the wrapper of `class_name`: each
// character other than a letter, digit or _ made _, since hub specs
// (hf:bert?hidden_dropout_prob=0.1) name classes with any characters.
std::string torchscript_class_name(std::string class_name) {
  for (char& c : class_name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return class_name;
}

}  // namespace

std::unique_ptr<Model> load_python_model(const std::filesystem::path& file,
                                         const std::string& class_name,
                                         const std::vector<std::vector<int64_t>>& input_shapes,
                                         uint64_t seed) {
  const std::string shapes = shapes_argument(input_shapes);
  // The key names the export; the manifest beside the archive covers what
  // else it read (sibling modules, the exporter, the interpreter and torch).
  const std::string key = content_hash(std::filesystem::absolute(file).string() + '\0' +
                                       read_model_file(file) + '\0' + class_name + '\0' + shapes +
                                       '\0' + python_interpreter() + '\0' + std::to_string(seed));
  const auto dir = cache_directory() / "py";
  std::filesystem::create_directories(dir);
  const auto archive =
      dir / (file.stem().string() + "-" + torchscript_class_name(class_name) + "-" + key + ".pt");
  if (!cached_artifact_is_current(archive)) {
    const auto partial = partial_path_beside(archive);
    const auto manifest = partial.string() + ".json";
    std::vector<std::string> argv = {python_interpreter(),
                                     build_config::kPythonExporter,
                                     "--file",
                                     file.string(),
                                     "--class",
                                     class_name,
                                     "--output",
                                     partial.string(),
                                     "--manifest",
                                     manifest,
                                     "--seed",
                                     std::to_string(seed)};
    if (!shapes.empty()) argv.insert(argv.end(), {"--input-shapes", shapes});
    CommandResult result;
    try {
      result = run_command(argv);
    } catch (const std::runtime_error& error) {
      throw UsageError(std::string(error.what()) +
                       "; install python3-torch or set TRACEBENCH_PYTHON to a python with torch");
    }
    if (result.exit_code != 0) {
      std::filesystem::remove(partial);
      std::filesystem::remove(manifest);
      throw UsageError("exporting " + class_name + " from " + file.string() +
                       " failed: " + exporter_diagnosis(result.output));
    }
    write_dependency_manifest(archive, files_read_by_export(manifest));
    std::filesystem::remove(manifest);
    replace_file(partial, archive);
  }
  return load_torchscript_model(archive, torchscript_class_name(class_name));
}

}  // namespace tracebench
