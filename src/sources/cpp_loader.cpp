#include "sources/cpp_loader.h"

#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <regex>
#include <sstream>

#include "tracebench/error.h"
#include "util/build_config.h"
#include "util/cache.h"
#include "util/files.h"
#include "util/subprocess.h"
#include "util/text.h"

namespace tracebench {

namespace {

std::vector<std::string> split_words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  std::string word;
  while (in >> word) words.push_back(word);
  return words;
}

std::filesystem::path dependency_file(const std::filesystem::path& output) {
  return output.string() + ".d";
}

std::vector<std::string> compile_command(const std::filesystem::path& source,
                                         const std::filesystem::path& output) {
  std::vector<std::string> argv = {build_config::kCxxCompiler,
                                   build_config::kCxxStandardFlag,
                                   "-fPIC",
                                   "-shared",
                                   "-fvisibility=hidden",
                                   "-w"};
  for (const auto& flag : split_words(build_config::kModelOptFlags)) argv.push_back(flag);
  for (const auto& flag : split_words(build_config::kModelCxxFlags)) argv.push_back(flag);
  argv.push_back(std::string("-I") + build_config::kPublicIncludeDir);
  for (const auto& dir : split_words(build_config::kTorchIncludeDirs)) {
    argv.push_back("-isystem");
    argv.push_back(dir);
  }
  // -MMD: the headers the compile read, outside the system's and LibTorch's,
  // so the cache key can cover a local header the model includes.
  argv.insert(argv.end(), {"-MMD", "-MF", dependency_file(output).string(), "-o", output.string(),
                           source.string()});
  return argv;
}

// The user's files a compile read, from the compiler's make-style dependency
// list ("out.so: a.cpp b.h \\\n c.h"; spaces in names escaped as "\\ ").
std::vector<std::filesystem::path> read_dependency_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::ostringstream text_stream;
  text_stream << in.rdbuf();
  const std::string text = text_stream.str();
  const auto colon = text.find(": ");
  std::vector<std::filesystem::path> files;
  if (colon == std::string::npos) return files;
  std::string word;
  auto flush = [&] {
    if (!word.empty()) files.push_back(std::filesystem::absolute(word));
    word.clear();
  };
  for (size_t i = colon + 2; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\\' && i + 1 < text.size() && text[i + 1] == ' ') {
      word += ' ';
      ++i;
    } else if (c == '\\' && i + 1 < text.size() && text[i + 1] == '\n') {
      ++i;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      flush();
    } else {
      word += c;
    }
  }
  flush();
  return files;
}

std::string command_fingerprint(const std::filesystem::path& source) {
  std::string fingerprint;
  for (const auto& word : compile_command(source, "out.so")) fingerprint += word + " ";
  // The public headers define the ABI the library is built against (model.h
  // for models; backend.h and its helpers for backend plugins).
  const auto public_dir = std::filesystem::path(build_config::kPublicIncludeDir) / "tracebench";
  std::vector<std::filesystem::path> headers;
  for (const auto& entry : std::filesystem::directory_iterator(public_dir)) {
    headers.push_back(entry.path());
  }
  std::sort(headers.begin(), headers.end());
  for (const auto& header : headers) fingerprint += read_model_file(header);
  return fingerprint;
}

std::string registered_classes(const std::string& source_text) {
  static const std::regex kRegistration(R"(TRACEBENCH_REGISTER_MODEL\(\s*(\w+)\s*\))");
  std::vector<std::string> names;
  for (std::sregex_iterator it(source_text.begin(), source_text.end(), kRegistration), end;
       it != end; ++it) {
    names.push_back((*it)[1].str());
  }
  return names.empty() ? "none" : join(names, ", ");
}

}  // namespace

std::filesystem::path compile_model_source(const std::filesystem::path& source) {
  const std::string text = read_model_file(source);
  const std::string key = content_hash(text + '\0' + command_fingerprint(source));
  const auto dir = cache_directory() / "cpp";
  std::filesystem::create_directories(dir);
  const auto library = dir / (source.stem().string() + "-" + key + ".so");
  if (cached_artifact_is_current(library)) return library;

  const auto partial = partial_path_beside(library);
  const CommandResult result = run_command(compile_command(source, partial));
  if (result.exit_code != 0) {
    std::filesystem::remove(partial);
    std::filesystem::remove(dependency_file(partial));
    throw UsageError(source.string() + " does not compile; fix these errors:\n" +
                     first_lines_containing(result.output, "error", 8));
  }
  write_dependency_manifest(library, read_dependency_file(dependency_file(partial)));
  std::filesystem::remove(dependency_file(partial));
  replace_file(partial, library);
  return library;
}

std::unique_ptr<Model> load_cpp_model(const std::filesystem::path& source,
                                      const std::string& class_name) {
  const auto library = compile_model_source(source);
  // RTLD_LOCAL: two model files may define classes of the same name.
  void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    throw UsageError("cannot load the library built from " + source.string() + ": " + dlerror() +
                     "; delete " + library.string() + " and retry");
  }
  using Factory = Model* (*)();
  auto factory = reinterpret_cast<Factory>(
      dlsym(handle, (std::string(kModelFactoryPrefix) + class_name).c_str()));
  if (!factory) {
    throw UsageError("class " + class_name + " is not registered in " + source.string() +
                     " (registered: " + registered_classes(read_model_file(source)) +
                     "); add TRACEBENCH_REGISTER_MODEL(" + class_name + ") after the class");
  }
  // The library stays loaded for the life of the process: the model's code lives there.
  return std::unique_ptr<Model>(factory());
}

}  // namespace tracebench
