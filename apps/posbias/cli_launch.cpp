// `posbias launch`: the data-parallel ranks of one posbias command on this machine.
#include <memory>
#include <string>

#include "commands.h"
#include "posbias/cluster/launch.h"

namespace posbias::cli {

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
  parsed->add(cmd, "--nproc", &o->nproc, "ranks on this machine");
  parsed->add(cmd, "--nnodes", &o->nnodes, "machines in the run (launch once on each)");
  parsed->add(cmd, "--node-rank", &o->node_rank, "this machine's index, 0..nnodes-1");
  cmd->add_option("--master-addr", o->master_addr,
                  "address of node 0, where rank 0 serves the rendezvous (default 127.0.0.1)");
  parsed->add(cmd, "--master-port", &o->master_port,
              "port of the rendezvous (0: a free port; needed across machines)");
  cmd->add_option("command", o->command, "the posbias command and its options, after --")
      ->required();
  cmd->callback([o, parsed, selected] {
    *selected = [o, parsed] {
      parsed->parse();
      const int code = launch_ranks(*o);
      if (code != 0) throw ExitQuietly{code};  // the ranks and launch have said why
    };
  });
}

}  // namespace posbias::cli
