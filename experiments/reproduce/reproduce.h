// `posbias reproduce`: run every experiment at laptop scale on the embedded defaults and
// write a report folder (figures, data, run.json, index.html).
#pragma once

#include <string>

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

void run_reproduce(const ReproduceOptions& options);

}  // namespace posbias
