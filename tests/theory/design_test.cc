// `theory design` (experiments/theory/design_command.h): the search ranks by the same shares the
// theory gives each operator alone, the baseline is in every grid with the plain theory's shares,
// knobs at their neutral values give the baseline, the layers' order of a per-layer α does not
// matter (their N_l commute), birth's buildable operators are the ones it has options for, and
// the result file reads back strictly.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "experiments/theory/design_command.h"
#include "posbias/arch/config.h"
#include "posbias/theory/birth_flags.h"

namespace posbias {
namespace {

const DesignAlibi kNoAlibi{"none", {}, 0};
DesignAlibi alibi_slope(double m, const std::string& name) { return {name, {m}, 0}; }
DesignAlibi alibi_heads(int n) {
  return {"heads:" + std::to_string(n), alibi_standard_slopes(n), n};
}

DesignOptions small_grid(PathSum paths) {
  DesignOptions o;
  o.length = 96;
  o.layers = 6;
  o.paths = paths;
  o.grid.windows = {0, 20, 48};
  o.grid.alibis = {kNoAlibi, alibi_slope(0.02, "0.02"), alibi_heads(4)};
  o.grid.sinks = {0, 0.1};
  o.grid.null_sinks = {std::nullopt, 0.0, 3.0};
  o.grid.alphas = {design_alpha(0.3), design_alpha(0.5), design_alpha(0.8),
                   design_ramp(0.2, 0.9, 6)};
  return o;
}

// The shares of a spec built here by hand, from the double row.
ProfileShares shares_alone(const InfluenceSpec& spec) {
  return profile_shares(influence_row_double(spec));
}

void expect_same_shares(const ProfileShares& a, const ProfileShares& b, const std::string& what) {
  for (ShareRegion region : kShareRegions)
    EXPECT_NEAR(a.of(region), b.of(region), 1e-12 * std::max(1.0, b.of(region)))
        << what << " " << to_string(region);
}

TEST(TheoryDesign, TheBestOperatorHasTheSharesTheTheoryGivesItAlone) {
  for (PathSum paths : {PathSum::kLinear, PathSum::kQuadrature}) {
    const DesignOptions o = small_grid(paths);
    const DesignResult r = run_design_search(o);
    ASSERT_EQ(r.points.size(), 3u * 3 * 2 * 3 * 4);
    for (std::size_t i : {std::size_t{0}, std::size_t{1}, r.points.size() - 1}) {
      const DesignPoint& p = r.points[i];
      InfluenceSpec spec;
      spec.length = o.length;
      spec.layers = o.layers;
      spec.alpha = p.alpha.alpha;
      spec.op.window = p.window;
      spec.op.alibi_slopes = p.alibi.slopes;
      spec.op.sink = p.sink;
      if (p.null_sink) spec.op.null_sink_weight = std::exp(*p.null_sink);
      spec.paths = paths;
      expect_same_shares(p.shares, shares_alone(spec), "rank " + std::to_string(i + 1));
    }
    // Ranked by the middle fifth's share, largest first.
    for (std::size_t i = 1; i < r.points.size(); ++i)
      EXPECT_GE(r.points[i - 1].shares.of(ShareRegion::kMiddle),
                r.points[i].shares.of(ShareRegion::kMiddle));
  }
}

TEST(TheoryDesign, TheBaselineIsInTheGridWithThePlainTheorysShares) {
  DesignOptions o = small_grid(PathSum::kLinear);
  o.grid.alphas = {design_alpha(0.3), design_alpha(0.8)};  // the baseline's 0.5 is added
  o.grid.windows = {20};                                   // and no window
  const DesignResult r = run_design_search(o);
  ASSERT_EQ(r.grid.alphas.front().name, "0.5");
  ASSERT_EQ(r.grid.windows.front(), 0);
  int baselines = 0;
  for (const DesignPoint& p : r.points) baselines += p.baseline;
  EXPECT_EQ(baselines, 1);
  const DesignPoint& base = r.points[r.baseline_rank];
  ASSERT_TRUE(base.baseline);
  InfluenceSpec plain;  // what `posbias theory -L 96 -H 6` computes
  plain.length = 96;
  plain.layers = 6;
  plain.alpha = {0.5};
  EXPECT_EQ(base.shares.share, design_shares(plain).share);
  expect_same_shares(base.shares, shares_alone(plain), "baseline");
  EXPECT_EQ(base.middle_change, 0.0);
  EXPECT_TRUE(base.birth_buildable);
  EXPECT_EQ(base.birth_options, "");
}

TEST(TheoryDesign, AKnobAtItsNeutralValueIsTheBaseline) {
  DesignOptions o = small_grid(PathSum::kQuadrature);
  // A window longer than the sequence, ALiBi slope 0, a null sink of weight e^-700 and a ramp
  // from 0.5 to 0.5 are each the baseline's operator by another name.
  o.grid.windows = {0, 100000};
  o.grid.alibis = {kNoAlibi, alibi_slope(0, "0")};
  o.grid.sinks = {0};
  o.grid.null_sinks = {std::nullopt, -700.0};
  o.grid.alphas = {design_alpha(0.5), design_ramp(0.5, 0.5, 6)};
  const DesignResult r = run_design_search(o);
  ASSERT_EQ(r.points.size(), 16u);
  const ProfileShares& base = r.points[r.baseline_rank].shares;
  for (const DesignPoint& p : r.points) {
    expect_same_shares(p.shares, base, p.alibi.name + " W " + std::to_string(p.window));
    EXPECT_NEAR(p.middle_change, 0.0, 1e-12);
  }
}

TEST(TheoryDesign, APerLayerAlphaActsThroughItsValuesNotTheirOrder) {
  DesignOptions o = small_grid(PathSum::kLinear);
  o.grid.alphas = {design_alpha(0.3), design_alpha(0.5), design_alpha(0.8),
                   design_ramp(0.2, 0.9, 6), design_ramp(0.9, 0.2, 6)};
  const DesignResult r = run_design_search(o);
  const DesignPoint *up = nullptr, *down = nullptr;
  for (const DesignPoint& p : r.points) {
    if (p.window != 20 || p.alibi.name != "0.02" || p.sink != 0.1 || p.null_sink != 3.0) continue;
    if (p.alpha.name == "ramp 0.2:0.9") up = &p;
    if (p.alpha.name == "ramp 0.9:0.2") down = &p;
  }
  ASSERT_TRUE(up && down);
  EXPECT_EQ(up->alpha.alpha.front(), 0.2);
  EXPECT_EQ(up->alpha.alpha.back(), 0.9);
  expect_same_shares(up->shares, down->shares, "ramp up against down");
}

TEST(TheoryDesign, BirthBuildsWindowsNullSinksAndItsOwnAlibiAtTheBaselineAlpha) {
  const DesignResult r = run_design_search(small_grid(PathSum::kLinear));
  for (const DesignPoint& p : r.points) {
    const bool alpha_ok = !p.alpha.per_layer && p.alpha.alpha.front() == 0.5;
    const bool reach = p.window == 0 || 6 * (p.window - 1) >= 95;
    const bool expected =
        alpha_ok && p.sink == 0 && (p.alibi.slopes.empty() || p.alibi.heads > 0) && reach;
    EXPECT_EQ(p.birth_buildable, expected) << p.birth_options << " / " << p.birth_note;
    EXPECT_EQ(p.birth_note.empty(), p.birth_buildable);
    if (p.alibi.heads == 4)
      EXPECT_NE(p.birth_options.find("--pos alibi --heads 4"), std::string::npos);
  }
  ASSERT_EQ(r.confirm.size(), 2u);
  EXPECT_TRUE(r.points[r.confirm[0]].birth_buildable);
  EXPECT_FALSE(r.points[r.confirm[0]].baseline);
  EXPECT_LT(r.confirm[0], r.confirm[1]);
  // The standard slopes are the theory's heads:4.
  EXPECT_EQ(r.grid.alibis.back().slopes, alibi_standard_slopes(4));
}

// Each operator's birth options are its knobs' flags in the grid's order, as the design files
// have always written them (birth's table lists --heads before --pos and --window); its spec
// holds the same knobs.
TEST(TheoryDesign, BirthOptionsListTheKnobsInTheGridsOrder) {
  const DesignResult r = run_design_search(small_grid(PathSum::kLinear));
  const auto point = std::find_if(r.points.begin(), r.points.end(), [](const DesignPoint& p) {
    return p.window == 48 && p.alibi.heads == 4 && p.sink == 0 && p.null_sink == 3.0 &&
           p.alpha.name == "0.5";
  });
  ASSERT_NE(point, r.points.end());
  EXPECT_EQ(point->birth_options, "--window 48 --pos alibi --heads 4 --null-sink 3");
  EXPECT_EQ(birth_flags(point->birth), "--heads 4 --pos alibi --window 48 --null-sink 3");
}

TEST(TheoryDesign, TheResultReadsBackStrictly) {
  const DesignResult r = run_design_search(small_grid(PathSum::kLinear));
  const nlohmann::json j = to_json(r);
  const DesignRecord back = design_record_from_json(j);
  EXPECT_EQ(to_json(back), j);
  EXPECT_EQ(back.operators.size(), r.points.size());
  EXPECT_EQ(back.operators.front().rank, 1);
  EXPECT_DOUBLE_EQ(back.operators.front().middle, r.points.front().shares.of(ShareRegion::kMiddle));
  nlohmann::json bad = j;
  bad["operators"][2]["middle"] = "large";
  try {
    design_record_from_json(bad);
    ADD_FAILURE() << "a mistyped field was read";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("design field 'operators.2.middle'"), std::string::npos)
        << e.what();
  }
  bad = j;
  bad["operators"][0]["verdict"] = "U";
  EXPECT_THROW(design_record_from_json(bad), std::invalid_argument);
  // The CSV: a header and one row per operator, the best first.
  const std::string csv = design_csv(r);
  EXPECT_EQ(csv.substr(0, csv.find('\n')).rfind("rank,window,alibi,sink,null_sink,alpha,", 0), 0u);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), static_cast<long>(r.points.size()) + 1);
}

TEST(TheoryDesign, BadGridsAreRefusedInOneLine) {
  auto refusal = [](auto edit) {
    DesignOptions o = small_grid(PathSum::kLinear);
    edit(o);
    try {
      run_design_search(o);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  // The lists' spelling (an empty list, a ramp not a1:aH, a name that is not a number) is the
  // command line's to refuse: tests/core/cli_test.cc's TheoryDesignBadInputIsOneLineExitTwo.
  EXPECT_NE(refusal([](DesignOptions& o) {
              o.grid.windows = {0, -3};
            }).find("--windows values must be >= 0 (0: no window), got -3"),
            std::string::npos);
  EXPECT_NE(refusal([](DesignOptions& o) {
              o.grid.alphas = {design_alpha(1.5)};
            }).find("--alphas values must be in [0, 1], got 1.5"),
            std::string::npos);
  EXPECT_NE(refusal([](DesignOptions& o) {
              o.grid.alphas = {design_ramp(0.2, 1.5, 6)};
            }).find("--ramps values must be in [0, 1], got 1.5"),
            std::string::npos);
  EXPECT_NE(refusal([](DesignOptions& o) {
              o.grid.alphas = {design_ramp(1.5, 0.2, 6)};
            }).find("--ramps values must be in [0, 1], got 1.5"),
            std::string::npos);
  EXPECT_NE(refusal([](DesignOptions& o) {
              o.grid.alphas = {design_ramp(0.2, 0.9, 4)};
            }).find("needs 6 values"),
            std::string::npos);
  EXPECT_NE(refusal([](DesignOptions& o) {
              o.grid.alibis = {alibi_slope(-0.1, "-0.1")};
            }).find("--alibis slopes must be >= 0, got -0.1"),
            std::string::npos);
  EXPECT_NE(refusal([](DesignOptions& o) {
              o.grid.sinks = {2};
            }).find("--sinks values must be in [0, 1]"),
            std::string::npos);
  EXPECT_NE(refusal([](DesignOptions& o) { o.grid.null_sinks = {800.0}; }).find("700"),
            std::string::npos);
  EXPECT_NE(refusal([](DesignOptions& o) { o.length = 30; }).find("middle fifth"),
            std::string::npos);
  EXPECT_NE(refusal([](DesignOptions& o) {
              o.grid.windows.clear();
              for (int k = 0; k < 4000; ++k) o.grid.windows.push_back(k);
            }).find("operators, more than"),
            std::string::npos);
}

}  // namespace
}  // namespace posbias
