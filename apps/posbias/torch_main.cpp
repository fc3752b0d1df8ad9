// The torch plugin (posbias-torch.so): the commands that need libtorch, registered and run
// exactly as `posbias` runs its own (run_cli), after configure_torch().
#include "commands.h"
#include "posbias/model/torch_setup.h"
#include "torch_plugin.h"

namespace {

int run(int argc, char** argv) {
  namespace cli = posbias::cli;
  CLI::App app{"posbias: predict, measure and train against position bias in transformers."};
  app.require_subcommand(1);
  cli::Action action;
  cli::register_birth(app, &action);
  cli::register_train(app, &action);
  cli::register_eval(app, &action);
  cli::register_heads(app, &action);
  cli::register_discrepancy(app, &action);
  cli::register_serve(app, &action);
  cli::register_reproduce(app, &action);
  posbias::configure_torch();
  return cli::run_cli(app, action, argc, argv);
}

void doctor(posbias::DoctorReport* report) { posbias::measure_torch_doctor(*report); }

}  // namespace

extern "C" const posbias::cli::TorchPlugin* posbias_torch_plugin() {
  static const posbias::cli::TorchPlugin plugin{&run, &doctor};
  return &plugin;
}
