// The llm experiment's two scales inside `reproduce`, the only place their numbers live: quick()
// for `reproduce`, full() for `reproduce --full`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace posbias {

struct LlmPreset {
  std::string name;                 // "quick" | "full"
  std::vector<int> served_lengths;  // our served hop models: number/letter lengths
  std::int64_t served_count = 0;    // prompts per (length, hop)
  std::vector<int> endpoint_lengths, endpoint_needle_lengths;  // an outside endpoint
  std::int64_t endpoint_count = 0;

  static LlmPreset quick();  // served to 128 tokens, 20 prompts; 5 per cell at an endpoint
  static LlmPreset full();   // served to 512 tokens, 50 prompts; 20 per cell at an endpoint
};

}  // namespace posbias
