#include "experiments/retrieval/colocation_record.h"

#include <nlohmann/json.hpp>

#include "posbias/tasks/task_codecs.h"

namespace posbias {

const std::vector<FieldRow<ColocationSeedRecord>>& colocation_seed_record_fields();
const std::vector<FieldRow<SpearmanRecord>>& spearman_record_fields();
template <>
struct FieldCodec<ColocationSeedRecord>
    : TableCodec<ColocationSeedRecord, &colocation_seed_record_fields> {};
template <>
struct FieldCodec<SpearmanRecord> : TableCodec<SpearmanRecord, &spearman_record_fields> {};
template <>
struct FieldCodec<std::vector<ColocationSeedRecord>> : ListCodec<ColocationSeedRecord> {};

const std::vector<FieldRow<ColocationSeedRecord>>& colocation_seed_record_fields() {
  using S = ColocationSeedRecord;
  static const std::vector<FieldRow<S>> rows = {
      field("influence_file", &S::influence_file, "its birth --inputs result", "PATH"),
      field("accuracy_file", &S::accuracy_file, "its eval result", "PATH"),
      field<S, std::vector<double>, NanAsNullList>("accuracy", &S::accuracy,
                                                   "the accuracy per depth bin"),
      field<S, std::vector<double>, NanAsNullList>("needle_share", &S::needle_share,
                                                   "the mean needle share per depth bin"),
      field<S, double, NanAsNull>("spearman", &S::spearman, "ρ (null: a row is constant)"),
  };
  return rows;
}

const std::vector<FieldRow<SpearmanRecord>>& spearman_record_fields() {
  using R = SpearmanRecord;
  static const std::vector<FieldRow<R>> rows = {
      field<R, double, NanAsNull>("mean", &R::mean, "the mean ρ over seeds"),
      field<R, double, NanAsNull>("low", &R::low, "its 95% Student-t interval's low end"),
      field<R, double, NanAsNull>("high", &R::high, "its high end"),
      field("n", &R::n, "seeds with a finite ρ"),
      optional_field("cut", &R::cut, "the interval ran past ±1 and was cut there"),
  };
  return rows;
}

const std::vector<FieldRow<ColocationRecord>>& colocation_record_fields() {
  using C = ColocationRecord;
  static const std::vector<FieldRow<C>> rows = {
      optional_field("inputs", &C::inputs, "kv or passkey"),
      field("length", &C::length, "the length co-located, tokens"),
      required(field("depths", &C::depths, "the depth bins, percent")),
      field("rule", &C::rule, "the statistic and the verdict's rule"),
      required(field("seeds", &C::seeds, "one pair of files per training seed")),
      field("spearman", &C::spearman, "ρ over the seeds"),
      field<C, std::vector<double>, NanAsNullList>("mean_accuracy", &C::mean_accuracy,
                                                   "the accuracy per bin, over seeds"),
      field<C, std::vector<double>, NanAsNullList>("mean_needle_share", &C::mean_needle_share,
                                                   "the needle share per bin, over seeds"),
      field("accuracy_minimum", &C::accuracy_minimum, "the bins tied at the lowest accuracy"),
      field("influence_minimum", &C::influence_minimum, "the bin of the lowest needle share"),
      field("seeds_same_bin", &C::seeds_same_bin, "seeds whose own minima share a bin"),
      required(field("verdict", &C::verdict, "same bin, different bins or no accuracy minimum")),
  };
  return rows;
}

nlohmann::json to_json(const ColocationRecord& r) {
  return fields_to_json(colocation_record_fields(), r);
}

ColocationRecord colocation_record_from_json(const nlohmann::json& j) {
  return fields_from_json(colocation_record_fields(), j, ColocationRecord{}, "colocation field");
}

}  // namespace posbias
