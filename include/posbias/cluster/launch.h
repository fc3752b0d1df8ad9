// `posbias launch`: starts the data-parallel ranks of one posbias command on this machine, as
// torchrun does. Each rank is this executable run with the command's arguments and the
// torchrun variables: RANK = node_rank · nproc + local rank, WORLD_SIZE = nnodes · nproc,
// LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT, and OMP_NUM_THREADS = cores / nproc
// (at least 1) unless the user set it. Across machines, run it once per node with the same
// --nnodes, --master-addr and --master-port and that node's --node-rank.
//
// Only the commands that split their work over the ranks and write from rank 0 alone are
// launched (kDataParallelCommands); any other command would run whole on every rank and write
// its result once per rank, so launch refuses it (std::invalid_argument) before starting any.
//
// A rank that fails (non-zero exit or a signal) stops the others (SIGTERM, SIGKILL after a
// grace period) and launch exits with that rank's code (2 for bad usage, else 1); Ctrl-C or
// SIGTERM to launch goes to every rank. Nothing is left running.
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "posbias/core/field_table.h"

namespace posbias {

// The commands whose ranks share one job: train (data-parallel batches), birth (seeds) and
// heads --run (checkpoints); each refuses the modes it cannot split (birth --run, heads
// --config) itself.
inline constexpr const char* kDataParallelCommands[] = {"train", "birth", "heads"};

struct LaunchOptions {
  int nproc = 1;                     // ranks on this machine
  int nnodes = 1, node_rank = 0;     // machines, and this one's index
  std::string master_addr;           // empty: 127.0.0.1 (one node only)
  int master_port = 0;               // 0: a free port (one node only)
  std::chrono::seconds grace{10};    // SIGTERM to SIGKILL
  std::vector<std::string> command;  // a posbias command and its arguments, e.g. {"train", ...}
};
// The ranks and the rendezvous as one field table, in the order `posbias launch --help` lists
// them: its flags with their help, type and default come from it (their ranges are
// launch_ranks's to check). Not in it: the grace period (no flag) and the command, a positional
// after --.
const std::vector<FieldRow<LaunchOptions>>& launch_option_fields();

// The variables above for local rank `local_rank` (name → value), which replace this process's
// own in the rank's environment.
std::map<std::string, std::string> rank_environment(const LaunchOptions& options, int local_rank,
                                                    int master_port, int cores);

// True when the command asks for its help (--help or -h before any `--` of its own): launch then
// starts one process, not a rank per process, so the help is printed once.
bool asks_for_help(const std::vector<std::string>& command);

// Runs the ranks and returns launch's exit code. Throws std::invalid_argument for bad options
// (no command, a command not in kDataParallelCommands, nproc < 1, a multi-node launch without
// --master-addr or --master-port).
int launch_ranks(const LaunchOptions& options);

}  // namespace posbias
