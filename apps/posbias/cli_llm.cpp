// `posbias llm`: probe an OpenAI-compatible endpoint.
#include <cstdio>
#include <memory>

#include "commands.h"
#include "experiments/llm/llm_command.h"
#include "posbias/core/parse.h"
#include "posbias/tasks/hop_task.h"

namespace posbias::cli {
namespace {

// Flags stay text until the action runs, so a bad value gets our one-line error.
struct LlmArgs {
  LlmOptions o;
  std::string suites = "number,letter,needle", lengths, needle_lengths, hops = "1,2,3,4",
              depths = "0,10,20,30,40,50,60,70,80,90,100", count = "20", seed = "1",
              max_tokens = "0", jobs = "4", rps = "0", timeout = "60", retries = "4", backoff = "1",
              backoff_cap = "30", write_templates;
};

}  // namespace

void register_llm(CLI::App& app, Action* selected) {
  auto a = std::make_shared<LlmArgs>();
  CLI::App* cmd = app.add_subcommand(
      "llm",
      "Probe an OpenAI-compatible endpoint with the number, letter and needle suites; keep every "
      "prompt, response and score in SQLite (a re-run skips what is answered) and report "
      "accuracy per length, hop and depth with Wilson intervals.");
  cmd->add_option("--endpoint", a->o.endpoint,
                  "base URL, e.g. http://127.0.0.1:8000 or https://api.openai.com/v1");
  cmd->add_option("--model", a->o.model, "model name sent with every request (part of the key)");
  cmd->add_option("--api", a->o.api, "chat or completions")->capture_default_str();
  cmd->add_option("--api-key-env", a->o.api_key_env,
                  "environment variable holding the API key (sent as a Bearer token, never "
                  "printed or stored)")
      ->capture_default_str();
  cmd->add_option("--suite", a->suites, "comma list of number, letter, needle")
      ->capture_default_str();
  cmd->add_option("--lengths", a->lengths,
                  "number/letter input lengths (default 16,32,64,100,200,400,850)");
  cmd->add_option("--needle-lengths", a->needle_lengths,
                  "needle context sizes in key-value pairs (default 10,30,75,140,300)");
  cmd->add_option("--hops", a->hops, "number/letter hop counts")->capture_default_str();
  cmd->add_option("--depths", a->depths, "needle depths in percent")->capture_default_str();
  cmd->add_option("--count", a->count, "prompts per (length, hop) or (length, depth)")
      ->capture_default_str();
  cmd->add_option("--seed", a->seed, "seed of the prompts")->capture_default_str();
  cmd->add_option("--templates", a->o.probes.template_dir,
                  "directory of edited prompt templates (<suite>.txt)");
  cmd->add_option("--write-templates", a->write_templates,
                  "write the built-in templates to this directory and stop");
  cmd->add_option("--max-tokens", a->max_tokens, "max_tokens (default 16; needle 64)");
  cmd->add_option("--jobs", a->jobs, "concurrent requests")->capture_default_str();
  cmd->add_option("--rps", a->rps, "requests per second over all jobs, 0 = no limit")
      ->capture_default_str();
  cmd->add_option("--timeout", a->timeout, "seconds per request")->capture_default_str();
  cmd->add_option("--retries", a->retries, "retries after a transport error, 429 or 5xx")
      ->capture_default_str();
  cmd->add_option("--backoff", a->backoff, "seconds before the first retry (doubles, jittered)")
      ->capture_default_str();
  cmd->add_option("--backoff-cap", a->backoff_cap, "longest wait between retries, seconds")
      ->capture_default_str();
  cmd->add_option("--db", a->o.db, "SQLite result store (created if missing)");
  cmd->add_option("--json", a->o.json, "summary JSON (default: stdout)");
  cmd->add_option("--csv", a->o.csv, "accuracy table with Wilson intervals");
  cmd->add_option("--plot", a->o.plot,
                  "figure stem: STEM_<suite>_length and STEM_<suite>_depth (.svg, .png)");
  cmd->add_option("--score", a->o.score, "accuracy the figures show: strict or lenient")
      ->capture_default_str();
  cmd->add_flag("--quiet", a->o.quiet, "no progress bar");
  cmd->callback([a, selected] {
    *selected = [a] {
      if (!a->write_templates.empty()) {
        write_templates(a->write_templates);
        std::fprintf(stderr, "posbias llm: wrote the templates to %s\n",
                     a->write_templates.c_str());
        return;
      }
      LlmOptions o = a->o;
      o.suites = split_commas(a->suites);
      if (!a->lengths.empty())
        o.probes.lengths = parse_int_list(a->lengths, "--lengths", 2, 100000);
      if (!a->needle_lengths.empty()) {
        o.needle_lengths = parse_int_list(a->needle_lengths, "--needle-lengths", 1, 10000);
      }
      o.probes.hops = parse_int_list(a->hops, "--hops", 1, kMaxHops);
      o.probes.depths = parse_int_list(a->depths, "--depths", 0, 100);
      o.probes.count = parse_integer(a->count, "--count");
      o.probes.seed = parse_seed(a->seed);
      o.max_tokens = static_cast<int>(parse_integer_in(a->max_tokens, "--max-tokens", 0, 100000));
      o.jobs = static_cast<int>(parse_integer_in(a->jobs, "--jobs", 1, 256));
      o.rps = parse_number(a->rps, "--rps");
      o.timeout = parse_number(a->timeout, "--timeout");
      o.retry.retries = static_cast<int>(parse_integer_in(a->retries, "--retries", 0, 20));
      o.retry.base = parse_number(a->backoff, "--backoff");
      o.retry.cap = parse_number(a->backoff_cap, "--backoff-cap");
      const nlohmann::json r = run_llm(o);
      for (const nlohmann::json& s : r["suites"]) {
        std::fprintf(stderr, "posbias llm: %s: %lld answered, %lld failed\n",
                     s["suite"].get<std::string>().c_str(), s["answered"].get<long long>(),
                     s["failed"].get<long long>());
      }
      const auto failed = r["failed"].get<long long>();
      if (failed > 0) {
        throw std::runtime_error(std::to_string(failed) +
                                 " prompts failed after their retries; they are kept as failed "
                                 "in --db and a re-run retries them");
      }
    };
  });
}

}  // namespace posbias::cli
