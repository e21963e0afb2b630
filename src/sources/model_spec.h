#pragma once
// Parsing of what `--only` names: a built-in model,
// `path:FILE,class:NAME` for a model defined in a user's file, or
// `hf:TYPE` / `timm:NAME` for a transformers or timm model, which is the class
// of that name in python/hub_models.py (one loader for every Python model).

#include <filesystem>
#include <string>

namespace tracebench {

enum class ModelFileKind { kCppSource, kTorchScript, kPython };

struct ModelSpec {
  bool from_path = false;
  /// Built-in model name, or the class to load from `path`.
  std::string name;
  /// Absolute path of the model file (only when from_path).
  std::filesystem::path path;
  ModelFileKind file_kind = ModelFileKind::kCppSource;
};

/// Parses `text`; relative paths are resolved against `working_directory`.
/// Throws UsageError naming the fix for a malformed spec. Does not touch the
/// file system: a missing file is the loader's to report.
ModelSpec parse_model_spec(const std::string& text, const std::filesystem::path& working_directory);

/// Which loader handles `path`, by its extension. Throws UsageError otherwise.
ModelFileKind model_file_kind(const std::filesystem::path& path);

/// Whether `text` names a transformers or timm model (hf:..., timm:...).
bool is_hub_model_spec(const std::string& text);

/// The --only text that parse_model_spec turns back into `spec`.
std::string model_spec_text(const ModelSpec& spec);

}  // namespace tracebench
