// posbias: parse the command line, run one library call, print errors as one line.
// Exit codes: 0 success, 2 bad usage (bad option or value), 1 a run that failed.
#include <cstdio>
#include <stdexcept>
#include <string>

#include "commands.h"
#include "posbias/core/blas_kernel.h"

int main(int argc, char** argv) {
  posbias::configure_process_environment(
      argv);  // may re-execute once (OpenBLAS kernel, OpenMP waits)
  CLI::App app{
      "posbias: predict, measure and train against position bias in transformers.\n"
      "Run `posbias <command> --help` for a command's options."};
  app.require_subcommand(1);
  app.set_version_flag("--version", POSBIAS_VERSION);
  posbias::cli::Action action;
  posbias::cli::register_theory(app, &action);
  posbias::cli::register_birth(app, &action);
  posbias::cli::register_tasks(app, &action);
  posbias::cli::register_train(app, &action);
  posbias::cli::register_eval(app, &action);
  posbias::cli::register_heads(app, &action);
  posbias::cli::register_discrepancy(app, &action);
  posbias::cli::register_llm(app, &action);
  posbias::cli::register_serve(app, &action);
  posbias::cli::register_reproduce(app, &action);
  posbias::cli::register_doctor(app, &action);
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
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    std::fprintf(stderr, "posbias: error: %s (see --help)\n", e.what());
    return 2;
  }
  try {
    if (action) action();
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "posbias: error: %s\n", e.what());
    return 2;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "posbias: error: out of memory; use a smaller --length or --layers\n");
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "posbias: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
