#include "experiments/theory/theory_record.h"

#include "posbias/theory/profile_columns.h"

namespace posbias {

const std::vector<FieldRow<TheoryOperatorRecord>>& theory_operator_record_fields();
const std::vector<FieldRow<DeadZoneRecord>>& dead_zone_record_fields();
const std::vector<FieldRow<PrimacyRecord>>& primacy_record_fields();
const std::vector<FieldRow<DiscreteSummaryRecord>>& discrete_summary_record_fields();
const std::vector<FieldRow<DensityDeadZoneRecord>>& density_dead_zone_record_fields();
const std::vector<FieldRow<DensityGridRecord>>& density_grid_record_fields();
const std::vector<FieldRow<ContinuumRecord>>& continuum_record_fields();

template <>
struct FieldCodec<TheoryOperatorRecord>
    : TableCodec<TheoryOperatorRecord, &theory_operator_record_fields> {};
template <>
struct FieldCodec<TheoryConfigRecord>
    : TableCodec<TheoryConfigRecord, &theory_config_record_fields> {};
template <>
struct FieldCodec<DeadZoneRecord> : TableCodec<DeadZoneRecord, &dead_zone_record_fields> {};
template <>
struct FieldCodec<PrimacyRecord> : TableCodec<PrimacyRecord, &primacy_record_fields> {};
template <>
struct FieldCodec<DiscreteSummaryRecord>
    : TableCodec<DiscreteSummaryRecord, &discrete_summary_record_fields> {};
template <>
struct FieldCodec<DensityDeadZoneRecord>
    : TableCodec<DensityDeadZoneRecord, &density_dead_zone_record_fields> {};
template <>
struct FieldCodec<DensityGridRecord> : TableCodec<DensityGridRecord, &density_grid_record_fields> {
};
template <>
struct FieldCodec<ContinuumRecord> : TableCodec<ContinuumRecord, &continuum_record_fields> {};

const std::vector<FieldRow<TheoryOperatorRecord>>& theory_operator_record_fields() {
  using O = TheoryOperatorRecord;
  static const std::vector<FieldRow<O>> rows = [] {
    std::vector<FieldRow<O>> out = {
        required(field("name", &O::name, "the operator")),
        field("window", &O::window, "keys per query (0: all earlier keys)"),
        field("alibi_slopes", &O::alibi_slopes, "one ALiBi slope per head (empty: none)"),
        field("sink", &O::sink, "each query's attention share on position 0"),
        field("null_sink_weight", &O::null_sink_weight,
              "e^b of a null sink of logit b in every head"),
    };
    // Written only with a null sink: a file without one is what it was before the field existed.
    out.back().present = [](const O& o) { return o.null_sink_weight != 0; };
    return out;
  }();
  return rows;
}

const std::vector<FieldRow<TheoryConfigRecord>>& theory_config_record_fields() {
  using C = TheoryConfigRecord;
  static const std::vector<FieldRow<C>> rows = {
      required(field("length", &C::length, "L")),
      field("query", &C::query, "the query's position (q − 1)"),
      required(field("layers", &C::layers, "H")),
      field("alpha", &C::alpha, "α, or one per layer"),
      field("operator", &C::op, "the attention operator"),
  };
  return rows;
}

const std::vector<FieldRow<DeadZoneRecord>>& dead_zone_record_fields() {
  using D = DeadZoneRecord;
  static const std::vector<FieldRow<D>> rows = {
      field("position", &D::position, "the position j − 1 of argmin r_j over 1 < j < q (0: none)"),
      field<D, double, NanAsNull>("x", &D::x, "that key's j / q"),
      field<D, double, NanAsNull>("log10_influence", &D::log10_influence, "log10 of r there"),
  };
  return rows;
}

const std::vector<FieldRow<PrimacyRecord>>& primacy_record_fields() {
  using P = PrimacyRecord;
  static const std::vector<FieldRow<P>> rows = {
      field<P, double, NanAsNull>("epsilon", &P::epsilon, "the primacy window, a fraction of q"),
      field<P, double, NanAsNull>("mass", &P::mass, "the mass inside it"),
  };
  return rows;
}

const std::vector<FieldRow<DiscreteSummaryRecord>>& discrete_summary_record_fields() {
  using S = DiscreteSummaryRecord;
  static const std::vector<FieldRow<S>> rows = {
      field<S, double, NanAsNull>("log10_first", &S::log10_first, "log10 r_1"),
      field<S, double, NanAsNull>("log10_last", &S::log10_last, "log10 r_q"),
      field<S, double, NanAsNull>("log10_middle", &S::log10_middle, "log10 r at ⌈q/2⌉"),
      field("dead_zone", &S::dead_zone, "the row's minimum"),
      field("primacy", &S::primacy, "the primacy window's mass"),
      field<S, double, NanAsNull>("recency_mass", &S::recency_mass, "r_q"),
      field<S, double, NanAsNull>("total_mass", &S::total_mass, "Σ r_j"),
      field<S, double, NanAsNull>("log10_middle_to_ends", &S::log10_middle_to_ends,
                                  "log10 of r_mid / mean(r_1, r_q)"),
  };
  return rows;
}

const std::vector<FieldRow<DensityDeadZoneRecord>>& density_dead_zone_record_fields() {
  using D = DensityDeadZoneRecord;
  static const std::vector<FieldRow<D>> rows = {
      field<D, double, NanAsNull>("x", &D::x, "the grid's minimum"),
      field<D, double, NanAsNull>("log10_density", &D::log10_density, "log10 ρ there"),
      field("note", &D::note, "where the minimum sits"),
  };
  return rows;
}

const std::vector<FieldRow<DensityGridRecord>>& density_grid_record_fields() {
  using G = DensityGridRecord;
  static const std::vector<FieldRow<G>> rows = {
      field("x", &G::x, "the grid's midpoints in (0, 1)"),
      field<G, std::vector<double>, NanAsNullList>("log10_density", &G::log10_density,
                                                   "log10 ρ at each"),
  };
  return rows;
}

const std::vector<FieldRow<ContinuumRecord>>& continuum_record_fields() {
  using C = ContinuumRecord;
  static const std::vector<FieldRow<C>> rows = {
      field<C, double, NanAsNull>("recency_mass", &C::recency_mass, "the recency delta's mass"),
      field("primacy", &C::primacy, "the primacy window's mass"),
      field<C, double, NanAsNull>("middle_to_ends", &C::middle_to_ends,
                                  "the middle against the ends"),
      field("dead_zone", &C::dead_zone, "the density's minimum on the grid"),
      field("grid", &C::grid, "the density on a grid"),
      field<C, double, NanAsNull>("bulk_max_relative_error", &C::bulk_max_relative_error,
                                  "max |q·r_j / ρ(j/q) − 1| in the bulk"),
  };
  return rows;
}

const std::vector<FieldRow<TheoryRecord>>& theory_record_fields() {
  using T = TheoryRecord;
  static const std::vector<FieldRow<T>> rows = {
      position_base_field(&T::position_base),
      required(field("config", &T::config, "the theory's spec")),
      field("version", &T::version, "posbias's version"),
      required(field("discrete", &T::discrete, "the discrete row's summary")),
      field("continuum", &T::continuum, "the continuum limit's (null: not derived)"),
      optional_field("machine", &T::machine, "the machine (--summary)"),
  };
  return rows;
}

nlohmann::json to_json(const TheoryRecord& r) { return fields_to_json(theory_record_fields(), r); }

nlohmann::json to_json(const TheoryConfigRecord& r) {
  return fields_to_json(theory_config_record_fields(), r);
}

TheoryRecord theory_record_from_json(const nlohmann::json& j) {
  auto [r, shift] =
      read_positioned(theory_record_fields(), j, &TheoryRecord::position_base, "theory field");
  r.config.query -= shift;
  if (r.discrete.dead_zone.position > 0) r.discrete.dead_zone.position -= shift;
  return r;
}

const std::vector<FieldRow<ExactConfigRecord>>& exact_config_record_fields();
template <>
struct FieldCodec<ExactConfigRecord> : TableCodec<ExactConfigRecord, &exact_config_record_fields> {
};

const std::vector<FieldRow<ExactConfigRecord>>& exact_config_record_fields() {
  using C = ExactConfigRecord;
  static const std::vector<FieldRow<C>> rows = {
      required(field("length", &C::length, "L")),
      field("query", &C::query, "the query's position (q − 1)"),
      required(field("layers", &C::layers, "H")),
      field("window", &C::window, "keys per query (0: all earlier keys)"),
      field("sink", &C::sink, "each query's attention share on position 0, exactly"),
      field("exact", &C::exact, "the row is exact (GMP rationals)"),
      field("alpha", &C::alpha, "α, or one per layer, exactly"),
      optional_field("null_sink", &C::null_sink, "the null sink's logit b"),
      optional_field("null_sink_weight", &C::null_sink_weight, "e^b as the exact rational taken"),
  };
  return rows;
}

const std::vector<FieldRow<ExactTheoryRecord>>& exact_theory_record_fields() {
  using T = ExactTheoryRecord;
  static const std::vector<FieldRow<T>> rows = {
      position_base_field(&T::position_base),
      required(field("config", &T::config, "the theory's spec")),
      field("version", &T::version, "posbias's version"),
      field(profile_csv::kPosition, &T::position, "key positions 0..q − 1"),
      field(profile_csv::kFraction, &T::fraction, "each position's influence, an exact fraction"),
      field<T, std::vector<double>, NanAsNullList>(profile_csv::kLog10Influence,
                                                   &T::log10_influence, "log10 of each (null: 0)"),
  };
  return rows;
}

nlohmann::json to_json(const ExactTheoryRecord& r) {
  return fields_to_json(exact_theory_record_fields(), r);
}

ExactTheoryRecord exact_theory_record_from_json(const nlohmann::json& j) {
  auto [r, shift] = read_positioned(exact_theory_record_fields(), j,
                                    &ExactTheoryRecord::position_base, "theory field");
  r.config.query -= shift;
  for (auto& p : r.position) p -= shift;
  return r;
}

}  // namespace posbias
