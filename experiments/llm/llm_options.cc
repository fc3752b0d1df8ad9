#include "experiments/llm/llm_options.h"

#include <utility>

#include "posbias/core/flag_rows.h"
#include "posbias/core/parse.h"
#include "posbias/llm/api_codec.h"
#include "posbias/llm/score_rule_codec.h"

namespace posbias {
namespace {

// A row of a part of the options (the probes' SuiteOptions, the RetryPolicy) as a row of
// LlmOptions, written flat among its own.
template <class Part>
FieldRow<LlmOptions> llm_part_row(Part LlmOptions::*part, FieldRow<Part> row) {
  return member_fields(part, std::vector<FieldRow<Part>>{std::move(row)}).front();
}

std::string llm_suite_list() {
  std::string out;
  for (const std::string& n : suite_names()) out += (out.empty() ? "" : ", ") + n;
  return out;
}

std::vector<FieldRow<LlmOptions>> llm_option_rows() {
  using O = LlmOptions;
  using P = SuiteOptions;
  using R = RetryPolicy;
  std::vector<FieldRow<O>> rows = {
      field("endpoint", &O::endpoint,
            "base URL, e.g. http://127.0.0.1:8000 or https://api.openai.com/v1", "URL")};
  for (FieldRow<O>& row : inherited_fields<O>(llm_target_fields())) rows.push_back(std::move(row));
  const std::vector<FieldRow<O>> rest = {
      field("api_key_env", &O::api_key_env,
            "environment variable holding the API key (sent as a Bearer token, never printed or "
            "stored)"),
      parsed_flag(
          flagged(field("suites", &O::suites, "comma list of " + llm_suite_list()), "--suite"),
          [](const std::string& text, const std::string&) { return split_commas(text); }),
      llm_part_row(&O::probes, field("lengths", &P::lengths,
                                     "number/letter/kv/passkey input lengths in tokens (default " +
                                         join_integers(default_lengths("letter")) + "; kv " +
                                         join_integers(default_lengths("kv")) +
                                         "; passkey the run's length, 2x and 4x)")),
      llm_part_row(&O::probes,
                   field("run", &P::run,
                         "passkey: the text run (trained with --needle-fraction) whose held-out "
                         "text, tokenizer and needle count make the prompts, as `eval` makes its "
                         "cells",
                         "PATH")),
      field("prompt_ids", &O::prompt_ids,
            "passkey: send each prompt as the run's token ids (completions API), exactly the ids "
            "eval reads, instead of its text"),
      field("stream", &O::stream,
            "ask for each answer as server-sent events (stream: true) and join its chunks; the "
            "stored answer is the same, so stored rows are reused"),
      field("logprobs", &O::logprobs,
            "ask for each answer token's log-probability and store, per prompt, the "
            "log-probability the model gave its own answer, summed over the completion's tokens; "
            "the summary adds its mean by length and depth, --plot adds STEM_<suite>_logprob"),
      field("needle_lengths", &O::needle_lengths,
            "needle context sizes in key-value pairs (default " +
                join_integers(default_lengths("needle")) + ")"),
      llm_part_row(&O::probes, field("hops", &P::hops, "number/letter hop counts")),
      llm_part_row(&O::probes,
                   field("depths", &P::depths, "needle, kv and passkey depths in percent")),
      llm_part_row(&O::probes, integer_field("count", &P::count,
                                             "prompts per (length, hop) or (length, depth)")),
      llm_part_row(&O::probes, seed_field("seed", &P::seed, "seed of the prompts")),
      llm_part_row(&O::probes, field("templates", &P::template_dir,
                                     "directory of edited prompt templates (<suite>.txt)", "PATH")),
      integer_field("max_tokens", &O::max_tokens, "max_tokens (0: 16; needle 64; kv 3; passkey 5)"),
      integer_field("jobs", &O::jobs, "concurrent requests"),
      field("rps", &O::rps, "requests per second over all jobs, 0 = no limit"),
      field("timeout", &O::timeout, "seconds per request"),
      llm_part_row(&O::retry, integer_field("retries", &R::retries,
                                            "retries after a transport error, 429 or 5xx")),
      llm_part_row(&O::retry, field("backoff", &R::base,
                                    "seconds before the first retry (doubles, jittered)")),
      llm_part_row(&O::retry,
                   field("backoff_cap", &R::cap, "longest wait between retries, seconds")),
      named_field<ScoreRuleNames>("score", &O::score,
                                  "accuracy the figures show: " + score_rule_names()),
      field("quiet", &O::quiet, "no progress bar")};
  for (const FieldRow<O>& row : rest) rows.push_back(row);
  return rows;
}

}  // namespace

const std::vector<FieldRow<LlmTarget>>& llm_target_fields() {
  using T = LlmTarget;
  static const std::vector<FieldRow<T>> rows = {
      required(field("model", &T::model, "model name sent with every request (part of the key)")),
      named_field<ApiNames>("api", &T::api, "chat or completions")};
  return rows;
}

const std::vector<FieldRow<LlmOptions>>& llm_option_fields() {
  static const std::vector<FieldRow<LlmOptions>> rows = llm_option_rows();
  return rows;
}

}  // namespace posbias
