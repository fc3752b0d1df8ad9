// The text-training section of the `reproduce` report: a GPT-2 style language model trained on
// the Brown corpus at the preset's scale, its held-out bits per byte against the unigram and
// bigram baselines, the loss and gradient per position through training, and the influence
// profile of every checkpoint on held-out text (`birth --run`). The run lives in DIR/text/gpt2/
// and resumes if a previous reproduce was killed.
#pragma once

#include <filesystem>

#include "experiments/text/presets.h"
#include "posbias/core/report.h"

namespace posbias {

ReportSection text_report_section(const std::filesystem::path& dir, const TextPreset& preset);

}  // namespace posbias
