#include "experiments/llm/presets.h"

namespace posbias {

LlmPreset LlmPreset::quick() {
  return {"quick", {17, 32, 64, 128}, 20, {16, 32, 64, 100, 200}, {10, 30, 75}, 5};
}

LlmPreset LlmPreset::full() {
  return {"full", {17, 32, 64, 128, 256, 512}, 50, {16, 32, 64, 100, 200}, {10, 30, 75}, 20};
}

}  // namespace posbias
