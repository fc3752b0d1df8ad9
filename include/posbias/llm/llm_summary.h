// Scoring a suite's stored results: accuracy (strict and lenient, each with a 95% Wilson
// interval) per length and hop, and per length and depth, and with --logprobs the mean
// completion log-probability (with a 95% Student-t interval); its CSV rows and figures.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "posbias/llm/answer.h"
#include "posbias/llm/probe.h"
#include "posbias/llm/result_store.h"
#include "posbias/stats/wilson.h"

namespace posbias {

// Accuracy of one group of answered prompts, strict and lenient, with 95% Wilson intervals.
struct AccuracyRow {
  int length = 0;  // tokens (number, letter) or key-value pairs (needle)
  int hops = 0;    // by_length rows: the hop count, 0 = all hops
  int depth = -1;  // by_depth rows: the answer's depth in percent, to the nearest 10
  std::int64_t n = 0;
  double strict = 0, lenient = 0;
  Interval strict_ci, lenient_ci;
  double chance = 0;  // the mean of the prompts' chance levels (Probe::chance)
  // The log-probability the model gave its own answer, summed over the completion's tokens:
  // its mean over the group's answered prompts that have one (logprob_n of them; NaN when
  // none), with the 95% Student-t interval of that mean (NaN bounds when logprob_n < 2).
  std::int64_t logprob_n = 0;
  double logprob = NAN;
  Interval logprob_ci{NAN, NAN};
};

// The probes of one suite scored against the stored rows, for one model. Accuracy counts
// answered prompts only; failed ones are reported apart.
struct SuiteSummary {
  std::string suite, model;
  std::int64_t prompts = 0, answered = 0, failed = 0, missing = 0;
  std::vector<AccuracyRow> by_length;  // per length, per hop count and all hops
  std::vector<AccuracyRow> by_depth;   // per length and depth

  // The accuracy by `rule` at (length, hops; 0 = all hops); NaN when absent.
  double accuracy(ScoreRule rule, int length, int hops = 0) const;
  // Whether any answered prompt has a log-probability (a --logprobs run whose endpoint
  // returned them).
  bool has_logprobs() const;
};

// The probes and the stored row of each (keyed by prompt hash).
SuiteSummary summarize_suite(const std::string& suite, const std::string& model,
                             const std::vector<Probe>& probes,
                             const std::vector<std::string>& hashes,
                             const std::map<std::string, ResultRow>& rows);

// The summary as the result file holds it (llm_summary_record.h's SuiteSummaryRecord).
nlohmann::json to_json(const SuiteSummary& summary);

// CSV of every by_length and by_depth row of the summaries (one header); the columns logprob,
// logprob_low, logprob_high and logprob_n are empty where a row has no such value.
std::string summary_csv(const std::vector<SuiteSummary>& summaries);

// STEM_<suite>_length (accuracy against length, one curve per hop; the all-hops curve with its
// 95% Wilson band; chance, all hops, dashed) and STEM_<suite>_depth (accuracy against depth, one
// curve per length: where Liu et al. saw a U; bands when at most two curves). Both plot the
// accuracy by `rule`. When has_logprobs(), also STEM_<suite>_logprob: the
// mean completion log-probability against depth, one curve per length, with 95% Student-t
// bands. Returns the stems written.
std::vector<std::string> plot_summary(const SuiteSummary& summary, const std::string& stem,
                                      ScoreRule rule);

}  // namespace posbias
