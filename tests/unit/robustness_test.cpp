// docs/robustness.md: row hand-off between processes, the CSV reader behind
// --resume, OOM labelling, backend plugin discovery, and models that misbehave
// (run in this process; the ones that crash or hang are in the e2e tests).

#include <gtest/gtest.h>

#include <algorithm>

#include "orchestration/child_process.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include "app/plugin_loader.h"
#include "backends/registry.h"
#include "orchestration/isolation.h"
#include "orchestration/resume.h"
#include "orchestration/suite.h"
#include "report/csv.h"
#include "report/csv_reader.h"
#include "report/report_file.h"
#include "report/row_json.h"
#include "sample_rows.h"
#include "screening/model_checks.h"
#include "sources/load_model.h"
#include "test_paths.h"
#include "tracebench/error.h"
#include "usage_error_helpers.h"
#include "util/cache.h"

namespace tracebench {
namespace {

using testing::fresh_temp_directory;
using testing::source_path;
using testing::usage_error_of;

// What --resume says about the file, when a test does not look at it.
std::ostringstream quiet;

TEST(RowJson, RoundTripsEveryField) {
  ResultRow row;
  row.model = "m,\"odd\"\nname";
  row.backend = "ts";
  row.batch_size = 8;
  row.status = status::kFailToRun;
  row.error = "bad \xff byte";
  row.speedup = 1.25;
  row.abs_latency_ms = 2.5;
  row.eager_latency_ms = 3.125;
  row.compilation_latency_s = 0.5;
  row.samples_s = {0.001, 0.002};
  row.eager_samples_s = {0.003};
  row.counters = {{"hits", 3}};
  row.ci_low = 1.1;
  row.backend_peak_mem_mb = 12.5;
  row.warning_codes = {"high_cv"};
  row.warnings = {"noisy"};
  const std::string line = row_to_json_line(row);
  EXPECT_EQ(line.find('\n'), std::string::npos);
  const ResultRow back = row_from_json_line(line);
  EXPECT_EQ(back.model, row.model);
  EXPECT_EQ(back.backend, "ts");
  EXPECT_EQ(back.batch_size, 8);
  EXPECT_EQ(back.status, status::kFailToRun);
  EXPECT_EQ(back.speedup, 1.25);
  EXPECT_EQ(back.abs_latency_ms, 2.5);
  EXPECT_EQ(back.eager_latency_ms, 3.125);
  EXPECT_EQ(back.compilation_latency_s, 0.5);
  EXPECT_TRUE(std::isnan(back.p_value));  // NaN travels as null
  EXPECT_EQ(back.samples_s, row.samples_s);
  EXPECT_EQ(back.eager_samples_s, row.eager_samples_s);
  EXPECT_EQ(back.counters.at("hits"), 3);
  EXPECT_EQ(back.ci_low, 1.1);
  EXPECT_TRUE(std::isnan(back.ci_high));
  EXPECT_EQ(back.backend_peak_mem_mb, 12.5);
  EXPECT_EQ(back.warnings, row.warnings);
  EXPECT_EQ(back.warning_codes, row.warning_codes);
  EXPECT_THROW(row_from_json_line("{\"model\": \"cut of"), std::runtime_error);
  EXPECT_THROW(row_from_json_line("[1,2]"), std::runtime_error);
  EXPECT_THROW(row_from_json_line("{\"batch_size\": \"eight\"}"), std::runtime_error);
}

TEST(CsvReader, FieldsQuotesAndLineEnds) {
  using Records = std::vector<std::vector<std::string>>;
  EXPECT_EQ(parse_csv(""), Records{});
  EXPECT_EQ(parse_csv("a,b\n1,2\n"), (Records{{"a", "b"}, {"1", "2"}}));
  EXPECT_EQ(parse_csv("a,b\r\n1,\r\n"), (Records{{"a", "b"}, {"1", ""}}));
  EXPECT_EQ(parse_csv("x,\"a,b\"\"c\nd\",y"), (Records{{"x", "a,b\"c\nd", "y"}}));
  EXPECT_EQ(parse_csv("a,"), (Records{{"a", ""}}));
  EXPECT_THROW(parse_csv("a,\"open"), CsvParseError);
  EXPECT_THROW(parse_csv("a,b\"c"), CsvParseError);
  EXPECT_THROW(parse_csv("\"a\"b"), CsvParseError);
  EXPECT_THROW(parse_csv("a\rb"), CsvParseError);
}

TEST(CsvReader, ReadsBackWhatTheWriterWrote) {
  const auto dir = fresh_temp_directory("csv-roundtrip");
  const auto path = (dir / "rows.csv").string();
  ResultRow pass;
  pass.model = "LinearModel";
  pass.backend = "ts";
  pass.batch_size = 2;
  pass.threads = 2;
  pass.speedup = 1.5;
  pass.p_value = 0.01;
  ResultRow failed;
  failed.model = "Odd, \"quoted\" model";
  failed.backend = "ofi";
  failed.status = status::kFailToRun;  // a result: kept
  failed.error = "boom, \"quoted\"";
  {
    LineReportFile writer(path, kCsvReportFlag, csv_header(), /*append=*/false);
    writer.append_line(csv_line(pass));
    writer.append_line(csv_line(failed));
  }
  const auto state = prepare_resume(path, false, quiet);
  ASSERT_EQ(state.rows.size(), 2u);
  EXPECT_EQ(state.rows[0].model, "LinearModel");
  EXPECT_DOUBLE_EQ(state.rows[0].speedup, 1.5);
  EXPECT_DOUBLE_EQ(state.rows[0].p_value, 0.01);
  EXPECT_EQ(state.rows[1].model, failed.model);
  EXPECT_EQ(state.rows[1].status, "fail_to_run");
  EXPECT_EQ(state.rows[1].error, failed.error);
  EXPECT_EQ(state.missing_backends("LinearModel", std::nullopt, 2, "glibc", {"eager", "ts", "ofi"}),
            (std::vector<std::string>{"eager", "ofi"}));
  EXPECT_EQ(state.rows[0].threads, 2);
  // Another point of a sweep (batch size or threads) is not done.
  EXPECT_EQ(state.missing_backends("LinearModel", 2, 2, "glibc", {"ts"}),
            std::vector<std::string>{});
  EXPECT_EQ(state.missing_backends("LinearModel", 8, 2, "glibc", {"ts"}),
            std::vector<std::string>{"ts"});
  EXPECT_EQ(state.missing_backends("LinearModel", 2, 1, "glibc", {"ts"}),
            std::vector<std::string>{"ts"});

  // Appending keeps the header single and the old rows.
  {
    LineReportFile writer(path, kCsvReportFlag, csv_header(), /*append=*/true);
    ResultRow more = pass;
    more.backend = "eager";
    writer.append_line(csv_line(more));
  }
  EXPECT_EQ(prepare_resume(path, false, quiet).rows.size(), 3u);
}

TEST(Resume, CrashTimeoutOomAndLoadFailuresRunAgain) {
  const auto path = (fresh_temp_directory("resume-retry") / "run.csv").string();
  {
    LineReportFile writer(path, kCsvReportFlag, csv_header(), /*append=*/false);
    for (const char* status : {status::kPass, status::kCrash, status::kTimeout, status::kOom,
                               status::kModelFailToLoad, status::kFailToRun}) {
      ResultRow row = testing::sample_row();  // every column filled
      row.model = std::string("m_") + status;
      row.status = status;
      writer.append_line(csv_line(row));
    }
  }
  std::ostringstream said;
  const auto state = prepare_resume(path, false, said);
  EXPECT_CONTAINS(said.str(), "2 rows already in");
  EXPECT_CONTAINS(said.str(), "4 crash / timeout / OOM / load-failure rows will run again");
  ASSERT_EQ(state.rows.size(), 2u);
  EXPECT_EQ(state.rows[0].status, "pass");
  EXPECT_EQ(state.rows[1].status, "fail_to_run");
  const int64_t threads = testing::sample_row().threads;
  const std::string allocator = testing::sample_row().allocator;
  EXPECT_EQ(state.missing_backends("m_crash", std::nullopt, threads, allocator, {"ts"}),
            std::vector<std::string>{"ts"});
  EXPECT_TRUE(state.missing_backends("m_pass", std::nullopt, threads, allocator, {"ts"}).empty());
  // Another allocator (--malloc) is another point.
  EXPECT_EQ(state.missing_backends("m_pass", std::nullopt, threads, "glibc", {"ts"}),
            std::vector<std::string>{"ts"});
  // The retried rows are gone from the file, so their new rows are not duplicates.
  EXPECT_EQ(prepare_resume(path, false, quiet).rows.size(), 2u);
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text.find("m_crash"), std::string::npos) << text;
  EXPECT_EQ(text.rfind(csv_header(), 0), 0u) << text;
  // The kept rows are rewritten as they were written, every column intact.
  ResultRow kept = testing::sample_row();
  kept.model = "m_pass";
  EXPECT_CONTAINS(text, "\n" + csv_line(kept) + "\n");
}

TEST(Resume, CutOffLastLineIsDroppedAndBadFilesNameTheFix) {
  const auto dir = fresh_temp_directory("resume");
  const auto path = (dir / "rows.csv").string();
  EXPECT_TRUE(prepare_resume(path, false, quiet).rows.empty());  // no file yet: nothing done
  ResultRow a;
  a.model = "A";
  a.backend = "eager";
  { std::ofstream(path) << csv_header() << "\n" << csv_line(a) << "\ncpu,B,1,"; }
  const auto state = prepare_resume(path, false, quiet);
  ASSERT_EQ(state.rows.size(), 1u);
  EXPECT_EQ(state.rows[0].model, "A");
  EXPECT_EQ(read_model_file(path).back(), '\n');

  { std::ofstream(path) << "some,other,header\n1,2,3\n"; }
  EXPECT_CONTAINS(usage_error_of([&] { prepare_resume(path, false, quiet); }), "header");
  { std::ofstream(path) << csv_header() << "\ncpu,\"A,1\n"; }
  EXPECT_CONTAINS(usage_error_of([&] { prepare_resume(path, false, quiet); }),
                  "not a readable CSV");
  { std::ofstream(path) << csv_header() << "\ncpu,A\n"; }
  EXPECT_CONTAINS(usage_error_of([&] { prepare_resume(path, false, quiet); }), "fields");
  EXPECT_CONTAINS(usage_error_of([] { prepare_resume("", false, quiet); }),
                  "--resume needs --output");
}

TEST(Isolation, SignalNamesAndOutOfMemoryLabels) {
  EXPECT_EQ(signal_name(SIGSEGV), "SIGSEGV");
  EXPECT_EQ(signal_name(SIGABRT), "SIGABRT");
  EXPECT_EQ(signal_name(77), "signal 77");
  std::vector<ResultRow> rows(3);
  rows[0].status = status::kFailToRun;
  rows[0].error = "std::bad_alloc";
  rows[1].status = status::kModelFailToLoad;
  rows[1].error = "[enforce fail at alloc_cpu.cpp:75] DefaultCPUAllocator: can't allocate memory";
  rows[2].status = status::kFailToRun;
  rows[2].error = "shape mismatch";
  mark_out_of_memory(rows);
  EXPECT_EQ(rows[0].status, "OOM");
  EXPECT_EQ(rows[1].status, "OOM");
  EXPECT_EQ(rows[2].status, status::kFailToRun);

  ModelSpec spec = parse_model_spec("path:/a/b.cpp,class:C", "/");
  EXPECT_EQ(model_spec_text(spec), "path:/a/b.cpp,class:C");
  EXPECT_EQ(model_spec_text(parse_model_spec("resnet18", "/")), "resnet18");
}

TEST(OutputCheck, FindsNaNAndInfAnywhere) {
  EXPECT_FALSE(has_non_finite(torch::ones({2})));
  EXPECT_FALSE(has_non_finite(torch::ones({2}, torch::kLong)));
  EXPECT_TRUE(has_non_finite(torch::tensor({1.0f, NAN})));
  c10::Dict<std::string, torch::Tensor> dict;
  dict.insert("x", torch::tensor({INFINITY}));
  auto nested = c10::ivalue::Tuple::create({torch::ones({1}), c10::IValue(dict)});
  EXPECT_TRUE(has_non_finite(nested));
  EXPECT_EQ(non_finite_warning(torch::ones({1})), "");
}

TEST(BackendPlugins, SymbolScanIsSafeOnAnyBytes) {
  EXPECT_TRUE(exported_backend_names("").empty());
  EXPECT_TRUE(exported_backend_names("\x7f"
                                     "ELF garbage that is too short")
                  .empty());
  std::string header(64, '\0');
  header[0] = 0x7f, header[1] = 'E', header[2] = 'L', header[3] = 'F', header[4] = 2;
  header[58] = 64;                                   // e_shentsize
  header[60] = char(0xff), header[61] = char(0xff);  // e_shnum = 65535, no sections there
  EXPECT_TRUE(exported_backend_names(header).empty());
  EXPECT_CONTAINS(usage_error_of([] { load_backend_plugin("/no/such/plugin.cpp"); }),
                  "does not exist");
  EXPECT_CONTAINS(usage_error_of([] { load_backend_plugin("plugin.txt"); }), ".so");
  // A missing library names the flag, not --only.
  const auto missing = usage_error_of([] { load_backend_plugin("/no/such/plugin.so"); });
  EXPECT_CONTAINS(missing, "--backend-plugin /no/such/plugin.so does not exist");
  EXPECT_EQ(missing.find("--only"), std::string::npos) << missing;
  // A real library with no backend in it.
  EXPECT_CONTAINS(
      usage_error_of([] { load_backend_plugin(source_path("examples/model_collection.cpp")); }),
      "exports no backend");
}

TEST(BackendPlugins, ExamplePluginRegistersAndRuns) {
  const auto names =
      load_backend_plugin(source_path("examples/plugins/inference_mode_backend.cpp"));
  ASSERT_EQ(names, std::vector<std::string>{"inference_mode"});
  auto backend = make_backend("inference_mode");
  EXPECT_EQ(backend->name(), "inference_mode");
  RunOptions options;
  options.backends = {"inference_mode"};
  options.repeat = 2;
  options.warmup = 1;
  const auto rows =
      run_model_in_process(parse_model_spec("small_convnet", "/"), first_point_run(options));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].status, status::kPass) << rows[0].error;
  // The first call, the warm-up call, the memory probe and the two samples.
  EXPECT_GE(rows[0].counters.at("inference_mode_calls"), 4);
}

// Misbehaving models run in this process: a row each, the run goes on.
std::vector<ResultRow> run_bad(const std::string& class_name,
                               std::vector<std::string> backends = {"eager"}) {
  RunOptions options;
  options.backends = std::move(backends);
  options.repeat = 2;
  options.warmup = 1;
  return run_model_in_process(
      parse_model_spec(
          "path:" + source_path("tests/data/bad_models.cpp").string() + ",class:" + class_name,
          "/"),
      first_point_run(options));
}

TEST(BadModels, ThrowingForwardIsAnEagerFailRow) {
  const auto rows = run_bad("ThrowsInForward", {"eager", "ts"});
  ASSERT_EQ(rows.size(), 2u);
  for (const auto& row : rows) {
    EXPECT_EQ(row.status, status::kEagerFailToRun);
    EXPECT_CONTAINS(row.error, "on purpose");
  }
}

TEST(BadModels, NaNOutputPassesWithAWarning) {
  const auto rows = run_bad("ReturnsNaN", {"eager", "ts"});
  ASSERT_EQ(rows.size(), 2u);
  for (const auto& row : rows) {
    EXPECT_EQ(row.status, status::kPass);
    EXPECT_EQ(row.error, "warning: eager output holds NaN or Inf");
  }
}

TEST(BadModels, NestedOutputsRunOnEveryBackend) {
  const auto rows = run_bad("NestedOutput", {"eager", "ts", "ofi"});
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].status, status::kPass) << rows[0].error;
  for (const auto& row : rows) {
    // Tuples, lists and dicts nested in the output trace and freeze like tensors.
    EXPECT_EQ(row.status, status::kPass) << row.backend << ": " << row.error;
  }
}

// Numbers, strings and None beside the tensors: every backend times and checks
// the tensors, and every row names what was left out.
TEST(BadModels, NonTensorOutputsPassWithAWarningOnEveryBackend) {
  RunOptions options;
  options.backends = {"eager", "ts", "ofi"};
  options.repeat = 2;
  options.warmup = 1;
  const auto spec =
      parse_model_spec("path:" + source_path("tests/data/user_models/greedy_decoder.py").string() +
                           ",class:GreedyDecoder",
                       "/");
  for (const bool accuracy : {false, true}) {
    options.accuracy = accuracy;
    const auto rows = run_model_in_process(spec, first_point_run(options));
    ASSERT_EQ(rows.size(), 3u);
    for (const auto& row : rows) {
      EXPECT_EQ(row.status, status::kPass) << row.backend << ": " << row.error;
      const auto code =
          std::find(row.warning_codes.begin(), row.warning_codes.end(), "non_tensor_outputs");
      ASSERT_NE(code, row.warning_codes.end()) << row.backend;
      EXPECT_CONTAINS(row.warnings[code - row.warning_codes.begin()], "steps, strategy, attention");
    }
  }
}

TEST(BadModels, NonTensorExampleInputsNameTheFix) {
  EXPECT_CONTAINS(usage_error_of([] { run_bad("NonTensorInputs"); }), "return tensors only");
  EXPECT_CONTAINS(usage_error_of([] { run_bad("NoSuchClass"); }), "registered: GoodModel");
}

TEST(BadModels, UnreadableAndTruncatedArchives) {
  const auto dir = fresh_temp_directory("bad-archives");
  std::filesystem::create_directories(dir / "directory.pt");
  auto load = [](const std::filesystem::path& file) {
    load_model(parse_model_spec("path:" + file.string() + ",class:A", "/"), LoadOptions{});
  };
  EXPECT_NE(usage_error_of([&] { load(dir / "directory.pt"); }), "(no UsageError)");
  // The first bytes of a real zip archive, then nothing.
  std::ofstream(dir / "truncated.pt") << std::string("PK\x03\x04\x14\x00\x00\x00", 8);
  EXPECT_NE(usage_error_of([&] { load(dir / "truncated.pt"); }), "(no UsageError)");
}

}  // namespace
}  // namespace tracebench

namespace tracebench {
namespace {

// Why a child died, from what it last wrote: a glog CHECK's message (without
// glog's time and thread), else an uncaught exception's what(), else the last
// line that is not a stack frame.
TEST(DeathMessage, PrefersTheCheckThenWhatThenTheLastPlainLine) {
  EXPECT_EQ(death_message("WARNING: Logging before InitGoogleLogging()\n"
                          "F20261201 08:23:30.593174  9385 tensor.cpp:498] Check failed: "
                          "lazy_tensor Input tensor is not a lazy tensor\n"
                          "*** Check failure stack trace: ***\n"
                          "    @     0x7f00 google::LogMessage::Fail()\n"),
            "tensor.cpp:498] Check failed: lazy_tensor Input tensor is not a lazy tensor");
  EXPECT_EQ(death_message("terminate called after throwing an instance of 'c10::Error'\n"
                          "  what():  boom\nframe #0: f()\n"),
            "  what():  boom");
  EXPECT_EQ(death_message("progress\nsomething broke\n    @ 0x1 frame\n"), "something broke");
  EXPECT_EQ(death_message(""), "");
}

}  // namespace
}  // namespace tracebench
