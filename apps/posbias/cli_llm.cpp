// `posbias llm`: probe an OpenAI-compatible endpoint.
#include <cstdio>
#include <memory>

#include "commands.h"
#include "experiments/llm/llm_command.h"
#include "parsed_options.h"

namespace posbias::cli {
namespace {

// Flags stay text until the action runs, so a bad value gets our one-line error.
struct LlmArgs {
  LlmOptions o;
  ParsedOptions parsed;
  std::string suites, write_templates;
};

std::string joined(const std::vector<std::string>& names, const std::string& separator = ",") {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : separator) + n;
  return out;
}

}  // namespace

void register_llm(CLI::App& app, Action* selected) {
  auto a = std::make_shared<LlmArgs>();
  LlmOptions& o = a->o;
  ParsedOptions& p = a->parsed;
  CLI::App* cmd = app.add_subcommand(
      "llm",
      "Probe an OpenAI-compatible endpoint with the number, letter and needle suites (and kv "
      "and passkey, for kv and passkey runs behind `posbias serve`); keep every prompt, response "
      "and score in SQLite (a "
      "re-run skips what is answered) and report accuracy per length, hop and depth with Wilson "
      "intervals.");
  cmd->add_option("--endpoint", o.endpoint,
                  "base URL, e.g. http://127.0.0.1:8000 or https://api.openai.com/v1")
      ->type_name("URL");
  cmd->add_option("--model", o.model, "model name sent with every request (part of the key)")
      ->type_name("NAME");
  p.add_choice(cmd, "--api", &o.api, "chat or completions", parse_api,
               [](Api api) { return to_string(api); });
  cmd->add_option("--api-key-env", o.api_key_env,
                  "environment variable holding the API key (sent as a Bearer token, never "
                  "printed or stored)")
      ->capture_default_str()
      ->type_name("NAME");
  a->suites = joined(o.suites);
  cmd->add_option("--suite", a->suites, "comma list of " + joined(suite_names(), ", "))
      ->capture_default_str()
      ->type_name("LIST");
  p.add(cmd, "--lengths", &o.probes.lengths,
        "number/letter/kv/passkey input lengths in tokens (default " +
            join_integers(default_lengths("letter")) + "; kv " +
            join_integers(default_lengths("kv")) + "; passkey the run's length, 2x and 4x)");
  add_path_option(cmd, "--run", o.probes.run,
                  "passkey: the text run (trained with --needle-fraction) whose held-out text, "
                  "tokenizer and needle count make the prompts, as `eval` makes its cells");
  cmd->add_flag("--prompt-ids", o.prompt_ids,
                "passkey: send each prompt as the run's token ids (completions API), exactly "
                "the ids eval reads, instead of its text");
  cmd->add_flag("--stream", o.stream,
                "ask for each answer as server-sent events (stream: true) and join its chunks; "
                "the stored answer is the same, so stored rows are reused");
  cmd->add_flag("--logprobs", o.logprobs,
                "ask for each answer token's log-probability and store, per prompt, the "
                "log-probability the model gave its own answer, summed over the completion's "
                "tokens; the summary adds its mean by length and depth, --plot adds "
                "STEM_<suite>_logprob");
  p.add(cmd, "--needle-lengths", &o.needle_lengths,
        "needle context sizes in key-value pairs (default " +
            join_integers(default_lengths("needle")) + ")");
  p.add(cmd, "--hops", &o.probes.hops, "number/letter hop counts");
  p.add(cmd, "--depths", &o.probes.depths, "needle, kv and passkey depths in percent");
  p.add(cmd, "--count", &o.probes.count, "prompts per (length, hop) or (length, depth)");
  p.add(cmd, "--seed", &o.probes.seed, "seed of the prompts");
  add_path_option(cmd, "--templates", o.probes.template_dir,
                  "directory of edited prompt templates (<suite>.txt)");
  add_output_option(cmd, "--write-templates", a->write_templates,
                    "write the built-in templates to this directory and stop");
  p.add(cmd, "--max-tokens", &o.max_tokens, "max_tokens (0: 16; needle 64; kv 3; passkey 5)");
  p.add(cmd, "--jobs", &o.jobs, "concurrent requests");
  p.add(cmd, "--rps", &o.rps, "requests per second over all jobs, 0 = no limit");
  p.add(cmd, "--timeout", &o.timeout, "seconds per request");
  p.add(cmd, "--retries", &o.retry.retries, "retries after a transport error, 429 or 5xx");
  p.add(cmd, "--backoff", &o.retry.base, "seconds before the first retry (doubles, jittered)");
  p.add(cmd, "--backoff-cap", &o.retry.cap, "longest wait between retries, seconds");
  add_output_option(cmd, "--db", o.db, "SQLite result store (created if missing)");
  add_output_option(cmd, "--json", o.json, "summary JSON (default: stdout)");
  add_output_option(cmd, "--csv", o.csv, "accuracy table with Wilson intervals");
  add_output_option(cmd, "--plot", o.plot,
                    "figure stem: STEM_<suite>_length and STEM_<suite>_depth (.svg, .png); with "
                    "log-probabilities also STEM_<suite>_logprob");
  p.add_choice(cmd, "--score", &o.score, "accuracy the figures show: " + score_rule_names(),
               parse_score_rule, [](ScoreRule rule) { return to_string(rule); });
  cmd->add_flag("--quiet", o.quiet, "no progress bar");
  cmd->callback([a, selected] {
    *selected = [a] {
      if (!a->write_templates.empty()) {
        write_templates(a->write_templates);
        std::fprintf(stderr, "posbias llm: wrote the templates to %s\n",
                     a->write_templates.c_str());
        return;
      }
      a->parsed.parse();
      LlmOptions opt = a->o;
      opt.suites = split_commas(a->suites);
      const LlmResult r = run_llm(opt);
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
