#include "app/plugin_loader.h"

#include <dlfcn.h>
#include <elf.h>

#include <algorithm>
#include <cstring>

#include "backends/registry.h"
#include "sources/cpp_loader.h"
#include "tracebench/backend.h"
#include "tracebench/error.h"
#include "util/files.h"

namespace tracebench {

namespace {

template <typename T>
bool read_at(const std::string& bytes, uint64_t offset, T& value) {
  if (offset > bytes.size() || bytes.size() - offset < sizeof(T)) return false;
  std::memcpy(&value, bytes.data() + offset, sizeof(T));
  return true;
}

}  // namespace

std::vector<std::string> exported_backend_names(const std::string& bytes) {
  std::vector<std::string> names;
  Elf64_Ehdr header;
  if (!read_at(bytes, 0, header) || std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 ||
      header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_shentsize != sizeof(Elf64_Shdr)) {
    return names;
  }
  const std::string prefix = kBackendFactoryPrefix;
  for (uint64_t s = 0; s < header.e_shnum; ++s) {
    Elf64_Shdr symbols;
    if (!read_at(bytes, header.e_shoff + s * sizeof(Elf64_Shdr), symbols)) return names;
    if (symbols.sh_type != SHT_DYNSYM || symbols.sh_entsize != sizeof(Elf64_Sym)) continue;
    Elf64_Shdr strings;
    if (symbols.sh_link >= header.e_shnum ||
        !read_at(bytes, header.e_shoff + symbols.sh_link * sizeof(Elf64_Shdr), strings)) {
      return names;
    }
    for (uint64_t offset = 0; offset + sizeof(Elf64_Sym) <= symbols.sh_size;
         offset += sizeof(Elf64_Sym)) {
      Elf64_Sym symbol;
      if (!read_at(bytes, symbols.sh_offset + offset, symbol)) break;
      if (symbol.st_shndx == SHN_UNDEF || ELF64_ST_TYPE(symbol.st_info) != STT_FUNC) continue;
      if (symbol.st_name >= strings.sh_size) continue;
      const uint64_t start = strings.sh_offset + symbol.st_name;
      if (start >= bytes.size()) continue;
      const size_t limit =
          std::min<uint64_t>(bytes.size() - start, strings.sh_size - symbol.st_name);
      const char* name = bytes.data() + start;
      const size_t length = strnlen(name, limit);
      if (length == limit) continue;  // not terminated inside the table
      const std::string text(name, length);
      if (text.size() > prefix.size() && text.compare(0, prefix.size(), prefix) == 0) {
        names.push_back(text.substr(prefix.size()));
      }
    }
  }
  return names;
}

std::vector<std::string> load_backend_plugin(const std::filesystem::path& file) {
  const std::string extension = file.extension().string();
  std::filesystem::path library;
  if (extension == ".cpp" || extension == ".cc" || extension == ".cxx") {
    library = compile_model_source(file);  // throws UsageError with the compiler's errors
  } else if (extension == ".so" || file.filename().string().find(".so.") != std::string::npos) {
    library = std::filesystem::absolute(file);  // dlopen searches paths without a slash
  } else {
    throw UsageError("--backend-plugin " + file.string() +
                     ": give a shared library (.so) or a C++ source (.cpp)");
  }
  const auto bytes = read_file(library);
  if (!bytes) {
    throw UsageError("--backend-plugin " + file.string() +
                     " does not exist or cannot be read; check the path");
  }
  const auto names = exported_backend_names(*bytes);
  if (names.empty()) {
    throw UsageError("--backend-plugin " + file.string() +
                     " exports no backend; add TRACEBENCH_REGISTER_BACKEND(name, Class) "
                     "(include/tracebench/backend.h)");
  }
  // RTLD_LOCAL: plugins may share class names. The library stays loaded for
  // the life of the process.
  void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    throw UsageError("--backend-plugin " + file.string() + " cannot be loaded: " + dlerror());
  }
  using Factory = Backend* (*)();
  for (const auto& name : names) {
    auto factory = reinterpret_cast<Factory>(
        dlsym(handle, (std::string(kBackendFactoryPrefix) + name).c_str()));
    if (!factory) throw UsageError("--backend-plugin " + file.string() + ": " + dlerror());
    register_backend(name, [factory] { return std::unique_ptr<Backend>(factory()); });
  }
  return names;
}

}  // namespace tracebench
