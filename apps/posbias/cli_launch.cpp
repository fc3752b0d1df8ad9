// `posbias launch`: the data-parallel ranks of one posbias command on this machine.
#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.h"
#include "field_flags.h"
#include "posbias/cluster/launch.h"
#include "posbias/core/enum_names.h"

namespace posbias::cli {
namespace {

// `extras`: the arguments launch's parser did not take (a `--` given lands here too).
void check_separator(const CLI::App& cmd, const std::vector<std::string>& extras,
                     const std::vector<std::string>& command) {
  const bool separated = std::find(extras.begin(), extras.end(), "--") != extras.end();
  for (const std::string& a : extras) {
    if (a == "--") continue;
    const std::string option = "'" + a.substr(0, 40) + "'";
    if (separated || command.empty()) {
      std::vector<std::string> names;
      for (const CLI::Option* o : cmd.get_options()) {
        if (!o->get_lnames().empty() && o->get_lnames().front() != "help")
          names.push_back("--" + o->get_lnames().front());
      }
      const std::string guess =
          did_you_mean({names.begin(), names.end()}, a.substr(0, a.find('=')));
      std::string list;
      for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
      throw std::invalid_argument("launch has no option " + option + guess +
                                  " (its options: " + list + "; see --help)");
    }
    throw std::invalid_argument("launch has no option " + option +
                                ": put -- before the command and its options, e.g. "
                                "posbias launch --nproc 2 -- " +
                                command.front().substr(0, 40) + " ...");
  }
}

}  // namespace

void register_launch(CLI::App& app, Action* selected) {
  auto o = std::make_shared<LaunchOptions>();
  auto parsed = std::make_shared<ParsedOptions>();
  std::string commands;
  for (const char* c : kDataParallelCommands)
    commands += (commands.empty() ? "" : ", ") + std::string(c);
  CLI::App* cmd = app.add_subcommand(
      "launch",
      "Start N data-parallel ranks of a posbias command on this machine, as torchrun does "
      "(RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR, MASTER_PORT; OMP_NUM_THREADS split between "
      "them): posbias launch --nproc 2 -- train --task number --out RUN. The commands that split "
      "their work over ranks: " +
          commands +
          "; others are refused. A rank that fails stops the others; the run resumes with the "
          "same launch and train --resume RUN.");
  add_field_flags(cmd, parsed.get(), launch_option_fields(), *o, o.get(), "launch option", {});
  cmd->add_option("command", o->command, "the posbias command and its options, after --")
      ->required();
  // Without `--`, the command's options reach launch's parser: kept (not refused by the parser)
  // so that the error can say where the `--` goes.
  cmd->allow_extras();
  // CLI11 hands a `--` back to the top-level parser once every positional holds a value, which
  // happens when an unknown option's value ("--nprocs 2 -- train") fills `command`: the
  // command's options then reach the top level as "arguments not expected". A positional that
  // never fills (`command` takes every value first) keeps the `--` here, for check_separator.
  auto unfilled = std::make_shared<std::string>();
  cmd->add_option("unfilled", *unfilled)->group("");
  cmd->callback([o, parsed, selected, cmd, unfilled] {
    *selected = [o, parsed, cmd] {
      check_separator(*cmd, cmd->remaining(), o->command);
      parsed->parse();
      const int code = launch_ranks(*o);
      if (code != 0) throw ExitQuietly{code};  // the ranks and launch have said why
    };
  });
}

}  // namespace posbias::cli
