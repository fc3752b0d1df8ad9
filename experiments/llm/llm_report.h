// The llm section of the `reproduce` report. By default it serves the hops section's two
// trained runs in process over loopback HTTP, runs the
// number and letter suites against them through the harness, and checks the accuracies
// against `posbias eval` on the same examples. With an endpoint it also runs all three suites
// (number, letter, needle) against that endpoint. Data and figures go to DIR/llm/.
#pragma once

#include <filesystem>
#include <string>

#include "experiments/hops/hops_report.h"
#include "experiments/llm/presets.h"
#include "posbias/core/report.h"
#include "posbias/llm/openai.h"

namespace posbias {

struct LlmReportOptions {
  std::string endpoint;  // empty = only our own served models
  std::string model;
  Api api = Api::kChat;
  std::string api_key_env = "OPENAI_API_KEY";
};

ReportSection llm_report_section(const std::filesystem::path& dir, const LlmPreset& preset,
                                 const HopsSection& hops, const LlmReportOptions& options);

}  // namespace posbias
