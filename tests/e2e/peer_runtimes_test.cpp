// End-to-end: the peer runtimes (docs/peers.md). OpenVINO in C++ and ONNX
// Runtime in a Python worker run a built-in model and match eager; their rows
// say which runtime, version and language ran them and with which settings;
// the ONNX export is cached; --save-optimized hands out each runtime's own
// files; a worker that cannot start its runtime costs its row only. (The
// user-model corpus runs them on every model.)

#include <gtest/gtest.h>
#include <torch/version.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "measure/environment.h"
#include "test_paths.h"
#include "tracebench_cli.h"

namespace tracebench {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// small_convnet's rows for `backends`, with a model cache of its own.
std::map<std::string, json> rows_by_backend(const fs::path& cache, const std::string& backends,
                                            std::vector<std::string> extra,
                                            const std::string& report_name,
                                            const std::string& environment = "") {
  const auto report = testing::process_temp_path(report_name);
  std::vector<std::string> args = {"/usr/bin/env", "TRACEBENCH_CACHE_DIR=" + cache.string()};
  if (!environment.empty()) args.push_back(environment);
  args.insert(args.end(), {testing::tracebench_binary(), "-k", "^small_convnet$",
                           "--backend=" + backends, "--json", report.string()});
  args.insert(args.end(), extra.begin(), extra.end());
  const auto result = run_command(args);
  EXPECT_EQ(result.exit_code, 0) << result.output;
  std::ifstream in(report);
  const auto report_json = json::parse(in);
  std::map<std::string, json> rows;
  for (const auto& row : report_json["rows"]) rows[row["backend"].get<std::string>()] = row;
  return rows;
}

bool contains(const json& text, const std::string& part) {
  return text.get<std::string>().find(part) != std::string::npos;
}

const std::vector<std::string> kTimed = {"--performance", "-n", "3", "--threads", "1"};

TEST(PeerRuntimes, EachRunsTheModelAndSaysWhatRanIt) {
  auto rows = rows_by_backend(testing::fresh_temp_directory("peers-cache"),
                              "openvino,openvino_bf16,onnxruntime", kTimed, "peers.json");
  ASSERT_EQ(rows.size(), 3u);
  for (const auto& [backend, row] : rows) {
    // A pass means the outputs matched eager's before timing (verify_against_eager).
    ASSERT_EQ(row["status"], "pass") << row;
    EXPECT_GT(row["speedup"].get<double>(), 0) << row;
  }
  const auto& openvino = rows["openvino"];
  EXPECT_TRUE(contains(openvino["runtime"], "OpenVINO 20")) << openvino;
  EXPECT_TRUE(contains(openvino["runtime"], "(C++)")) << openvino;
  for (const char* setting :
       {"INFERENCE_PRECISION_HINT=f32", "EXECUTED_PRECISION=f32", "PERFORMANCE_HINT=LATENCY",
        "NUM_STREAMS=1", "INFERENCE_NUM_THREADS=1"}) {
    EXPECT_TRUE(contains(openvino["runtime_settings"], setting)) << setting << "\n" << openvino;
  }
  EXPECT_EQ(openvino["counters"]["compute_ops.f32"], 3) << "two convolutions and a linear";

  // bf16 where the CPU has it, and a warning that says so where it has not.
  // OpenVINO reports the hint it kept: on a CPU without AVX-512 (an AVX2-only
  // EPYC, 2026-12-06) it answered f32, and the row's warning says why.
  const auto& bf16 = rows["openvino_bf16"];
  const bool native = has_native_bf16(this_cpu_kernel_flags());
  if (native) {
    EXPECT_TRUE(contains(bf16["runtime_settings"], "INFERENCE_PRECISION_HINT=bf16")) << bf16;
  }
  EXPECT_EQ(contains(bf16["runtime_settings"], "EXECUTED_PRECISION=bf16"), native) << bf16;
  EXPECT_EQ(contains(bf16["warnings"].dump(), "precision_not_native"), !native) << bf16;
  // Its ran_precision is what OpenVINO ran, not what was asked, and only a
  // row below float32 is scored for its cost.
  EXPECT_EQ(bf16["ran_precision"], native ? "bf16" : "fp32") << bf16;
  EXPECT_EQ(bf16["sqnr_db"].is_number(), native) << bf16;

  const auto& ort = rows["onnxruntime"];
  EXPECT_TRUE(contains(ort["runtime"], "ONNX Runtime 1.")) << ort;
  EXPECT_TRUE(contains(ort["runtime"], "(Python 3.")) << ort;
  for (const char* setting :
       {"providers=CPUExecutionProvider", "graph_optimization_level=ORT_ENABLE_ALL",
        "intra_op_num_threads=1"}) {
    EXPECT_TRUE(contains(ort["runtime_settings"], setting)) << setting << "\n" << ort;
  }
  // Timed in the worker: every sample is a positive time of its own.
  for (const auto& sample : ort["samples_s"]) EXPECT_GT(sample.get<double>(), 0) << ort;
}

TEST(PeerRuntimes, TheOnnxExportIsMadeOnceForBothRuntimes) {
  const auto cache = testing::fresh_temp_directory("peers-export-cache");
  auto first = rows_by_backend(cache, "openvino", kTimed, "export-first.json");
  ASSERT_EQ(first["openvino"]["status"], "pass") << first["openvino"];
  EXPECT_EQ(first["openvino"]["counters"]["onnx_cached"], 0);
  auto second = rows_by_backend(cache, "onnxruntime", kTimed, "export-second.json");
  ASSERT_EQ(second["onnxruntime"]["status"], "pass") << second["onnxruntime"];
  EXPECT_EQ(second["onnxruntime"]["counters"]["onnx_cached"], 1);
}

TEST(PeerRuntimes, AccuracyPasses) {
  const auto report = testing::process_temp_path("peers-accuracy.csv");
  const auto result = testing::tracebench({"--accuracy", "-k", "^small_convnet$",
                                           "--backend=openvino,openvino_bf16,onnxruntime",
                                           "--output", report.string()});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  std::ifstream in(report);
  const std::string csv((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const char* backend : {"openvino", "openvino_bf16", "onnxruntime"}) {
    EXPECT_NE(csv.find(std::string(",small_convnet,8,pass,") + backend + ",\n"), std::string::npos)
        << backend << "\n"
        << csv;
  }
}

// The zoo's transformers split their heads with unflatten, which PyTorch 1.13's
// ONNX exporter has no symbolic for (python/export_onnx.py gives it one): both
// runtimes must still take them. The ViT stands for both (BERT_pytorch's
// export and fp64 reference take a minute on two cores), at batch 1: the
// export is what is checked, and at the zoo's batch the test took 100 s, not 20.
TEST(PeerRuntimes, TheZoosTransformersReachBothRuntimes) {
  const auto result = testing::tracebench({"--accuracy", "-k", "^timm_vision_transformer$",
                                           "--batch-size", "1", "--backend=openvino,onnxruntime"});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("accuracy: 2/2 pass"), std::string::npos) << result.output;
}

TEST(PeerRuntimes, SaveOptimizedWritesEachRuntimesOwnFiles) {
  const auto dir = testing::fresh_temp_directory("peers-saved");
  auto rows = rows_by_backend(
      testing::fresh_temp_directory("peers-save-cache"), "openvino,onnxruntime",
      {"--performance", "-n", "2", "--save-optimized", dir.string()}, "peers-saved.json");
  for (const auto& [backend, row] : rows) ASSERT_EQ(row["status"], "pass") << row;
  for (const char* file : {"small_convnet.openvino.xml", "small_convnet.openvino.bin",
                           "small_convnet.onnxruntime.onnx"}) {
    EXPECT_GT(fs::file_size(dir / file), 1000u) << file;
  }
  std::ifstream in(dir / "small_convnet.openvino.settings.json");
  const auto settings = json::parse(in);
  EXPECT_TRUE(contains(settings["runtime"], "OpenVINO")) << settings;
  EXPECT_EQ(settings["settings"]["INFERENCE_PRECISION_HINT"], "f32") << settings;
}

TEST(PeerRuntimes, AWorkerWithoutItsRuntimeSaysHowToGetIt) {
  // Debian's Python has no onnxruntime: the worker starts and cannot import it.
  auto rows =
      rows_by_backend(testing::fresh_temp_directory("peers-missing-cache"), "onnxruntime,openvino",
                      kTimed, "peers-missing.json", "TRACEBENCH_RUNTIME_PYTHON=/usr/bin/python3");
  const auto& ort = rows["onnxruntime"];
  EXPECT_EQ(ort["status"], "unsupported") << ort;
  EXPECT_TRUE(contains(ort["error"], "No module named 'onnxruntime'")) << ort;
  EXPECT_TRUE(contains(ort["error"], "make peers-env")) << ort;
  EXPECT_EQ(rows["openvino"]["status"], "pass") << rows["openvino"];
}

TEST(PeerRuntimes, AWorkerThatDiesCostsItsRowOnly) {
  // A "Python" that exits at once: the exchange breaks at the first request.
  auto rows =
      rows_by_backend(testing::fresh_temp_directory("peers-dead-cache"), "onnxruntime,openvino",
                      kTimed, "peers-dead.json", "TRACEBENCH_RUNTIME_PYTHON=/bin/false");
  EXPECT_EQ(rows["onnxruntime"]["status"], "fail_to_run") << rows["onnxruntime"];
  EXPECT_TRUE(contains(rows["onnxruntime"]["error"], "Python worker ended")) << rows["onnxruntime"];
  EXPECT_EQ(rows["openvino"]["status"], "pass") << rows["openvino"];
}

TEST(PeerRuntimes, StreamsAreOpenVinosStreams) {
  auto rows = rows_by_backend(testing::fresh_temp_directory("peers-streams-cache"), "openvino",
                              {"--performance", "-n", "3", "--threads", "1", "--streams", "2"},
                              "peers-streams.json");
  const auto& row = rows["openvino"];
  ASSERT_EQ(row["status"], "pass") << row;
  EXPECT_EQ(row["streams"], 2);
  // The run's threads for each stream, as every other backend's --streams instance has them.
  EXPECT_TRUE(contains(row["runtime_settings"], "NUM_STREAMS=2")) << row;
  EXPECT_TRUE(contains(row["runtime_settings"], "INFERENCE_NUM_THREADS=2")) << row;
}

TEST(PeerRuntimes, ListNamesTheRuntimesAndTheirVersions) {
  const auto result = testing::tracebench({"list"});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const auto runtimes = result.output.substr(result.output.find("runtimes:"));
  EXPECT_NE(runtimes.find("LibTorch "), std::string::npos) << runtimes;
  EXPECT_NE(runtimes.find("OpenVINO 20"), std::string::npos) << runtimes;
  EXPECT_NE(runtimes.find("ONNX Runtime 1."), std::string::npos) << runtimes;
  // What only PyTorch 2.x has is missing on LibTorch 1.x, naming the build that has it.
  const bool missing = runtimes.find("missing: ") != std::string::npos;
#if TORCH_VERSION_MAJOR >= 2
  EXPECT_FALSE(missing) << runtimes;
  EXPECT_NE(runtimes.find("torch.compile 2."), std::string::npos) << runtimes;
#else
  EXPECT_TRUE(missing) << runtimes;
  EXPECT_NE(runtimes.find("make build-torch2`  torch_compile, torch_compile_max_autotune"),
            std::string::npos)
      << runtimes;
  EXPECT_NE(runtimes.find("make build-torch2`  aot_inductor"), std::string::npos) << runtimes;
  // What the machine has comes first, what is missing after it.
  EXPECT_LT(runtimes.find("OpenVINO 20"), runtimes.find("missing: ")) << runtimes;
  EXPECT_LT(runtimes.find("LibTorch "), runtimes.find("missing: ")) << runtimes;
#endif
}

#if TORCH_VERSION_MAJOR >= 2

TEST(PeerRuntimes, TorchCompileRunsInTheWorkerInBothModes) {
  auto rows =
      rows_by_backend(testing::fresh_temp_directory("peers-compile-cache"),
                      "torch_compile,torch_compile_max_autotune", kTimed, "peers-compile.json");
  for (const auto& [backend, mode] :
       {std::pair<std::string, std::string>{"torch_compile", "mode=default"},
        {"torch_compile_max_autotune", "mode=max-autotune-no-cudagraphs"}}) {
    const auto& row = rows[backend];
    ASSERT_EQ(row["status"], "pass") << row;
    EXPECT_TRUE(contains(row["runtime"], "torch.compile 2.")) << row;
    EXPECT_TRUE(contains(row["runtime_settings"], mode)) << row;
    EXPECT_TRUE(contains(row["runtime_settings"], "freezing=true")) << row;
    EXPECT_TRUE(contains(row["runtime_settings"], "threads=1")) << row;
    // Which vector ISA inductor's kernels use ("none" where its CPU check failed).
    EXPECT_TRUE(contains(row["runtime_settings"], "vec_isa=")) << row;
    // inductor compiles in the worker's load, inside the compile step: dynamo's
    // graphs count from there.
    EXPECT_GT(row["compilation_latency_s"].get<double>(), 1.0) << row;
    EXPECT_GE(row["graphs"].get<double>(), 1.0) << row;
  }
}

#else

TEST(PeerRuntimes, TorchCompileSaysWhichBuildItNeeds) {
  auto rows = rows_by_backend(testing::fresh_temp_directory("peers-compile-cache"), "torch_compile",
                              kTimed, "peers-compile.json");
  EXPECT_EQ(rows["torch_compile"]["status"], "unsupported") << rows["torch_compile"];
  EXPECT_TRUE(contains(rows["torch_compile"]["error"], "make build-torch2"))
      << rows["torch_compile"];
}

#endif

// Static int8: both runtimes run one ONNX export, quantized once with
// calibration. Each row says int8 ran and what it cost; OpenVINO's compute
// ops ran in 8-bit integers; a CPU without VNNI gets 7-bit activations and a
// row that says so; the second run finds the quantized file in the cache.
TEST(PeerRuntimes, StaticInt8RunsOneCalibratedModelOnBothRuntimes) {
  const auto cache = testing::process_temp_path("static_int8_cache");
  std::vector<std::string> timed = kTimed;
  timed.insert(timed.end(), {"--eval-inputs", "4"});
  const auto reduced_range = !has_native_int8_dot(this_cpu_kernel_flags());
  auto rows = rows_by_backend(cache, "onnxruntime_int8,openvino_int8", timed, "int8_first.json");
  for (const char* backend : {"onnxruntime_int8", "openvino_int8"}) {
    const auto& row = rows[backend];
    ASSERT_EQ(row["status"], "pass") << row;
    EXPECT_EQ(row["ran_precision"], "int8") << row;
    ASSERT_TRUE(row["sqnr_db"].is_number()) << row;
    // 8-bit activations through three layers: tens of dB, never exact.
    EXPECT_GT(row["sqnr_db"].get<double>(), 15.0) << row;
    EXPECT_LT(row["sqnr_db"].get<double>(), 80.0) << row;
    EXPECT_EQ(contains(row["warnings"].dump(), "int8_reduced_range"), reduced_range) << row;
  }
  const auto& counters = rows["openvino_int8"]["counters"];
  EXPECT_FALSE(counters.contains("compute_ops.f32")) << counters;
  EXPECT_EQ(counters.value("compute_ops.u8", 0) + counters.value("compute_ops.i8", 0), 3)
      << "two convolutions and a linear, all in int8: " << counters;
  // ONNX Runtime's row quantized the export; OpenVINO's read the same file.
  EXPECT_EQ(rows["onnxruntime_int8"]["counters"]["int8_cached"], 0);
  EXPECT_EQ(counters["onnx_cached"], 1);
  rows = rows_by_backend(cache, "onnxruntime_int8", timed, "int8_again.json");
  EXPECT_EQ(rows["onnxruntime_int8"]["counters"]["int8_cached"], 1) << rows["onnxruntime_int8"];
}

// A model with nothing an int8 quantizer rewrites is unsupported by both, and
// the row names its ops.
TEST(PeerRuntimes, StaticInt8NamesTheOpsOfAModelItCannotQuantize) {
  const auto report = testing::process_temp_path("int8_nothing.json");
  const auto result =
      run_command({testing::tracebench_binary(), "--performance", "-n", "3",
                   "--only=path:" + testing::source_path("tests/data/odd_models.py").string() +
                       ",class:NothingToQuantize",
                   "--backend=onnxruntime_int8,openvino_int8", "--json", report.string()});
  std::ifstream in(report);
  const auto report_json = json::parse(in);
  ASSERT_EQ(report_json["rows"].size(), 2u) << result.output;
  for (const auto& row : report_json["rows"]) {
    EXPECT_EQ(row["status"], "unsupported") << row;
    EXPECT_TRUE(
        contains(row["error"],
                 "quantizes no convolution or matrix product of this model (its ops: CumSum, Sin)"))
        << row;
  }
}

}  // namespace
}  // namespace tracebench
