// Text runs as a user meets them (`train --task text`, `eval --run`, `birth --run`) on a small
// corpus the test writes: the model learns (held-out bits per byte falls below the bigram
// baseline), per-position loss and gradients are logged, checkpoints are log-spaced from step
// 0, a killed run resumes to the same metrics, `birth --run` at step 0 equals `birth` on the
// same weights and tokens, the scalar targets match finite differences, and bad input gets
// one line.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "../cli_run.h"
#include "../train/kill_while_training.h"
#include "brown_excerpt.h"
#include "experiments/birth/birth.h"
#include "experiments/birth/birth_run.h"
#include "posbias/hf/hf_config.h"
#include "posbias/jacobian/jacobian.h"
#include "posbias/model/hf_weights.h"
#include "posbias/runfiles/run_header.h"
#include "posbias/train/checkpoint.h"
#include "posbias/train/text_run.h"
#include "posbias/train/trainer.h"

namespace {

using namespace posbias_test;
namespace fs = std::filesystem;

fs::path scratch(const std::string& name) { return scratch_path("posbias_text_train", name); }

const fs::path& corpus() {
  static const fs::path dir = write_brown_excerpt("posbias_text_train_corpus", 12, 60);
  return dir;
}

// A tiny text run's flags; `tokenizer` replaces the SentencePiece default.
std::string tiny(const std::string& extra = "",
                 const std::string& tokenizer = "--tokenizer spm --vocab-size 300 ") {
  return "train --task text --corpus " + corpus().string() +
         " --layers 2 --d-model 32 --heads 2 --mlp 64 --length 32 --batch 8 --eval-windows 8 " +
         tokenizer + extra;
}

// One trained run shared by the tests that only read it.
const fs::path& trained_run() {
  return trained_once("posbias_text_train", "trained",
                      tiny("--steps 120 --warmup 10 --lr 5e-3 --eval-every 10 "
                           "--checkpoint-every 30 --log-checkpoints 5"));
}

TEST(TextTrain, LearnsAndLogsPerPositionLossAndGradients) {
  const fs::path& run = trained_run();
  const auto rows = metrics_without_timing(run);
  ASSERT_EQ(rows.size(), 13u);  // steps 0, 10, ..., 120
  for (const auto& r : rows) {
    ASSERT_EQ(r["loss_per_position"].size(), 32u);
    ASSERT_TRUE(r["grad_per_position"].contains("embed"));
    ASSERT_TRUE(r["grad_per_position"].contains("layer_1"));
    EXPECT_EQ(r["grad_per_position"]["embed"].size(), 32u);
    EXPECT_FALSE(r.contains("acc"));
  }
  EXPECT_LT(rows.back()["bits_per_byte"].get<double>(),
            0.7 * rows.front()["bits_per_byte"].get<double>());
  const nlohmann::json summary = nlohmann::json::parse(slurp(run / "summary.json"));
  const auto& h = summary["heldout"];
  // The corpus is a bigram-ish language: the model must at least beat the unigram baseline.
  EXPECT_LT(h["bits_per_byte"].get<double>(), h["unigram_bits_per_byte"].get<double>());
  EXPECT_LT(h["bigram_bits_per_byte"].get<double>(), h["unigram_bits_per_byte"].get<double>());
  EXPECT_EQ(h["vocab"].get<int>(), 300);
  // Log-spaced checkpoints with step 0: 120^(k/4) = 1, 3.3, 11.0, 36.1, 120, plus every 30.
  std::vector<std::int64_t> steps;
  for (const auto& f : posbias::list_checkpoints(run))
    steps.push_back(std::stoll(f.stem().string().substr(5)));
  EXPECT_EQ(steps, (std::vector<std::int64_t>{0, 1, 3, 11, 30, 36, 60, 90, 120}));
  for (const char* f :
       {"tokenizer.model", "train.json", "model.safetensors", "config.json", "training_loss.svg",
        "training_loss_per_position.png", "training_gradients.svg"}) {
    EXPECT_TRUE(fs::exists(run / f)) << f;
  }
  // eval --run on a text run: the same held-out bits per byte as the run's summary.
  const CliResult e = run_cli("eval --run " + run.string() + " --json " +
                              (run / "eval.json").string() + " --plot " + (run / "eval").string());
  ASSERT_EQ(e.code, 0) << e.err;
  const nlohmann::json j = nlohmann::json::parse(slurp(run / "eval.json"));
  EXPECT_NEAR(j["bits_per_byte"].get<double>(), h["bits_per_byte"].get<double>(), 1e-9);
  EXPECT_EQ(j["loss_per_position"].size(), 32u);
  EXPECT_TRUE(fs::exists(run / "eval.svg"));
  // Two checkpoints: each one's result in training order (the last the default's), a figure of
  // the loss per position at both, and on a terminal a line each instead of the JSON.
  const CliResult both = run_cli("eval --run " + run.string() + " --checkpoints 0,120 --plot " +
                                 (run / "eval-steps").string());
  ASSERT_EQ(both.code, 0) << both.err;
  const nlohmann::json b = nlohmann::json::parse(both.out);
  EXPECT_EQ(b["task"], "text");
  ASSERT_EQ(b["checkpoints"].size(), 2u);
  EXPECT_EQ(b["checkpoints"][0]["step"], 0);
  EXPECT_EQ(b["checkpoints"][1], j);
  EXPECT_GT(b["checkpoints"][0]["bits_per_byte"].get<double>(), j["bits_per_byte"].get<double>());
  EXPECT_EQ(both.err, "");
  EXPECT_TRUE(fs::exists(run / "eval-steps.png"));
  const CliResult tty = run_shell("script -qec '" + std::string(POSBIAS_BIN) + " eval --run " +
                                  run.string() + " --checkpoints 0,120' /dev/null");
  ASSERT_EQ(tty.code, 0) << tty.out;
  EXPECT_NE(tty.out.find("text run at step 0: "), std::string::npos) << tty.out;
  EXPECT_NE(tty.out.find("text run at step 120: "), std::string::npos) << tty.out;
  EXPECT_NE(tty.out.find("bits per byte held out (unigram "), std::string::npos) << tty.out;
  EXPECT_EQ(tty.out.find("\"checkpoints\""), std::string::npos) << tty.out;
}

TEST(TextTrain, BirthRunMeasuresEveryCheckpoint) {
  const fs::path& run = trained_run();
  const fs::path out = run / "birth.json";
  const CliResult b = run_cli("birth --run " + run.string() +
                              " --checkpoints all --seeds 3 --length 32 --bootstrap 20 --json " +
                              out.string() + " --plot " + (run / "birth").string());
  ASSERT_EQ(b.code, 0) << b.err;
  const nlohmann::json j = nlohmann::json::parse(slurp(out));
  ASSERT_EQ(j["checkpoints"].size(), 9u);
  EXPECT_EQ(j["checkpoints"][0]["step"].get<int>(), 0);
  for (const auto& c : j["checkpoints"]) {
    EXPECT_EQ(c["profile"].size(), 32u);
    EXPECT_EQ(c["alpha"].size(), 2u);
    EXPECT_TRUE(c.contains("nofit"));
    EXPECT_TRUE(c["log10_middle_to_ends"].is_number());
    // The U by its parts over the 3 sequences: at L = 32 the end windows fit, the middle does
    // not, and the U test says so instead of failing.
    EXPECT_EQ(c["shares"]["primacy"]["values"].size(), 3u);
    EXPECT_EQ(c["shares"]["regions"]["recency"], (std::vector<int>{23, 30}));
    EXPECT_TRUE(c["shares"]["unavailable"]["middle"].is_string());
    EXPECT_EQ(c["u_test"]["verdict"], "not testable");
  }
  // Paired per sequence, last checkpoint against the first.
  EXPECT_EQ(j["shares_change"]["query"]["values"].size(), 3u);
  EXPECT_FALSE(j["shares_change"].contains("middle"));
  // Step 0 logged its gradient per position: measured against the two predictions and the
  // flat control.
  const auto& g = j["checkpoints"][0]["gradient"];
  ASSERT_EQ(g["measured"].size(), 32u);
  EXPECT_EQ(g["column_sum"].size(), 32u);
  EXPECT_TRUE(g["median_abs_log10_error"]["flat"].is_number());
  EXPECT_TRUE(j["checkpoints"][1]["gradient"]["measured"].is_null());  // step 1 logged none
  EXPECT_TRUE(fs::exists(run / "birth_gradient.svg"));
  EXPECT_TRUE(fs::exists(run / "birth_profiles.svg"));
  EXPECT_TRUE(fs::exists(run / "birth_shape.png"));
  EXPECT_TRUE(fs::exists(run / "birth_shares.png"));
  // `birth --rescore` on this result redraws the figures from the file alone: the same scripts
  // as the run's (but for their output names), and the file is left byte for byte.
  const std::string bytes = slurp(out);
  const CliResult redraw =
      run_cli("birth --rescore " + out.string() + " --plot " + (run / "redrawn").string());
  ASSERT_EQ(redraw.code, 0) << redraw.err;
  EXPECT_EQ(slurp(out), bytes);
  for (const char* figure : {"_profiles", "_shape", "_gradient"}) {
    std::string want = slurp(run / ("birth" + std::string(figure) + ".gp"));
    const std::string name = "birth" + std::string(figure) + ".svg";
    want.replace(want.find(name), name.size(), "redrawn" + std::string(figure) + ".svg");
    EXPECT_EQ(slurp(run / ("redrawn" + std::string(figure) + ".gp")), want) << figure;
    EXPECT_TRUE(fs::exists(run / ("redrawn" + std::string(figure) + ".png"))) << figure;
  }
  expect_usage_error("birth --rescore " + out.string(), "give --plot STEM");
  expect_usage_error("birth --rescore " + out.string() + " --plot " + (run / "x").string() +
                         " --json " + (run / "x.json").string(),
                     "drop --json");
  for (const char* target : {"loss", "prob"}) {
    const CliResult t = run_cli("birth --run " + run.string() + " --checkpoints last --seeds 2 " +
                                "--length 32 --bootstrap 0 --target " + target);
    ASSERT_EQ(t.code, 0) << t.err;
    const nlohmann::json tj = nlohmann::json::parse(t.out);
    EXPECT_EQ(tj["target"].get<std::string>(), target);
    EXPECT_EQ(tj["checkpoints"].size(), 1u);
  }
  // Without --length, the run's own length.
  const CliResult own =
      run_cli("birth --run " + run.string() + " --checkpoints last --seeds 2 " + "--bootstrap 0");
  ASSERT_EQ(own.code, 0) << own.err;
  const nlohmann::json oj = nlohmann::json::parse(own.out);
  const nlohmann::json train = nlohmann::json::parse(slurp(run / "train.json"));
  const nlohmann::json& config = train.contains("config") ? train["config"] : train;
  EXPECT_EQ(oj["length"], config["length"]);
  EXPECT_EQ(oj["checkpoints"][0]["profile"].size(), config["length"].get<std::size_t>());
  expect_usage_error("birth --run " + run.string() + " --checkpoints 5", "no checkpoint at step 5");
  expect_usage_error("birth --run " + run.string() + " --layers 3", "own model");
  expect_usage_error("birth --target loss --arch gpt2 --layers 1 --length 8", "token");
}

// Step 0 of a text run equals `birth` on the same weights and tokens (the standalone command,
// given the step-0 weights as Hugging Face files and the held-out windows as a token file).
TEST(TextTrain, StepZeroEqualsBirthOnTheSameWeightsAndTokens) {
  const fs::path& run = trained_run();
  posbias::BirthOptions o;
  o.run = run.string();
  o.checkpoints = posbias::parse_checkpoint_selection("0");
  o.seeds = 2;
  o.length = 32;
  o.bootstrap = 0;
  const posbias::BirthRunResult viarun = posbias::measure_birth_run(o);
  ASSERT_EQ(viarun.checkpoints.size(), 1u);

  posbias::LoadedModel m = posbias::load_trained_model(run, posbias::checkpoint_path(run, 0));
  const fs::path dir = scratch("step0");
  fs::create_directories(dir);
  posbias::save_hf_weights(m.model, dir / "model.safetensors");
  posbias::ModelConfig mc = m.info.config.model_config();
  std::ofstream(dir / "config.json") << posbias::to_json(posbias::hf_config_from_model(mc)).dump(2);
  const posbias::RunHeader header = posbias::read_run_header(run);
  const posbias::TextRunData data =
      posbias::prepare_text_run(m.info.config, run, false, header.corpus_fingerprint.value());
  const auto windows = posbias::consecutive_windows(data.streams.heldout, 32, 0);
  const std::int64_t n = static_cast<std::int64_t>(windows.size()) / 33;
  {
    std::ofstream tokens(dir / "tokens.txt");
    for (std::int64_t s = 0; s < 2; ++s) {
      const std::int64_t w = s * n / 2;
      for (std::int64_t i = 0; i < 32; ++i) tokens << (i ? " " : "") << windows[w * 33 + i];
      tokens << "\n";
    }
  }
  posbias::BirthOptions b;
  b.config = (dir / "config.json").string();
  b.weights = (dir / "model.safetensors").string();
  b.tokens = (dir / "tokens.txt").string();
  b.length = 32;
  b.bootstrap = 0;
  const posbias::BirthResult direct = posbias::measure_birth(b);
  const auto& a = viarun.checkpoints[0].result.profile_seeds;
  ASSERT_EQ(a.size(), direct.profile_seeds.size());
  for (std::size_t s = 0; s < a.size(); ++s)
    for (std::size_t j = 0; j < a[s].size(); ++j)
      EXPECT_NEAR(a[s][j], direct.profile_seeds[s][j], 1e-6 * std::abs(direct.profile_seeds[s][j]))
          << "seed " << s << " position " << j;
  // And step 0 is the initialization: a fresh model with the run's seed.
  posbias::TrainConfig c = m.info.config;
  posbias::Trainer fresh(c, &data.streams.train);
  for (const auto& item : fresh.model->named_parameters()) {
    EXPECT_TRUE(torch::equal(item.value(), m.model->named_parameters()[item.key()])) << item.key();
  }
}

// The loss and prob targets are gradients of one scalar: central differences in float64.
TEST(TextTrain, ScalarTargetsMatchFiniteDifferences) {
  posbias::ModelConfig c = posbias::family_default(posbias::Family::kGpt2);
  c.vocab = 50, c.layers = 2, c.d_model = 16, c.heads = 2, c.kv_heads = 2, c.mlp = 32;
  c.max_positions = 8;
  posbias::Transformer model(c);
  model->init_weights(3);
  model->to(torch::kFloat64);
  model->eval();
  const torch::Tensor x = model->embed(torch::tensor({{3, 7, 1, 9, 4, 2}}, torch::kInt64)).detach();
  for (auto target : {posbias::InfluenceTarget::kLoss, posbias::InfluenceTarget::kProb}) {
    posbias::JacobianSpec spec;
    spec.target = target;
    spec.next_token = 11;
    spec.query = 5;
    const torch::Tensor p = posbias::jacobian_profile(model, x, spec);
    auto f = [&](const torch::Tensor& input) {
      torch::NoGradGuard no_grad;
      const torch::Tensor logits = model->logits(model->forward_embeddings(input).select(1, 4));
      return target == posbias::InfluenceTarget::kLoss
                 ? torch::cross_entropy_loss(logits, torch::tensor({11}, torch::kInt64))
                       .item<double>()
                 : torch::softmax(logits, -1).max().item<double>();
    };
    for (std::int64_t j = 0; j < 6; ++j) {
      double sq = 0;
      for (std::int64_t k = 0; k < 16; ++k) {
        torch::Tensor up = x.clone(), down = x.clone();
        up[0][j][k] += 1e-6;
        down[0][j][k] -= 1e-6;
        const double g = (f(up) - f(down)) / 2e-6;
        sq += g * g;
      }
      const double fd = std::sqrt(sq);
      EXPECT_NEAR(p[j].item<double>(), fd, 1e-6 + 1e-5 * fd) << "position " << j + 1;
    }
    EXPECT_EQ(p[5].item<double>(), 0.0);  // position 6 is after the query
  }
}

TEST(TextTrain, KilledRunResumesExactly) {
  const std::string config =
      tiny("--steps 30 --warmup 5 --eval-every 5 --checkpoint-every 5 --log-checkpoints 4 ",
           "--tokenizer bytes ");
  const fs::path whole = scratch("whole"), killed = scratch("killed");
  ASSERT_EQ(run_cli(config + "--out " + whole.string(), 300).code, 0);
  const int kills =
      kill_while_training(std::string(POSBIAS_BIN) + " " + config + "--out " + killed.string(),
                          std::string(POSBIAS_BIN) + " train --resume " + killed.string(), killed);
  EXPECT_GE(kills, 1);
  const CliResult r = run_cli("train --resume " + killed.string(), 300);
  ASSERT_EQ(r.code, 0) << r.err;
  const auto a = metrics_without_timing(whole), b = metrics_without_timing(killed);
  ASSERT_EQ(a.size(), 7u);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i], b[i]) << "metrics line " << i;
  EXPECT_EQ(slurp(whole / "model.safetensors"), slurp(killed / "model.safetensors"));

  // Resumed from a log-spaced checkpoint between evaluations (step 3 of 30^(k/3) = 1, 3.1,
  // 9.7, 30): the next line averages the training loss over the same steps.
  const fs::path cut = scratch("cut");
  fs::copy(whole, cut, fs::copy_options::recursive);
  for (const auto& f : fs::directory_iterator(cut / "checkpoints"))
    if (std::stoll(f.path().stem().string().substr(5)) > 3) fs::remove(f.path());
  ASSERT_TRUE(fs::exists(cut / "checkpoints" / "step_00000003.safetensors"));
  const CliResult c = run_cli("train --resume " + cut.string(), 300);
  ASSERT_EQ(c.code, 0) << c.err;
  const auto d = metrics_without_timing(cut);
  ASSERT_EQ(a.size(), d.size());
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i], d[i]) << "metrics line " << i;
}

TEST(TextTrain, BadInputGetsOneLine) {
  expect_error(
      "train --task text --corpus /nonexistent/corpus --out " + scratch("nocorpus").string(),
      "scripts/install-deps.sh", 1);
  expect_usage_error(tiny("--pos rotary --out " + scratch("badpos").string()), "rotary");
  expect_usage_error("train --task number --arch qwen2 --out " + scratch("hoparch").string(),
                     "--task text");
  expect_usage_error(tiny("--out " + scratch("smallvocab").string(), "--vocab-size 100 "),
                     "vocab_size");
  // A run whose tokenizer file was replaced by something that is not SentencePiece.
  const fs::path run = scratch("badtok");
  ASSERT_EQ(run_cli(tiny("--steps 2 --warmup 1 --eval-every 1 --checkpoint-every 1 --out ") +
                    run.string())
                .code,
            0);
  std::ofstream(run / "tokenizer.model", std::ios::trunc) << "not a model";
  expect_error("eval --run " + run.string(), "not a SentencePiece model", 1);
  expect_error("train --resume " + run.string(), "not a SentencePiece model", 1);
  // A token id past the run's vocabulary in a token file.
  std::ofstream(run / "tokens.txt") << "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 300\n";
  expect_error("birth --config " + (run / "config.json").string() + " --weights " +
                   (run / "model.safetensors").string() + " --tokens " +
                   (run / "tokens.txt").string() + " --length 20",
               "300", 1);
  // Hop commands refuse a text run.
  expect_usage_error("heads --run " + run.string(), "text run");
  // A corrupt corpus tarball is refused by the installer, in one line.
  const fs::path bad = scratch("bad.tgz"), dest = scratch("dest");
  std::ofstream(bad) << "not the corpus";
  const CliResult f =
      run_shell("bash " + std::string(POSBIAS_SOURCE_DIR) + "/scripts/fetch-corpus.sh --tarball " +
                bad.string() + " --dest " + dest.string());
  EXPECT_EQ(f.code, 1);
  EXPECT_EQ(lines(f.err), 1) << f.err;
  EXPECT_NE(f.err.find("SHA-256"), std::string::npos) << f.err;
  EXPECT_FALSE(fs::exists(dest));
}

}  // namespace
