// Influence on the same inputs (`birth --run RUN --inputs kv|passkey --target answer`) and its
// co-location with accuracy by depth: the gradient norm of each position against central finite
// differences of a loss the test computes itself (kv and passkey inputs), unit sums, the needle
// and distractor spans and the region shares against sums done by hand, the passkey needle's
// span decoded back to its sentence, Spearman and the co-location verdict on hand-made data
// (minima in the same bin, in different bins when the accuracies are shuffled over depths, and
// no minimum on flat accuracy), a passkey run's influence and eval co-located through the CLI,
// and bad input in one line with exit 2.
#include "posbias/train/answer_influence.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <numeric>

#include "../cli_run.h"
#include "../text/brown_excerpt.h"
#include "experiments/retrieval/colocation.h"
#include "experiments/retrieval/kv_eval_command.h"
#include "posbias/runfiles/run_header.h"
#include "posbias/runfiles/train_config.h"
#include "posbias/train/checkpoint.h"
#include "posbias/train/kv_answer_inputs.h"
#include "posbias/train/kv_batch.h"
#include "posbias/train/passkey_answer_inputs.h"
#include "posbias/train/text_run.h"
#include "posbias/train/trainer.h"

namespace {

using namespace posbias;
using namespace posbias_test;
namespace fs = std::filesystem;

constexpr int kLength = kTinyKvLength;  // 6 pairs

// One tiny kv run per architecture, trained once for the whole suite.
const fs::path& kv_run(const std::string& arch) {
  return trained_once("posbias_kv_influence", "run_" + arch, tiny_kv_flags() + "--arch " + arch);
}

// A tiny passkey run (one needle in every window of 96 tokens), trained once for the suite.
const fs::path& passkey_run() {
  static const fs::path corpus = write_brown_excerpt("posbias_answer_influence_corpus", 12, 60);
  return trained_once(
      "posbias_kv_influence", "passkey",
      "train --task text --corpus " + corpus.string() +
          " --tokenizer spm --vocab-size 300 --layers 1 --d-model 16 --heads 2 --mlp 32 "
          "--length 96 --batch 8 --eval-windows 8 --warmup 1 --steps 4 --eval-every 2 "
          "--checkpoint-every 2 --log-checkpoints 0 --needle-fraction 1");
}

// The test's own loss of one input: minus the mean log-probability of the answer's ids, each
// from the model's final hidden state one position before it.
double answer_loss(Transformer& model, const torch::Tensor& x, const AnswerInput& in) {
  const std::int64_t t = static_cast<std::int64_t>(in.answer.size());
  const torch::Tensor logp = torch::log_softmax(
      model->logits(model->forward_embeddings(x)).slice(1, in.from, in.from + t), 2);
  double sum = 0;
  for (std::int64_t k = 0; k < t; ++k)
    sum -= logp[0][k][in.answer[static_cast<std::size_t>(k)]].item<double>();
  return sum / static_cast<double>(t);
}

// The worst relative error of answer_gradient_norms against central differences of answer_loss
// over every coordinate of the embeddings at positions `at` of each input.
double worst_gradient_error(Transformer& model, const std::vector<AnswerInput>& inputs,
                            const std::function<std::vector<std::int64_t>(const AnswerInput&)>& at,
                            int* checked) {
  const torch::Tensor norms = answer_gradient_norms(model, inputs);
  EXPECT_EQ(norms.size(1), static_cast<std::int64_t>(inputs[0].ids.size()));
  torch::NoGradGuard no_grad;
  double worst = 0;
  for (std::size_t b = 0; b < inputs.size(); ++b) {
    const AnswerInput& in = inputs[b];
    const torch::Tensor ids = torch::tensor(in.ids, torch::kInt64).unsqueeze(0);
    const torch::Tensor x0 = model->embed(ids).clone();  // [1, W, D]
    for (std::int64_t j : at(in)) {
      double sq = 0;
      for (std::int64_t k = 0; k < x0.size(2); ++k) {  // every coordinate direction
        constexpr double kStep = 1e-5;
        torch::Tensor plus = x0.clone(), minus = x0.clone();
        plus[0][j][k] += kStep;
        minus[0][j][k] -= kStep;
        const double d =
            (answer_loss(model, plus, in) - answer_loss(model, minus, in)) / (2 * kStep);
        sq += d * d;
      }
      const double fd = std::sqrt(sq);
      EXPECT_GT(fd, 0) << "position " << j;
      worst = std::max(worst,
                       std::abs(norms[static_cast<std::int64_t>(b)][j].item<double>() - fd) / fd);
      ++*checked;
    }
  }
  return worst;
}

TEST(KvInfluence, GradientNormsMatchFiniteDifferencesOfTheAnswersLoss) {
  LoadedModel loaded = load_trained_model(kv_run("qwen2"));
  Transformer& model = loaded.model;
  model->to(torch::kFloat64);
  model->eval();
  std::vector<AnswerInput> inputs;
  std::vector<KvExample> examples = kv_influence_inputs(kLength, {0, 60}, 1, 5);
  for (const KvExample& ex : examples) inputs.push_back(kv_answer_input(ex, false));
  ASSERT_EQ(inputs[0].ids.size(), static_cast<std::size_t>(kLength + 2));
  int checked = 0;
  const double worst = worst_gradient_error(
      model, inputs,
      [&](const AnswerInput& in) {
        const auto b = static_cast<std::size_t>(&in - inputs.data());
        return std::vector<std::int64_t>{0, examples[b].position + 3, kLength - 1, kLength + 1};
      },
      &checked);
  EXPECT_EQ(checked, 8);
  EXPECT_LT(worst, 1e-6) << "worst relative error of ‖∂ℓ/∂x_j‖ against finite differences";
}

// The passkey inputs of one depth each at 0 and 100, from the run's held-out text.
std::vector<AnswerInput> passkey_inputs(const std::vector<int>& depths, int per_depth) {
  AnswerInfluenceOptions o;
  o.inputs = AnswerInputs::kPasskey;
  o.run = passkey_run().string();
  o.depths = depths;
  o.per_depth = per_depth;
  return passkey_answer_inputs(o, read_run_header(o.run)).inputs;
}

TEST(PasskeyInfluence, GradientNormsMatchFiniteDifferencesOfTheDigitsLoss) {
  LoadedModel loaded = load_trained_model(passkey_run());
  Transformer& model = loaded.model;
  model->to(torch::kFloat64);
  model->eval();
  const std::vector<AnswerInput> inputs = passkey_inputs({0, 100}, 1);
  ASSERT_EQ(inputs.size(), 2u);
  ASSERT_EQ(inputs[0].ids.size(), 96u);
  ASSERT_EQ(inputs[0].answer.size(), static_cast<std::size_t>(kPasskeyDigits));
  int checked = 0;
  const double worst = worst_gradient_error(
      model, inputs,
      [](const AnswerInput& in) {
        return std::vector<std::int64_t>{0, in.needle.begin + 1, in.from - 3, in.from + 2};
      },
      &checked);
  EXPECT_EQ(checked, 8);
  EXPECT_LT(worst, 1e-6) << "worst relative error of ‖∂ℓ/∂x_j‖ against finite differences";
  // The last digit is read but predicts nothing scored: no influence.
  const torch::Tensor norms = answer_gradient_norms(model, inputs);
  EXPECT_EQ(norms[0][95].item<double>(), 0.0);
}

TEST(PasskeyInfluence, TheInputsAreEvalsAndTheNeedleSpanIsTheQueriedSentence) {
  const std::vector<AnswerInput> inputs = passkey_inputs({0, 50, 100}, 2);
  ASSERT_EQ(inputs.size(), 6u);
  const TrainConfig c = read_run_header(passkey_run()).config;
  const TextRunData text = prepare_text_run(c, passkey_run(), false);
  const PasskeyCodec codec(text.tokenizer);
  for (std::size_t b = 0; b < inputs.size(); ++b) {
    const int depth = std::vector<int>{0, 50, 100}[b / 2];
    const PasskeyExample ex = passkey_depth_example(codec, text.streams.heldout, 96, 1, depth,
                                                    static_cast<int>(b % 2), 1);
    const AnswerInput& in = inputs[b];
    EXPECT_EQ(in.ids, std::vector<std::int64_t>(ex.ids.begin(), ex.ids.end() - 1)) << b;
    EXPECT_EQ(in.depth, ex.target().depth);
    EXPECT_TRUE(in.distractors.empty());
    std::vector<std::int32_t> span(in.ids.begin() + in.needle.begin,
                                   in.ids.begin() + in.needle.end);
    EXPECT_EQ(text.tokenizer.decode(span),
              fmt::format("\n{}\n", passkey_needle_text(ex.target().name, ex.target().number)));
    std::vector<std::int32_t> digits(in.answer.begin(), in.answer.end());
    EXPECT_EQ(text.tokenizer.decode(digits), ex.target().number);
    EXPECT_EQ(in.from, ex.answer_start - 1);
  }
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
  std::vector<AnswerInput> answer_inputs;
  for (const KvExample& ex : inputs) answer_inputs.push_back(kv_answer_input(ex, false));
  const AnswerInfluenceCheckpoint cp = summarize_answer_influence(answer_inputs, depths, rows);
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
  AnswerInfluenceOptions o;
  o.run = kv_run("qwen2").string();
  o.depths = {0, 50, 100};
  o.per_depth = 3;
  const AnswerInfluenceResult r = measure_answer_influence(o);
  ASSERT_EQ(r.checkpoints.size(), 5u);  // steps 0..4
  EXPECT_EQ(r.checkpoints.front().step, 0);
  EXPECT_EQ(r.length, kLength);  // the run's length
  double worst = 0;
  for (const AnswerInfluenceCheckpoint& cp : r.checkpoints) {
    ASSERT_EQ(cp.example_profiles.size(), 9u);
    for (const auto& row : cp.example_profiles)
      worst = std::max(worst, std::abs(std::accumulate(row.begin(), row.end(), 0.0) - 1));
    worst =
        std::max(worst, std::abs(std::accumulate(cp.profile.begin(), cp.profile.end(), 0.0) - 1));
  }
  EXPECT_LT(worst, 1e-12);
  // The JSON's primacy share is the mean over examples of positions 0..7, summed here.
  const nlohmann::json j = to_json(answer_influence_record(r));
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
  // A real eval of the run, its accuracy set lowest where the influence is, or moved away from
  // it (colocate reads the eval through its record, so the file must be a whole eval).
  const fs::path measured = dir / "eval.json";
  ASSERT_EQ(
      run_cli("eval --run " + kv_run("qwen2").string() + " --lengths " + std::to_string(kLength) +
              " --depths 0,50,100 --count 2 --json " + measured.string())
          .code,
      0);
  const nlohmann::json base = nlohmann::json::parse(slurp(measured));
  auto eval = [&](std::size_t worst) {
    nlohmann::json e = base;
    for (std::size_t k = 0; k < 3; ++k)
      e["depth_accuracy"][std::to_string(kLength)][std::to_string(k * 50)]["accuracy"] =
          k == worst ? 0.2 : 0.9;
    return e;
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
  // An eval at another length, and a file that is not an eval: one line each, naming why.
  nlohmann::json other = base;
  other["depth_accuracy"] = {{"80", base["depth_accuracy"][std::to_string(kLength)]}};
  write(dir / "other.json", other);
  write(dir / "partial.json", nlohmann::json{{"depth_accuracy", base["depth_accuracy"]}});
  for (const auto& [file, why] :
       {std::pair{"other.json", "has no depth_accuracy at length"},
        std::pair{"partial.json", "is not a kv or passkey `eval` result"}}) {
    const CliResult bad =
        run_cli("birth --colocate " + influence.string() + " --accuracy " + (dir / file).string());
    EXPECT_EQ(bad.code, 2) << bad.err;
    EXPECT_EQ(lines(bad.err), 1) << bad.err;
    EXPECT_NE(bad.err.find(why), std::string::npos) << bad.err;
  }
}

TEST(PasskeyInfluence, MeasuredAndColocatedThroughTheCli) {
  const fs::path dir = scratch_path("posbias_kv_influence", "passkey_cli");
  fs::create_directories(dir);
  const std::string run = passkey_run().string();
  const fs::path influence = dir / "influence.json", eval = dir / "eval.json";
  const CliResult m = run_cli("birth --run " + run +
                              " --inputs passkey --target answer --checkpoints last --depths "
                              "0,50,100 --seeds 2 --json " +
                              influence.string() + " --csv " + (dir / "i.csv").string() +
                              " --plot " + (dir / "p").string());
  ASSERT_EQ(m.code, 0) << m.err;
  EXPECT_TRUE(fs::exists(dir / "p_depths.png"));
  const nlohmann::json inf = nlohmann::json::parse(slurp(influence));
  EXPECT_EQ(inf["inputs"], "passkey");
  EXPECT_EQ(inf["needles"], 1);
  EXPECT_EQ(inf["positions"], 96);
  EXPECT_EQ(inf["checkpoints"].back()["by_depth"][0]["distractor"]["n"], 0);
  // One needle has no distractor: its CSV cell is empty, not "nan".
  EXPECT_EQ(slurp(dir / "i.csv").find("nan"), std::string::npos) << slurp(dir / "i.csv");
  const CliResult e = run_cli("eval --run " + run + " --lengths 96 --depths 0,50,100 --count 4 " +
                              "--json " + eval.string());
  ASSERT_EQ(e.code, 0) << e.err;
  const CliResult c = run_cli("birth --colocate " + influence.string() + " --accuracy " +
                              eval.string() + " --json " + (dir / "c.json").string());
  ASSERT_EQ(c.code, 0) << c.err;
  const nlohmann::json colocation = nlohmann::json::parse(slurp(dir / "c.json"));
  EXPECT_EQ(colocation["depths"], nlohmann::json::parse("[0, 50, 100]"));
  EXPECT_EQ(colocation["inputs"], "passkey");
  // A kv run's eval beside passkey influence is refused.
  const fs::path kv_eval = dir / "kv_eval.json";
  ASSERT_EQ(run_cli("eval --run " + kv_run("qwen2").string() +
                    " --lengths 40 --depths 0,50,100 "
                    "--count 2 --json " +
                    kv_eval.string())
                .code,
            0);
  const CliResult mixed =
      run_cli("birth --colocate " + influence.string() + " --accuracy " + kv_eval.string());
  EXPECT_EQ(mixed.code, 2) << mixed.err;
  EXPECT_EQ(lines(mixed.err), 1) << mixed.err;
  EXPECT_NE(mixed.err.find("kv"), std::string::npos) << mixed.err;
  // So are kv and passkey influence files over one set of seeds.
  const fs::path kv_influence = dir / "kv_influence.json";
  ASSERT_EQ(run_cli("birth --run " + kv_run("qwen2").string() +
                    " --inputs kv --checkpoints last --depths 0,50,100 --seeds 1 --json " +
                    kv_influence.string())
                .code,
            0);
  const CliResult tasks =
      run_cli("birth --colocate " + influence.string() + "," + kv_influence.string() +
              " --accuracy " + eval.string() + "," + kv_eval.string());
  EXPECT_EQ(tasks.code, 2) << tasks.err;
  EXPECT_EQ(lines(tasks.err), 1) << tasks.err;
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
        "birth --run " + qwen + " --depths 0,50", "birth --run " + qwen + " --inputs passkey",
        "birth --run " + hop.string() + " --inputs passkey",
        "birth --run " + passkey_run().string() + " --inputs kv",
        "birth --run " + passkey_run().string() + " --inputs passkey -L 20",
        "birth --run " + passkey_run().string() + " --inputs passkey --depths -5",
        "birth --run " + passkey_run().string() + " --inputs needle",
        "birth --run " + qwen + " --inputs kv -L 5000000",
        "birth --run " + passkey_run().string() + " --inputs passkey -L 5000000"}) {
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
