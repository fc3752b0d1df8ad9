#include "experiments/mech/presets.h"

#include "posbias/mech/trained_discrepancy.h"

namespace posbias {

MechPreset MechPreset::quick() {
  MechPreset p;
  p.name = "quick";
  p.construction_count = 16;
  p.discrepancy_lengths = {17, 32, 64, 128, 256};
  p.discrepancy_count = 40;
  return p;
}

MechPreset MechPreset::full() {
  MechPreset p;
  p.name = "full";
  p.construction_count = 64;
  p.discrepancy_lengths = TrainedDiscrepancyOptions{}.lengths;
  p.discrepancy_count = TrainedDiscrepancyOptions{}.count;
  return p;
}

}  // namespace posbias
