// `posbias eval` on kv runs: every evaluated example's queried pair sits where its cell's depth
// says (checked with the independent solver), a cell's examples do not depend on what else is
// measured, the real path on a tiny trained run (accuracies in [0, 1] with n = count, the same
// cells whatever else is measured, CSV and figures), and bad input in one line with exit 2.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>

#include "../cli_run.h"
#include "experiments/retrieval/kv_eval_command.h"
#include "experiments/retrieval/kv_seeds.h"
#include "posbias/core/atomic_file.h"
#include "posbias/tasks/kv_check.h"

namespace {

using namespace posbias;
using namespace posbias_test;
namespace fs = std::filesystem;

fs::path scratch(const std::string& name) { return scratch_path("posbias_kv_eval", name); }

const std::string kTiny = tiny_kv_flags();

TEST(KvEval, QueriedPairSitsAtTheCellsDepth) {
  int checked = 0;
  for (int length : {16, 40, 41, 130, 1000}) {
    const int pairs = (length - 4) / 6;
    const int fillers = (length - 4) % 6;
    for (double depth : {0.0, 10.0, 25.0, 50.0, 70.0, 90.0, 100.0}) {
      // The pair nearest the depth: index i with i/(n−1) closest to depth/100, the later one
      // on a tie (halves round away from zero).
      int nearest = 0;
      for (int i = 1; i < pairs; ++i) {
        if (std::abs(100.0 * i / (pairs - 1) - depth) <=
            std::abs(100.0 * nearest / (pairs - 1) - depth) + 1e-9)
          nearest = i;
      }
      for (std::int64_t e = 0; e < 5; ++e) {
        const KvExample ex = kv_depth_example(length, depth, e, 7);
        const KvSolution s = solve_kv(ex.tokens);  // reads only the tokens
        EXPECT_EQ(s.pairs, pairs);
        EXPECT_EQ(s.position, fillers + 6 * nearest) << "L " << length << " depth " << depth;
        EXPECT_EQ(s.answer, ex.answer);
        EXPECT_LE(std::abs(s.depth - depth), 50.0 / (pairs - 1) + 1e-9);
        EXPECT_EQ(ex.position, s.position);
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 5 * 7 * 5);
}

TEST(KvEval, CellExamplesDependOnlyOnSeedLengthDepthAndIndex) {
  const KvExample a = kv_depth_example(64, 30, 3, 1), b = kv_depth_example(64, 30, 3, 1);
  EXPECT_EQ(a.tokens, b.tokens);
  EXPECT_NE(kv_depth_example(64, 30, 4, 1).tokens, a.tokens);
  EXPECT_NE(kv_depth_example(64, 30, 3, 2).tokens, a.tokens);
  EXPECT_NE(kv_depth_example(64, 40, 3, 1).tokens, a.tokens);
}

nlohmann::json eval_json(const fs::path& run, const std::string& args, const fs::path& out) {
  const CliResult e =
      run_cli("eval --run " + run.string() + " " + args + " --json " + out.string());
  EXPECT_EQ(e.code, 0) << e.err;
  return nlohmann::json::parse(slurp(out));
}

TEST(KvEval, TinyRunEndToEnd) {
  const fs::path run = scratch("rope");
  const CliResult t = run_cli(kTiny + "--out " + run.string(), 300);
  ASSERT_EQ(t.code, 0) << t.err;
  const fs::path out = scratch("eval.json"), csv = scratch("eval.csv"), fig = scratch("fig");
  const CliResult e = run_cli("eval --run " + run.string() +
                              " --depths 0,10,30,50,70,90,100 --lengths 40,80 --count 6 --json " +
                              out.string() + " --csv " + csv.string() + " --plot " + fig.string());
  ASSERT_EQ(e.code, 0) << e.err;
  const nlohmann::json j = nlohmann::json::parse(slurp(out));
  EXPECT_EQ(j.at("task"), "kv");
  EXPECT_EQ(j.at("step").get<int>(), 4);
  int cells = 0;
  for (const std::string len : {"40", "80"}) {
    const int pairs = j.at("pairs").at(len).get<int>();
    EXPECT_EQ(pairs, (std::stoi(len) - 4) / 6);
    for (const auto& [depth, cell] : j.at("depth_accuracy").at(len).items()) {
      const double acc = cell.at("accuracy").get<double>();
      EXPECT_GE(acc, 0.0);
      EXPECT_LE(acc, 1.0);
      EXPECT_EQ(cell.at("n").get<int>(), 6);
      EXPECT_NEAR(acc, cell.at("correct").get<double>() / 6, 1e-12);
      EXPECT_LE(cell.at("lo").get<double>(), acc);
      EXPECT_GE(cell.at("hi").get<double>(), acc);
      EXPECT_NEAR(cell.at("chance").get<double>(), 1.0 / pairs, 1e-12);
      ++cells;
    }
  }
  EXPECT_EQ(cells, 14);
  EXPECT_TRUE(j.at("u_verdict").at("pooled").contains("verdict"));
  EXPECT_TRUE(j.contains("effective_length"));
  EXPECT_EQ(lines(slurp(csv)), 1 + 14);
  for (const char* f : {"fig-heatmap.png", "fig-depth.png", "fig-heatmap.svg"})
    EXPECT_TRUE(fs::exists(fig.parent_path() / f)) << f;
  // The same cell whatever else is measured: depth 50 at length 80 alone.
  const nlohmann::json alone =
      eval_json(run, "--depths 50 --lengths 80 --count 6", scratch("alone.json"));
  EXPECT_EQ(alone.at("depth_accuracy").at("80").at("50").at("correct"),
            j.at("depth_accuracy").at("80").at("50").at("correct"));
  // Defaults: the training length, 2x and 4x, depths 0..100 in steps of 10.
  const nlohmann::json d = eval_json(run, "--count 2", scratch("defaults.json"));
  EXPECT_EQ(d.at("lengths"), nlohmann::json({40, 80, 160}));
  EXPECT_EQ(d.at("depths").size(), 11u);
  // Several checkpoints: each one's file in training order, the CSV's rows after their step, one
  // figure through training; the last is the default's, seconds apart.
  const fs::path steps_csv = scratch("steps.csv"), steps_fig = scratch("steps"),
                 steps_json = scratch("steps.json");
  const nlohmann::json steps = eval_json(run,
                                         "--checkpoints 2,4 --depths 0,50,100 --lengths 40 "
                                         "--count 2 --csv " +
                                             steps_csv.string() + " --plot " + steps_fig.string(),
                                         steps_json);
  ASSERT_EQ(steps.at("checkpoints").size(), 2u);
  EXPECT_EQ(steps.at("task"), "kv");
  EXPECT_EQ(steps.at("checkpoints").at(0).at("step"), 2);
  nlohmann::json last = steps.at("checkpoints").at(1);
  nlohmann::json latest =
      eval_json(run, "--depths 0,50,100 --lengths 40 --count 2", scratch("latest.json"));
  last.erase("seconds");
  latest.erase("seconds");
  EXPECT_EQ(last, latest);
  const std::string rows = slurp(steps_csv);
  EXPECT_EQ(rows.rfind("step,length,pairs,depth,", 0), 0u) << rows;
  EXPECT_EQ(lines(rows), 1 + 2 * 3);
  EXPECT_NE(rows.find("\n4,40,6,100,"), std::string::npos) << rows;
  EXPECT_TRUE(fs::exists(steps_fig.string() + "-steps.png"));
  const fs::path copy = scratch("steps-copy.json");
  fs::copy_file(steps_json, copy);
  const CliResult refused = run_cli("seeds --eval " + steps_json.string() + " " + copy.string());
  EXPECT_EQ(refused.code, 1) << refused.err;
  EXPECT_NE(refused.err.find("eval --checkpoints last"), std::string::npos) << refused.err;
}

// Flags with accuracy p (round(p·count) true).
std::vector<bool> flags(double p, int count) {
  std::vector<bool> f(static_cast<std::size_t>(count), false);
  for (int i = 0; i < std::lround(p * count); ++i) f[static_cast<std::size_t>(i)] = true;
  return f;
}

// One seed's eval file from a scorer of accuracy p(length, depth), as `eval` writes it.
fs::path seed_file(const std::string& name, int seed, const std::function<double(int, double)>& p,
                   AnswerInputs task = AnswerInputs::kKv) {
  const DepthAccuracy a = measure_depth_accuracy(
      {40, 80, 160}, {0, 10, 30, 50, 70, 90, 100}, 0.5, [&](int length, double depth, std::size_t) {
        return DepthScore{flags(p(length, depth), 200), 0.1};
      });
  DepthEvalRun run;
  run.accuracy = a;
  run.config.seed = static_cast<std::uint64_t>(seed);
  const fs::path f = scratch(name);
  write_file_atomic(f, to_json(depth_eval_record(task, run)).dump());
  return f;
}

TEST(KvSeeds, UVerdictAndEffectiveLengthOverSeeds) {
  std::vector<std::string> u, flat;
  for (int s = 0; s < 3; ++s) {
    const double jitter = 0.02 * (s - 1);
    u.push_back(seed_file(fmt::format("u{}.json", s), s, [=](int length, double depth) {
                  const bool middle = depth >= 30 && depth <= 70;
                  // Seed 0 holds every length, seed 1 fails from 80 on, seed 2 at 40 already.
                  const double drop = (s == 1 && length >= 80) || s == 2 ? 0.3 : 0.0;
                  return (middle ? 0.6 : 0.9) + jitter - drop;
                }).string());
    flat.push_back(seed_file(fmt::format("flat{}.json", s), s, [=](int, double depth) {
                     return 0.7 + jitter + depth / 5000;
                   }).string());
  }
  const KvSeedsResult r = summarize_kv_seeds({u, "", "", ""});
  EXPECT_EQ(r.u_pooled.verdict, "U");
  for (const UOverSeeds& v : r.u_by_length) EXPECT_EQ(v.verdict, "U");
  // Cell (80, 50): seeds 0.58, 0.30, 0.32 (the middle, with jitter and drops).
  EXPECT_NEAR(r.cells[1][3].interval.mean, (0.58 + 0.30 + 0.32) / 3, 1e-12);
  EXPECT_EQ(r.effective_lengths[0], 160);
  EXPECT_EQ(r.effective_lengths[1], 40);
  EXPECT_EQ(r.effective_lengths[2], std::nullopt);
  EXPECT_EQ(r.effective_length_median, 40);  // of (none, 40, 160)
  const KvSeedsResult f = summarize_kv_seeds({flat, "", "", ""});
  EXPECT_EQ(f.u_pooled.verdict, "no U");
  // Through the CLI: `seeds --eval` on kv files.
  const fs::path out = scratch("seeds.json");
  const CliResult c =
      run_cli("seeds --eval " + u[0] + " " + u[1] + " " + u[2] + " --json " + out.string());
  ASSERT_EQ(c.code, 0) << c.err;
  const nlohmann::json j = nlohmann::json::parse(slurp(out));
  EXPECT_EQ(j.at("u_verdict").at("pooled").at("verdict"), "U");
  EXPECT_EQ(j.at("effective_length").at("median"), 40);
  EXPECT_EQ(j.at("depth_accuracy").at("80").at("50").at("n"), 3);
  EXPECT_EQ(j.at("task"), "kv");
  // Passkey results (the same layout) are summarised alike; a mix of the two tasks is refused.
  std::vector<std::string> passkey;
  for (int s = 0; s < 2; ++s)
    passkey.push_back(
        seed_file(
            fmt::format("passkey{}.json", s), s,
            [=](int, double depth) { return depth >= 30 && depth <= 70 ? 0.5 + 0.02 * s : 0.9; },
            AnswerInputs::kPasskey)
            .string());
  const KvSeedsResult p = summarize_kv_seeds({passkey, "", "", ""});
  EXPECT_EQ(p.task, AnswerInputs::kPasskey);
  EXPECT_EQ(p.u_pooled.verdict, "U");
  // Its figures name the passkey's task and depth, as its runs' eval figures do.
  const fs::path stem = scratch("passkey-seeds");
  const CliResult drawn =
      run_cli("seeds --eval " + passkey[0] + " " + passkey[1] + " --plot " + stem.string());
  ASSERT_EQ(drawn.code, 0) << drawn.err;
  for (const char* figure : {"_heatmap.gp", "_depth.gp"}) {
    const std::string gp = slurp(stem.string() + figure);
    EXPECT_NE(gp.find("depth of the queried needle (%)"), std::string::npos) << figure;
    EXPECT_EQ(gp.find("queried pair"), std::string::npos) << figure;
  }
  EXPECT_NE(slurp(stem.string() + "_heatmap.gp")
                .find("set title \"passkey: mean exact match over 2 seeds\""),
            std::string::npos);
  const CliResult mixed = run_cli("seeds --eval " + passkey[0] + " " + u[1]);
  EXPECT_EQ(mixed.code, 1) << mixed.err;
  EXPECT_NE(mixed.err.find("is a kv result"), std::string::npos) << mixed.err;
}

void expect_usage_error(const fs::path& run, const std::string& args, const std::string& says) {
  posbias_test::expect_usage_error("eval --run " + run.string() + " " + args, says);
}

TEST(KvEval, BadInputIsOneLineAndExitTwo) {
  const fs::path run = scratch("learned");
  const CliResult t = run_cli(kTiny + "--arch gpt2 --out " + run.string(), 300);
  ASSERT_EQ(t.code, 0) << t.err;
  expect_usage_error(run, "--depths 0,120", "--depths");
  expect_usage_error(run, "--depths=-5", "--depths");
  expect_usage_error(run, "--lengths 15", "--lengths");          // fewer than 2 pairs fit
  expect_usage_error(run, "--lengths 40,200000", "--lengths");   // past kv's maximum
  expect_usage_error(run, "--lengths 40,80", "position table");  // learned table holds 42
  expect_usage_error(run, "--effective-threshold 0", "--effective-threshold");
  expect_usage_error(run, "--effective-threshold 1.5", "--effective-threshold");
  expect_usage_error(run, "--count 0", "--count");
  // The learned-position run's defaults keep only the lengths its table holds.
  const nlohmann::json d = eval_json(run, "--count 1 --depths 0,50,100", scratch("learned.json"));
  EXPECT_EQ(d.at("lengths"), nlohmann::json({40}));
}

}  // namespace
