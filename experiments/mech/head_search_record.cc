#include "experiments/mech/head_search_record.h"

#include <nlohmann/json.hpp>

#include "experiments/mech/head_search_sweep.h"
#include "posbias/core/field_table.h"
#include "posbias/core/required_fields.h"
#include "posbias/mech/constructions.h"
#include "posbias/mech/mech_codecs.h"

namespace posbias {
namespace {

const std::vector<FieldRow<HeadSearchPointRecord>>& head_search_point_fields() {
  using P = HeadSearchPointRecord;
  static const std::vector<FieldRow<P>> rows = {
      required(field("n", &P::n, "input length in tokens")),
      required(field<P, double, NanAsNull>("best_gap", &P::best_gap,
                                           "the best head's worst-case gap (designs included)")),
      required(field<P, double, NanAsNull>("construction_gap", &P::construction_gap,
                                           "the construction's gap at this n")),
      optional_field<P, double, NanAsNull>("single_frequency_gap", &P::single_frequency_gap,
                                           "index: the best one-frequency design's gap"),
      optional_field("bound", &P::bound, "index: the construction's bound π²/(2n²)"),
      required(field<P, std::vector<double>, NanAsNullList>(
          "start_gaps", &P::start_gaps, "the best hard gap of each random start")),
      required(field("theta", &P::theta, "the best head's frequencies")),
  };
  return rows;
}

const std::vector<FieldRow<HeadSearchRecord>>& head_search_record_fields() {
  using R = HeadSearchRecord;
  using PointCodec = ListCodec<HeadSearchPointRecord,
                               TableCodec<HeadSearchPointRecord, &head_search_point_fields>>;
  static const std::vector<FieldRow<R>> rows = {
      required(field("function", &R::function, "the construction: index or retrieval")),
      required(field("search", &R::search, "optimized")),
      required(field("frequencies", &R::frequencies, "free or rope (a fixed schedule)")),
      required(field("head_dim", &R::head_dim, "head dimensions")),
      optional_field("rope_theta", &R::rope_theta, "rope: the schedule's base"),
      optional_field("symbols", &R::symbols, "retrieval: symbols of the design"),
      optional_field("omega", &R::omega, "retrieval: the design's symbol spacing ω"),
      required(field("starts", &R::starts, "random starts beside the designs")),
      required(field("steps", &R::steps, "Adam steps per start")),
      required(field("seed", &R::seed, "the search's seed")),
      required(field<R, std::vector<HeadSearchPointRecord>, PointCodec>(
          "points", &R::points, "each length, in the sweep's order")),
      required(field("exponent", &R::exponent, "power law of the best gap against n")),
      required(field("construction_exponent", &R::construction_exponent,
                     "power law of the construction's gap against n")),
      required(field("seconds", &R::seconds, "wall time")),
  };
  return rows;
}

}  // namespace

HeadSearchRecord head_search_record(const HeadSearchSweepResult& r) {
  const HeadSearchOptions& o = r.sweep.search;
  const bool index = o.function == Construction::kIndex;
  HeadSearchRecord out;
  out.function = o.function;
  out.frequencies = o.frequencies;
  out.head_dim = o.head_dim;
  out.starts = o.starts;
  out.steps = o.steps;
  out.seed = o.seed;
  if (o.frequencies == SearchFrequencies::kRope) out.rope_theta = o.rope_theta;
  if (!index) {
    out.symbols = o.symbols;
    out.omega = o.omega;
  }
  for (const HeadSearchPoint& p : r.points) {
    HeadSearchPointRecord point{p.length,     p.best_gap, p.construction_gap, {}, {},
                                p.start_gaps, p.theta};
    if (index) {
      point.single_frequency_gap = p.single_frequency_gap;
      point.bound = index_bound(static_cast<double>(p.length));
    }
    out.points.push_back(std::move(point));
  }
  out.exponent = exponent_record(r.exponent, r.sweep.fit_from);
  out.construction_exponent = exponent_record(r.construction_exponent, r.sweep.fit_from);
  out.seconds = r.seconds;
  return out;
}

nlohmann::json to_json(const HeadSearchRecord& record) {
  return fields_to_json(head_search_record_fields(), record);
}

HeadSearchRecord head_search_record_from_json(const nlohmann::json& j) {
  return fields_from_json(head_search_record_fields(), j, HeadSearchRecord{}, "head search field");
}

bool holds_head_search_record(const nlohmann::json& j) {
  return holds_required_fields(head_search_record_fields(), j);
}

}  // namespace posbias
