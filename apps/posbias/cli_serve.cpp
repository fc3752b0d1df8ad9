// `posbias serve`: serve trained hop and kv runs as an OpenAI-compatible endpoint.
#include <memory>
#include <string>

#include "commands.h"
#include "field_flags.h"
#include "parsed_options.h"
#include "posbias/serve/serve_command.h"

namespace posbias::cli {

void register_serve(CLI::App& app, Action* selected) {
  auto o = std::make_shared<ServeOptions>();
  auto parsed = std::make_shared<ParsedOptions>();
  CLI::App* cmd = app.add_subcommand("serve", torch_command_description("serve"));
  // --run repeated; --port-file after --port.
  FieldFlagWords words;
  words.required_flags = true;
  words.lists = {{"runs", '\0'}};
  add_field_flags(cmd, parsed.get(), serve_option_fields(), *o, o.get(), "serve option", words,
                  [cmd, o](const std::string& row, CLI::Option*) {
                    if (row == "port")
                      add_output_option(cmd, "--port-file", o->port_file,
                                        "write the bound port here");
                  });
  cmd->callback([o, parsed, selected] {
    *selected = [o, parsed] {
      parsed->parse();
      run_serve(*o);
    };
  });
}

}  // namespace posbias::cli
