// `posbias llm`: run probe suites against an OpenAI-compatible endpoint, keep every prompt,
// response, latency and score in SQLite, and report accuracy per length, hop and depth.
//
// A re-run with the same database skips what was answered and retries what failed. Workers
// (--jobs) share one rate limit (--rps); each request retries on transport errors, 429 and 5xx
// with exponential backoff and jitter. The API key comes from an environment variable and is
// sent as a Bearer token only: never printed, never stored.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "experiments/llm/llm_options.h"
#include "posbias/llm/llm_summary.h"
#include "posbias/llm/openai.h"

namespace posbias {

// One reason prompts failed: the error stored with them (the last attempt's) and how many.
struct FailureReason {
  std::string error;
  std::int64_t prompts = 0;
};

struct LlmResult {
  std::string model;
  Api api = Api::kChat;
  std::int64_t requests = 0;  // prompts sent this run
  std::int64_t failed = 0;    // prompts failed after their retries, over every suite
  std::vector<SuiteSummary> suites;
  // The distinct errors of those failed prompts, the most frequent first (ties: first seen).
  std::vector<FailureReason> failure_reasons;
};

// The distinct strings of `errors` with their counts, the most frequent first (ties: first
// seen).
std::vector<FailureReason> count_failure_reasons(const std::vector<std::string>& errors);

// Why prompts failed, a line each (no newline): the first `max_reasons` reasons as "N prompts:
// ERROR" with ERROR cut at `max_chars` characters, then "... and M prompts for K other reasons
// (the error column of --db holds each)" if there are more.
std::vector<std::string> failure_reason_lines(const std::vector<FailureReason>& reasons,
                                              std::size_t max_reasons = 3,
                                              std::size_t max_chars = 160);

// Sends what the database does not hold yet and scores every suite from the database.
// Throws std::invalid_argument for bad options (exit 2) and std::runtime_error for an
// unreachable endpoint or one that answers 401, 403 or 404 (exit 1; the run stops, as every
// prompt would fail alike). Prompts that fail after their retries are stored as failed
// and counted, not thrown.
LlmResult measure_llm(const LlmOptions& options);

// The result as its file holds it (llm_record.h).
nlohmann::json to_json(const LlmResult& result);

// measure_llm, then the JSON to options.json (stdout when empty), options.csv and the figures.
LlmResult run_llm(const LlmOptions& options);

}  // namespace posbias
