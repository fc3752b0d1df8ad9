// `posbias theory design`: inverse design at birth (docs/mitigations.md, remedy 7). A declared
// grid of expected-attention operators and residual weights, every one's exact influence row by
// the theory engine (influence.h, the row `posbias theory` prints), ranked by the share of the
// middle fifth (profile_shares.h, the regions `theory shares` and `birth` use: primacy 0..7, the
// middle fifth of 0..q−1, recency the 8 positions before the query, the query), with each
// operator's U test (one profile: the verdict reads its two values).
//
// The grid is the product of five knobs, each a list; each list gains its neutral value when it
// lacks it, so the baseline (no window, no ALiBi, no sink share, no null sink, α = the baseline
// α) is always in the grid:
//   --windows     sliding window W (0: none)
//   --alibis      ALiBi: none, one slope m, or heads:N (the standard 2^(-8h/N) slopes)
//   --sinks       attention-sink share on position 0, in [0, 1]
//   --null-sinks  null-sink logit b, or none
//   --alphas      one α for every layer, in [0, 1]; --ramps a1:aH, a per-layer α rising or
//                 falling linearly from a1 (layer 1) to aH (layer H)
// Each operator also says whether `posbias birth` can build it, and with which options: birth
// builds a window (--window W, when its H·(W−1) keys reach position 0), a null sink
// (--null-sink b) and the standard ALiBi slopes of its own head count (--pos alibi --heads N);
// it has no sink share and no per-layer α, and sets α only indirectly (--attn-init-scale scales
// the attention branch; the α̂ the no-fit prediction uses is measured), so only operators at the
// baseline α count as buildable. The best two buildable operators are the confirmation's.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "experiments/theory/design_record.h"
#include "posbias/core/plot.h"
#include "posbias/theory/birth_spec.h"
#include "posbias/theory/influence.h"
#include "posbias/theory/profile_shares.h"

namespace posbias {

// One ALiBi setting of the grid.
struct DesignAlibi {
  std::string name;            // none | a slope m ("0.05") | heads:N
  std::vector<double> slopes;  // empty: none
  int heads = 0;               // N for heads:N, else 0
};

// One α schedule of the grid.
struct DesignAlpha {
  std::string name;           // "0.5" | "ramp 0.25:0.75"
  std::vector<double> alpha;  // one value (every layer) or H values
  bool per_layer = false;
};
// α for every layer, named by its value ("0.5").
DesignAlpha design_alpha(double alpha);
// A per-layer α rising or falling linearly from `first` (layer 1) to `last` (layer H), both
// exact at the ends, named "ramp first:last".
DesignAlpha design_ramp(double first, double last, std::int64_t layers);

// The grid: one list per knob (the α schedules hold the --alphas and then the --ramps).
struct DesignGrid {
  std::vector<std::int64_t> windows;
  std::vector<DesignAlibi> alibis;
  std::vector<double> sinks;
  std::vector<std::optional<double>> null_sinks;
  std::vector<DesignAlpha> alphas;
  std::size_t size() const {
    return windows.size() * alibis.size() * sinks.size() * null_sinks.size() * alphas.size();
  }
};

struct DesignOptions {
  std::int64_t length = 256;          // L
  std::int64_t layers = 12;           // H
  std::optional<std::int64_t> query;  // the query's position; none: the last
  PathSum paths = PathSum::kLinear;
  double baseline_alpha = 0.5;  // the baseline's α (theory's default)
  // The knobs' lists (--windows, --alibis, --sinks, --null-sinks, --alphas and --ramps), parsed at
  // the command line; run_design_search adds their neutral values.
  DesignGrid grid;
  int top = 4;  // profiles drawn beside the baseline
  std::string json, csv, plot;
};

// The largest grid the command takes.
inline constexpr std::size_t kMaxDesignOperators = 200000;

// The options' grid checked, each list with its neutral value added (first) when it lacks it:
// std::invalid_argument in one line naming the option for a window < 0, a slope < 0, a share or
// α outside [0, 1], |b| > 700, a per-layer α without one value per layer, or a grid larger than
// kMaxDesignOperators.
DesignGrid design_grid(const DesignOptions& options);

// One operator of the grid and what the theory says of it.
struct DesignPoint {
  std::int64_t window = 0;
  DesignAlibi alibi;
  double sink = 0;
  std::optional<double> null_sink;
  DesignAlpha alpha;
  bool baseline = false;  // every knob neutral at the baseline α
  ProfileShares shares;
  UTest u;
  double middle_change = 0;  // log10(middle share / the baseline's)
  bool birth_buildable = false;
  BirthSpec birth;  // what birth builds of it: its knobs on birth's defaults (buildable or not)
  std::string birth_options;  // birth's flags of those knobs (birth_flags), in the grid's order
  std::string birth_note;     // why it is not buildable; empty when it is
};

struct DesignResult {
  DesignOptions options;
  DesignGrid grid;
  std::int64_t query = 0;            // the query's key number q (1-based; profiles hold q)
  std::vector<DesignPoint> points;   // ranked: largest middle share first (ties: grid order)
  std::size_t baseline_rank = 0;     // index into points
  std::vector<std::size_t> confirm;  // indices of the best two buildable operators
  double seconds = 0;
};

// The spec of one grid point: the spec `posbias theory` builds from the same options.
InfluenceSpec design_spec(const DesignOptions& options, std::int64_t window,
                          const DesignAlibi& alibi, double sink,
                          const std::optional<double>& null_sink, const DesignAlpha& alpha);
// The shares of one spec's exact row (influence_row, in double after scaling its largest entry
// to 1).
ProfileShares design_shares(const InfluenceSpec& spec);

// Searches the grid (checks the options and the memory plan first; progress with ETA).
DesignResult run_design_search(const DesignOptions& options);
DesignRecord design_record(const DesignResult& result);
nlohmann::json to_json(const DesignResult& result);
std::string design_csv(const DesignResult& result);
// The best `top` profiles and the best two buildable ones beside the baseline, and the middle
// share as each knob alone moves from its neutral value.
Figure design_figure(const DesignResult& result);
// What a terminal shows: the best operators, the baseline and the confirmation's two.
std::string design_summary(const DesignResult& result);
void run_design(const DesignOptions& options);

}  // namespace posbias
