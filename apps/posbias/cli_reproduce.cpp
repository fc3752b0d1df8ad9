// `posbias reproduce`: every experiment on the embedded defaults, into one report folder.
#include <memory>

#include "commands.h"
#include "posbias/core/doctor.h"
#include "posbias/core/reproduce.h"

namespace posbias::cli {

void register_reproduce(CLI::App& app, Action* selected) {
  auto options = std::make_shared<ReproduceOptions>();
  CLI::App* cmd = app.add_subcommand(
      "reproduce",
      "Run every experiment at laptop scale on the embedded defaults and write a report folder "
      "with figures (SVG, PNG), data (CSV, JSON), run.json and index.html.");
  cmd->add_option("-o,--out", options->out, "report folder")->capture_default_str();
  cmd->add_flag("--full", options->full,
                "hop tasks: train with the shipped defaults (about 40 min) instead of a short run");
  cmd->callback([options, selected] {
    *selected = [options] {
      configure_torch_threads();
      run_reproduce(*options);
    };
  });
}

}  // namespace posbias::cli
