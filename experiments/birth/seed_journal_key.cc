#include "experiments/birth/seed_journal_key.h"

#include <algorithm>
#include <array>

#include "experiments/birth/birth.h"
#include "posbias/hf/hf_config_codec.h"
#include "posbias/theory/theory_codecs.h"

namespace posbias {

const std::vector<FieldRow<SeedJournalText>>& seed_journal_text_fields();
template <>
struct FieldCodec<SeedJournalText> : TableCodec<SeedJournalText, &seed_journal_text_fields> {};

const std::vector<FieldRow<SeedJournalText>>& seed_journal_text_fields() {
  using T = SeedJournalText;
  static const std::vector<FieldRow<T>> rows = {
      field("file", &T::file, "the text file measured"),
      field("tokenizer", &T::tokenizer, "the tokenizer that encoded it (\"\": the checkpoint's)"),
  };
  return rows;
}

const std::vector<FieldRow<SeedJournalKey>>& seed_journal_key_fields() {
  using K = SeedJournalKey;
  // The measurement's fields a profile depends on, as birth's spec names them.
  static constexpr std::array kSpecFields = {"init", "method", "probes", "length", "input", "seed"};
  static const std::vector<FieldRow<K>> rows = [] {
    std::vector<FieldRow<K>> r = {
        field("config", &K::config, "the model as its Hugging Face config.json")};
    for (FieldRow<K>& row : member_fields(&K::spec, birth_spec_fields()))
      if (std::find(kSpecFields.begin(), kSpecFields.end(), row.name) != kSpecFields.end())
        r.push_back(std::move(row));
    r.push_back(field("attn_scale", &K::attn_scale,
                      "× the attention output projection's init std (--attn-init-scale)"));
    r.push_back(field("query", &K::query, "the query's position counted from 1; 0: the last"));
    r.push_back(field("target", &K::target, "what the profile differentiates"));
    r.push_back(field("weights", &K::weights, "the trained checkpoint measured (\"\": none)"));
    r.push_back(field("tokens", &K::tokens, "its token file (\"\": none)"));
    r.push_back(optional_field("text", &K::text, "the text measured and its tokenizer"));
    return r;
  }();
  return rows;
}

SeedJournalKey seed_journal_key(const BirthOptions& o, const ModelConfig& config) {
  SeedJournalKey k;
  k.config = hf_config_from_model(config);
  k.spec = o;
  k.attn_scale = o.attn_init_scale;
  k.query = o.query ? *o.query + 1 : 0;
  k.target = o.target;
  k.weights = o.weights;
  k.tokens = o.tokens;
  if (!o.text.empty()) k.text = SeedJournalText{o.text, o.tokenizer};
  return k;
}

nlohmann::json to_json(const SeedJournalKey& k) {
  return fields_to_json(seed_journal_key_fields(), k);
}

}  // namespace posbias
