#include "sources/model_spec.h"

#include <cctype>
#include <map>

#include "tracebench/error.h"
#include "util/build_config.h"

namespace tracebench {

namespace {

constexpr const char* kSpecForm = "--only=path:FILE,class:NAME";

// The comma that starts the next `key:` field at or after `from`, or npos.
// Other commas belong to the value, so a path may contain commas (only
// `,word:` inside a path would be misread as a field).
size_t next_field_comma(const std::string& text, size_t from) {
  for (size_t comma = text.find(',', from); comma != std::string::npos;
       comma = text.find(',', comma + 1)) {
    size_t end = comma + 1;
    while (end < text.size() &&
           (std::isalpha(static_cast<unsigned char>(text[end])) || text[end] == '_')) {
      ++end;
    }
    if (end > comma + 1 && end < text.size() && text[end] == ':') return comma;
  }
  return std::string::npos;
}

std::map<std::string, std::string> split_key_values(const std::string& text) {
  std::map<std::string, std::string> fields;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = next_field_comma(text, start);
    if (comma == std::string::npos) comma = text.size();
    const std::string field = text.substr(start, comma - start);
    const size_t colon = field.find(':');
    if (colon == std::string::npos) {
      throw UsageError("'" + field + "' in '" + text + "' is not key:value; write " + kSpecForm);
    }
    const std::string key = field.substr(0, colon);
    if (key != "path" && key != "class") {
      throw UsageError("unknown key '" + key + "' in '" + text +
                       "'; the keys are path and class (" + kSpecForm + ")");
    }
    if (fields.count(key)) {
      throw UsageError("'" + key + "' is given twice in '" + text + "'; write " + kSpecForm);
    }
    fields[key] = field.substr(colon + 1);
    start = comma + 1;
  }
  return fields;
}

}  // namespace

ModelFileKind model_file_kind(const std::filesystem::path& path) {
  const std::string extension = path.extension().string();
  if (extension == ".cpp" || extension == ".cc" || extension == ".cxx") {
    return ModelFileKind::kCppSource;
  }
  if (extension == ".pt" || extension == ".pth") return ModelFileKind::kTorchScript;
  if (extension == ".py") return ModelFileKind::kPython;
  throw UsageError("cannot load '" + path.string() + "': model files must end in .cpp, .pt or .py");
}

bool is_hub_model_spec(const std::string& text) {
  for (const char* prefix : {"hf:", "timm:"}) {
    if (text.rfind(prefix, 0) == 0) return true;
  }
  return false;
}

ModelSpec parse_model_spec(const std::string& text,
                           const std::filesystem::path& working_directory) {
  ModelSpec spec;
  if (is_hub_model_spec(text)) {
    if (text.back() == ':')
      throw UsageError("no model after '" + text + "'; write e.g. hf:bert or timm:resnet18");
    spec.from_path = true;
    spec.name = text;
    spec.path = build_config::kHubModels;
    spec.file_kind = ModelFileKind::kPython;
    return spec;
  }
  if (text.find(':') == std::string::npos) {
    if (text.empty()) throw UsageError("--only is empty; name a model (see `tracebench list`)");
    spec.name = text;
    return spec;
  }
  auto fields = split_key_values(text);
  if (!fields.count("path") || fields["path"].empty()) {
    throw UsageError("no file in '" + text + "'; write " + kSpecForm);
  }
  if (!fields.count("class") || fields["class"].empty()) {
    throw UsageError("no class in '" + text + "'; add ,class:NAME (" + kSpecForm + ")");
  }
  spec.from_path = true;
  spec.name = fields["class"];
  std::filesystem::path path(fields["path"]);
  if (path.is_relative()) path = working_directory / path;
  spec.path = path.lexically_normal();
  spec.file_kind = model_file_kind(spec.path);
  return spec;
}

std::string model_spec_text(const ModelSpec& spec) {
  if (!spec.from_path || spec.path == build_config::kHubModels) return spec.name;
  return "path:" + spec.path.string() + ",class:" + spec.name;
}

}  // namespace tracebench
