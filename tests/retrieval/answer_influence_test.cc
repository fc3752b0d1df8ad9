// Influence on the same inputs (`birth --run RUN --inputs kv --target answer`) and its
// co-location with accuracy by depth: the gradient norm of each position against central finite
// differences of a loss the test computes itself, unit sums, the needle and distractor spans and
// the region shares against sums done by hand, Spearman and the co-location verdict on
// hand-made data (minima in the same bin, in different bins when the accuracies are shuffled
// over depths, and no minimum on flat accuracy), and bad input in one line with exit 2.
#include "experiments/birth/kv_influence.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numeric>

#include "../cli_run.h"
#include "experiments/retrieval/colocation.h"
#include "experiments/retrieval/kv_eval_command.h"
#include "posbias/train/checkpoint.h"

namespace {

using namespace posbias;
using namespace posbias_test;
namespace fs = std::filesystem;

constexpr int kLength = 40;  // 6 pairs
const std::string kTiny =
    " --layers 1 --d-model 16 --heads 2 --mlp 32 --steps 4 --warmup 1 --eval-every 2"
    " --checkpoint-every 2 --batch 8 ";

// One tiny kv run per architecture, trained once for the whole suite.
const fs::path& kv_run(const std::string& arch) {
  static std::map<std::string, fs::path> runs;
  auto it = runs.find(arch);
  if (it != runs.end()) return it->second;
  const fs::path out = scratch_path("posbias_kv_influence", "run_" + arch);
  const CliResult r = run_cli("train --task kv --arch " + arch + " --length " +
                                  std::to_string(kLength) + kTiny + "--out " + out.string(),
                              120);
  EXPECT_EQ(r.code, 0) << r.err;
  return runs.emplace(arch, out).first->second;
}

// The test's own loss of one example: minus the mean log-probability of the value's 3 tokens,
// from the model's final hidden states at the last 3 positions.
double answer_loss(Transformer& model, const torch::Tensor& x, const torch::Tensor& answers) {
  const std::int64_t w = x.size(1);
  const torch::Tensor logp =
      torch::log_softmax(model->logits(model->forward_embeddings(x)).slice(1, w - 3, w), 2);
  double sum = 0;
  for (int t = 0; t < 3; ++t) sum -= logp[0][t][answers[t].item<std::int64_t>()].item<double>();
  return sum / 3;
}

TEST(KvInfluence, GradientNormsMatchFiniteDifferencesOfTheAnswersLoss) {
  LoadedModel loaded = load_trained_model(kv_run("qwen2"));
  Transformer& model = loaded.model;
  model->to(torch::kFloat64);
  model->eval();
  const std::vector<KvExample> inputs = kv_influence_inputs(kLength, {0, 60}, 1, 5);
  const KvBatch batch = encode_kv_examples(inputs);
  const torch::Tensor norms = kv_answer_gradient_norms(model, batch);  // [2, 42]
  ASSERT_EQ(norms.sizes(), (std::vector<std::int64_t>{2, kLength + 2}));
  torch::NoGradGuard no_grad;
  double worst = 0;
  int checked = 0;
  for (std::int64_t b = 0; b < 2; ++b) {
    const torch::Tensor x0 = model->embed(batch.ids.slice(0, b, b + 1)).clone();  // [1, 42, D]
    const KvExample& ex = inputs[static_cast<std::size_t>(b)];
    for (std::int64_t j : {std::int64_t{0}, std::int64_t{ex.position + 3},
                           std::int64_t{kLength - 1}, std::int64_t{kLength + 1}}) {
      double sq = 0;
      for (std::int64_t k = 0; k < x0.size(2); ++k) {  // every coordinate direction
        constexpr double kStep = 1e-5;
        torch::Tensor plus = x0.clone(), minus = x0.clone();
        plus[0][j][k] += kStep;
        minus[0][j][k] -= kStep;
        const double d = (answer_loss(model, plus, batch.answers[b]) -
                          answer_loss(model, minus, batch.answers[b])) /
                         (2 * kStep);
        sq += d * d;
      }
      const double fd = std::sqrt(sq);
      const double measured = norms[b][j].item<double>();
      ASSERT_GT(fd, 0) << "position " << j;
      worst = std::max(worst, std::abs(measured - fd) / fd);
      ++checked;
    }
  }
  EXPECT_EQ(checked, 8);
  EXPECT_LT(worst, 1e-6) << "worst relative error of ‖∂ℓ/∂x_j‖ against finite differences";
}

TEST(KvInfluence, SummariesAreSharesOfUnitSumProfiles) {
  const std::vector<int> depths = {0, 100};
  const std::vector<KvExample> inputs = kv_influence_inputs(kLength, depths, 2, 0);
  ASSERT_EQ(inputs.size(), 4u);
  EXPECT_EQ(inputs[0].queried, 0);
  EXPECT_EQ(inputs[3].queried, 5);
  // The inputs are eval's: example e of cell (L, d) for the same seed.
  EXPECT_EQ(inputs[1].tokens, kv_depth_example(kLength, 0, 1, 0).tokens);
  EXPECT_EQ(inputs[3].tokens, kv_depth_example(kLength, 100, 1, 0).tokens);
  const std::size_t w = kLength + 2;
  // Example 0: flat; 1: all on the queried pair's key; 2: all on pair 3's value; 3: all on
  // position 1, pair 0's first token (L = 40 holds 6 pairs and no filler).
  std::vector<std::vector<double>> rows(4, std::vector<double>(w, 0.0));
  std::fill(rows[0].begin(), rows[0].end(), 1.0 / w);
  rows[1][static_cast<std::size_t>(inputs[1].position)] = 1;
  const int first = kLength - 4 - 6 * inputs[2].pairs;
  rows[2][static_cast<std::size_t>(first + 3 * 6 + 4)] = 1;
  rows[3][0] = 1;
  const KvInfluenceCheckpoint cp = summarize_kv_influence(inputs, depths, rows);
  EXPECT_NEAR(cp.depths[0].needle[0], 6.0 / w, 1e-15);
  EXPECT_NEAR(cp.depths[0].distractor[0], 6.0 / w, 1e-15);
  EXPECT_EQ(cp.depths[0].needle[1], 1.0);
  EXPECT_EQ(cp.depths[0].distractor[1], 0.0);
  EXPECT_EQ(cp.depths[1].needle[0], 0.0);
  EXPECT_NEAR(cp.depths[1].distractor[0], 1.0 / 5, 1e-15);  // one of 5 distractor pairs
  EXPECT_EQ(cp.depths[1].needle[1], 0.0);  // position 1 is pair 0's first key token (no fillers)
  EXPECT_NEAR(cp.depths[1].distractor[1], 1.0 / 5, 1e-15);
  EXPECT_NEAR(std::accumulate(cp.profile.begin(), cp.profile.end(), 0.0), 1.0, 1e-15);
}

TEST(KvInfluence, TheRunsProfilesHaveUnitSumAndTheirSharesAreTheProfileShares) {
  KvInfluenceOptions o;
  o.run = kv_run("qwen2").string();
  o.depths = {0, 50, 100};
  o.per_depth = 3;
  const KvInfluenceResult r = measure_kv_influence(o);
  ASSERT_EQ(r.checkpoints.size(), 5u);  // steps 0..4
  EXPECT_EQ(r.checkpoints.front().step, 0);
  EXPECT_EQ(r.length, kLength);  // the run's length
  double worst = 0;
  for (const KvInfluenceCheckpoint& cp : r.checkpoints) {
    ASSERT_EQ(cp.example_profiles.size(), 9u);
    for (const auto& row : cp.example_profiles)
      worst = std::max(worst, std::abs(std::accumulate(row.begin(), row.end(), 0.0) - 1));
    worst =
        std::max(worst, std::abs(std::accumulate(cp.profile.begin(), cp.profile.end(), 0.0) - 1));
  }
  EXPECT_LT(worst, 1e-12);
  // The JSON's primacy share is the mean over examples of positions 1..8, summed here.
  const nlohmann::json j = to_json(r);
  const auto& last = r.checkpoints.back();
  double primacy = 0;
  for (const auto& row : last.example_profiles)
    primacy += std::accumulate(row.begin(), row.begin() + 8, 0.0) / 9;
  EXPECT_NEAR(j["checkpoints"].back()["shares"]["primacy"]["mean"].get<double>(), primacy, 1e-12);
  EXPECT_EQ(j["checkpoints"].back()["by_depth"].size(), 3u);
}

TEST(Colocation, SpearmanAndTheSeedIntervalOnHandMadeData) {
  // ρ = 1 − 6Σd²/(n(n²−1)): ranks of b differ from a's by 1 at four bins: 1 − 24/120 = 0.8.
  const std::vector<int> depths = {0, 25, 50, 75, 100};
  const ColocationResult one = colocate(40, depths, {{1, 2, 3, 4, 5}}, {{2, 1, 4, 3, 5}});
  EXPECT_NEAR(one.rho[0], 0.8, 1e-12);
  // Three seeds with ρ 0.8, 1 and 0.7 (b = (3, 1, 2, 4, 5) gives Σd² = 4 + 1 + 1 = 6, ρ 0.7):
  // mean 0.833, half-width t(2)·s/√3 with t(2) = 4.302653.
  const ColocationResult mixed =
      colocate(40, depths, {{1, 2, 3, 4, 5}, {1, 2, 3, 4, 5}, {1, 2, 3, 4, 5}},
               {{2, 1, 4, 3, 5}, {1, 2, 3, 4, 5}, {3, 1, 2, 4, 5}});
  EXPECT_NEAR(mixed.rho[2], 1 - 6.0 * 6 / 120, 1e-12);
  EXPECT_NEAR(mixed.rho_interval.mean, (0.8 + 1 + 0.7) / 3, 1e-12);
  const double s = std::sqrt(((0.8 - 2.5 / 3) * (0.8 - 2.5 / 3) + (1 - 2.5 / 3) * (1 - 2.5 / 3) +
                              (0.7 - 2.5 / 3) * (0.7 - 2.5 / 3)) /
                             2);
  // The lower end is mean − half-width; the upper (0.833 + 0.379) runs past 1 and is cut there.
  EXPECT_NEAR(mixed.rho_interval.mean - mixed.rho_interval.low, 4.302653 * s / std::sqrt(3.0),
              1e-5);
  EXPECT_EQ(mixed.rho_interval.high, 1.0);
  EXPECT_TRUE(mixed.rho_interval_cut);
  EXPECT_EQ(mixed.rho_interval.n, 3);
  // ρ 0.8, 0.8 and 0.7: mean 0.767 ± 0.143, inside [−1, 1], not cut.
  const ColocationResult inside =
      colocate(40, depths, {{1, 2, 3, 4, 5}, {1, 2, 3, 4, 5}, {1, 2, 3, 4, 5}},
               {{2, 1, 4, 3, 5}, {2, 1, 4, 3, 5}, {3, 1, 2, 4, 5}});
  EXPECT_FALSE(inside.rho_interval_cut);
  EXPECT_NEAR(inside.rho_interval.high - inside.rho_interval.mean,
              4.302653 * std::sqrt(0.01 / 3) / std::sqrt(3.0), 1e-5);
  // ρ 1, −1 and 0.8: the Student-t interval (mean 0.267, half-width 4.30·1.10/√3 = 2.74) runs
  // past both ends; it is cut to [−1, 1] and says so, the mean is kept.
  const ColocationResult wide =
      colocate(40, depths, {{1, 2, 3, 4, 5}, {1, 2, 3, 4, 5}, {1, 2, 3, 4, 5}},
               {{1, 2, 3, 4, 5}, {5, 4, 3, 2, 1}, {2, 1, 4, 3, 5}});
  EXPECT_NEAR(wide.rho_interval.mean, (1 - 1 + 0.8) / 3, 1e-12);
  EXPECT_TRUE(wide.rho_interval_cut);
  EXPECT_EQ(wide.rho_interval.low, -1.0);
  EXPECT_EQ(wide.rho_interval.high, 1.0);
  // One seed past only one end is cut at that end alone.
  const ColocationResult high =
      colocate(40, depths, {{1, 2, 3, 4, 5}, {1, 2, 3, 4, 5}}, {{1, 2, 3, 4, 5}, {2, 1, 4, 3, 5}});
  EXPECT_TRUE(high.rho_interval_cut);
  EXPECT_EQ(high.rho_interval.high, 1.0);
  EXPECT_GT(high.rho_interval.low, -1.0);
}

TEST(Colocation, VerdictSaysSameBinDifferentBinsOrNoMinimum) {
  const std::vector<int> depths = {0, 25, 50, 75, 100};
  const std::vector<std::vector<double>> accuracy = {{1, 0.9, 0.5, 0.8, 1}, {1, 0.8, 0.6, 0.9, 1}};
  const std::vector<std::vector<double>> influence = {{0.3, 0.2, 0.1, 0.15, 0.3},
                                                      {0.3, 0.25, 0.12, 0.2, 0.3}};
  const ColocationResult same = colocate(40, depths, accuracy, influence);
  EXPECT_EQ(same.verdict, "same bin");
  EXPECT_EQ(same.influence_minimum, 50);
  EXPECT_EQ(same.accuracy_minimum, std::vector<int>{50});
  EXPECT_EQ(same.seeds_same_bin, 2);
  EXPECT_GT(same.rho_interval.mean, 0.9);
  // The control that must fail: the accuracies shuffled over depths (the minimum moved to 0).
  const std::vector<std::vector<double>> shuffled = {{0.5, 1, 0.9, 1, 0.8}, {0.6, 0.9, 1, 1, 0.8}};
  const ColocationResult moved = colocate(40, depths, shuffled, influence);
  EXPECT_EQ(moved.verdict, "different bins");
  EXPECT_EQ(moved.accuracy_minimum, std::vector<int>{0});
  EXPECT_EQ(moved.seeds_same_bin, 0);
  const ColocationResult flat = colocate(40, depths, {{1, 1, 1, 1, 1}, {1, 1, 1, 1, 1}}, influence);
  EXPECT_EQ(flat.verdict, "no accuracy minimum");
  EXPECT_FALSE(std::isfinite(flat.rho[0]));
}

void write(const fs::path& p, const nlohmann::json& j) { std::ofstream(p) << j.dump(); }

TEST(Colocation, ReadsTheEvalAndInfluenceFilesThroughTheCli) {
  const fs::path dir = scratch_path("posbias_kv_influence", "colocate");
  fs::create_directories(dir);
  const fs::path influence = dir / "influence.json";
  const CliResult m = run_cli("birth --run " + kv_run("qwen2").string() +
                              " --inputs kv --target answer --checkpoints last --depths 0,50,100 "
                              "--seeds 2 --json " +
                              influence.string() + " --plot " + (dir / "kv").string());
  ASSERT_EQ(m.code, 0) << m.err;
  EXPECT_TRUE(fs::exists(dir / "kv_depths.png"));
  const nlohmann::json inf = nlohmann::json::parse(slurp(influence));
  std::vector<double> needle;
  for (const auto& bin : inf["checkpoints"].back()["by_depth"])
    needle.push_back(bin["needle"]["mean"].get<double>());
  const std::size_t low =
      static_cast<std::size_t>(std::min_element(needle.begin(), needle.end()) - needle.begin());
  // An eval file whose accuracy is lowest where the influence is, and one shuffled away from it.
  auto eval = [&](std::size_t worst) {
    nlohmann::json cells;
    for (std::size_t k = 0; k < 3; ++k) {
      cells[std::to_string(k * 50)] = {
          {"accuracy", k == worst ? 0.2 : 0.9}, {"lo", 0}, {"hi", 1}, {"n", 10}, {"chance", 0.001}};
    }
    return nlohmann::json{{"depth_accuracy", {{std::to_string(kLength), cells}}}};
  };
  write(dir / "same.json", eval(low));
  write(dir / "moved.json", eval((low + 1) % 3));
  for (const auto& [file, verdict] :
       {std::pair{"same.json", "same bin"}, std::pair{"moved.json", "different bins"}}) {
    const CliResult r = run_cli("birth --colocate " + influence.string() + " --accuracy " +
                                (dir / file).string() + " --json " + (dir / "c.json").string());
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(slurp(dir / "c.json"))["verdict"], verdict) << file;
  }
  write(dir / "other.json", nlohmann::json{{"depth_accuracy", {{"80", nlohmann::json::object()}}}});
  const CliResult bad = run_cli("birth --colocate " + influence.string() + " --accuracy " +
                                (dir / "other.json").string());
  EXPECT_EQ(bad.code, 2) << bad.err;
  EXPECT_EQ(lines(bad.err), 1) << bad.err;
}

TEST(KvInfluence, BadInputGetsOneLineAndExitTwo) {
  const std::string qwen = kv_run("qwen2").string();
  const std::string gpt2 = kv_run("gpt2").string();
  const fs::path hop = scratch_path("posbias_kv_influence", "hop");
  ASSERT_EQ(run_cli("train --task number --steps 2 --warmup 1 --out " + hop.string(), 120).code, 0);
  for (const std::string& args :
       {"birth --run " + hop.string() + " --inputs kv",
        "birth --run " + gpt2 + " --inputs kv -L 80", "birth --run " + qwen + " --inputs kv -L 15",
        "birth --run " + qwen + " --inputs kv --depths 0,101",
        "birth --run " + qwen + " --inputs kv --target loss",
        "birth --run " + qwen + " --inputs kv --method hutchinson",
        "birth --run " + qwen + " --depths 0,50"}) {
    const CliResult r = run_cli(args);
    EXPECT_EQ(r.code, 2) << args << ": " << r.err;
    EXPECT_EQ(lines(r.err), 1) << args << ": " << r.err;
  }
  // A learned table holds the length it was trained at.
  const CliResult fits =
      run_cli("birth --run " + gpt2 + " --inputs kv --checkpoints last --seeds 1");
  EXPECT_EQ(fits.code, 0) << fits.err;
}

}  // namespace
