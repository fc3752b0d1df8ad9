// `posbias theory`: the influence row e_qᵀ Nᴴ with its summary, continuum limit and figure.
//
// α and the sink share arrive parsed for the engine that runs (TheoryNumbers). The row goes to
// stdout or --out as CSV (position, influence, log10_influence) or JSON; --summary writes the
// JSON summary alone; --plot draws the profile, --plot-sweep its depth and α sweeps.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "experiments/theory/theory_record.h"
#include "posbias/core/plot.h"
#include "posbias/theory/exact.h"
#include "posbias/theory/influence.h"
#include "posbias/theory/profile_summary.h"

namespace posbias {

// The row's output format: CSV (position, influence, log10_influence) or JSON (with the summary).
enum class RowFormat { kCsv, kJson };
RowFormat parse_row_format(const std::string& name);  // csv | json
std::string to_string(RowFormat format);

// α (one value, or one per layer) or the sink share as `theory` takes them, parsed once at the
// command line: the float engine's numbers, or under --exact the rationals the text spells
// ("0.1" is 1/10; a fraction "1/3" only --exact reads). The two engines read the same text
// differently, so one value carries both: the defaults hold both, a parsed value the one its
// engine reads (the other empty).
struct TheoryNumbers {
  std::vector<double> values;    // the float engine's
  std::vector<mpq_class> exact;  // --exact's
};
// A comma list (`list`) or one number, as the float engine reads it (parse_number_list,
// parse_number) or, with `exact`, as rationals (parse_rational); std::invalid_argument with
// their messages, naming `what` where they do.
TheoryNumbers parse_theory_numbers(const std::string& text, const std::string& what, bool exact,
                                   bool list);

struct TheoryOptions {
  std::int64_t length = 1024;                        // L
  std::int64_t layers = 24;                          // H
  TheoryNumbers alpha = {{0.5}, {mpq_class(1, 2)}};  // α, or a1,a2,... one per layer
  std::optional<std::int64_t> query;                 // the query's position; none: the last
  std::int64_t window = 0;                           // W; 0 = no window
  std::vector<double> alibi_slopes;  // empty: no ALiBi (the command line parses --alibi)
  TheoryNumbers sink = {{0.0}, {mpq_class(0)}};  // sink share, one number
  std::optional<double> null_sink;               // the null sink's logit b; none: no null sink
  bool exact = false;                            // GMP rationals
  RowFormat format = RowFormat::kCsv;
  std::string out;         // row output file; empty = stdout
  std::string summary;     // JSON summary file
  std::string plot;        // figure stem: the profile asked for
  std::string plot_sweep;  // figure stem: the depth and α sweeps around it
  double epsilon = 0.05;   // primacy window (fraction of q)
  int grid = 200;          // continuum density grid points
};

void run_theory(const TheoryOptions& options);

// Parsing shared with `theory fit` and `reproduce`. Throw std::invalid_argument.
std::vector<double> parse_alibi(const std::string& text);
InfluenceSpec make_influence_spec(const TheoryOptions& options);

// The continuum limit's quantities (Cesàro operator, H <= Continuum::kMaxLayers).
struct ContinuumSummary {
  double recency_mass = 0, primacy_epsilon = 0, primacy_mass = 0, middle_to_ends = 0;
  double dead_zone_x = 0, dead_zone_log10_density = 0;  // the grid's minimum
  std::vector<double> grid_x, grid_log10_density;       // `grid` midpoints of (0, 1)
  // max |q·r_j / ρ(j/q) − 1| over the bulk 1e-3 < j/q < 0.9 (thinned to 2000 positions).
  double bulk_max_relative_error = 0;
};

// Every derived quantity of the theory for one spec (docs/theory.md): the discrete row's
// summary and, where it is derived, the continuum limit's.
struct TheoryResult {
  InfluenceSpec spec;
  ProfileSummary discrete;
  std::optional<ContinuumSummary> continuum;  // none: not the Cesàro operator, or H too large
};
// std::invalid_argument for a grid outside 2..1000000.
TheoryResult summarize_theory(const InfluenceSpec& spec, const std::vector<ExtReal>& row,
                              double epsilon, int grid);
// The result as the files hold it (theory_record.h), and that as JSON.
TheoryRecord theory_record(const TheoryResult& result);
nlohmann::json to_json(const TheoryResult& result);

// Row as CSV text (position,influence,log10_influence).
std::string row_csv(const std::vector<ExtReal>& row);

// The profile asked for: the influence of every key position on the query against j / q, on a
// log y-axis, with position 1, the minimum and the query's own entry marked.
Figure theory_profile_figure(const InfluenceSpec& spec, const std::vector<ExtReal>& row);

// Two panels: the profile for several H at the spec's α, and for several α at its H, on a
// log y-axis, with position 1, the minimum and the query marked on the requested row.
Figure theory_family_figure(const InfluenceSpec& spec, const std::vector<std::int64_t>& layer_set,
                            const std::vector<double>& alpha_set);

}  // namespace posbias
