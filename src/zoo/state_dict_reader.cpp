#include "zoo/state_dict_reader.h"

#include <caffe2/serialize/inline_container.h>

#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <variant>

namespace tracebench {

namespace {

struct Object;
using ObjectPtr = std::shared_ptr<Object>;

struct Global {
  std::string module, name;
};
struct Mark {};
struct None {};
using Items = std::vector<ObjectPtr>;  // tuple or list
using Dict = std::vector<std::pair<ObjectPtr, ObjectPtr>>;

struct Object {
  std::variant<None, Mark, bool, int64_t, double, std::string, Items, Dict, Global, torch::Tensor>
      value;
  bool is_dict() const { return std::holds_alternative<Dict>(value); }
};

template <typename T>
ObjectPtr make(T value) {
  auto object = std::make_shared<Object>();
  object->value = std::move(value);
  return object;
}

[[noreturn]] void fail(const std::string& why) { throw std::runtime_error(why); }

template <typename T>
const T& as(const ObjectPtr& object, const char* what) {
  if (const T* value = std::get_if<T>(&object->value)) return *value;
  fail(std::string("unexpected pickle content: expected ") + what);
}

c10::ScalarType storage_dtype(const std::string& storage) {
  static const std::map<std::string, c10::ScalarType> kTypes = {
      {"FloatStorage", torch::kFloat32}, {"DoubleStorage", torch::kFloat64},
      {"HalfStorage", torch::kFloat16},  {"BFloat16Storage", torch::kBFloat16},
      {"LongStorage", torch::kInt64},    {"IntStorage", torch::kInt32},
      {"ShortStorage", torch::kInt16},   {"CharStorage", torch::kInt8},
      {"ByteStorage", torch::kUInt8},    {"BoolStorage", torch::kBool}};
  auto found = kTypes.find(storage);
  if (found == kTypes.end()) fail("unsupported storage type torch." + storage);
  return found->second;
}

std::vector<int64_t> int_list(const ObjectPtr& object) {
  std::vector<int64_t> values;
  for (const auto& item : as<Items>(object, "a tuple of ints")) {
    values.push_back(as<int64_t>(item, "an int"));
  }
  return values;
}

class Interpreter {
 public:
  Interpreter(caffe2::serialize::PyTorchStreamReader& archive, const char* data, size_t size)
      : archive_(archive), data_(data), size_(size) {}

  ObjectPtr run() {
    while (true) {
      const auto op = static_cast<uint8_t>(read(1)[0]);
      switch (op) {
        case 0x80:
          read(1);
          break;  // PROTO
        case 0x95:
          read(8);
          break;  // FRAME
        case '.':
          return pop();  // STOP
        case '(':
          push(make(Mark{}));
          break;  // MARK
        case 'N':
          push(make(None{}));
          break;  // NONE
        case 0x88:
          push(make(true));
          break;  // NEWTRUE
        case 0x89:
          push(make(false));
          break;  // NEWFALSE
        case 'K':
          push(make<int64_t>(uint8_t(read(1)[0])));
          break;  // BININT1
        case 'M':
          push(make<int64_t>(unsigned_le(read(2), 2)));
          break;  // BININT2
        case 'J':
          push(make<int64_t>(int32_t(unsigned_le(read(4), 4))));
          break;  // BININT
        case 0x8a:
          push(make(long1()));
          break;  // LONG1
        case 'G':
          push(make(big_endian_double()));
          break;  // BINFLOAT
        case 'X':
          push(make(string(unsigned_le(read(4), 4))));
          break;  // BINUNICODE
        case 0x8c:
          push(make(string(uint8_t(read(1)[0]))));
          break;  // SHORT_BINUNICODE
        case 'T':
        case 'B':
          push(make(string(unsigned_le(read(4), 4))));
          break;
        case 'U':
        case 'C':
          push(make(string(uint8_t(read(1)[0]))));
          break;
        case ')':
          push(make(Items{}));
          break;  // EMPTY_TUPLE
        case ']':
          push(make(Items{}));
          break;  // EMPTY_LIST
        case '}':
          push(make(Dict{}));
          break;  // EMPTY_DICT
        case 't':
          push(make(pop_to_mark()));
          break;  // TUPLE
        case 0x85:
        case 0x86:
        case 0x87: {  // TUPLE1..3
          Items items(op - 0x84);
          for (auto it = items.rbegin(); it != items.rend(); ++it) *it = pop();
          push(make(std::move(items)));
          break;
        }
        case 'a': {  // APPEND
          auto item = pop();
          std::get<Items>(top()->value).push_back(item);
          break;
        }
        case 'e': {  // APPENDS
          auto items = pop_to_mark();
          auto& list = std::get<Items>(top()->value);
          list.insert(list.end(), items.begin(), items.end());
          break;
        }
        case 's': {  // SETITEM
          auto value = pop();
          auto key = pop();
          dict_of(top()).emplace_back(key, value);
          break;
        }
        case 'u': {  // SETITEMS
          auto items = pop_to_mark();
          auto& dict = dict_of(top());
          for (size_t i = 0; i + 1 < items.size(); i += 2)
            dict.emplace_back(items[i], items[i + 1]);
          break;
        }
        case 'q':
          memo_[uint8_t(read(1)[0])] = top();
          break;  // BINPUT
        case 'r':
          memo_[unsigned_le(read(4), 4)] = top();
          break;  // LONG_BINPUT
        case 0x94:
          memo_[memo_.size()] = top();
          break;  // MEMOIZE
        case 'h':
          push(memo(uint8_t(read(1)[0])));
          break;  // BINGET
        case 'j':
          push(memo(unsigned_le(read(4), 4)));
          break;  // LONG_BINGET
        case '0':
          pop();
          break;  // POP
        case '1':
          pop_to_mark();
          break;  // POP_MARK
        case '2':
          push(top());
          break;     // DUP
        case 'c': {  // GLOBAL
          auto module = line();
          push(make(Global{module, line()}));
          break;
        }
        case 0x93: {  // STACK_GLOBAL
          auto name = as<std::string>(pop(), "a name");
          push(make(Global{as<std::string>(pop(), "a module"), name}));
          break;
        }
        case 'Q':
          push(persistent_load(pop()));
          break;     // BINPERSID
        case 'R': {  // REDUCE
          auto args = pop();
          push(reduce(as<Global>(pop(), "a callable"), as<Items>(args, "arguments")));
          break;
        }
        case 'b':
          pop();
          break;  // BUILD: only OrderedDict._metadata and the like; not needed
        default: {
          char hex[8];
          std::snprintf(hex, sizeof hex, "0x%02x", op);
          fail(std::string("unsupported pickle opcode ") + hex);
        }
      }
    }
  }

 private:
  const char* read(size_t n) {
    if (pos_ + n > size_) fail("truncated pickle");
    const char* at = data_ + pos_;
    pos_ += n;
    return at;
  }
  static uint64_t unsigned_le(const char* bytes, size_t n) {
    uint64_t value = 0;
    for (size_t i = 0; i < n; ++i) value |= uint64_t(uint8_t(bytes[i])) << (8 * i);
    return value;
  }
  int64_t long1() {
    const size_t n = uint8_t(read(1)[0]);
    if (n > 8) fail("integer too large in pickle");
    if (n == 0) return 0;
    uint64_t value = unsigned_le(read(n), n);
    if (n < 8 && (value >> (8 * n - 1)) & 1) value |= ~uint64_t(0) << (8 * n);  // sign-extend
    return static_cast<int64_t>(value);
  }
  double big_endian_double() {
    const char* bytes = read(8);
    uint64_t bits = 0;
    for (int i = 0; i < 8; ++i) bits = (bits << 8) | uint8_t(bytes[i]);
    double value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
  }
  std::string string(size_t n) { return std::string(read(n), n); }
  std::string line() {
    std::string text;
    for (char c = read(1)[0]; c != '\n'; c = read(1)[0]) text += c;
    return text;
  }

  void push(ObjectPtr object) { stack_.push_back(std::move(object)); }
  ObjectPtr pop() {
    if (stack_.empty()) fail("malformed pickle (empty stack)");
    auto object = std::move(stack_.back());
    stack_.pop_back();
    return object;
  }
  const ObjectPtr& top() {
    if (stack_.empty()) fail("malformed pickle (empty stack)");
    return stack_.back();
  }
  Items pop_to_mark() {
    Items items;
    while (true) {
      auto object = pop();
      if (std::holds_alternative<Mark>(object->value)) break;
      items.push_back(std::move(object));
    }
    return Items(items.rbegin(), items.rend());
  }
  ObjectPtr memo(uint64_t index) {
    auto found = memo_.find(index);
    if (found == memo_.end()) fail("malformed pickle (memo)");
    return found->second;
  }
  Dict& dict_of(const ObjectPtr& object) {
    if (!object->is_dict()) fail("unexpected pickle content: items set on a non-dict");
    return std::get<Dict>(object->value);
  }

  // ('storage', torch.<Type>Storage, key, location, numel): the bytes of
  // record data/<key> as a 1-D tensor, shared by every view of that storage.
  ObjectPtr persistent_load(const ObjectPtr& id) {
    const auto& fields = as<Items>(id, "a persistent id tuple");
    if (fields.size() < 5 || as<std::string>(fields[0], "'storage'") != "storage") {
      fail("unsupported persistent id in pickle");
    }
    const auto dtype = storage_dtype(as<Global>(fields[1], "a storage type").name);
    const auto& key = as<std::string>(fields[2], "a storage key");
    auto cached = storages_.find(key);
    if (cached != storages_.end()) return make(cached->second);
    const int64_t numel = as<int64_t>(fields[4], "a storage size");
    auto record = archive_.getRecord("data/" + key);
    const size_t bytes = std::get<1>(record);
    auto storage = torch::empty({numel}, torch::TensorOptions().dtype(dtype));
    if (bytes != static_cast<size_t>(numel) * storage.element_size()) {
      fail("storage data/" + key + " has " + std::to_string(bytes) + " bytes, expected " +
           std::to_string(numel * storage.element_size()));
    }
    std::memcpy(storage.data_ptr(), std::get<0>(record).get(), bytes);
    storages_.emplace(key, storage);
    return make(storage);
  }

  ObjectPtr reduce(const Global& callable, const Items& args) {
    const std::string name = callable.module + "." + callable.name;
    if (name == "collections.OrderedDict") return make(Dict{});
    if (name == "torch._utils._rebuild_tensor_v2" || name == "torch._utils._rebuild_tensor") {
      if (args.size() < 4) fail("malformed _rebuild_tensor_v2 call");
      const auto& storage = as<torch::Tensor>(args[0], "a storage");
      return make(storage.as_strided(int_list(args[2]), int_list(args[3]),
                                     as<int64_t>(args[1], "a storage offset")));
    }
    if (name == "torch._utils._rebuild_parameter" && !args.empty()) return args[0];
    if (name == "torch.jit._pickle.restore_type_tag" && !args.empty()) return args[0];
    fail("unsupported object " + name + " in pickle (a state dict holds only tensors)");
  }

  caffe2::serialize::PyTorchStreamReader& archive_;
  const char* data_;
  size_t size_;
  size_t pos_ = 0;
  std::vector<ObjectPtr> stack_;
  std::map<uint64_t, ObjectPtr> memo_;
  std::map<std::string, torch::Tensor> storages_;
};

// The top-level object of the file torch.save wrote at `path`.
ObjectPtr read_torch_save_root(const std::string& path) {
  std::unique_ptr<caffe2::serialize::PyTorchStreamReader> archive;
  try {
    archive = std::make_unique<caffe2::serialize::PyTorchStreamReader>(path);
  } catch (const c10::Error&) {
    fail("not a zip archive written by torch.save");
  }
  if (!archive->hasRecord("data.pkl")) fail("no data.pkl record: not written by torch.save");
  auto pickle = archive->getRecord("data.pkl");
  Interpreter interpreter(*archive, static_cast<const char*>(std::get<0>(pickle).get()),
                          std::get<1>(pickle));
  return interpreter.run();
}

// A tuple or list of tensors, or a dict of them (values in its order);
// nullopt for anything else.
std::optional<std::vector<torch::Tensor>> tensors_of(const ObjectPtr& object) {
  std::vector<torch::Tensor> tensors;
  if (const auto* items = std::get_if<Items>(&object->value)) {
    for (const auto& item : *items) {
      const auto* tensor = std::get_if<torch::Tensor>(&item->value);
      if (!tensor) return std::nullopt;
      tensors.push_back(*tensor);
    }
  } else if (const auto* dict = std::get_if<Dict>(&object->value)) {
    for (const auto& entry : *dict) {
      const auto* tensor = std::get_if<torch::Tensor>(&entry.second->value);
      if (!tensor) return std::nullopt;
      tensors.push_back(*tensor);
    }
  } else {
    return std::nullopt;
  }
  if (tensors.empty()) return std::nullopt;
  return tensors;
}

}  // namespace

std::vector<std::pair<std::string, torch::Tensor>> read_torch_save_state_dict(
    const std::string& path) {
  const auto root = read_torch_save_root(path);
  if (!root->is_dict()) fail("not a state dict (its top-level object is not a dict)");
  std::vector<std::pair<std::string, torch::Tensor>> tensors;
  for (const auto& [key, value] : std::get<Dict>(root->value)) {
    const auto* name = std::get_if<std::string>(&key->value);
    const auto* tensor = std::get_if<torch::Tensor>(&value->value);
    if (!name || !tensor) fail("it is a dict but not of names to tensors; save model.state_dict()");
    tensors.emplace_back(*name, *tensor);
  }
  return tensors;
}

std::vector<std::vector<torch::Tensor>> read_torch_save_input_sets(const std::string& path) {
  const auto root = read_torch_save_root(path);
  if (auto one = tensors_of(root)) return {*one};
  std::vector<std::vector<torch::Tensor>> sets;
  if (const auto* items = std::get_if<Items>(&root->value)) {
    for (const auto& item : *items) {
      auto set = tensors_of(item);
      if (!set) break;
      sets.push_back(std::move(*set));
    }
    if (!sets.empty() && sets.size() == items->size()) return sets;
  }
  fail("it holds neither a tuple, list or dict of tensors nor a list of such input sets");
}

}  // namespace tracebench
