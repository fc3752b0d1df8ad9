// `posbias serve`: serve trained hop runs as an OpenAI-compatible endpoint.
#include <memory>

#include "commands.h"
#include "posbias/core/parse.h"
#include "posbias/serve/serve_command.h"

namespace posbias::cli {

void register_serve(CLI::App& app, Action* selected) {
  auto o = std::make_shared<ServeOptions>();
  auto port = std::make_shared<std::string>("8000");
  auto max_body = std::make_shared<std::string>("1048576");
  auto timeout = std::make_shared<std::string>("30");
  auto threads = std::make_shared<std::string>("16");
  CLI::App* cmd = app.add_subcommand("serve", torch_command_description("serve"));
  cmd->add_option("--run", o->runs, "RUN_DIR or NAME=RUN_DIR (repeat for several models)")
      ->required();
  cmd->add_option("--host", o->server.host, "address to bind")->capture_default_str();
  cmd->add_option("--port", *port, "port, 0 = any free port")->capture_default_str();
  cmd->add_option("--port-file", o->port_file, "write the bound port here");
  cmd->add_option("--max-body", *max_body, "largest request body, bytes")->capture_default_str();
  cmd->add_option("--timeout", *timeout, "seconds for socket reads, writes and the model queue")
      ->capture_default_str();
  cmd->add_option("--threads", *threads, "request threads")->capture_default_str();
  cmd->callback([o, port, max_body, timeout, threads, selected] {
    *selected = [o, port, max_body, timeout, threads] {
      ServeOptions opt = *o;
      opt.server.port = static_cast<int>(parse_integer_in(*port, "--port", 0, 65535));
      opt.server.max_body = static_cast<std::size_t>(
          parse_integer_in(*max_body, "--max-body", 1024, std::int64_t{1} << 30));
      opt.server.timeout = parse_number(*timeout, "--timeout");
      opt.server.threads = static_cast<int>(parse_integer_in(*threads, "--threads", 1, 1024));
      run_serve(opt);
    };
  });
}

}  // namespace posbias::cli
