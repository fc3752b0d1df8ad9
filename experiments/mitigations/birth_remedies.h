// The mitigations section's remedies at birth (docs/mitigations.md: the null sink, the BOS sink
// and inverse design), each paired by seed with the model at init without it:
//   null sink: `birth` of each model with `--null-sink b` against the same seeds without it
//     (the sink's logits are set, not drawn, so every other weight is the seed's);
//   BOS sink: `birth` of the preset's bos shape at W and at W + 1 tokens (the sink at position
//     0: at init its embedding is a draw of the law every input is drawn from); the change of the
//     example's middle fifth (positions 1.. of the sink run), as a share of the whole profile;
//   inverse design: `theory design` over the preset's grid at the plain model's measured α̂
//     (rounded to 2 decimals), then `birth` of the best operator birth can build.
// The quantity is the log10 change of the middle fifth's share of the influence, as
// `theory shares --baseline` computes it. Files: DIR/FILE_plain.json, FILE_null_sink.json,
// FILE_design_search.json, FILE_design.json, bos_plain.json, bos_sink.json (birth --json's).
#pragma once

#include <filesystem>
#include <vector>

#include "experiments/mitigations/presets.h"
#include "experiments/mitigations/remedy_row.h"

namespace posbias {

std::vector<RemedyRow> measure_birth_remedies(const std::filesystem::path& dir,
                                              const MitigationsPreset& preset);

}  // namespace posbias
