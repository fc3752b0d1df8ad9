// `posbias serve`: trained hop runs (HopCompleter) and kv runs (KvCompleter) behind the
// OpenAI-compatible server, until SIGINT or SIGTERM. Prints the address on stderr and, with
// port_file, writes the bound port there (atomically) so scripts can use --port 0, and removes
// it on exit. A stop waits at most the
// I/O timeout (plus a second) for open connections, then exits all the same.
#pragma once

#include <string>
#include <vector>

#include "posbias/runfiles/checkpoint_selection.h"
#include "posbias/serve/openai_server.h"

namespace posbias {

struct ServeOptions {
  std::vector<std::string> runs;  // "NAME=DIR" or "DIR"
  // Of every run: one checkpoint served under the run's name, several as NAME@STEP.
  CheckpointSelection checkpoints = CheckpointSelection::last();
  ServerOptions server;
  std::string port_file;
};

void run_serve(const ServeOptions& options);

}  // namespace posbias
