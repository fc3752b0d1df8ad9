#include "experiments/llm/presets.h"

namespace posbias {

LlmPreset LlmPreset::quick() {
  LlmPreset p;
  p.name = "quick";
  p.served_lengths = {17, 32, 64, 128};
  p.served_count = 20;
  p.endpoint_lengths = {16, 32, 64, 100, 200};
  p.endpoint_needle_lengths = {10, 30, 75};
  p.endpoint_count = 5;
  return p;
}

LlmPreset LlmPreset::full() {
  LlmPreset p = quick();
  p.name = "full";
  p.served_lengths = {17, 32, 64, 128, 256, 512};
  p.served_count = 50;
  p.endpoint_count = 20;
  return p;
}

}  // namespace posbias
