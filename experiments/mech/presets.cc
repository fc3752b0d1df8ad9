#include "experiments/mech/presets.h"

#include "experiments/mech/ablation_command.h"
#include "experiments/mech/head_search_sweep.h"
#include "posbias/mech/trained_discrepancy.h"

namespace posbias {

MechPreset MechPreset::quick() {
  return {"quick", 16, {17, 32, 64, 128, 256}, 40, {16, 64, 256}, 150, 48};
}

// The trained-model discrepancy at `posbias discrepancy --run`'s own defaults, the head search
// at `discrepancy --search`'s and the ablation at `heads --ablate`'s.
MechPreset MechPreset::full() {
  const TrainedDiscrepancyOptions d;
  const HeadSearchSweep search;
  return {
      "full", 64, d.lengths, d.count, search.lengths, search.search.steps, CausalOptions{}.count};
}

}  // namespace posbias
