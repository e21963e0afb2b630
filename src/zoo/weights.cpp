#include "zoo/weights.h"

#include <fstream>
#include <map>
#include <sstream>
#include <vector>

#include "tracebench/error.h"
#include "zoo/state_dict_reader.h"

namespace tracebench {

namespace {

constexpr size_t kNamesShown = 5;

std::string shape_text(at::IntArrayRef sizes) {
  std::string text = "[";
  for (size_t i = 0; i < sizes.size(); ++i) text += (i ? "," : "") + std::to_string(sizes[i]);
  return text + "]";
}

// "a, b, c (+4 more)": long lists would not fit the one-line error.
std::string name_list(const std::vector<std::string>& names) {
  std::string text;
  for (size_t i = 0; i < names.size() && i < kNamesShown; ++i) {
    text += (i ? ", " : "") + names[i];
  }
  if (names.size() > kNamesShown) {
    text += " (+" + std::to_string(names.size() - kNamesShown) + " more)";
  }
  return text;
}

std::map<std::string, torch::Tensor> read_state_dict(const std::string& path) {
  if (!std::ifstream(path, std::ios::binary))
    throw UsageError("cannot open --weights file " + path);
  std::vector<std::pair<std::string, torch::Tensor>> items;
  try {
    items = read_torch_save_state_dict(path);
  } catch (const std::exception& error) {
    throw UsageError("cannot read --weights file " + path + ": " + error.what() +
                     "; save it with torch.save(model.state_dict(), path)");
  }
  return std::map<std::string, torch::Tensor>(items.begin(), items.end());
}

}  // namespace

void load_state_dict(torch::nn::Module& module, const std::string& path) {
  const auto saved = read_state_dict(path);

  std::map<std::string, torch::Tensor> targets;
  for (const auto& item : module.named_parameters(/*recurse=*/true)) {
    targets.emplace(item.key(), item.value());
  }
  for (const auto& item : module.named_buffers(/*recurse=*/true)) {
    targets.emplace(item.key(), item.value());
  }

  std::vector<std::string> missing, unexpected, misshaped;
  for (const auto& [name, target] : targets) {
    auto found = saved.find(name);
    if (found == saved.end()) {
      missing.push_back(name);
    } else if (found->second.sizes() != target.sizes()) {
      misshaped.push_back(name + " " + shape_text(found->second.sizes()) + " vs model " +
                          shape_text(target.sizes()));
    }
  }
  for (const auto& item : saved) {
    if (!targets.count(item.first)) unexpected.push_back(item.first);
  }
  if (!missing.empty() || !unexpected.empty() || !misshaped.empty()) {
    std::string message = "--weights file " + path + " does not fit " + module.name() + ":";
    if (!missing.empty()) message += " missing keys: " + name_list(missing) + ";";
    if (!unexpected.empty()) message += " unexpected keys: " + name_list(unexpected) + ";";
    if (!misshaped.empty()) message += " mis-shaped keys: " + name_list(misshaped) + ";";
    message.back() = ' ';
    throw UsageError(message + "(was it saved from the same architecture?)");
  }

  torch::NoGradGuard no_grad;
  for (auto& [name, target] : targets) target.copy_(saved.at(name));
}

}  // namespace tracebench
