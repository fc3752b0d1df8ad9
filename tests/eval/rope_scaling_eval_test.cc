// `eval --rope-scaling pi:F|ntk:F` as a user meets it: on a kv run with RoPE, F = 1 gives the
// baseline's cells exactly and the file records the scaling only when it is given (the default
// output keeps its fields); F = 2 is recorded and read back by the strict reader; a hop run
// takes it too; a run without rotary positions, a text run's bits per byte and bad values are
// refused in one line with exit 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "../cli_run.h"
#include "experiments/retrieval/depth_eval_record.h"

namespace {

using namespace posbias;
using namespace posbias_test;
namespace fs = std::filesystem;

fs::path scratch(const std::string& name) { return scratch_path("posbias_rope_scaling", name); }

const std::string kKvFlags = tiny_kv_flags(2);

nlohmann::json eval_json(const fs::path& run, const std::string& extra, const fs::path& out) {
  const CliResult r = run_cli("eval --run " + run.string() +
                                  " --lengths 40,80 --depths 0,50,100 --count 8 --json " +
                                  out.string() + " " + extra,
                              300);
  EXPECT_EQ(r.code, 0) << extra << ": " << r.err;
  return nlohmann::json::parse(slurp(out));
}

TEST(RopeScalingEval, FactorOneIsTheBaselineAndTheScalingIsRecorded) {
  const fs::path run = scratch("rope");
  ASSERT_EQ(run_cli(kKvFlags + "--arch qwen2 --pos rope --out " + run.string(), 300).code, 0);
  nlohmann::json base = eval_json(run, "", scratch("base.json"));
  EXPECT_FALSE(base.contains("rope_scaling"));
  for (const std::string kind : {"pi", "ntk"}) {
    nlohmann::json one = eval_json(run, "--rope-scaling " + kind + ":1", scratch(kind + "1.json"));
    ASSERT_TRUE(one.contains("rope_scaling")) << kind;
    EXPECT_EQ(one["rope_scaling"], (nlohmann::json{{"kind", kind}, {"factor", 1.0}}));
    for (const char* key : {"depth_accuracy", "mean_accuracy", "u_verdict", "effective_length"})
      EXPECT_EQ(one[key], base[key]) << kind << ":1, " << key;
    one.erase("rope_scaling");
    one.erase("seconds");
    nlohmann::json same = base;
    same.erase("seconds");
    EXPECT_EQ(one, same) << kind << ":1 differs from the baseline beyond rope_scaling";
  }
  const nlohmann::json two = eval_json(run, "--rope-scaling ntk:2", scratch("ntk2.json"));
  const DepthEvalRecord record = depth_eval_record_from_json(two);
  ASSERT_TRUE(record.rope_scaling.has_value());
  EXPECT_EQ(record.rope_scaling->kind, RopeScalingKind::kNtk);
  EXPECT_EQ(record.rope_scaling->factor, 2.0);
  EXPECT_EQ(to_json(record), two);
  nlohmann::json bad = two;
  bad["rope_scaling"]["kind"] = "yarn";
  EXPECT_THROW(depth_eval_record_from_json(bad), std::invalid_argument);
  bad = two;
  bad["rope_scaling"].erase("factor");
  EXPECT_THROW(depth_eval_record_from_json(bad), std::invalid_argument);

  // Bad values: one line, exit 2, nothing written.
  for (const std::string value : {"pi:0", "pi:-2", "ntk:abc", "pi:", "yarn:2", "pi"}) {
    const fs::path out = scratch("bad.json");
    const CliResult r = run_cli("eval --run " + run.string() + " --lengths 40 --count 2 --json " +
                                    out.string() + " --rope-scaling " + value,
                                60);
    EXPECT_EQ(r.code, 2) << value << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << value << ": " << r.err;
    EXPECT_NE(r.err.find("--rope-scaling"), std::string::npos) << value << ": " << r.err;
    EXPECT_FALSE(fs::exists(out)) << value;
  }
}

TEST(RopeScalingEval, RunsWithoutRotaryPositionsAreRefused) {
  for (const std::string pos : {"learned", "alibi"}) {
    const fs::path run = scratch(pos);
    ASSERT_EQ(run_cli(kKvFlags + "--arch qwen2 --pos " + pos + " --out " + run.string(), 300).code,
              0);
    const CliResult r =
        run_cli("eval --run " + run.string() + " --lengths 40 --count 2 --rope-scaling pi:2", 60);
    EXPECT_EQ(r.code, 2) << pos << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << pos << ": " << r.err;
    EXPECT_NE(r.err.find("rotary"), std::string::npos) << pos << ": " << r.err;
  }
}

TEST(RopeScalingEval, AHopRunTakesItAndFactorOneIsItsBaseline) {
  const fs::path run = scratch("number");
  ASSERT_EQ(run_cli("train --task number --layers 1 --d-model 16 --heads 2 --steps 2 --warmup 1 "
                    "--eval-every 2 --checkpoint-every 2 --eval-per-hop 8 --out " +
                        run.string(),
                    300)
                .code,
            0);
  const auto hop_eval = [&](const std::string& extra, const std::string& name) {
    const fs::path out = scratch(name);
    const CliResult r =
        run_cli("eval --run " + run.string() + " --lengths 17,34 --count 8 --json " + out.string() +
                    " " + extra,
                300);
    EXPECT_EQ(r.code, 0) << extra << ": " << r.err;
    return nlohmann::json::parse(slurp(out));
  };
  nlohmann::json base = hop_eval("", "hop-base.json");
  nlohmann::json one = hop_eval("--rope-scaling pi:1", "hop-pi1.json");
  const nlohmann::json four = hop_eval("--rope-scaling ntk:4", "hop-ntk4.json");
  EXPECT_FALSE(base.contains("rope_scaling"));
  EXPECT_EQ(four["rope_scaling"], (nlohmann::json{{"kind", "ntk"}, {"factor", 4.0}}));
  one.erase("rope_scaling");
  for (nlohmann::json* j : {&base, &one}) j->erase("seconds");
  EXPECT_EQ(one, base);
}

}  // namespace
