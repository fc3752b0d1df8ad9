// What a seed of `birth` depends on, as its seed journal (seed_journal.h) records it: the model
// and the measurement, not the seed count, the attention path (equal to rounding) or what is done
// with the profiles afterwards. A resume whose key differs is refused, and data-parallel ranks
// agree on it before they start. One field table writes it; its on-disk names are the ones
// journals have always had (attn_scale for --attn-init-scale, the query counted from 1), so a
// journal an earlier build wrote still resumes.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "posbias/core/field_table.h"
#include "posbias/hf/hf_config.h"
#include "posbias/theory/birth_spec.h"
#include "posbias/theory/influence_method.h"

namespace posbias {

struct BirthOptions;

// The text a profile was measured on (birth --text) and the tokenizer that encoded it.
struct SeedJournalText {
  std::string file, tokenizer;
};

struct SeedJournalKey {
  // The model, written as its Hugging Face config.json (hf_config_codec.h): the bytes the raw
  // JSON of earlier builds held, so their journals resume.
  HfConfig config = hf_config_from_model(ModelConfig{});
  // The measurement: its init, method, probes, length, input and seed, by birth_spec_fields'
  // rows; its other fields are not in the key.
  BirthSpec spec;
  double attn_scale = 1.0;  // birth's --attn-init-scale
  std::int64_t query = 0;   // the query counted from 1, 0 for the last (the 1-based builds' key)
  InfluenceTarget target = InfluenceTarget::kHidden;
  std::string weights, tokens;          // a trained checkpoint and its token file ("" when none)
  std::optional<SeedJournalText> text;  // written only with --text
};

const std::vector<FieldRow<SeedJournalKey>>& seed_journal_key_fields();
SeedJournalKey seed_journal_key(const BirthOptions& options, const ModelConfig& config);
nlohmann::json to_json(const SeedJournalKey& key);

}  // namespace posbias
