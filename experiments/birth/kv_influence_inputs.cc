// kv_influence_inputs apart from kv_influence.cc: eval's header (llm/wilson.h) and birth's
// (theory/bootstrap.h) each define posbias::Interval, so no file includes both.
#include "experiments/birth/kv_influence.h"
#include "experiments/retrieval/kv_eval_command.h"

namespace posbias {

std::vector<KvExample> kv_influence_inputs(int length, const std::vector<int>& depths,
                                           int per_depth, std::uint64_t seed) {
  kv_pairs(length);  // std::invalid_argument when fewer than 2 pairs fit
  std::vector<KvExample> out;
  for (int d : depths) {
    for (int e = 0; e < per_depth; ++e) out.push_back(kv_eval_example(length, d, e, seed));
  }
  return out;
}

}  // namespace posbias
