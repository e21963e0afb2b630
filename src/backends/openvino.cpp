// openvino, openvino_bf16, openvino_int8: Intel's OpenVINO runtime on its CPU plugin, from
// the C++ SDK its PyPI wheel carries (scripts/setup-peers.sh). The model
// reaches it as the ONNX file the onnxruntime backend reads too
// (traced_export.h), which OpenVINO converts as it loads it. Nothing is left
// to the plugin's defaults that skew a comparison (docs/peers.md):
// - precision: f32 for `openvino` (on a CPU with BF16 the plugin otherwise
//   runs bf16 unasked), bf16 for `openvino_bf16`; `openvino_int8` reads the
//   export quantized statically (static_int8.h), whose QDQ pairs OpenVINO
//   runs as int8 ops, the rest in f32;
// - the LATENCY hint, --streams streams (one by default), and the run's
//   intra-op threads;
// - CPU pinning only where the process is bound to CPUs (--cpus), as
//   LibTorch's OpenMP threads are not pinned otherwise.
// The row records OpenVINO's version, these settings as the compiled model
// reports them back, and the precision its compute ops actually ran in.

#include "backends/graph/traced_export.h"
#include "backends/int8_cpu.h"
#include "backends/registry.h"
#include "backends/runtime_refusal.h"
#include "openvino_config.h"
#include "util/text.h"

#ifdef TRACEBENCH_HAS_OPENVINO
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <openvino/openvino.hpp>

#include "backends/static_int8.h"
#include "util/cache.h"
#include "util/scratch_directory.h"
#include "util/tensor_tree.h"
#endif

namespace tracebench {

namespace {

#ifdef TRACEBENCH_HAS_OPENVINO

constexpr const char* kOpenVino = "OpenVINO";

std::string openvino_version() {
  const std::string build = ov::get_openvino_version().buildNumber;  // "2026.4.1-22982-..."
  return build.substr(0, build.find('-'));
}

// What rows and `tracebench list` name as the runtime.
std::string openvino_runtime() { return "OpenVINO " + openvino_version() + " (C++)"; }

ov::Core& core() {
  static ov::Core instance;  // loads the plugins once per process
  return instance;
}

ov::element::Type element_type(at::ScalarType type) {
  switch (type) {
    case at::kFloat:
      return ov::element::f32;
    case at::kDouble:
      return ov::element::f64;
    case at::kHalf:
      return ov::element::f16;
    case at::kBFloat16:
      return ov::element::bf16;
    case at::kLong:
      return ov::element::i64;
    case at::kInt:
      return ov::element::i32;
    case at::kShort:
      return ov::element::i16;
    case at::kChar:
      return ov::element::i8;
    case at::kByte:
      return ov::element::u8;
    case at::kBool:
      return ov::element::boolean;
    default:
      throw UnsupportedModel(std::string("OpenVINO has no element type for ") +
                             c10::toString(type));
  }
}

at::ScalarType scalar_type(const ov::element::Type& type) {
  for (const auto candidate : {at::kFloat, at::kDouble, at::kHalf, at::kBFloat16, at::kLong,
                               at::kInt, at::kShort, at::kChar, at::kByte, at::kBool}) {
    if (element_type(candidate) == type) return candidate;
  }
  throw std::runtime_error("OpenVINO returned a " + type.get_type_name() +
                           " tensor, which LibTorch has no type for");
}

// Whether this process may run on fewer CPUs than the machine has (--cpus).
bool bound_to_cpus() {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return false;
  return CPU_COUNT(&allowed) < sysconf(_SC_NPROCESSORS_ONLN);
}

// The index N of a port named "input_N" / "output_N" (export_onnx.py's names).
int64_t port_index(const ov::Output<const ov::Node>& port, const std::string& prefix) {
  for (const auto& name : port.get_names()) {
    if (name.rfind(prefix, 0) == 0) return std::stoll(name.substr(prefix.size()));
  }
  throw std::runtime_error("OpenVINO's model has a port named " + port.get_any_name() + ", not " +
                           prefix + "N");
}

// The ops that do a model's arithmetic, whose precision says what it ran in.
bool is_compute_op(const std::string& layer_type) {
  return layer_type == "Convolution" || layer_type == "GroupConvolution" ||
         layer_type == "Deconvolution" || layer_type == "FullyConnected" ||
         layer_type == "MatMul" || layer_type == "ScaledDotProductAttention";
}

// What the compiled model's compute ops ran in: precision -> count.
std::map<std::string, int> compute_op_precisions(const ov::CompiledModel& compiled) {
  std::map<std::string, int> counts;
  for (const auto& op : compiled.get_runtime_model()->get_ops()) {
    const auto& info = op->get_rt_info();
    const auto type = info.find("layerType");
    const auto precision = info.find("runtimePrecision");
    if (type == info.end() || precision == info.end()) continue;
    if (is_compute_op(type->second.as<std::string>())) {
      ++counts[precision->second.as<std::string>()];
    }
  }
  return counts;
}

// One compiled model shared by every --streams instance, each with its own
// infer request (benchmark_app's streams and requests).
struct SharedCompilation {
  const Model* model = nullptr;
  std::shared_ptr<ov::CompiledModel> compiled;
  ExportedModel exported;
  std::filesystem::path ir;  // the OpenVINO IR's .xml; its .bin beside it
};

// The ONNX file converted to OpenVINO's IR (.xml and .bin), kept in the cache
// beside the ONNX files under the same key and OpenVINO's version: loading the
// IR skips the conversion, and --save-optimized hands it out.
std::filesystem::path converted_ir(const std::filesystem::path& onnx) {
  const auto dir = cache_directory() / "openvino";
  std::filesystem::create_directories(dir);
  const auto xml = dir / (onnx.stem().string() + "-" + openvino_version() + ".xml");
  auto bin = xml;
  bin.replace_extension(".bin");
  if (cached_artifact_is_current(xml) && std::filesystem::exists(bin)) return xml;
  ScratchDirectory scratch("openvino");
  const auto partial = scratch / "model.xml";
  ov::save_model(core().read_model(onnx.string()), partial.string(), /*compress_to_fp16=*/false);
  write_dependency_manifest(xml, {onnx});
  replace_file(scratch / "model.bin", bin);
  replace_file(partial, xml);
  return xml;
}

// What OpenVINO threw, without the lines that only say where in its sources
// ("Exception from ...", "Check '...' failed at ..."): for a conversion
// failure, the op and why ("-- Dropout-17 with a message: Training mode is
// not supported for Dropout op").
std::string openvino_error(const std::exception& error) {
  static const char* kWhere[] = {"Exception from",
                                 "Check '",
                                 "While validating",
                                 "FrontEnd API",
                                 "Model wasn't fully converted",
                                 "Summary:"};
  std::vector<std::string> said;
  for (const auto& line : split(error.what(), '\n')) {
    const auto text = trim(line);
    const bool where = std::any_of(std::begin(kWhere), std::end(kWhere),
                                   [&](const char* prefix) { return text.rfind(prefix, 0) == 0; });
    if (!text.empty() && !where) said.push_back(text);
    if (said.size() == 2) break;
  }
  return said.empty() ? first_line(error.what()) : join(said, " ");
}

class OpenVinoModel final : public CompiledModel {
 public:
  OpenVinoModel(const SharedCompilation& shared, ov::element::Type requested, Numerics numerics)
      : compiled_(shared.compiled),
        request_(compiled_->create_infer_request()),
        output_structure_(shared.exported.output_structure),
        requested_(requested),
        numerics_(numerics) {
    for (const auto& port : compiled_->inputs()) {
      inputs_.push_back({port, port_index(port, "input_")});
    }
    for (const auto& port : compiled_->outputs()) {
      outputs_.push_back({port, port_index(port, "output_")});
    }
    std::sort(outputs_.begin(), outputs_.end(),
              [](const auto& a, const auto& b) { return a.second < b.second; });
    precisions_ = compute_op_precisions(*compiled_);
    auto bin = shared.ir;
    saveable_.native_files = {shared.ir.string(), bin.replace_extension(".bin").string()};
    counters_["onnx_cached"] = shared.exported.cached ? 1 : 0;
    for (const auto& [precision, count] : precisions_)
      counters_["compute_ops." + precision] = count;
  }

  // Nothing in here may call a parallel LibTorch op: that wakes LibTorch's
  // OpenMP team, whose threads then spin on the two cores OpenVINO's TBB
  // threads need for the next call. A clone of BERT's 393 KB output did, and
  // ran OpenVINO's BERT 1.04-1.10x slower than its own API (docs/peers.md).
  c10::IValue run(const std::vector<c10::IValue>& inputs) override {
    // OpenVINO reads the inputs where they are; they live through infer().
    // Its ports take the tensors flat, as the ONNX export numbered them;
    // compile has checked that they are dense tensors.
    std::vector<at::Tensor> tensors;
    for (const auto& input : inputs) {
      for_each_tensor(input, [&](const at::Tensor& tensor) { tensors.push_back(tensor); });
    }
    std::vector<at::Tensor> contiguous;
    for (const auto& [port, index] : inputs_) {
      const auto& tensor = contiguous.emplace_back(tensors.at(index).contiguous());
      request_.set_tensor(port, ov::Tensor(element_type(tensor.scalar_type()),
                                           ov::Shape(tensor.sizes().begin(), tensor.sizes().end()),
                                           tensor.data_ptr()));
    }
    try {
      request_.infer();
    } catch (const ov::Exception& error) {
      throw std::runtime_error("OpenVINO: " + openvino_error(error));
    }
    std::vector<at::Tensor> flat;
    for (const auto& [port, index] : outputs_) {
      // Copied, in this thread: the request reuses its output buffers.
      const auto result = request_.get_tensor(port);
      const auto& shape = result.get_shape();
      auto& copy =
          flat.emplace_back(at::empty(std::vector<int64_t>(shape.begin(), shape.end()),
                                      at::TensorOptions(scalar_type(result.get_element_type()))));
      std::memcpy(copy.data_ptr(), result.data(), result.get_byte_size());
    }
    return refill_outputs(output_structure_, flat, kOpenVino);
  }

  std::string runtime() const override { return openvino_runtime(); }
  // Its TBB threads and LibTorch's OpenMP threads share the cores (see CompiledModel).
  int64_t settling_calls() const override { return 1; }

  std::map<std::string, std::string> runtime_settings() const override {
    const auto precision = compiled_->get_property(ov::hint::inference_precision);
    std::map<std::string, std::string> settings = {
        {"DEVICE", "CPU"},
        {"INFERENCE_PRECISION_HINT", precision.get_type_name()},
        {"PERFORMANCE_HINT",
         compiled_->get_property(ov::hint::performance_mode) == ov::hint::PerformanceMode::LATENCY
             ? "LATENCY"
             : "THROUGHPUT"},
        {"NUM_STREAMS", std::to_string(compiled_->get_property(ov::num_streams).num)},
        {"INFERENCE_NUM_THREADS",
         std::to_string(compiled_->get_property(ov::inference_num_threads))},
        {"ENABLE_CPU_PINNING",
         compiled_->get_property(ov::hint::enable_cpu_pinning) ? "YES" : "NO"},
        {"EXECUTED_PRECISION", executed_precision()},
    };
    return settings;
  }

  std::map<std::string, double> counters() const override { return counters_; }
  SaveableGraph saveable_graph() const override { return saveable_; }

  std::optional<Numerics> numerics_that_ran() const override {
    const std::string ran = executed_precision();
    if (ran == ov::element::f32.get_type_name()) return Numerics::kExact;
    if (ran == ov::element::bf16.get_type_name()) return Numerics::kBFloat16;
    if (ran == ov::element::u8.get_type_name() || ran == ov::element::i8.get_type_name()) {
      return Numerics::kInt8;
    }
    return std::nullopt;
  }

  std::vector<BackendWarning> warnings() const override {
    if (numerics_ == Numerics::kInt8) {
      std::vector<BackendWarning> warnings;
      if (int8_needs_reduced_range()) warnings.push_back(int8_reduced_range_warning());
      if (numerics_that_ran() == Numerics::kExact) {
        warnings.push_back({"precision_not_native",
                            "OpenVINO ran most compute ops of the quantized model in f32, not "
                            "int8 (counters: compute_ops.*)"});
      }
      return warnings;
    }
    const std::string wanted = requested_.get_type_name();
    const std::string ran = executed_precision();
    if (ran.empty() || ran == wanted) return {};
    return {{"precision_not_native",
             "asked OpenVINO for " + wanted + " and its compute ops ran " + ran +
                 " (this CPU lacks the instructions; flags: avx512_bf16, amx_bf16)"}};
  }

 private:
  // The precision most compute ops ran in, "" for a model without any.
  std::string executed_precision() const {
    std::string most;
    int count = 0;
    for (const auto& [precision, ops] : precisions_) {
      if (ops > count) most = precision, count = ops;
    }
    return most;
  }

  std::shared_ptr<ov::CompiledModel> compiled_;
  ov::InferRequest request_;
  c10::IValue output_structure_;
  ov::element::Type requested_;
  Numerics numerics_;
  std::vector<std::pair<ov::Output<const ov::Node>, int64_t>> inputs_;
  std::vector<std::pair<ov::Output<const ov::Node>, int64_t>> outputs_;
  std::map<std::string, int> precisions_;
  std::map<std::string, double> counters_;
  SaveableGraph saveable_;
};

#endif

class OpenVinoBackend final : public Backend {
 public:
  explicit OpenVinoBackend(Numerics numerics) : numerics_(numerics) {}

  std::string description() const override {
    switch (numerics_) {
      case Numerics::kBFloat16:
        return "OpenVINO's CPU plugin in bf16 (C++, ONNX export of the trace)";
      case Numerics::kInt8:
        return "OpenVINO's CPU plugin on the ONNX export quantized to int8 with calibration "
               "(QDQ, u8 activations, s8 weights; C++)";
      case Numerics::kExact:
        break;
    }
    return "OpenVINO's CPU plugin in f32 (C++, ONNX export of the trace)";
  }
  bool traces_model() const override { return true; }
  bool supports_amp() const override { return false; }  // OpenVINO's kernels, not LibTorch's
  Numerics numerics() const override { return numerics_; }

  std::string runtime() const override {
#ifdef TRACEBENCH_HAS_OPENVINO
    return openvino_runtime();
#else
    return std::string("missing: ") + kMissing;
#endif
  }

  std::unique_ptr<CompiledModel> compile(Model& model, const CompileOptions& options) override {
    require_float32(name(), options.precision);
#ifdef TRACEBENCH_HAS_OPENVINO
    const auto precision = numerics_ == Numerics::kBFloat16 ? ov::element::bf16 : ov::element::f32;
    if (shared_.model != &model) shared_ = compile_shared(model, options, precision, numerics_);
    return std::make_unique<OpenVinoModel>(shared_, precision, numerics_);
#else
    (void)model;
    throw UnsupportedBuild(kMissing);
#endif
  }

 private:
#ifdef TRACEBENCH_HAS_OPENVINO
  static SharedCompilation compile_shared(Model& model, const CompileOptions& options,
                                          ov::element::Type precision, Numerics numerics) {
    SharedCompilation shared;
    shared.model = &model;
    shared.exported = numerics == Numerics::kInt8 ? export_int8_onnx(model, options).model
                                                  : export_onnx(model, options);
    try {
      shared.ir = converted_ir(shared.exported.file);
      const auto converted = core().read_model(shared.ir.string());
      shared.compiled = std::make_shared<ov::CompiledModel>(core().compile_model(
          converted, "CPU", ov::hint::inference_precision(precision),
          ov::hint::performance_mode(ov::hint::PerformanceMode::LATENCY),
          ov::num_streams(ov::streams::Num(static_cast<int32_t>(options.streams))),
          // The threads of all streams: each --streams instance gets the run's threads.
          ov::inference_num_threads(static_cast<int>(options.threads * options.streams)),
          ov::hint::enable_cpu_pinning(bound_to_cpus())));
    } catch (const ov::Exception& error) {
      // The model reached OpenVINO: it refused the model, or something went wrong.
      const std::string message =
          "OpenVINO cannot compile the ONNX export: " + openvino_error(error);
      if (runtime_refuses_model(error.what())) throw UnsupportedModel(message);
      throw std::runtime_error(message);
    }
    return shared;
  }
  SharedCompilation shared_;
#else
  static constexpr const char* kMissing =
      "this build has no OpenVINO: run `make peers-env` and rebuild (scripts/setup-peers.sh)";
#endif
  Numerics numerics_;
};

const BuiltinBackend kOpenvino("openvino",
                               [] { return std::make_unique<OpenVinoBackend>(Numerics::kExact); });
const BuiltinBackend kOpenvinoBf16("openvino_bf16", [] {
  return std::make_unique<OpenVinoBackend>(Numerics::kBFloat16);
});
const BuiltinBackend kOpenvinoInt8("openvino_int8", [] {
  return std::make_unique<OpenVinoBackend>(Numerics::kInt8);
});

}  // namespace

}  // namespace tracebench
