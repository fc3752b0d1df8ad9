// The LLM-probe section of the `reproduce` report. By default it serves the hop section's
// two trained runs (DIR/hop/number, DIR/hop/letter) in process over loopback HTTP, runs the
// number and letter suites against them through the harness, and checks the accuracies
// against `posbias eval` on the same examples. With an endpoint it also runs all three suites
// (number, letter, needle) against that endpoint. Data and figures go to DIR/llm/.
#pragma once

#include <filesystem>
#include <string>

#include "posbias/core/report.h"

namespace posbias {

struct LlmReportOptions {
  std::string endpoint;  // empty = only our own served models
  std::string model, api = "chat", api_key_env = "OPENAI_API_KEY";
};

ReportSection llm_report_section(const std::filesystem::path& dir, bool full,
                                 const LlmReportOptions& options);

}  // namespace posbias
