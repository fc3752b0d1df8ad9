// Scoring a suite's stored results: accuracy (strict and lenient, each with a 95% Wilson
// interval) per length and hop, and per length and depth; its CSV rows and figures.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "posbias/llm/probe.h"
#include "posbias/llm/result_store.h"

namespace posbias {

// The probes of one suite and the stored row of each (keyed by prompt hash), for one model.
// JSON: {"suite", "model", "prompts", "answered", "failed", "missing",
//        "strict": {"<length>": {"<hops>": acc, "all": acc}},  (the shape of `posbias eval`)
//        "lenient": {...},
//        "by_length": [{"length", "hops" ("all" or h), "n", "strict", "strict_ci": [lo, hi],
//                        "lenient", "lenient_ci"}],
//        "by_depth":  [{"length", "depth" (percent, to the nearest 10), "n", ...}]}
// Accuracy counts answered prompts only; failed ones are reported apart.
nlohmann::json summarize_suite(const std::string& suite, const std::string& model,
                               const std::vector<Probe>& probes,
                               const std::vector<std::string>& hashes,
                               const std::map<std::string, ResultRow>& rows);

// CSV of every by_length and by_depth row of the summaries (one header).
std::string summary_csv(const std::vector<nlohmann::json>& summaries);

// STEM_<suite>_length (accuracy against length, one curve per hop; the all-hops curve with its
// 95% Wilson band) and STEM_<suite>_depth (accuracy against depth, one curve per length: the
// U-curve; bands when at most two curves). Both plot the `score` accuracy ("strict" or
// "lenient"). Returns the stems written.
std::vector<std::string> plot_summary(const nlohmann::json& summary, const std::string& stem,
                                      const std::string& score);

}  // namespace posbias
