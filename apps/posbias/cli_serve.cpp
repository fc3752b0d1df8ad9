// `posbias serve`: serve trained hop and kv runs as an OpenAI-compatible endpoint.
#include <cstdint>
#include <memory>

#include "commands.h"
#include "parsed_options.h"
#include "posbias/serve/serve_command.h"

namespace posbias::cli {

void register_serve(CLI::App& app, Action* selected) {
  auto o = std::make_shared<ServeOptions>();
  auto parsed = std::make_shared<ParsedOptions>();
  auto max_body = std::make_shared<std::int64_t>(o->server.max_body);
  CLI::App* cmd = app.add_subcommand("serve", torch_command_description("serve"));
  cmd->add_option("--run", o->runs, "RUN_DIR or NAME=RUN_DIR (repeat for several models)")
      ->required()
      ->type_name("PATH|NAME=PATH");
  parsed->add(cmd, "--checkpoints", &o->checkpoints,
              "of every run: " + checkpoint_selection_choices() +
                  "; one is served under the run's name, several each as NAME@STEP");
  cmd->add_option("--host", o->server.host, "address to bind")
      ->capture_default_str()
      ->type_name("ADDRESS");
  parsed->add(cmd, "--port", &o->server.port, "port, 0 = any free port", 0, 65535);
  add_output_option(cmd, "--port-file", o->port_file, "write the bound port here");
  parsed->add(cmd, "--max-body", max_body.get(), "largest request body, bytes", 1024,
              std::int64_t{1} << 30);
  parsed->add(cmd, "--timeout", &o->server.timeout,
              "seconds a request may wait for the model (then 503)");
  parsed->add(cmd, "--io-timeout", &o->server.io_timeout,
              "seconds a socket read or write may make no progress; also the longest a stop "
              "waits for open connections");
  parsed->add(cmd, "--threads", &o->server.threads,
              "connection threads: each open connection, a slow one included, holds one", 1, 1024);
  cmd->callback([o, parsed, max_body, selected] {
    *selected = [o, parsed, max_body] {
      parsed->parse();
      ServeOptions opt = *o;
      opt.server.max_body = static_cast<std::size_t>(*max_body);
      run_serve(opt);
    };
  });
}

}  // namespace posbias::cli
