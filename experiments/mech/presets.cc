#include "experiments/mech/presets.h"

#include "posbias/mech/trained_discrepancy.h"

namespace posbias {

MechPreset MechPreset::quick() { return {"quick", 16, {17, 32, 64, 128, 256}, 40}; }

// The trained-model discrepancy at `posbias discrepancy --run`'s own defaults.
MechPreset MechPreset::full() {
  const TrainedDiscrepancyOptions d;
  return {"full", 64, d.lengths, d.count};
}

}  // namespace posbias
