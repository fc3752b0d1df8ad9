// `posbias reproduce`: every experiment on the embedded defaults, into one report folder.
#include <memory>

#include "commands.h"
#include "experiments/reproduce/reproduce.h"
#include "parsed_options.h"

namespace posbias::cli {

void register_reproduce(CLI::App& app, Action* selected) {
  auto options = std::make_shared<ReproduceOptions>();
  auto parsed = std::make_shared<ParsedOptions>();
  CLI::App* cmd = app.add_subcommand("reproduce", torch_command_description("reproduce"));
  add_output_option(cmd, "-o,--out", options->out, "report folder")->capture_default_str();
  cmd->add_flag("--full", options->full,
                "every section at its full preset, the shapes its docs page measures, instead of "
                "the quick one (many hours: the retrieval and mitigations sections each train over "
                "twenty kv runs of 8000 steps)");
  cmd->add_option("--endpoint", options->endpoint,
                  "also probe this OpenAI-compatible endpoint with the LLM suites")
      ->type_name("URL");
  cmd->add_option("--model", options->model, "model name for --endpoint")->type_name("NAME");
  parsed->add_choice(cmd, "--api", &options->api, "chat or completions (with --endpoint)",
                     parse_api, [](Api api) { return to_string(api); });
  cmd->add_option("--api-key-env", options->api_key_env,
                  "environment variable with the endpoint's API key")
      ->capture_default_str()
      ->type_name("NAME");
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
