// `posbias llm`'s options, with one field table (llm_option_fields) for what the run asks and how:
// `posbias llm`'s flags with their help, type, default and parsing come from it (apps/posbias),
// each row's from_flag parsing the flag's text as the command line always has. The model asked and
// its API (LlmTarget, llm_target_fields) are the rows its result file writes too (llm_record.h).
//
// Not in the table (their flags are registered by hand): the outputs (--db, --json, --csv,
// --plot) and --write-templates, which runs nothing else.
#pragma once

#include <string>
#include <vector>

#include "posbias/core/field_table.h"
#include "posbias/llm/answer.h"
#include "posbias/llm/openai.h"
#include "posbias/llm/probe.h"
#include "posbias/llm/retry.h"

namespace posbias {

// The model asked and the API it is asked through.
struct LlmTarget {
  std::string model;  // sent with every request (part of the store's key)
  Api api = Api::kChat;
};
const std::vector<FieldRow<LlmTarget>>& llm_target_fields();

struct LlmOptions : LlmTarget {
  std::string endpoint;  // base URL, e.g. http://127.0.0.1:8000 or https://api.openai.com/v1
  std::string api_key_env = "OPENAI_API_KEY";
  std::vector<std::string> suites{"number", "letter", "needle"};
  SuiteOptions probes;              // lengths apply to number, letter, kv and passkey
  std::vector<int> needle_lengths;  // key-value pairs; empty = the needle default
  int max_tokens = 0;  // 0 = 16 for number and letter, 64 for needle, 3 for kv, 5 for passkey
  // passkey: send each prompt as the run's token ids (completions only), exactly the ids `eval`
  // reads, instead of its text; a separate key in the store.
  bool prompt_ids = false;
  // Ask for the answer as server-sent events; the stored answer is the same (same key).
  bool stream = false;
  // Ask for each completion token's log-probability and store their sum per prompt (the
  // log-probability the model gave its own answer); a separate key in the store.
  bool logprobs = false;
  int jobs = 4;
  double rps = 0;       // requests per second over all jobs; 0 = no limit
  double timeout = 60;  // seconds per request
  RetryPolicy retry;
  ScoreRule score = ScoreRule::kLenient;  // the accuracy the figures show
  bool quiet = false;                     // no progress bar
  // Outside the table.
  std::string db;    // SQLite file (required)
  std::string json;  // summary JSON (empty = stdout)
  std::string csv;   // accuracy table
  std::string plot;  // figure stem
};

// In the order `posbias llm --help` lists them; the probes' and the retry policy's fields flat
// among the others.
const std::vector<FieldRow<LlmOptions>>& llm_option_fields();

}  // namespace posbias
