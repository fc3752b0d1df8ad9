// posbias: parse the command line, run one library call, print errors as one line.
// Exit codes: 0 success, 2 bad usage (bad option or value), 1 a run that failed.
// Commands that need libtorch run in the torch plugin (torch_plugin.h), loaded only for them.
#include <cstdio>
#include <stdexcept>
#include <string>

#include "commands.h"
#include "torch_plugin.h"

int main(int argc, char** argv) {
  namespace cli = posbias::cli;
  if (argc > 1 && cli::is_torch_command(argv[1])) {
    try {
      return cli::load_torch_plugin().run(argc, argv);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "posbias: error: %s\n", e.what());
      return 1;
    }
  }
  CLI::App app{
      "posbias: predict, measure and train against position bias in transformers.\n"
      "Run `posbias <command> --help` for a command's options."};
  app.require_subcommand(1);
  app.set_version_flag("--version", POSBIAS_VERSION);
  cli::Action action;
  cli::register_theory(app, &action);
  cli::register_tasks(app, &action);
  cli::register_llm(app, &action);
  cli::register_doctor(app, &action);
  cli::register_seeds(app, &action);
  cli::register_launch(app, &action);
  cli::register_sweep(app, &action);
  for (const cli::CommandInfo& command : cli::kTorchCommands) {
    app.add_subcommand(command.name, command.description);  // listed here, run by the plugin
  }
  auto known = [&app](const std::string& name) {
    for (const CLI::App* sub : app.get_subcommands({})) {
      if (sub->get_name() == name) return true;
    }
    return false;
  };
  if (argc > 1 && argv[1][0] != '-' && !known(argv[1])) {
    std::fprintf(stderr, "posbias: error: unknown command '%s' (see --help for the list)\n",
                 argv[1]);
    return 2;
  }
  return cli::run_cli(app, action, argc, argv);
}
