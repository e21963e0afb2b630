#pragma once
// Running the built tracebench binary as a user would, for end-to-end tests.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "test_paths.h"
#include "util/subprocess.h"

namespace tracebench::testing {

/// `tracebench ARGS...`: its exit code and what it printed (stdout and stderr).
inline CommandResult tracebench(std::vector<std::string> args) {
  args.insert(args.begin(), testing::tracebench_binary());
  return run_command(args);
}

/// `tracebench ARGS... --json FILE` (FILE named `name`, private to this test
/// process), expected to exit 0; the report it wrote.
inline nlohmann::json tracebench_json(std::vector<std::string> args, const std::string& name) {
  const auto json = process_temp_path(name);
  args.insert(args.end(), {"--json", json.string()});
  const auto result = tracebench(args);
  EXPECT_EQ(result.exit_code, 0) << result.output;
  std::ifstream in(json);
  return nlohmann::json::parse(in);
}

/// The whole text of a file a run wrote ("" when it is missing).
inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// `tracebench ARGS...` is a usage error: exit 2, saying `message`.
inline void expect_usage_error(const std::vector<std::string>& args, const std::string& message) {
  const auto result = tracebench(args);
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find(message), std::string::npos) << result.output;
}

}  // namespace tracebench::testing
