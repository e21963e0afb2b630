#include "artefacts/save_outputs.h"

#include <torch/csrc/jit/serialization/pickle.h>

#include <fstream>
#include <stdexcept>

#include "util/files.h"
#include "util/tensor_tree.h"

namespace tracebench {

std::string saved_outputs_path(const std::string& dir, const std::string& model,
                               const std::string& backend) {
  return model_backend_file(dir, model, backend, ".pt");
}

c10::IValue outputs_to_save(const c10::IValue& output,
                            const std::vector<std::string>& output_names) {
  if (output.isTensor()) return output;
  std::vector<at::Tensor> tensors;
  for_each_tensor(output, [&tensors](const at::Tensor& tensor) { tensors.push_back(tensor); });
  if (output_names.empty() || output_names.size() != tensors.size()) return output;
  c10::Dict<std::string, at::Tensor> named;
  for (size_t i = 0; i < tensors.size(); ++i) named.insert(output_names[i], tensors[i]);
  // Two outputs of one name would lose one: keep the model's own structure.
  if (named.size() != tensors.size()) return output;
  return named;
}

void save_outputs(const c10::IValue& output, const std::vector<std::string>& output_names,
                  const std::string& path) {
  const std::vector<char> bytes = torch::jit::pickle_save(outputs_to_save(output, output_names));
  std::ofstream file(path, std::ios::binary);
  file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!file.flush()) throw std::runtime_error("cannot write " + path);
}

}  // namespace tracebench
