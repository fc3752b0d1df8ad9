// `posbias serve`: trained hop runs (HopCompleter) and kv runs (KvCompleter) behind the
// OpenAI-compatible server, until SIGINT or SIGTERM. Prints the address on stderr and, with
// port_file, writes the bound port there (atomically) so scripts can use --port 0, and removes
// it on exit. A stop waits at most the
// I/O timeout (plus a second) for open connections, then exits all the same.
#pragma once

#include <string>
#include <vector>

#include "posbias/core/field_table.h"
#include "posbias/runfiles/checkpoint_selection.h"
#include "posbias/serve/openai_server.h"

namespace posbias {

struct ServeOptions {
  std::vector<std::string> runs;  // "NAME=DIR" or "DIR"
  // Of every run: one checkpoint served under the run's name, several as NAME@STEP.
  CheckpointSelection checkpoints = CheckpointSelection::last();
  ServerOptions server;
  std::string port_file;  // outside the table
};
// The options as one field table, in the order `posbias serve --help` lists them: the runs, the
// checkpoints and the server's fields (server_option_fields) flat among them; `posbias serve`'s
// flags with their help, type, default and parsing come from it. Not in it: --port-file, an
// output the command line checks as it registers it.
const std::vector<FieldRow<ServeOptions>>& serve_option_fields();

void run_serve(const ServeOptions& options);

}  // namespace posbias
