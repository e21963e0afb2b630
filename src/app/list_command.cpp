#include "app/list_command.h"

#include <iomanip>

#include "backends/registry.h"
#include "zoo/zoo.h"

namespace tracebench {

void print_model_and_backend_list(std::ostream& out) {
  out << "models (default batch size):\n";
  for (const auto& entry : zoo_models()) {
    out << "  " << std::left << std::setw(26) << entry.name << std::right << std::setw(4)
        << entry.default_batch_size << "  " << entry.description << "\n";
  }
  out << "  path:FILE,class:NAME        a model class in a .cpp, .pt or .py file\n";
  out << "backends:\n";
  for (const auto& name : backend_names()) {
    out << "  " << std::left << std::setw(26) << name << std::right << "      "
        << make_backend(name)->description() << "\n";
  }
}

}  // namespace tracebench
