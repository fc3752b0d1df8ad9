// The middle-weighted loss (`train --middle-weight λ`, train/middle_weight.h): the weights against
// the tent the docs define, computed by hand (values, mean 1, symmetry); the weighted loss
// against a cross-entropy the test computes in double loops from the logits, and the loss a text
// run's training step returns against the same computation on the step's own windows; kv's
// queried pair drawn with the middle oversampled (a chi-square test that uniform draws fail);
// λ = 0 the run without the option byte for byte (kv and text); bad input in one line.
#include "posbias/train/middle_weight.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>
#include <vector>

#include "../cli_run.h"
#include "../text/brown_excerpt.h"
#include "posbias/runfiles/train_config.h"
#include "posbias/tasks/kv_task.h"
#include "posbias/text/text_data.h"
#include "posbias/train/kv_batch.h"
#include "posbias/train/trainer.h"

namespace {

using namespace posbias;
using namespace posbias_test;
namespace fs = std::filesystem;

fs::path scratch(const std::string& name) { return scratch_path("posbias_middle_weight", name); }

TEST(MiddleWeight, WeightsAreTheTentNormalisedToMeanOne) {
  // n = 5, λ = 3: m = 0, 1/2, 1, 1/2, 0; 1 + λm = 1, 2.5, 4, 2.5, 1 (mean 2.2).
  const std::vector<double> w5 = middle_weights(5, 3);
  const std::vector<double> want5 = {1 / 2.2, 2.5 / 2.2, 4 / 2.2, 2.5 / 2.2, 1 / 2.2};
  ASSERT_EQ(w5.size(), 5u);
  for (std::size_t i = 0; i < 5; ++i) EXPECT_NEAR(w5[i], want5[i], 1e-15) << i;
  // n = 4, λ = 3: m = 0, 2/3, 2/3, 0; 1, 3, 3, 1 (mean 2): the two middle positions weigh 3×.
  const std::vector<double> w4 = middle_weights(4, 3);
  const std::vector<double> want4 = {0.5, 1.5, 1.5, 0.5};
  for (std::size_t i = 0; i < 4; ++i) EXPECT_NEAR(w4[i], want4[i], 1e-15) << i;
  // No middle with one or two positions; λ = 0 is flat.
  EXPECT_EQ(middle_weights(1, 3), std::vector<double>{1.0});
  EXPECT_EQ(middle_weights(2, 3), (std::vector<double>{1.0, 1.0}));
  for (double x : middle_weights(32, 0)) EXPECT_EQ(x, 1.0);
  // Any n, λ: mean 1, symmetric, the middle 1 + λ·max m times the ends.
  for (std::int64_t n : {3, 8, 31, 32, 256}) {
    for (double lambda : {0.5, 1.0, 3.0}) {
      const std::vector<double> w = middle_weights(n, lambda);
      double sum = 0;
      for (double x : w) sum += x;
      EXPECT_NEAR(sum / static_cast<double>(n), 1.0, 1e-14) << n << " " << lambda;
      for (std::int64_t i = 0; i < n; ++i) EXPECT_NEAR(w[i], w[n - 1 - i], 1e-14);
      const double peak = n % 2 ? 1.0 : 1.0 - 1.0 / static_cast<double>(n - 1);
      EXPECT_NEAR(w[n / 2] / w[0], 1 + lambda * peak, 1e-13) << n << " " << lambda;
    }
  }
  EXPECT_THROW(middle_weights(4, -0.5), std::invalid_argument);
  EXPECT_THROW(middle_weights(4, std::nan("")), std::invalid_argument);
  EXPECT_THROW(middle_weights(0, 1), std::invalid_argument);
}

// Σ_{b,i} w(i)·CE / (B·L) in double loops, w from the tent written out again here.
double hand_weighted_loss(const torch::Tensor& logits, const torch::Tensor& targets,
                          double lambda) {
  const torch::Tensor lg = logits.to(torch::kFloat64).contiguous();
  const std::int64_t rows = lg.size(0), length = lg.size(1), vocab = lg.size(2);
  std::vector<double> w(static_cast<std::size_t>(length));
  double mean = 0;
  for (std::int64_t i = 0; i < length; ++i) {
    const double u = static_cast<double>(i) / static_cast<double>(length - 1);
    const double m = length == 1 ? 0 : 1 - std::abs(2 * u - 1);
    w[static_cast<std::size_t>(i)] = 1 + lambda * m;
    mean += w[static_cast<std::size_t>(i)] / static_cast<double>(length);
  }
  const double* p = lg.data_ptr<double>();
  double total = 0;
  for (std::int64_t b = 0; b < rows; ++b) {
    for (std::int64_t i = 0; i < length; ++i) {
      const double* row = p + (b * length + i) * vocab;
      double top = row[0];
      for (std::int64_t v = 1; v < vocab; ++v) top = std::max(top, row[v]);
      double z = 0;
      for (std::int64_t v = 0; v < vocab; ++v) z += std::exp(row[v] - top);
      const double ce = top + std::log(z) - row[targets[b][i].item<std::int64_t>()];
      total += w[static_cast<std::size_t>(i)] / mean * ce;
    }
  }
  return total / static_cast<double>(rows * length);
}

TEST(MiddleWeight, WeightedLossIsTheHandComputedOne) {
  torch::manual_seed(3);
  // Later positions predicted worse than earlier ones, so weighting the middle changes the loss.
  const torch::Tensor logits =
      torch::randn({3, 9, 11}) * torch::linspace(3, 0.1, 9).reshape({1, 9, 1});
  const torch::Tensor targets = torch::randint(0, 11, {3, 9}, torch::kInt64);
  for (double lambda : {0.0, 1.0, 3.0}) {
    const double got = middle_weighted_loss(logits, targets, lambda).item<double>();
    EXPECT_NEAR(got, hand_weighted_loss(logits, targets, lambda), 2e-6) << lambda;
  }
  const double plain =
      torch::cross_entropy_loss(logits.reshape({-1, 11}), targets.reshape({-1})).item<double>();
  EXPECT_NEAR(middle_weighted_loss(logits, targets, 0).item<double>(), plain, 2e-6);
  EXPECT_GT(std::abs(middle_weighted_loss(logits, targets, 3).item<double>() - plain), 0.01);
  EXPECT_THROW(middle_weighted_loss(logits, targets.slice(1, 1), 1), std::invalid_argument);
}

TEST(MiddleWeight, ATextStepReturnsTheWeightedLossOfItsWindows) {
  TrainConfig c = TrainConfig::defaults(Task::kText);
  c.tokenizer = TokenizerKind::kBytes;
  c.layers = 1, c.d_model = 16, c.heads = 2, c.mlp = 32, c.length = 24, c.batch = 4;
  c.steps = 2, c.warmup = 0, c.middle_weight = 3;
  c.finalize();
  std::mt19937 gen(5);
  std::vector<std::int32_t> stream(2000);
  for (auto& t : stream) t = static_cast<std::int32_t>(gen() % 256);
  Trainer trainer(c, &stream);
  std::vector<std::int64_t> w = sample_windows(stream, c.length, c.batch, c.seed, 1);
  const torch::Tensor ids = torch::from_blob(w.data(), {c.batch, c.length + 1}, torch::kInt64);
  double want = 0;
  {
    torch::NoGradGuard no_grad;
    const torch::Tensor logits = trainer.model->forward(ids.slice(1, 0, c.length));
    want = hand_weighted_loss(logits, ids.slice(1, 1), 3);
    const double plain = hand_weighted_loss(logits, ids.slice(1, 1), 0);
    EXPECT_GT(std::abs(want - plain), 1e-4);  // the weighting shows in this step's loss
  }
  EXPECT_NEAR(trainer.step(1), want, 2e-5);
}

// Pearson's chi-square of the counts against probabilities p.
double chi_square(const std::vector<int>& counts, const std::vector<double>& p) {
  double total = 0, x2 = 0;
  for (int k : counts) total += k;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    const double e = total * p[i];
    x2 += (counts[i] - e) * (counts[i] - e) / e;
  }
  return x2;
}

TEST(MiddleWeight, KvDrawsTheQueriedPairWithTheMiddleOversampled) {
  // The draw itself: 5 pairs, λ = 3, P(i) = w(i)/5 = 1/11, 2.5/11, 4/11, 2.5/11, 1/11.
  Rng rng(11);
  std::vector<int> counts(5, 0);
  for (int k = 0; k < 20000; ++k)
    ++counts[static_cast<std::size_t>(draw_middle_weighted(5, 3, rng))];
  const std::vector<double> weighted = {1 / 11.0, 2.5 / 11, 4 / 11.0, 2.5 / 11, 1 / 11.0};
  const std::vector<double> uniform(5, 0.2);
  EXPECT_LT(chi_square(counts, weighted), 18.47);  // 4 degrees of freedom, p = 0.001
  EXPECT_GT(chi_square(counts, uniform), 100);     // uniform draws would pass this
  Rng flat(11);
  std::vector<int> flat_counts(5, 0);
  for (int k = 0; k < 20000; ++k)
    ++flat_counts[static_cast<std::size_t>(draw_middle_weighted(5, 0, flat))];
  EXPECT_LT(chi_square(flat_counts, uniform), 18.47);

  // Training batches: L = 32 holds 4 pairs; with pairs fixed at 4, P = 1/8, 3/8, 3/8, 1/8 at λ = 3.
  TrainConfig c = TrainConfig::defaults(Task::kKv);
  c.length = 32, c.pairs_min = 4, c.middle_weight = 3;
  c.finalize();
  std::vector<int> kv_counts(4, 0);
  for (std::uint64_t step = 1; step <= 40; ++step)
    for (const KvExample& ex : sample_kv_batch(c, 100, step)) ++kv_counts[ex.queried];
  EXPECT_LT(chi_square(kv_counts, {0.125, 0.375, 0.375, 0.125}), 16.27);  // 3 df, p = 0.001
  EXPECT_GT(chi_square(kv_counts, {0.25, 0.25, 0.25, 0.25}), 100);
  // λ = 0: the uniform prior's draws, example for example.
  TrainConfig zero = c, none = c;
  zero.middle_weight = 0, none.middle_weight.reset();
  zero.finalize();
  EXPECT_FALSE(zero.middle_weight.has_value());
  const std::vector<KvExample> a = sample_kv_batch(zero, 50, 3), b = sample_kv_batch(none, 50, 3);
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].tokens, b[i].tokens);
}

std::string strip_timings(const std::string& jsonl) {
  std::string out;
  std::size_t begin = 0;
  while (begin < jsonl.size()) {
    std::size_t end = jsonl.find('\n', begin);
    if (end == std::string::npos) end = jsonl.size();
    nlohmann::json j = nlohmann::json::parse(jsonl.substr(begin, end - begin));
    for (const char* k : {"train_seconds", "tokens_per_s", "seconds"}) j.erase(k);
    out += j.dump() + "\n";
    begin = end + 1;
  }
  return out;
}

// The run with --middle-weight 0 and without it: the same train.json, config.json, weights and
// metrics (but timings); with λ = 1 train.json records it and the weights differ.
void expect_zero_is_the_baseline(const std::string& command, const std::string& name) {
  const fs::path base = scratch(name + "-base"), zero = scratch(name + "-zero"),
                 one = scratch(name + "-one");
  CliResult r = run_cli(command + " --out " + base.string(), 300);
  ASSERT_EQ(r.code, 0) << r.err;
  r = run_cli(command + " --middle-weight 0 --out " + zero.string(), 300);
  ASSERT_EQ(r.code, 0) << r.err;
  r = run_cli(command + " --middle-weight 1 --out " + one.string(), 300);
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* f : {"train.json", "config.json", "model.safetensors"})
    EXPECT_EQ(slurp(base / f), slurp(zero / f)) << name << " " << f;
  EXPECT_EQ(strip_timings(slurp(base / "metrics.jsonl")),
            strip_timings(slurp(zero / "metrics.jsonl")));
  EXPECT_FALSE(
      nlohmann::json::parse(slurp(base / "train.json"))["config"].contains("middle_weight"));
  EXPECT_EQ(nlohmann::json::parse(slurp(one / "train.json"))["config"]["middle_weight"], 1.0);
  EXPECT_NE(slurp(base / "model.safetensors"), slurp(one / "model.safetensors")) << name;
}

const std::string kTinyKv = tiny_kv_flags();

TEST(MiddleWeightCli, ZeroIsTheRunWithoutItByteForByte) {
  expect_zero_is_the_baseline(kTinyKv, "kv");
  const fs::path corpus = write_brown_excerpt("posbias_middle_weight_corpus", 12, 60);
  expect_zero_is_the_baseline(
      "train --task text --corpus " + corpus.string() +
          " --tokenizer bytes --layers 1 --d-model 16 --heads 2 --mlp 32 --length 24 --batch 4 "
          "--eval-windows 4 --steps 4 --warmup 1 --eval-every 2 --checkpoint-every 2 "
          "--log-checkpoints 0",
      "text");
}

void expect_usage_error(const std::string& args, const std::string& says) {
  const CliResult r = run_cli(args + " --out " + scratch("bad").string(), 300);
  EXPECT_EQ(r.code, 2) << args << ": " << r.err;
  EXPECT_EQ(lines(r.err), 1) << args << ": " << r.err;
  EXPECT_NE(r.err.find(says), std::string::npos) << args << ": " << r.err;
}

TEST(MiddleWeightCli, RefusesBadInputInOneLine) {
  expect_usage_error(kTinyKv + " --middle-weight -1", "middle_weight must be a number >= 0");
  expect_usage_error(kTinyKv + " --middle-weight abc", "middle");
  expect_usage_error(kTinyKv + " --middle-weight nan", "--middle-weight");
  expect_usage_error(kTinyKv + " --depth-prior ends --middle-weight 1", "depth_prior uniform");
  expect_usage_error("train --task number --steps 2 --middle-weight 1", "hop run");
  expect_usage_error("train --task letter --steps 2 --middle-weight 0", "hop run");
}

}  // namespace
