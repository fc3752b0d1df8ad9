// `posbias reproduce`: every experiment on the embedded defaults, into one report folder.
#include <memory>

#include "commands.h"
#include "experiments/reproduce/reproduce.h"
#include "field_flags.h"
#include "parsed_options.h"

namespace posbias::cli {

void register_reproduce(CLI::App& app, Action* selected) {
  auto options = std::make_shared<ReproduceOptions>();
  auto parsed = std::make_shared<ParsedOptions>();
  CLI::App* cmd = app.add_subcommand("reproduce", torch_command_description("reproduce"));
  add_output_option(cmd, "-o,--out", options->out, "report folder")->capture_default_str();
  add_field_flags(cmd, parsed.get(), reproduce_option_fields(), *options, options.get(),
                  "reproduce option", {});
  cmd->callback([options, parsed, selected] {
    *selected = [options, parsed] {
      parsed->parse();
      if (!options->endpoint.empty() && options->model.empty()) {
        throw std::invalid_argument("--endpoint needs --model NAME");
      }
      run_reproduce(*options);
    };
  });
}

}  // namespace posbias::cli
