#include "experiments/theory/design_record.h"

#include <nlohmann/json.hpp>

#include "posbias/theory/theory_codecs.h"

namespace posbias {

const std::vector<FieldRow<DesignGridRecord>>& design_grid_record_fields();
const std::vector<FieldRow<DesignOperatorRecord>>& design_operator_record_fields();
template <>
struct FieldCodec<DesignGridRecord> : TableCodec<DesignGridRecord, &design_grid_record_fields> {};
template <>
struct FieldCodec<DesignOperatorRecord>
    : TableCodec<DesignOperatorRecord, &design_operator_record_fields> {};
template <>
struct FieldCodec<std::vector<DesignOperatorRecord>> : ListCodec<DesignOperatorRecord> {};

const std::vector<FieldRow<DesignGridRecord>>& design_grid_record_fields() {
  using G = DesignGridRecord;
  static const std::vector<FieldRow<G>> rows = {
      field("length", &G::length, "sequence length L"),
      field("query", &G::query, "the query's position (0-based); profiles hold query + 1 values"),
      field("layers", &G::layers, "layers H"),
      field("paths", &G::paths, "how paths through different layer sets combine"),
      field("baseline_alpha", &G::baseline_alpha, "the baseline's α (every layer)"),
      field("windows", &G::windows, "sliding windows W (0: none)"),
      field("alibis", &G::alibis, "ALiBi settings: none, a slope m, or heads:N"),
      field("sinks", &G::sinks, "attention-sink shares on position 0"),
      field("null_sinks", &G::null_sinks, "null-sink logits b (none: no null sink)"),
      field("alphas", &G::alphas, "α schedules: one α for every layer, or ramp a1:aH"),
      field("operators", &G::operators, "operators in the grid (the product of the lists)"),
  };
  return rows;
}

const std::vector<FieldRow<DesignOperatorRecord>>& design_operator_record_fields() {
  using O = DesignOperatorRecord;
  static const std::vector<FieldRow<O>> rows = {
      required(field("rank", &O::rank, "1 = the largest middle share")),
      field("window", &O::window, "sliding window W (0: none)"),
      field("alibi", &O::alibi, "none, a slope m, or heads:N"),
      field("sink", &O::sink, "attention-sink share on position 0"),
      field("null_sink", &O::null_sink, "null-sink logit b, or none"),
      field("alpha", &O::alpha, "α of every layer, or ramp a1:aH"),
      field("baseline", &O::baseline, "every knob neutral at the baseline α"),
      field<O, double, NanAsNull>("primacy", &O::primacy, "share of positions 0..7"),
      required(field<O, double, NanAsNull>("middle", &O::middle,
                                           "share of the middle fifth (the ranking statistic)")),
      field<O, double, NanAsNull>("recency", &O::recency,
                                  "share of the 8 positions before the query"),
      field<O, double, NanAsNull>("query", &O::query, "share of the query's own entry"),
      field<O, double, NanAsNull>("middle_change", &O::middle_change,
                                  "log10(middle share / the baseline's middle share)"),
      field("u_test", &O::u_test, "the U test's verdict on this one profile"),
      field<O, double, NanAsNull>("middle_vs_primacy", &O::middle_vs_primacy,
                                  "log10(middle's per-position share / primacy's)"),
      field<O, double, NanAsNull>("middle_vs_recency", &O::middle_vs_recency,
                                  "log10(middle's per-position share / recency's)"),
      field("birth_buildable", &O::birth_buildable, "posbias birth can build this operator"),
      field("birth_options", &O::birth_options, "birth's options for its knobs"),
      field("birth_note", &O::birth_note, "why birth cannot build it (empty: it can)"),
  };
  return rows;
}

const std::vector<FieldRow<DesignRecord>>& design_record_fields() {
  using R = DesignRecord;
  static const std::vector<FieldRow<R>> rows = {
      required(position_base_field(&R::position_base)),
      required(field("grid", &R::grid, "the grid searched")),
      field("statistic", &R::statistic, "what ranks the operators"),
      field("rule", &R::rule, "the U test's rule"),
      field("regions", &R::regions, "each region's [first, last] positions"),
      field("birth_builds", &R::birth_builds, "which knobs posbias birth can build"),
      field("baseline_rank", &R::baseline_rank, "the baseline operator's rank"),
      field("confirm", &R::confirm, "ranks of the best two operators birth can build"),
      required(field("operators", &R::operators, "every operator, by rank")),
      field("seconds", &R::seconds, "wall time of the search"),
      field("machine", &R::machine, "the machine it ran on"),
      field("version", &R::version, "posbias's version"),
  };
  return rows;
}

std::vector<CsvColumn<DesignOperatorRecord>> design_operator_columns() {
  return csv_field_columns(design_operator_record_fields(), &csv_shortest_json);
}

nlohmann::json to_json(const DesignRecord& r) { return fields_to_json(design_record_fields(), r); }

DesignRecord design_record_from_json(const nlohmann::json& j) {
  return fields_from_json(design_record_fields(), j, DesignRecord{}, "design field");
}

}  // namespace posbias
