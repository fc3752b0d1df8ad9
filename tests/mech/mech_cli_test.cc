// `posbias heads` and `posbias discrepancy` as a user meets them: on a tiny Letter run that
// learned 1-hop look-ups, the last checkpoint has a symbolic head and the key-head discrepancy
// is measured next to the accuracy; the constructions sweep from the command line; bad input
// gets one line with exit 1 or 2.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "../cli_run.h"

namespace {

using namespace posbias_test;
namespace fs = std::filesystem;

fs::path scratch(const std::string& name) { return scratch_path("posbias_mech", name); }

TEST(MechCli, TinyLetterRunHasASymbolicHeadAndMeasuredDiscrepancy) {
  const fs::path run = scratch("letter");
  ASSERT_EQ(run_cli("train --task letter --layers 2 --eval-per-hop 64 --hops 1 --steps 150 "
                    "--warmup 30 --eval-every 50 --checkpoint-every 50 --out " +
                        run.string(),
                    300)
                .code,
            0);
  const fs::path heads = run / "heads.json";
  const CliResult h = run_cli("heads --run " + run.string() + " --samples 50 --json " +
                              heads.string() + " --plot " + (run / "heads").string());
  ASSERT_EQ(h.code, 0) << h.err;
  const auto j = nlohmann::json::parse(slurp(heads));
  ASSERT_EQ(j["checkpoints"].size(), 3u);  // steps 50, 100, 150
  EXPECT_EQ(j["checkpoints"][2]["step"], 150);
  ASSERT_EQ(j["checkpoints"][2]["heads"].size(), 2u);
  double best_symbolic = 0;
  for (const auto& head : j["checkpoints"][2]["heads"]) {
    best_symbolic = std::max(best_symbolic, head["symbolic"].get<double>());
  }
  EXPECT_GE(best_symbolic, 0.9) << "a model that finds the matching pair needs a content head";
  EXPECT_FALSE(j["final"]["symbolic"].empty());
  EXPECT_TRUE(fs::exists(run / "heads.png"));
  EXPECT_TRUE(fs::exists(run / "heads.svg"));
  EXPECT_TRUE(fs::exists(run / "heads_scores.png"));  // the scores against step, intervals
  for (const auto& head : j["checkpoints"][2]["heads"]) {
    EXPECT_LE(head["positional_ci"][0].get<double>(), head["positional"].get<double>());
    EXPECT_GE(head["positional_ci"][1].get<double>(), head["positional"].get<double>());
    EXPECT_LE(head["symbolic_ci"][0].get<double>(), head["symbolic"].get<double>());
    EXPECT_GE(head["self"].get<double>(), 0.0);  // the query's attention on itself
    EXPECT_LE(head["self"].get<double>(), 1.0);
  }
  // Labels as a view: the default threshold's entry is the "final" labels.
  EXPECT_EQ(j["label_threshold"], 0.9);
  ASSERT_EQ(j["threshold_sensitivity"].size(), 4u);
  for (const auto& t : j["threshold_sensitivity"]) {
    EXPECT_EQ(t["pure_counts"].size(), 3u);
    if (t["threshold"] == 0.9) {
      EXPECT_EQ(t["final"], j["final"]);
    }
  }

  const CliResult d =
      run_cli("discrepancy --run " + run.string() + " --lengths 17,64 --count 40 --json " +
              (run / "disc.json").string() + " --plot " + (run / "disc").string());
  ASSERT_EQ(d.code, 0) << d.err;
  const auto k = nlohmann::json::parse(slurp(run / "disc.json"));
  EXPECT_GE(k["accuracy"]["17"].get<double>(), 0.9);
  ASSERT_FALSE(k["discrepancy"].empty());
  for (const auto& head : k["discrepancy"]) {
    ASSERT_EQ(head["points"].size(), 2u);
    EXPECT_GE(head["points"][0]["min"].get<double>(), 0.0);
    EXPECT_LE(head["points"][0]["min"].get<double>(), head["points"][0]["median"].get<double>());
    EXPECT_EQ(head["points"][0]["n"], 40);
    // The examples whose top key lies on the chain: a subset, counted and measured apart.
    ASSERT_EQ(head["on_chain_points"].size(), 2u);
    ASSERT_EQ(head["top_key_on_chain"].size(), 2u);
    for (std::size_t i = 0; i < 2; ++i) {
      const auto& on = head["on_chain_points"][i];
      const double fraction = head["top_key_on_chain"][i].get<double>();
      EXPECT_GE(fraction, 0.0);
      EXPECT_LE(fraction, 1.0);
      EXPECT_EQ(on["n"].get<double>(), fraction * 40);
      if (on["n"] == 0) {
        EXPECT_TRUE(on["median"].is_null());
      } else {
        EXPECT_GE(on["min"].get<double>(), head["points"][i]["min"].get<double>());
      }
    }
  }
  EXPECT_TRUE(fs::exists(run / "disc.png"));
  EXPECT_EQ(k["variant"], "standard");
  EXPECT_EQ(k["train_length"], 17);
  for (const auto& head : k["discrepancy"]) {
    // Correct-only: a subset of the examples, as many as the accuracy says.
    ASSERT_EQ(head["correct_points"].size(), 2u);
    EXPECT_EQ(head["correct_points"][1]["n"].get<double>(),
              std::round(k["accuracy"]["64"].get<double>() * 40));
    // One length beyond training (64): a point but no exponent.
    EXPECT_EQ(head["exponent"]["points"], 1);
    EXPECT_TRUE(head["exponent"]["value"].is_null());
  }
  // Letter inputs with a decoy chain; the Number-only variant is refused in one line.
  const CliResult decoy =
      run_cli("discrepancy --run " + run.string() + " --variant decoy --lengths 17 --count 10");
  ASSERT_EQ(decoy.code, 0) << decoy.err;
  EXPECT_EQ(nlohmann::json::parse(decoy.out)["variant"], "decoy");
  expect_usage_error("discrepancy --run " + run.string() + " --variant seen_jumps",
                     "the seen_jumps variant belongs to the number task");
  expect_usage_error("discrepancy --variant decoy", "--variant requires --run");

  // The causal tests on the same run: each layer's attention mean-ablated in turn, then both
  // at once. A model that finds the matching pair needs attention to do it, so ablating both
  // must cost it most of its 1-hop accuracy (chance is 1/8). (When this test was written, the
  // two-layer model held the look-up in both layers: either alone kept 1-hop at 1.)
  const fs::path causal = run / "causal.json";
  const CliResult ab = run_cli("heads --run " + run.string() +
                               " --checkpoints last --samples 20 --ablate --layers 0,1 "
                               "--causal-lengths 17,24 --causal-count 48 --json " +
                               causal.string() + " --plot " + (run / "causal").string());
  ASSERT_EQ(ab.code, 0) << ab.err;
  const auto c = nlohmann::json::parse(slurp(causal));
  ASSERT_TRUE(c.contains("ablation"));
  EXPECT_FALSE(c.contains("patching"));
  EXPECT_EQ(c["ablation"]["step"], 150);
  EXPECT_EQ(c["ablation"]["lengths"], nlohmann::json::parse("[17, 24]"));
  EXPECT_GE(c["ablation"]["baseline"]["17"]["1"].get<double>(), 0.9);
  ASSERT_EQ(c["ablation"]["layers"].size(), 2u);
  for (const auto& layer : c["ablation"]["layers"]) {
    const double a = layer["accuracy"]["17"]["1"].get<double>();
    EXPECT_NEAR(layer["drop"]["17"]["1"].get<double>(),
                c["ablation"]["baseline"]["17"]["1"].get<double>() - a, 1e-12);
  }
  ASSERT_TRUE(c["ablation"].contains("joint"));
  EXPECT_EQ(c["ablation"]["joint"]["layers"], nlohmann::json::parse("[0, 1]"));
  EXPECT_LT(c["ablation"]["joint"]["accuracy"]["17"]["1"].get<double>(), 0.5)
      << "ablating all attention left the look-up: the ablation does nothing";
  EXPECT_TRUE(fs::exists(run / "causal_ablation.png"));
  EXPECT_TRUE(fs::exists(run / "causal_ablation.svg"));
  expect_usage_error("heads --run " + run.string() + " --ablate --layers 2",
                     "layer 2 is not in the model");
  expect_usage_error("heads --run " + run.string() + " --patch", "Number inputs");
  expect_usage_error("heads --run " + run.string() + " --spans", "--spans goes with --ablate");
  // Planned before anything is evaluated: one line with the bytes, exit 2.
  expect_usage_error("heads --run " + run.string() + " --ablate --memory-budget 0.001",
                     "--ablate / --patch at length 32");
  expect_usage_error("heads --run " + run.string() + " --layers 0", "--layers goes with");
  expect_usage_error("heads --run " + run.string() + " --ablate --causal-lengths 17,5",
                     "too short");
  // The scores' null: the same architecture at initialization, query and key scaled by 30.
  const CliResult null =
      run_cli("heads --run " + run.string() + " --at-init --qk-scale 30 --samples 20 --json " +
              (run / "null.json").string());
  ASSERT_EQ(null.code, 0) << null.err;
  const auto n = nlohmann::json::parse(slurp(run / "null.json"));
  EXPECT_EQ(n["at_init"], true);
  EXPECT_EQ(n["qk_scale"], 30.0);
  ASSERT_EQ(n["checkpoints"].size(), 1u);
  EXPECT_EQ(n["checkpoints"][0]["step"], 0);
  EXPECT_EQ(n["checkpoints"][0]["file"], "init");
  // Scaled query and key make the attention far from uniform: the pair-weighted gap grows.
  const CliResult plain = run_cli("heads --run " + run.string() + " --at-init --samples 20");
  ASSERT_EQ(plain.code, 0) << plain.err;
  const auto p0 = nlohmann::json::parse(plain.out);
  EXPECT_GT(n["checkpoints"][0]["heads"][0]["gap"].get<double>(),
            p0["checkpoints"][0]["heads"][0]["gap"].get<double>());
  expect_usage_error("heads --run " + run.string() + " --qk-scale 0", "--qk-scale");

  expect_usage_error("heads --run " + run.string() + " --samples 0", "--samples");
  expect_usage_error(
      "heads --run " + run.string() + " --length 20000 --attention dense --memory-budget 1",
      "use --attention blockwise");
  expect_usage_error("heads --run " + run.string() + " --checkpoints some", "--checkpoints");
  // Listed steps: the checkpoints at those steps only; a step the run lacks is named.
  const CliResult listed =
      run_cli("heads --run " + run.string() + " --checkpoints 150 --samples 8");
  ASSERT_EQ(listed.code, 0) << listed.err;
  const auto l = nlohmann::json::parse(listed.out);
  ASSERT_EQ(l["checkpoints"].size(), 1u);
  EXPECT_EQ(l["checkpoints"][0]["step"], 150);
  expect_usage_error("heads --run " + run.string() + " --checkpoints 7", "no checkpoint at step 7");
  expect_usage_error("discrepancy --run " + run.string() + " --heads 7.0", "--heads");
  expect_usage_error("discrepancy --run " + run.string() + " --heads L7.h0",
                     "--heads: 'L7.h0' is not a head of this");
  expect_usage_error("discrepancy --run " + run.string() + " --heads L1.x0",
                     "'L1.x0' is not a head name");
  expect_usage_error("discrepancy --run " + run.string() + " --lengths 17,1", "--lengths");
  // Every length's forward is planned before it runs: one line with the bytes, exit 2.
  expect_usage_error("discrepancy --run " + run.string() +
                         " --lengths 17,20000 --attention dense --memory-budget 2",
                     "discrepancy at length 20000 (dense attention) needs about");
  expect_usage_error("discrepancy --run " + run.string() + " --lengths 17 --memory-budget 0.001",
                     "the memory budget is 1.0 MB (--memory-budget)");
  // A corrupt checkpoint: one line naming it, exit 1.
  const fs::path broken = scratch("broken");
  fs::create_directories(broken / "checkpoints");
  fs::copy_file(run / "train.json", broken / "train.json");
  fs::copy_file(run / "checkpoints" / "step_00000150.safetensors",
                broken / "checkpoints" / "step_00000150.safetensors");
  fs::resize_file(broken / "checkpoints" / "step_00000150.safetensors", 100);
  expect_error("heads --run " + broken.string(), "step_00000150", 1);
  // A run folder without checkpoints is not a model to ablate: exit 2.
  const fs::path empty = scratch("no-checkpoints");
  fs::create_directories(empty / "checkpoints");
  fs::copy_file(run / "train.json", empty / "train.json");
  expect_usage_error("heads --run " + empty.string() + " --ablate", "has no checkpoints");
}

// `heads --redraw` draws a stored result's figures from the file alone, through the function the
// measuring run draws with: on a tiny Number run (scores over three checkpoints, ablation with
// spans, patching) every figure script it writes equals the run's but for the output name. A
// file that is not a heads result is refused in one line (exit 2), as is --redraw beside a
// measuring option or without --plot.
TEST(MechCli, RedrawDrawsTheFiguresTheRunDrew) {
  const fs::path run = scratch("number-redraw");
  ASSERT_EQ(run_cli("train --task number --layers 2 --eval-per-hop 64 --hops 1 --steps 150 "
                    "--warmup 30 --eval-every 50 --checkpoint-every 50 --out " +
                        run.string(),
                    300)
                .code,
            0);
  const CliResult live =
      run_cli("heads --run " + run.string() +
              " --samples 20 --ablate --patch --spans --causal-count 32 "
              "--json " +
              (run / "live.json").string() + " --plot " + (run / "live").string());
  ASSERT_EQ(live.code, 0) << live.err;
  const CliResult redrawn = run_cli("heads --redraw " + (run / "live.json").string() + " --plot " +
                                    (run / "redrawn").string());
  ASSERT_EQ(redrawn.code, 0) << redrawn.err;
  for (const std::string figure : {"", "_scores", "_ablation", "_patching"}) {
    std::string drawn = slurp(run / ("live" + figure + ".gp"));
    const std::string output = "\"live" + figure + ".svg\"";
    ASSERT_NE(drawn.find(output), std::string::npos) << figure;
    drawn.replace(drawn.find(output), output.size(), "\"redrawn" + figure + ".svg\"");
    EXPECT_EQ(drawn, slurp(run / ("redrawn" + figure + ".gp"))) << "figure live" << figure;
    EXPECT_TRUE(fs::exists(run / ("redrawn" + figure + ".png"))) << figure;
  }
  expect_usage_error(
      "heads --redraw " + (run / "summary.json").string() + " --plot " + (run / "x").string(),
      (run / "summary.json").string() + ": unknown heads field");
  EXPECT_FALSE(fs::exists(run / "x.gp"));
  expect_usage_error("heads --redraw " + (run / "live.json").string(), "--redraw needs --plot");
  expect_usage_error(
      "heads --redraw " + (run / "live.json").string() + " --ablate --plot " + (run / "x").string(),
      "drop --ablate");
}

// A Letter run trained on shuffled answers learns nothing (the same run with true answers
// learns 1-hop within its steps, above): its held-out accuracy stays near chance.
TEST(MechCli, ShuffledAnswersTrainANullModel) {
  const fs::path run = scratch("letter-shuffled");
  const CliResult t = run_cli(
      "train --task letter --layers 2 --eval-per-hop 64 --hops 1 "
      "--steps 150 --warmup 30 --eval-every 50 --checkpoint-every 50 "
      "--answers shuffled --out " +
          run.string(),
      300);
  ASSERT_EQ(t.code, 0) << t.err;
  const auto summary = nlohmann::json::parse(slurp(run / "summary.json"));
  EXPECT_EQ(summary["config"]["answers"], "shuffled");
  std::ifstream metrics(run / "metrics.jsonl");
  std::string line, last;
  while (std::getline(metrics, line)) last = line;
  const auto row = nlohmann::json::parse(last);
  EXPECT_EQ(row["step"], 150);
  EXPECT_LT(row["acc"]["1"].get<double>(), 0.4) << "shuffled answers were learned";
  expect_usage_error("train --task letter --answers random --out " + scratch("x").string(),
                     "answers must be true or shuffled");
  expect_usage_error("train --task kv --answers shuffled --out " + scratch("y").string(),
                     "answers shuffled is for the hop tasks");
}

// Head scores and the discrepancy bounds are defined on plain softmax rows: a run with a null
// sink is refused by both in one line (exit 2).
TEST(MechCli, ANullSinkRunIsRefusedByTheScoresThatReadSoftmaxRows) {
  const fs::path run = scratch("letter-null-sink");
  const CliResult t = run_cli(
      "train --task letter --layers 2 --d-model 32 --heads 2 --mlp 64 --eval-per-hop 16 "
      "--hops 1 --steps 4 --warmup 1 --eval-every 4 --checkpoint-every 4 --null-sink 2 --out " +
          run.string(),
      300);
  ASSERT_EQ(t.code, 0) << t.err;
  expect_usage_error("heads --run " + run.string() + " --samples 8", "null sink");
  expect_usage_error("discrepancy --run " + run.string() + " --count 4 --lengths 17", "null sink");
}

TEST(MechCli, ConstructionsFromTheCommandLine) {
  const fs::path out = scratch("index");
  const CliResult r = run_cli("discrepancy --function index --lengths 64,4096 --count 8 --json " +
                              (out.string() + ".json") + " --plot " + out.string());
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(slurp(out.string() + ".json"));
  EXPECT_NEAR(j["slope"]["value"].get<double>(), -2.0, 0.01);
  EXPECT_TRUE(fs::exists(out.string() + ".png"));
  const CliResult s = run_cli("discrepancy --function retrieval --lengths 16,256");
  ASSERT_EQ(s.code, 0) << s.err;
  EXPECT_NE(s.out.find("\"accuracy\": 1.0"), std::string::npos);
  // On a terminal without --json: the summary and where the JSON is, not the JSON.
  const CliResult tty = run_shell("script -qec '" + std::string(POSBIAS_BIN) +
                                  " discrepancy --function index --lengths 64,4096 --count 8' "
                                  "/dev/null");
  ASSERT_EQ(tty.code, 0) << tty.out;
  EXPECT_NE(tty.out.find("index construction on number inputs:"), std::string::npos) << tty.out;
  EXPECT_NE(tty.out.find("min discrepancy ~ n^b, n 64..4096: b = -2.0"), std::string::npos)
      << tty.out;
  EXPECT_NE(tty.out.find("is not printed on a terminal"), std::string::npos) << tty.out;
  EXPECT_EQ(tty.out.find("\"points\""), std::string::npos) << tty.out;
  // --json FILE from a terminal: the file, and the summary with where it went.
  const std::string file = scratch("index-tty").string() + ".json";
  const CliResult to_file = run_shell("script -qec '" + std::string(POSBIAS_BIN) +
                                      " discrepancy --function index --lengths 64,4096 --count 8 "
                                      "--json " +
                                      file + "' /dev/null");
  ASSERT_EQ(to_file.code, 0) << to_file.out;
  EXPECT_NE(to_file.out.find("min discrepancy ~ n^b"), std::string::npos) << to_file.out;
  EXPECT_NE(to_file.out.find("wrote " + file), std::string::npos) << to_file.out;
  EXPECT_TRUE(nlohmann::json::parse(slurp(file)).contains("points"));
  // The constructions compute the query's row alone, so 65536 tokens need no [n, n] mask
  // (34 GB in float64); a count past memory is refused before anything is generated.
  const CliResult l = run_cli("discrepancy --lengths 65536 --count 2");
  ASSERT_EQ(l.code, 0) << l.err;
  EXPECT_NE(l.out.find("\"accuracy\": 1.0"), std::string::npos);
  expect_usage_error("discrepancy --lengths 65536 --count 100000",
                     "the index construction on 100000 inputs of length 65536 needs about");
}

TEST(MechCli, HeadSearchFromTheCommandLine) {
  const fs::path out = scratch("search");
  const CliResult r = run_cli(
      "discrepancy --search optimized --head-dim 4 --lengths 16,64,128,256 "
      "--starts 2 --steps 60 --json " +
      out.string() + ".json --plot " + out.string());
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(slurp(out.string() + ".json"));
  EXPECT_EQ(j["search"], "optimized");
  EXPECT_EQ(j["frequencies"], "free");
  ASSERT_EQ(j["points"].size(), 4u);
  for (const auto& p : j["points"]) {
    const double n = p["n"].get<double>();
    EXPECT_NEAR(p["construction_gap"].get<double>(), 1 - std::cos(M_PI / n), 1e-12);
    EXPECT_GE(p["best_gap"].get<double>(), p["single_frequency_gap"].get<double>());
    EXPECT_EQ(p["start_gaps"].size(), 2u);
    EXPECT_EQ(p["theta"].size(), 2u);
  }
  // Fitted on n >= 64: three points, an interval around the value.
  EXPECT_EQ(j["exponent"]["points"], 3);
  EXPECT_LE(j["exponent"]["ci"][0].get<double>(), j["exponent"]["value"].get<double>());
  EXPECT_GE(j["exponent"]["ci"][1].get<double>(), j["exponent"]["value"].get<double>());
  EXPECT_NEAR(j["construction_exponent"]["value"].get<double>(), -2.0, 0.01);
  EXPECT_TRUE(fs::exists(out.string() + ".png"));
  const CliResult s = run_cli(
      "discrepancy --search optimized --function retrieval --frequencies "
      "rope --rope-theta 100 --head-dim 4 --lengths 8 --starts 1 --steps 5");
  ASSERT_EQ(s.code, 0) << s.err;
  EXPECT_EQ(nlohmann::json::parse(s.out)["rope_theta"], 100.0);

  expect_usage_error("discrepancy --search random", "--search must be optimized");
  expect_usage_error("discrepancy --search optimized --head-dim 5", "--head-dim");
  expect_usage_error("discrepancy --search optimized --frequencies learned", "--frequencies");
  expect_usage_error("discrepancy --search optimized --steps 0", "--steps");
  expect_usage_error("discrepancy --search optimized --rope-theta 0.5", "--rope-theta");
  expect_usage_error("discrepancy --search optimized --lengths 100000", "--lengths");
  expect_usage_error("discrepancy --search optimized --lengths 16000 --memory-budget 1",
                     "the head search at n = 16000 needs about");
  expect_usage_error("discrepancy --search optimized --run x", "excludes");
}

// Any model the loader reads: the golden tiny Hugging Face GPT-2 and Qwen2 checkpoints, on
// random ids and on a token file.
TEST(MechCli, HuggingFaceCheckpointsOnTokenFiles) {
  const std::string golden = std::string(POSBIAS_SOURCE_DIR) + "/tests/golden/models/";
  const fs::path tokens = scratch("tokens.txt");
  {
    std::ofstream t(tokens);
    t << "1 2 3 4 5 6 7 8 9 10\n11, 12, 13, 14, 15, 16, 17, 18, 19, 20\n";
  }
  for (const char* family : {"gpt2", "qwen2"}) {
    const std::string model = "--config " + golden + family + "/config.json --weights " + golden +
                              family + "/model.safetensors";
    const nlohmann::json cfg = nlohmann::json::parse(slurp(golden + family + "/config.json"));
    const int layers =
        cfg.contains("n_layer") ? cfg["n_layer"].get<int>() : cfg["num_hidden_layers"].get<int>();
    const int heads =
        cfg.contains("n_head") ? cfg["n_head"].get<int>() : cfg["num_attention_heads"].get<int>();
    for (const std::string& input :
         {std::string("--length 12 --samples 5"), "--tokens " + tokens.string()}) {
      const CliResult r = run_cli("heads " + model + " " + input);
      ASSERT_EQ(r.code, 0) << family << " " << input << ": " << r.err;
      const auto j = nlohmann::json::parse(r.out);
      ASSERT_EQ(j["checkpoints"].size(), 1u);
      EXPECT_EQ(j["checkpoints"][0]["heads"].size(), static_cast<std::size_t>(layers * heads));
      EXPECT_EQ(j["length"], input[2] == 'l' ? 12 : 10);
    }
  }
  expect_error("heads --config " + golden + "gpt2/config.json --weights " + golden +
                   "gpt2/model.safetensors --tokens /nonexistent/tokens.txt",
               "/nonexistent/tokens.txt", 1);
  expect_usage_error("heads --config " + golden + "gpt2/config.json", "--weights");
}

TEST(MechCli, BadInputGetsOneLine) {
  expect_error("heads --run /nonexistent/run", "/nonexistent/run", 1);
  expect_usage_error("heads", "--run");
  expect_usage_error("heads --run /nonexistent/run --ablate", "is not a directory");
  expect_usage_error("heads --config c.json --weights w.safetensors --ablate", "give --run");
  expect_usage_error("heads --config c.json --weights w.safetensors --at-init", "give --run");
  expect_usage_error("discrepancy --theta nan", "--theta");
  expect_usage_error("discrepancy --omega inf", "--omega");
  expect_usage_error("discrepancy --function lookup", "index, retrieval or reflexive");
  expect_usage_error("discrepancy --search optimized --function reflexive",
                     "--search covers the index and retrieval functions");
  expect_usage_error("discrepancy --lengths 1", "--lengths");
  expect_usage_error("discrepancy --lengths 4", "too short");
  expect_usage_error("discrepancy --run x --function index", "excludes");
  expect_usage_error("discrepancy --count -3", "--count");
}

}  // namespace
