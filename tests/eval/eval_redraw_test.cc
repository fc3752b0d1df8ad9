// `eval --redraw FILE --plot STEM` as a user meets it: on tiny kv, passkey, Number and Letter runs
// the figures drawn again from the result file alone are the ones the measuring run drew (the
// same gnuplot script but for its output name, the same SVG); the shipped results of each kind
// redraw; bad input is one line, exit 2 for a file that is not one eval result or is malformed
// (the strict record reader names the field), exit 1 for a file that cannot be read, and nothing
// is drawn.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "../cli_run.h"
#include "../text/brown_excerpt.h"

namespace {

using namespace posbias_test;
namespace fs = std::filesystem;

fs::path scratch(const std::string& name) { return scratch_path("posbias_eval_redraw", name); }

// `script` with every "FROM." (the output files it names) read as "TO.".
std::string renamed(std::string script, const std::string& from, const std::string& to) {
  for (std::size_t at = script.find(from + "."); at != std::string::npos;
       at = script.find(from + ".", at + to.size()))
    script.replace(at, from.size(), to);
  return script;
}

// Trains `flags`, evaluates it with `eval` into live.json and figure stem `live`, redraws
// live.json at stem `redrawn`, and compares each figure (suffix "" for a hop run's, -heatmap and
// -depth for a kv or passkey run's): the script but for its output name, and the SVG.
void expect_redraw_is_the_runs(const std::string& name, const std::string& flags,
                               const std::string& eval, const std::vector<std::string>& figures) {
  const fs::path dir = scratch(name);
  fs::create_directories(dir);
  const CliResult t = run_cli(flags + " --out " + (dir / "run").string(), 300);
  ASSERT_EQ(t.code, 0) << name << ": " << t.err;
  CliResult r = run_cli("eval --run " + (dir / "run").string() + " " + eval + " --json " +
                            (dir / "live.json").string() + " --plot " + (dir / "live").string(),
                        300);
  ASSERT_EQ(r.code, 0) << name << ": " << r.err;
  r = run_cli("eval --redraw " + (dir / "live.json").string() + " --plot " +
              (dir / "redrawn").string());
  ASSERT_EQ(r.code, 0) << name << ": " << r.err;
  for (const std::string& figure : figures) {
    const std::string live = slurp(dir / ("live" + figure + ".gp"));
    ASSERT_NE(live.find("live" + figure + ".svg"), std::string::npos) << name << figure;
    EXPECT_EQ(renamed(live, "live" + figure, "redrawn" + figure),
              slurp(dir / ("redrawn" + figure + ".gp")))
        << name << figure;
    const std::string svg = slurp(dir / ("live" + figure + ".svg"));
    EXPECT_FALSE(svg.empty()) << name << figure;
    EXPECT_EQ(svg, slurp(dir / ("redrawn" + figure + ".svg"))) << name << figure;
    EXPECT_TRUE(fs::exists(dir / ("redrawn" + figure + ".png"))) << name << figure;
  }
}

const std::string kHopFlags =
    " --layers 1 --d-model 16 --heads 2 --steps 2 --warmup 1 --eval-every 2 "
    "--checkpoint-every 2 --eval-per-hop 8";

TEST(EvalRedraw, DrawsTheFiguresTheMeasuringRunDrew) {
  expect_redraw_is_the_runs("kv", tiny_kv_flags(), "--depths 0,50,100 --lengths 40,80 --count 6",
                            {"-heatmap", "-depth"});
  expect_redraw_is_the_runs("number", "train --task number" + kHopFlags,
                            "--lengths 17,32 --count 8", {""});
  expect_redraw_is_the_runs("letter", "train --task letter" + kHopFlags,
                            "--lengths 17,32 --count 8", {""});
  const fs::path corpus = write_brown_excerpt("posbias_eval_redraw_corpus", 12, 60);
  expect_redraw_is_the_runs(
      "passkey",
      "train --task text --corpus " + corpus.string() +
          " --tokenizer spm --vocab-size 300 --layers 1 --d-model 16 --heads 2 --mlp 32 "
          "--length 160 --batch 8 --eval-windows 8 --warmup 1 --needle-fraction 0.5 --needles 2 "
          "--steps 4 --eval-every 2 --checkpoint-every 4 --log-checkpoints 0",
      "--depths 0,50,100 --lengths 150,160 --count 6", {"-heatmap", "-depth"});
}

// The shipped results of each kind (files of earlier builds among them) redraw, titled by their
// own fields.
TEST(EvalRedraw, DrawsTheShippedResults) {
  const fs::path docs = fs::path(POSBIAS_SOURCE_DIR) / "docs";
  const struct {
    std::string file, figure, title;
  } shipped[] = {
      {"data/retrieval/sizing/qwen2-4x64-L32-eval.json", "-heatmap",
       "kv, qwen2 rope, step 6000: exact match (100 per cell)"},
      {"data/retrieval/passkey/qwen2-4x128-L256-eval.json", "-depth", "L = 1024 (1 needle)"},
      {"data/hops/coverage/seed0-eval.json", "", "all hops, seen\\\\_jumps control"},
      {"data/hops/coverage/seed0-eval.json", "", "set cblabel \"hops\""},  // 1..4-hop ordered
  };
  for (const auto& s : shipped) {
    const fs::path stem = scratch("shipped");
    const CliResult r =
        run_cli("eval --redraw " + (docs / s.file).string() + " --plot " + stem.string());
    ASSERT_EQ(r.code, 0) << s.file << ": " << r.err;
    const std::string script = slurp(stem.string() + s.figure + ".gp");
    EXPECT_NE(script.find(s.title), std::string::npos) << s.file << "\n" << script;
  }
}

TEST(EvalRedraw, RefusesWhatIsNotOneEvalResultInOneLine) {
  const fs::path dir = scratch("bad");
  fs::create_directories(dir);
  const fs::path docs = fs::path(POSBIAS_SOURCE_DIR) / "docs";
  const std::string kv = (docs / "data/retrieval/sizing/qwen2-4x64-L32-eval.json").string();
  const std::string plot = " --plot " + (dir / "x").string();
  const auto write = [&dir](const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  };
  nlohmann::json j = nlohmann::json::parse(slurp(kv));
  j["depth_accuracy"]["32"]["55"] = j["depth_accuracy"]["32"]["50"];
  j["depth_accuracy"]["32"].erase("50");
  const std::string missing_cell = write("cell.json", j.dump());
  j = nlohmann::json::parse(slurp(kv));
  j["step"] = "late";
  const std::string mistyped = write("mistyped.json", j.dump());
  j = nlohmann::json::parse(slurp(docs / "data/hops/coverage/seed0-eval.json"));
  j["accuracy"].erase("256");
  const std::string missing_length = write("length.json", j.dump());
  const std::string steps = write(
      "steps.json", nlohmann::json{{"run", "r"}, {"task", "kv"}, {"checkpoints", {j, j}}}.dump());

  expect_usage_error("eval --redraw " + kv, "--redraw needs --plot STEM");
  expect_usage_error("eval --redraw " + kv + " --count 5" + plot, "drop --count");
  expect_usage_error("eval --redraw " + kv + " --run " + dir.string() + plot, "drop --run");
  expect_usage_error("eval --plot " + (dir / "x").string(), "--run RUN_DIR is required");
  expect_usage_error("eval --redraw " + missing_cell + plot, "'depth_accuracy.32' has no 50");
  expect_usage_error("eval --redraw " + mistyped + plot, "'step'");
  expect_usage_error("eval --redraw " + missing_length + plot,
                     "'accuracy' has no row for length 256");
  expect_usage_error("eval --redraw " + steps + plot, "several checkpoints");
  expect_usage_error("eval --redraw " + write("notjson.json", "{\"task\": ") + plot,
                     "not JSON (is it an eval --json result?)");
  expect_usage_error(
      "eval --redraw " +
          (docs / "data/retrieval/passkey/bench/gpt2/s0-influence-64.json").string() + plot,
      "is it an eval --json result?");
  expect_usage_error("eval --redraw " + (docs / "data/text/gpt2-seed0-eval.json").string() + plot,
                     "a text run's eval");
  expect_error("eval --redraw " + (dir / "absent.json").string() + plot, "absent.json", 1);
  for (const char* figure : {"x.gp", "x.svg", "x-heatmap.gp", "x-depth.gp"})
    EXPECT_FALSE(fs::exists(dir / figure)) << figure;
}

}  // namespace
