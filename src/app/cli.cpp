#include "app/cli.h"

#include <c10/util/Exception.h>
#include <CLI/CLI.hpp>

#include "app/list_command.h"
#include "app/plugin_loader.h"
#include "app/report_commands.h"
#include "app/request.h"
#include "orchestration/isolation.h"
#include "orchestration/launcher.h"
#include "orchestration/suite.h"
#include "settings/setting_fields.h"
#include "tracebench/error.h"

namespace tracebench {

namespace {

constexpr const char* kDescription =
    "tracebench: benchmark deep-learning models across execution backends.\n"
    "  tracebench --performance --only=path:model_collection.py,class:LinearModel --backend=eager\n"
    "  tracebench --performance --backend=eager,ts,ofi -k resnet18\n"
    "  tracebench list";

}  // namespace

int run_cli(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  CLI::App app(kDescription, "tracebench");
  RunOptions parsed;
  declare_settings(app, parsed);
  auto* list = app.add_subcommand("list", "List the built-in models and the backends");
  bool list_json = false;
  list->add_flag("--json", list_json, "Print the list as JSON");
  const ReportCommands report_commands(app);
  app.require_subcommand(0, 1);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    out << app.help();
    return 0;
  } catch (const CLI::ParseError& error) {
    err << "tracebench: error: " << error.what() << "; see tracebench --help" << std::endl;
    return 2;
  }

  try {
    for (const auto& plugin : parsed.backend_plugins) load_backend_plugin(plugin);
    if (list->parsed()) {
      print_model_and_backend_list(out, list_json);
      return 0;
    }
    if (auto exit_code = report_commands.run(out, err)) return *exit_code;
    if (app.get_option("--performance")->count() == 0 && !parsed.accuracy) {
      throw UsageError("choose a mode: --performance or --accuracy (or run `tracebench list`)");
    }
    const RunOptions request = complete_request(app, parsed, err);
    if (!request.rows_to.empty()) return run_isolated_child(request);
    bind_to_cpus(request);
    const auto rows = run_suite(request, make_reporters(request, out, err), err);
    return exit_code_of(rows, request, err);
  } catch (const UsageError& error) {
    err << "tracebench: error: " << error.what() << std::endl;
    return 2;
  }
}

}  // namespace tracebench
