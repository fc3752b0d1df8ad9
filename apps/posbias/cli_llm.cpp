// `posbias llm`: probe an OpenAI-compatible endpoint.
#include <cstdio>
#include <memory>

#include "commands.h"
#include "experiments/llm/llm_command.h"
#include "experiments/llm/llm_options.h"
#include "field_flags.h"
#include "parsed_options.h"

namespace posbias::cli {
namespace {

// Flags stay text until the action runs, so a bad value gets our one-line error.
struct LlmArgs {
  LlmOptions o;
  ParsedOptions parsed;
  std::string write_templates;
};

}  // namespace

void register_llm(CLI::App& app, Action* selected) {
  auto a = std::make_shared<LlmArgs>();
  CLI::App* cmd = app.add_subcommand(
      "llm",
      "Probe an OpenAI-compatible endpoint with the number, letter and needle suites (and kv "
      "and passkey, for kv and passkey runs behind `posbias serve`); keep every prompt, response "
      "and score in SQLite (a "
      "re-run skips what is answered) and report accuracy per length, hop and depth with Wilson "
      "intervals.");
  // The outputs and --write-templates, outside the table, where --help lists them.
  const auto outside = [cmd, a](const std::string& row, CLI::Option*) {
    LlmOptions& o = a->o;
    if (row == "templates") {
      add_output_option(cmd, "--write-templates", a->write_templates,
                        "write the built-in templates to this directory and stop");
    } else if (row == "backoff_cap") {
      add_output_option(cmd, "--db", o.db, "SQLite result store (created if missing)");
      add_output_option(cmd, "--json", o.json, "summary JSON (default: stdout)");
      add_output_option(cmd, "--csv", o.csv, "accuracy table with Wilson intervals");
      add_output_option(cmd, "--plot", o.plot,
                        "figure stem: STEM_<suite>_length and STEM_<suite>_depth (.svg, .png); "
                        "with log-probabilities also STEM_<suite>_logprob");
    }
  };
  add_field_flags(cmd, &a->parsed, llm_option_fields(), a->o, &a->o, "llm option", {}, outside);
  cmd->callback([a, selected] {
    *selected = [a] {
      if (!a->write_templates.empty()) {
        write_templates(a->write_templates);
        std::fprintf(stderr, "posbias llm: wrote the templates to %s\n",
                     a->write_templates.c_str());
        return;
      }
      a->parsed.parse();
      const LlmResult r = run_llm(a->o);
      for (const SuiteSummary& s : r.suites) {
        std::fprintf(stderr, "posbias llm: %s: %lld answered, %lld failed\n", s.suite.c_str(),
                     static_cast<long long>(s.answered), static_cast<long long>(s.failed));
      }
      const auto failed = r.failed;
      for (const std::string& line : failure_reason_lines(r.failure_reasons)) {
        std::fprintf(stderr, "posbias llm: failed: %s\n", line.c_str());
      }
      if (failed > 0) {
        throw std::runtime_error(std::to_string(failed) +
                                 " prompts failed after their retries; they are kept as failed "
                                 "in --db and a re-run retries them");
      }
    };
  });
}

}  // namespace posbias::cli
