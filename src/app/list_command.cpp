#include "app/list_command.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <iomanip>
#include <sstream>

#include "backends/registry.h"
#include "measure/flops.h"
#include "util/text.h"
#include "zoo/zoo.h"

namespace tracebench {

namespace {

struct ModelSummary {
  const ZooEntry* entry = nullptr;
  int64_t parameters = 0;
  std::vector<std::vector<int64_t>> input_shapes;  // at the default batch size
  std::vector<std::string> input_dtypes;
  int64_t flops_per_sample = 0;  // at batch 1
  int64_t flops = 0;             // at the default batch size
};

// Builds the model at batch 1 (building is the slow part: BERT and VGG-16
// take seconds), counts FLOPs on a traced graph there and scales them and the
// input shapes to the default batch size: every zoo model's inputs lead with
// the batch dimension and its conv/linear/matmul work grows linearly with it.
ModelSummary summarize(const ZooEntry& entry) {
  ModelSummary summary;
  summary.entry = &entry;
  auto model = entry.make(1);
  model->set_training(false);
  for (auto& tensor : model->tensors()) tensor.requires_grad_(false);
  for (const auto& parameter : model->parameters()) summary.parameters += parameter.numel();
  const auto inputs = model->example_inputs();
  for (const auto& input : inputs) {
    auto shape = input.toTensor().sizes().vec();
    if (!shape.empty()) shape[0] = entry.default_batch_size;
    summary.input_shapes.push_back(shape);
    summary.input_dtypes.push_back(c10::toString(input.toTensor().scalar_type()));
  }
  summary.flops_per_sample = count_flops(*model, inputs).flops;
  summary.flops = summary.flops_per_sample * entry.default_batch_size;
  return summary;
}

std::string shapes_text(const ModelSummary& summary) {
  std::string text;
  for (size_t i = 0; i < summary.input_shapes.size(); ++i) {
    if (i) text += ",";
    const auto& shape = summary.input_shapes[i];
    for (size_t d = 0; d < shape.size(); ++d) text += (d ? "x" : "") + std::to_string(shape[d]);
    if (summary.input_dtypes[i] != "Float") text += "(" + summary.input_dtypes[i] + ")";
  }
  return text;
}

std::string fixed(double value, int digits) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(digits) << value;
  return text.str();
}

// Each backend's runtime on this machine (Backend::runtime), in registration order.
std::vector<std::pair<std::string, std::string>> backend_runtimes() {
  std::vector<std::pair<std::string, std::string>> runtimes;
  for (const auto& name : backend_names())
    runtimes.emplace_back(name, make_backend(name)->runtime());
  return runtimes;
}

// "runtime: backend, backend" lines: which runtimes this machine has, and which are missing.
void print_runtimes(std::ostream& out) {
  std::vector<std::pair<std::string, std::vector<std::string>>> runtimes;
  for (const auto& [backend, runtime] : backend_runtimes()) {
    auto same = std::find_if(runtimes.begin(), runtimes.end(),
                             [&](const auto& entry) { return entry.first == runtime; });
    if (same == runtimes.end()) same = runtimes.insert(runtimes.end(), {runtime, {}});
    same->second.push_back(backend);
  }
  // What this machine has first, then what is missing and how to get it.
  std::stable_partition(runtimes.begin(), runtimes.end(),
                        [](const auto& entry) { return entry.first.rfind("missing: ", 0) != 0; });
  out << "runtimes:\n";
  for (const auto& [runtime, backends] : runtimes) {
    out << "  " << std::left << std::setw(36) << runtime << "  " << join(backends, ", ") << "\n";
  }
}

void print_json(std::ostream& out, const std::vector<ModelSummary>& models) {
  nlohmann::json doc;
  doc["flops_method"] =
      "2 x multiply-accumulates of convolution, linear and matmul ops in a traced graph";
  doc["models"] = nlohmann::json::array();
  for (const auto& m : models) {
    nlohmann::json inputs = nlohmann::json::array();
    for (size_t i = 0; i < m.input_shapes.size(); ++i) {
      inputs.push_back({{"shape", m.input_shapes[i]}, {"dtype", m.input_dtypes[i]}});
    }
    doc["models"].push_back({{"name", m.entry->name},
                             {"description", m.entry->description},
                             {"parameters", m.parameters},
                             {"default_batch_size", m.entry->default_batch_size},
                             {"inputs", inputs},
                             {"flops_per_forward", m.flops},
                             {"flops_per_sample", m.flops_per_sample}});
  }
  doc["backends"] = nlohmann::json::array();
  for (const auto& [name, runtime] : backend_runtimes()) {
    doc["backends"].push_back(
        {{"name", name}, {"description", make_backend(name)->description()}, {"runtime", runtime}});
  }
  out << doc.dump(2) << "\n";
}

}  // namespace

void print_model_and_backend_list(std::ostream& out, bool json) {
  std::vector<ModelSummary> models;
  for (const auto& entry : zoo_models()) models.push_back(summarize(entry));
  if (json) return print_json(out, models);

  out << "models (inputs and GFLOPs per forward at the default batch size; FLOPs = 2 x MACs of\n"
         "conv/linear/matmul ops in a traced graph):\n";
  out << "  " << std::left << std::setw(24) << "name" << std::right << std::setw(11) << "params"
      << std::setw(7) << "batch"
      << "  " << std::left << std::setw(28) << "inputs" << std::right << std::setw(9) << "GFLOPs"
      << "  description\n";
  for (const auto& m : models) {
    out << "  " << std::left << std::setw(24) << m.entry->name << std::right << std::setw(11)
        << m.parameters << std::setw(7) << m.entry->default_batch_size << "  " << std::left
        << std::setw(28) << shapes_text(m) << std::right << std::setw(9) << fixed(m.flops / 1e9, 3)
        << "  " << m.entry->description << "\n";
  }
  out << "  path:FILE,class:NAME      a model class in a .cpp, .pt or .py file\n";
  out << "backends:\n";
  for (const auto& name : backend_names()) {
    out << "  " << std::left << std::setw(24) << name << std::right << "  "
        << make_backend(name)->description() << "\n";
  }
  print_runtimes(out);
}

}  // namespace tracebench
