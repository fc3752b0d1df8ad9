// Causal tests of a hop model's layers (docs/mech.md, "Does the model need the head?"): what
// the answer does when one layer's attention output is taken away or replaced.
//
// Mean-ablation: layer l's heads' output z (before the output projection, so the projection and
// its bias still run) is replaced, at every position, by its mean over the evaluated inputs of
// that length; every other layer runs as trained. The accuracy per hop is then what the model
// does without what that layer's attention adds beyond its average.
//
// Activation patching (Number, 1 hop): a clean input and a corrupted one that differ in the
// query's integer alone (the jump to another letter of the block, so the answer changes).
// Layer l's z from the corrupted run replaces the clean run's; the fraction of inputs whose
// prediction becomes the corrupted answer says how much of the jump passes through that layer.
//
// Shapes: z [B, L, H·E]; means [L, H·E].
#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "posbias/model/transformer.h"
#include "posbias/tasks/hop_task.h"
#include "posbias/train/hop_eval.h"

namespace posbias {

struct AblationSpec {
  Task task = Task::kNumber;
  std::vector<int> hops{1, 2, 3, 4};
  std::vector<int> lengths{kTrainLength, 32};
  std::int64_t count = 200;  // examples per (length, hop), per_hop_spec's
  std::uint64_t seed = 1;    // the held-out examples `posbias eval` scores for the same seed
  std::vector<int> layers;   // 0-based; empty: every layer, one at a time
  // Two or more `layers` given: also ablate them all at once (a model can hold one skill in
  // several layers, and then no single ablation shows it).
  // Spans: also ablate layers 0..k and k..last at once, for every k: where the computation
  // lives, with no layers chosen by hand.
  bool spans = false;
};

// A set of consecutive layers ablated at once.
struct AblatedSpan {
  int first = 0, last = 0;
  std::vector<HopAccuracy> accuracy;  // per length
};

struct AblationResult {
  std::vector<int> lengths, layers;
  std::vector<HopAccuracy> baseline;              // per length, nothing ablated
  std::vector<std::vector<HopAccuracy>> ablated;  // [layer index in `layers`][length]
  std::vector<HopAccuracy> joint;  // per length, every layer of spec.layers ablated at once
  std::vector<AblatedSpan> spans;  // with spec.spans: 0..k for k < last, then k..last for k > 0
};

// The layers `spec` tests (spec.layers, or every layer). Throws std::invalid_argument on a
// layer outside the model, an empty hop or length list, a count outside 1..100000, or a length
// the task's examples or the model's positions cannot have: what the two functions below check
// first, for a caller that wants the refusal before it plans or loads anything more.
std::vector<int> causal_layers(const Transformer& model, const AblationSpec& spec);

// Called after each evaluated (length, layer) cell with the cells done and their total.
using CellProgress = std::function<void(std::int64_t done, std::int64_t total)>;

// Throws std::invalid_argument on a layer outside the model, an empty hop or length list, or a
// length the task's examples cannot have.
AblationResult mean_ablate_layers(Transformer& model, const AblationSpec& spec,
                                  const CellProgress& progress = {});

struct PatchingResult {
  std::vector<int> lengths, layers;
  std::int64_t pairs = 0;  // clean/corrupted pairs per length
  // Per length, no patch: the clean run's accuracy on the clean answer, the corrupted run's on
  // the corrupted answer.
  std::vector<double> clean_accuracy, corrupted_accuracy;
  // [layer][length]: fractions of pairs whose patched prediction is the corrupted answer
  // (moved) or still the clean answer (kept).
  std::vector<std::vector<double>> moved, kept;
};

// Number only (std::invalid_argument otherwise). spec.hops is ignored: the pairs are 1-hop.
PatchingResult patch_layers(Transformer& model, const AblationSpec& spec,
                            const CellProgress& progress = {});

}  // namespace posbias
