// `posbias heads` (positional / symbolic head scores) and `posbias discrepancy` (the index and
// retrieval constructions, or a trained model's key heads); see docs/mech.md.
#include <map>
#include <memory>
#include <stdexcept>
#include <string>

#include "commands.h"
#include "experiments/mech/heads_command.h"
#include "field_flags.h"
#include "mech_option_flags.h"
#include "parsed_options.h"
#include "torchrun_env.h"

namespace posbias::cli {

void register_heads(CLI::App& app, Action* selected) {
  auto o = std::make_shared<HeadsOptions>();
  auto parsed = std::make_shared<ParsedOptions>();
  CLI::App* cmd = app.add_subcommand("heads", torch_command_description("heads"));
  add_heads_option_flags(cmd, parsed.get(), o.get(), [&](const std::string& row, CLI::Option*) {
    if (row == "qk_scale")
      add_memory_options(cmd, parsed.get(), &o->attention, &o->memory_budget_gb);
  });
  add_output_option(cmd, "--json", o->json, "result JSON (default: stdout)");
  add_output_option(cmd, "--plot", o->plot,
                    "figure stem: layers × checkpoints heatmaps (and STEM_ablation, "
                    "STEM_patching)");
  auto redraw = std::make_shared<std::string>();
  add_path_option(cmd, "--redraw", *redraw,
                  "a stored heads --json result: draw its --plot figures again from the file "
                  "alone, measuring nothing");
  cmd->callback([=] {
    // --redraw takes everything from its file: the first other option given, if any.
    std::string redraw_extra;
    for (const CLI::Option* opt : cmd->get_options()) {
      const std::string name = opt->get_name();
      if (opt->count() > 0 && name != "--redraw" && name != "--plot" && redraw_extra.empty())
        redraw_extra = name;
    }
    *selected = [=] {
      if (!redraw->empty()) {
        if (!redraw_extra.empty())
          throw std::invalid_argument("--redraw draws from its file alone: drop " + redraw_extra);
        if (o->plot.empty()) throw std::invalid_argument("--redraw needs --plot STEM");
        return redraw_heads(*redraw, o->plot);
      }
      parsed->parse();
      o->causal.seed = o->seed;
      o->ranks = rank_env_from_environment();
      run_heads(*o);
    };
  });
}

void register_discrepancy(CLI::App& app, Action* selected) {
  auto f = std::make_shared<DiscrepancyCommandOptions>();
  auto o = std::make_shared<DiscrepancyOptions>();
  auto parsed = std::make_shared<ParsedOptions>();
  CLI::App* cmd = app.add_subcommand("discrepancy", torch_command_description("discrepancy"));
  cmd->formatter(std::make_shared<RegisteredOrderFormatter>(cmd));
  std::map<std::string, CLI::Option*> flag;  // by the row's name
  add_discrepancy_option_flags(cmd, parsed.get(), f.get(),
                               [&](const std::string& row, CLI::Option* option) {
                                 flag[row] = option;
                                 if (row == "checkpoints") {
                                   option->needs(flag.at("run"));
                                   parsed->add_retired_checkpoint_option(cmd);
                                 }
                               });
  CLI::Option* run = flag.at("run");
  flag.at("variant")->needs(run);
  run->excludes(flag.at("function"))
      ->excludes(flag.at("theta"))
      ->excludes(flag.at("omega"))
      ->excludes(flag.at("search"));
  flag.at("search")->excludes(flag.at("theta"));
  add_memory_options(cmd, parsed.get(), &f->attention, &f->memory_budget_gb);
  auto* json = add_output_option(cmd, "--json", o->json, "result JSON (default: stdout)");
  add_output_option(cmd, "--plot", o->plot, "figure stem: discrepancy against n, log-log");
  auto redraw = std::make_shared<std::string>();
  add_path_option(cmd, "--redraw", *redraw,
                  "a construction or --search result file (--json's): draw its --plot figure "
                  "from the file alone, measuring nothing")
      ->excludes(run)
      ->excludes(flag.at("search"))
      ->excludes(json);
  cmd->callback([=] {
    *selected = [=] {
      parsed->parse();
      if (!redraw->empty()) {
        if (o->plot.empty()) throw std::invalid_argument("--redraw needs --plot STEM");
        return redraw_discrepancy(*redraw, o->plot);
      }
      o->mode = discrepancy_mode(*f);
      run_discrepancy(*o);
    };
  });
}

}  // namespace posbias::cli
