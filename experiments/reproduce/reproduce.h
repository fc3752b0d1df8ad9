// `posbias reproduce`: run every experiment at laptop scale on the embedded defaults and
// write a report folder (figures, data, run.json, index.html).
#pragma once

#include <string>
#include <vector>

#include "posbias/core/field_table.h"
#include "posbias/llm/openai.h"

namespace posbias {

struct ReproduceOptions {
  std::string out = "out/report";
  bool full = false;  // hop tasks: the shipped training defaults instead of a short run
  // LLM probes: an OpenAI-compatible endpoint to probe besides our own served models.
  std::string endpoint, model;
  Api api = Api::kChat;
  std::string api_key_env = "OPENAI_API_KEY";
};
// The options but the report folder (`out`, an output the command line checks as it registers
// it) as one field table, in the order `posbias reproduce --help` lists them: its flags with
// their help, type and default come from it, and run.json's config from it and `out` (the API
// key's variable aside; reproduce_record.h). Defined in reproduce_record.cc.
const std::vector<FieldRow<ReproduceOptions>>& reproduce_option_fields();

void run_reproduce(const ReproduceOptions& options);

}  // namespace posbias
