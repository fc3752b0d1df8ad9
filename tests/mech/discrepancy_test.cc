// The discrepancy constructions against their closed forms (docs/mech.md): the index head's
// gap is exactly 1 − cos(π/n) and decays as n⁻² with 100% accuracy; the retrieval head at
// θ = 0 keeps the gap 1 − cos ω at every n to 4096; with θ > 0 it loses accuracy at long n; the
// reflexive head's gap is the index head's.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <numbers>

#include "experiments/mech/discrepancy_command.h"
#include "experiments/mech/head_search_record.h"
#include "posbias/mech/constructions.h"
#include "posbias/mech/head_name.h"
#include "posbias/mech/trained_discrepancy_record.h"

namespace posbias {
namespace {

const std::vector<int> kLengths{16, 64, 256, 1024, 4096};

TEST(Discrepancy, IndexGapIsOneMinusCosThetaAndDecaysAsInverseSquare) {
  ConstructionSweep s;
  s.function = Construction::kIndex;
  s.lengths = {64, 128, 256, 512, 1024, 2048, 4096};
  s.count = 16;
  const auto r = sweep_construction(s);
  for (const SweepPoint& p : r.points) {
    const double n = p.length;
    const double exact = 1.0 - std::cos(std::numbers::pi / n);
    EXPECT_NEAR(p.discrepancy_min / exact, 1.0, 1e-6) << n;
    EXPECT_EQ(p.accuracy, 1.0) << n;
  }
  EXPECT_NEAR(r.slope.value, -2.0, 0.01);
  EXPECT_EQ(to_json(r)["slope"]["value"].get<double>(), r.slope.value);
}

// The third function: the query attends to itself through position alone, so its gap is the
// index head's 1 − cos(π/n) and decays as n⁻² too.
TEST(Discrepancy, ReflexiveGapIsOneMinusCosThetaAndItsTargetIsTheQuery) {
  ConstructionSweep s;
  s.function = Construction::kReflexive;
  s.lengths = {64, 256, 1024, 4096};
  s.count = 4;
  const auto r = sweep_construction(s);
  EXPECT_EQ(r.task, Task::kNumber);
  for (const SweepPoint& p : r.points) {
    const double n = p.length;
    EXPECT_NEAR(p.discrepancy_min / (1.0 - std::cos(std::numbers::pi / n)), 1.0, 1e-6) << n;
    EXPECT_EQ(p.accuracy, 1.0) << n;  // the top key is the query's own position
  }
  EXPECT_NEAR(r.slope.value, -2.0, 0.01);
  EXPECT_EQ(to_json(r)["theta"], "pi/n");
  EXPECT_THROW(parse_construction("reflex"), std::invalid_argument);
}

// One frequency's gap is 1 − cos θ only while θ ≤ 2π/n: past π/n (the construction's angle)
// it still grows, and past 2π/n the farthest key wraps round towards a full turn. The
// reflexive head's rivals are every m = 1 … n − 1 on every input, so its measured gap is that
// gap exactly, and `bound` must equal it at any θ.
TEST(Discrepancy, OneFrequencyGapIsItsNearestRivalUpToTwoPiOverN) {
  const int n = 64;
  const double pi = std::numbers::pi;
  for (const double theta : {0.5 * pi / n, 1.5 * pi / n, 2.0 * pi / n, 2.5 * pi / n}) {
    ConstructionSweep s;
    s.function = Construction::kReflexive;
    s.lengths = {n};
    s.count = 2;
    s.theta = theta;
    const SweepPoint p = sweep_construction(s).points.at(0);
    double rival = -1;  // the worst rival counted directly, as an angle's distance to a turn
    for (int m = 1; m < n; ++m) {
      const double turn = std::fmod(m * theta, 2 * pi);
      rival = std::max(rival, std::cos(std::min(turn, 2 * pi - turn)));
    }
    EXPECT_NEAR(p.discrepancy_min, 1.0 - rival, 1e-12) << theta;
    EXPECT_NEAR(p.bound, p.discrepancy_min, 1e-12) << theta;
    if (theta <= 2 * pi / n + 1e-15) {
      EXPECT_NEAR(p.bound, 1.0 - std::cos(theta), 1e-12) << theta;
    }
  }
}

TEST(Discrepancy, RetrievalGapIsConstantAtThetaZero) {
  ConstructionSweep s;
  s.function = Construction::kRetrieval;
  s.lengths = kLengths;
  s.count = 16;
  const auto r = sweep_construction(s);
  const double expected = 1.0 - std::cos(2 * std::numbers::pi / 8);
  for (const SweepPoint& p : r.points) {
    EXPECT_NEAR(p.discrepancy_min, expected, 1e-9) << p.length;
    EXPECT_EQ(p.accuracy, 1.0) << p.length;
  }
}

TEST(Discrepancy, RetrievalWithRotationFailsAtLongInputs) {
  ConstructionSweep s;
  s.function = Construction::kRetrieval;
  s.theta = 5e-4;  // nθ passes the symbol spacing π/4 near n = 1600
  s.lengths = {16, 4096};
  s.count = 16;
  const auto r = sweep_construction(s);
  EXPECT_EQ(r.points[0].accuracy, 1.0);
  EXPECT_LT(r.points[1].accuracy, 0.5);
}

// The construction is an ordinary attention layer: its softmax pattern (the forward every
// model runs) puts its largest weight on the first look-up's target.
TEST(Discrepancy, ConstructionLayersAttendToTheTargetInTheirForwardPass) {
  torch::NoGradGuard no_grad;
  for (Construction c : {Construction::kIndex, Construction::kRetrieval}) {
    DatasetSpec spec;
    spec.task = construction_task(c);
    spec.hops = {1};
    spec.length = 40;
    spec.count = 8;
    const auto ex = make_dataset(spec);
    const double theta = c == Construction::kIndex ? std::numbers::pi / 40 : 0.0;
    Attention layer = make_construction_layer(c);
    AttentionCache cache;
    const PositionContext pos = construction_positions(40, theta);
    layer->forward(construction_inputs(c, ex, theta, std::numbers::pi / 4), pos, &cache);
    const auto target = cache.pattern_row(pos, 39).select(1, 0).argmax(-1);
    for (std::size_t e = 0; e < ex.size(); ++e)
      EXPECT_EQ(target[e].item<std::int64_t>(), ex[e].chain[0]) << construction_name(c);
  }
}

TEST(Discrepancy, BadValuesAreRefused) {
  ConstructionSweep s;
  s.theta = NAN;
  s.omega = NAN;
  EXPECT_THROW(sweep_construction(s), std::invalid_argument);
  s = ConstructionSweep{};
  s.lengths = {5};
  EXPECT_THROW(sweep_construction(s), std::invalid_argument);
  EXPECT_THROW(parse_construction("lookup"), std::invalid_argument);
}

// --redraw: a stored search's figure from the file alone. A gap at or below 0 puts the search
// on a linear axis, so that the failing length is drawn; a --run result is refused.
TEST(Discrepancy, RedrawDrawsAStoredSearchAndRefusesARunResult) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("posbias_redraw_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  HeadSearchRecord r;
  r.function = Construction::kRetrieval;
  r.frequencies = SearchFrequencies::kRope;
  r.head_dim = 16;
  r.starts = 2;
  r.steps = 1;
  r.rope_theta = 100;
  r.symbols = 8;
  r.omega = 0.7853981633974483;
  r.points = {{16, 0.89, 0.1, std::nullopt, std::nullopt, {0.89}, {0.1}},
              {64, -0.0287, -1.99, std::nullopt, std::nullopt, {-0.0287}, {0.01}}};
  std::ofstream(dir / "search.json") << to_json(r).dump(2);
  redraw_discrepancy((dir / "search.json").string(), (dir / "fig").string());
  std::ifstream in(dir / "fig.gp");
  const std::string gp{std::istreambuf_iterator<char>(in), {}};
  EXPECT_NE(gp.find("-0.0287"), std::string::npos);  // the failing length is drawn
  EXPECT_EQ(gp.find("10^{%g}"), std::string::npos);  // on a linear axis
  TrainedDiscrepancyRecord run;
  run.run = "out/r";
  std::ofstream(dir / "run.json") << to_json(run).dump(2);
  try {
    redraw_discrepancy((dir / "run.json").string(), (dir / "x").string());
    ADD_FAILURE() << "a --run result was drawn";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("is a discrepancy --run result"), std::string::npos)
        << e.what();
  }
  std::filesystem::remove_all(dir);
}

// discrepancy_file_kind: each record as its writer writes it is told as its own kind by its
// table's required fields; a file missing one is not taken for that record.
TEST(Discrepancy, TheKindOfAFileIsToldByEachRecordsTable) {
  const nlohmann::json trained = to_json(TrainedDiscrepancyRecord{});
  const nlohmann::json search = to_json(HeadSearchRecord{});
  EXPECT_EQ(discrepancy_file_kind(trained), DiscrepancyFile::kTrained);
  EXPECT_EQ(discrepancy_file_kind(search), DiscrepancyFile::kHeadSearch);
  nlohmann::json partial = trained;
  partial.erase("accuracy");
  EXPECT_EQ(discrepancy_file_kind(partial), DiscrepancyFile::kConstruction);
  partial = search;
  partial.erase("frequencies");
  EXPECT_EQ(discrepancy_file_kind(partial), DiscrepancyFile::kConstruction);
  EXPECT_EQ(discrepancy_file_kind(nlohmann::json::array()), DiscrepancyFile::kConstruction);
}

}  // namespace
}  // namespace posbias

// One name for a head in every output and option; `--heads` also takes the older "2.0" form.
TEST(HeadName, IsLayerDotHeadAndParsesBothForms) {
  EXPECT_EQ(posbias::head_name(2, 0), "L2.h0");
  EXPECT_EQ(posbias::layer_name(11), "L11");
  for (const char* text : {"L2.h3", "2.3"}) {
    const posbias::HeadRef h = posbias::parse_head_name(text, "--heads");
    EXPECT_EQ(h.layer, 2) << text;
    EXPECT_EQ(h.head, 3) << text;
  }
  EXPECT_EQ(posbias::parse_head_name("L4", "--heads").head, 0);
  EXPECT_TRUE(posbias::parse_head_list("auto").empty());
  EXPECT_EQ(posbias::parse_head_list("L1.h0,L3.h1").size(), 2u);
  for (const char* bad : {"L2.3", "L.h1", "L2.h", "x", "2.-1", ""}) {
    EXPECT_THROW(posbias::parse_head_name(bad, "--heads"), std::invalid_argument) << bad;
  }
}
