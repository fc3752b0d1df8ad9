// `posbias theory`: the influence row e_qᵀ Nᴴ with its summary, continuum limit and figure.
//
// Options arrive as text where the theory needs exact values (α, sink: exact mode parses
// them as rationals). The row goes to stdout or --out as CSV (position, influence,
// log10_influence) or JSON; --summary writes the JSON summary alone; --plot draws figures.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "posbias/core/plot.h"
#include "posbias/theory/influence.h"

namespace posbias {

struct TheoryOptions {
  std::int64_t length = 1024;  // L
  std::int64_t layers = 24;    // H
  std::string alpha = "0.5";   // α, or a1,a2,... one per layer
  std::int64_t query = 0;      // q; 0 = last
  std::int64_t window = 0;     // W; 0 = no window
  std::string alibi;           // "m", "m1,m2,...", or "heads:N" (standard slopes)
  std::string sink = "0";      // sink share
  bool exact = false;          // GMP rationals
  std::string format = "csv";  // csv | json
  std::string out;             // row output file; empty = stdout
  std::string summary;         // JSON summary file
  std::string plot;            // figure stem
  double epsilon = 0.05;       // primacy window (fraction of q)
  int grid = 200;              // continuum density grid points
};

void run_theory(const TheoryOptions& options);

// Parsing shared with `theory fit` and `reproduce`. Throw std::invalid_argument.
std::vector<double> parse_alibi(const std::string& text);
InfluenceSpec make_influence_spec(const TheoryOptions& options);

// {config, discrete, continuum}: every derived quantity of the theory (docs/theory.md).
nlohmann::json theory_summary(const InfluenceSpec& spec, const std::vector<ExtReal>& row,
                              double epsilon, int grid);
nlohmann::json spec_json(const InfluenceSpec& spec);

// Row as CSV text (position,influence,log10_influence).
std::string row_csv(const std::vector<ExtReal>& row);

// Two panels: the profile for several H at the spec's α, and for several α at its H, on a
// log y-axis, with the primacy tail, dead zone and recency anchor marked.
Figure theory_family_figure(const InfluenceSpec& spec, const std::vector<std::int64_t>& layer_set,
                            const std::vector<double>& alpha_set);

}  // namespace posbias
