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

bool rope_schedule(const HeadSearchOptions& o) { return o.frequencies == SearchFrequencies::kRope; }
bool retrieval(const HeadSearchOptions& o) { return o.function != Construction::kIndex; }

// A row of the search's options written only when `searched` says the search reads it (read
// whenever the file gives it).
FieldRow<HeadSearchRecord> written_when(FieldRow<HeadSearchRecord> row,
                                        bool (*searched)(const HeadSearchOptions&)) {
  row.present = searched;
  return row;
}

}  // namespace

const std::vector<FieldRow<HeadSearchRecord>>& head_search_record_fields() {
  using R = HeadSearchRecord;
  using PointCodec = ListCodec<HeadSearchPointRecord,
                               TableCodec<HeadSearchPointRecord, &head_search_point_fields>>;
  // The options' rows name R's base members (HeadSearchOptions::*) as R's.
  static const std::vector<FieldRow<R>> rows = {
      required(
          field<R, Construction>("function", &R::function, "the construction: index or retrieval")),
      required(field("search", &R::search, "optimized")),
      required(field<R, SearchFrequencies>("frequencies", &R::frequencies,
                                           "free or rope (a fixed schedule)")),
      required(field<R, int>("head_dim", &R::head_dim, "head dimensions")),
      written_when(field<R, double>("rope_theta", &R::rope_theta, "rope: the schedule's base"),
                   rope_schedule),
      written_when(field<R, int>("symbols", &R::symbols, "retrieval: symbols of the design"),
                   retrieval),
      written_when(field<R, double>("omega", &R::omega, "retrieval: the design's symbol spacing ω"),
                   retrieval),
      required(field<R, int>("starts", &R::starts, "random starts beside the designs")),
      required(field<R, int>("steps", &R::steps, "Adam steps per start")),
      required(field<R, std::uint64_t>("seed", &R::seed, "the search's seed")),
      required(field<R, std::vector<HeadSearchPointRecord>, PointCodec>(
          "points", &R::points, "each length, in the sweep's order")),
      required(field("exponent", &R::exponent, "power law of the best gap against n")),
      required(field("construction_exponent", &R::construction_exponent,
                     "power law of the construction's gap against n")),
      required(field("seconds", &R::seconds, "wall time")),
  };
  return rows;
}

HeadSearchRecord head_search_record(const HeadSearchSweepResult& r) {
  HeadSearchRecord out;
  static_cast<HeadSearchOptions&>(out) = r.sweep.search;
  const bool index = !retrieval(out);
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
