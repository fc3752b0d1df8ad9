#include "experiments/retrieval/kv_seeds_record.h"

#include <fmt/format.h>

#include "posbias/tasks/task_codecs.h"

namespace posbias {

const std::vector<FieldRow<UOverSeeds>>& u_over_seeds_fields();
const std::vector<FieldRow<KvUVerdictsRecord>>& kv_u_verdicts_record_fields();
const std::vector<FieldRow<EffectiveLengthsRecord>>& effective_lengths_record_fields();

template <>
struct FieldCodec<UOverSeeds> : TableCodec<UOverSeeds, &u_over_seeds_fields> {};
template <>
struct FieldCodec<KvUVerdictsRecord> : TableCodec<KvUVerdictsRecord, &kv_u_verdicts_record_fields> {
};
template <>
struct FieldCodec<EffectiveLengthsRecord>
    : TableCodec<EffectiveLengthsRecord, &effective_lengths_record_fields> {};

const std::vector<FieldRow<UOverSeeds>>& u_over_seeds_fields() {
  using U = UOverSeeds;
  static const std::vector<FieldRow<U>> rows = {
      required(field("verdict", &U::verdict, "U, no U or undetermined")),
      field("middle_minus_start", &U::middle_minus_start, "each seed's middle - start"),
      field("middle_minus_end", &U::middle_minus_end, "each seed's middle - end"),
  };
  return rows;
}

const std::vector<FieldRow<KvUVerdictsRecord>>& kv_u_verdicts_record_fields() {
  using V = KvUVerdictsRecord;
  static const std::vector<FieldRow<V>> rows = {
      field("rule", &V::rule, "the verdict's rule"),
      field("by_length", &V::by_length, "the verdict at each length"),
      field("pooled", &V::pooled, "every length's regions pooled"),
  };
  return rows;
}

const std::vector<FieldRow<EffectiveLengthsRecord>>& effective_lengths_record_fields() {
  using E = EffectiveLengthsRecord;
  static const std::vector<FieldRow<E>> rows = {
      field<E, std::vector<std::optional<std::int64_t>>, ListCodec<std::optional<std::int64_t>>>(
          "values", &E::values, "each seed's effective length (null: none)"),
      field("median", &E::median, "their lower median (null: below the shortest)"),
  };
  return rows;
}

const std::vector<FieldRow<KvSeedsRecord>>& kv_seeds_record_fields() {
  using R = KvSeedsRecord;
  static const std::vector<FieldRow<R>> rows = {
      optional_field("task", &R::task, "the runs' task: kv or passkey"),
      field("files", &R::files, "each seed's eval --run result"),
      required(field("seeds", &R::seeds, "training seeds")),
      field("lengths", &R::lengths, "context lengths, in tokens"),
      field("depths", &R::depths, "depths of the answer, in percent"),
      field("threshold", &R::threshold, "RULER's threshold for the effective length"),
      field("depth_accuracy", &R::depth_accuracy, "a statistic per length and depth"),
      field("mean_accuracy", &R::mean_accuracy, "per length, each seed's mean over depths"),
      field("u_verdict", &R::u_verdict, "middle against both ends, over seeds"),
      field("effective_length", &R::effective_length, "RULER's effective length per seed"),
      optional_field("unchecked_configurations", &R::unchecked_configurations,
                     "files not checked to be of one configuration"),
  };
  return rows;
}

KvSeedsRecord kv_seeds_record(const KvSeedsResult& r) {
  KvSeedsRecord out;
  out.task = r.task;
  out.files = r.files;
  out.seeds = static_cast<std::int64_t>(r.files.size());
  out.lengths = r.lengths;
  out.depths = r.depths;
  out.threshold = r.threshold;
  for (std::size_t l = 0; l < r.lengths.size(); ++l) {
    const std::string key = std::to_string(r.lengths[l]);
    for (std::size_t d = 0; d < r.depths.size(); ++d)
      out.depth_accuracy[key][fmt::format("{}", r.depths[d])] = r.cells[l][d];
    out.mean_accuracy[key] = r.mean_accuracy[l];
    out.u_verdict.by_length[key] = r.u_by_length[l];
  }
  out.u_verdict.rule =
      "each seed's middle - start and middle - end (regions [30, 70], [0, 10], [90, 100]); U when "
      "both Student-t 95% intervals over seeds lie below 0";
  out.u_verdict.pooled = r.u_pooled;
  for (const std::optional<int>& e : r.effective_lengths)
    out.effective_length.values.push_back(e ? std::optional<std::int64_t>(*e) : std::nullopt);
  if (r.effective_length_median) out.effective_length.median = *r.effective_length_median;
  if (r.unchecked > 0) out.unchecked_configurations = static_cast<std::int64_t>(r.unchecked);
  return out;
}

nlohmann::json to_json(const KvSeedsRecord& r) {
  return fields_to_json(kv_seeds_record_fields(), r);
}

KvSeedsRecord kv_seeds_record_from_json(const nlohmann::json& j) {
  return fields_from_json(kv_seeds_record_fields(), j, KvSeedsRecord{}, "seeds field");
}

}  // namespace posbias
