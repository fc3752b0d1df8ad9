// The needle in Brown text end to end on a tiny text run (`train --task text --needle-fraction`):
// the needle windows of a batch are the fraction asked, decided per window (a rank's slice equals
// the whole batch's), and every other window is the plain text window; the run logs the passkey
// exact match beside bits per byte and resumes exactly after kills; `tasks --task passkey` writes
// examples `tasks check` accepts and rejects once an answer is changed; `eval` by depth × length
// writes Wilson cells, chance 1/K, CSV and figures; bad input gets one line and exit 2.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "../cli_run.h"
#include "../text/brown_excerpt.h"
#include "../train/kill_while_training.h"
#include "posbias/tasks/passkey_check.h"
#include "posbias/text/brown_corpus.h"
#include "posbias/text/text_data.h"
#include "posbias/train/passkey_batch.h"

namespace {

using namespace posbias;
using namespace posbias_test;
namespace fs = std::filesystem;

fs::path scratch(const std::string& name) { return scratch_path("posbias_passkey", name); }

const fs::path& corpus() {
  static const fs::path dir = write_brown_excerpt("posbias_passkey_corpus", 12, 60);
  return dir;
}

// A tiny passkey run's flags: two needles in half the windows of 160 tokens.
std::string tiny(const std::string& extra = "", int length = 160) {
  return "train --task text --corpus " + corpus().string() +
         " --tokenizer spm --vocab-size 300 --layers 1 --d-model 16 --heads 2 --mlp 32 --length " +
         std::to_string(length) + " --batch 8 --eval-windows 8 --warmup 1 " +
         (extra.find("--needle") == std::string::npos ? "--needle-fraction 0.5 --needles 2 " : "") +
         extra;
}

const fs::path& trained_run() {
  return trained_once("posbias_passkey", "trained",
                      tiny("--steps 8 --eval-every 2 --checkpoint-every 4 --log-checkpoints 0"));
}

TEST(PasskeyTrain, AFractionOfTheWindowsCarryNeedlesDecidedPerWindow) {
  const TextCorpus text = read_brown_corpus(corpus());
  const Tokenizer tokenizer = Tokenizer::train_spm(training_lines(text), 300);
  const std::vector<std::int32_t> stream = encode_corpus(text, tokenizer).train;
  const PasskeyCodec codec(tokenizer);
  TrainConfig c = TrainConfig::defaults(Task::kText);
  c.length = 160, c.needles = 2;
  const std::int64_t count = 64, row = c.length + 1;
  for (double fraction : {0.0, 0.25, 1.0}) {
    c.needle_fraction = fraction;
    std::int64_t carried = 0;
    for (std::uint64_t step = 1; step <= 10; ++step) {
      const auto plain = sample_windows(stream, c.length, count, c.seed, step);
      auto w = plain;
      carried += add_training_needles(w, count, c, codec, step);
      // A rank's slice (windows 40..63) is the whole batch's.
      auto slice = sample_windows(stream, c.length, 24, c.seed, step, 40);
      add_training_needles(slice, 24, c, codec, step, 40);
      EXPECT_TRUE(std::equal(slice.begin(), slice.end(), w.begin() + 40 * row));
      for (std::int64_t b = 0; b < count; ++b) {
        const std::vector<std::int32_t> ids(w.begin() + b * row, w.begin() + (b + 1) * row);
        const bool same = std::equal(ids.begin(), ids.end(), plain.begin() + b * row);
        if (same) continue;  // a plain window, untouched
        // A needle window: the question about one of its two needles, answered, at the end.
        const std::string t = tokenizer.decode(ids);
        const std::size_t q = t.rfind("\nWhat is the pass key of ");
        ASSERT_NE(q, std::string::npos) << t;
        const std::size_t is = t.rfind(" is ");
        const PasskeySolution s = solve_passkey(t.substr(0, is + 3));
        EXPECT_EQ(s.needles, 2);
        EXPECT_EQ(t.substr(is + 3), " " + s.answer + ".");
      }
    }
    const double share = static_cast<double>(carried) / (10.0 * count);
    EXPECT_NEAR(share, fraction, fraction == 0.25 ? 0.07 : 0.0) << fraction;
  }
}

TEST(PasskeyTrain, LogsTheExactMatchBesideBitsPerByteAndResumesExactly) {
  const fs::path& run = trained_run();
  const auto rows = metrics_without_timing(run);
  ASSERT_EQ(rows.size(), 5u);  // steps 0, 2, 4, 6, 8
  for (const auto& r : rows) {
    const double em = r.at("passkey_exact_match").get<double>();
    EXPECT_TRUE(em >= 0 && em <= 1) << em;
    EXPECT_GT(r.at("bits_per_byte").get<double>(), 0);
  }
  const nlohmann::json train = nlohmann::json::parse(slurp(run / "train.json"));
  EXPECT_EQ(train["config"]["needle_fraction"].get<double>(), 0.5);
  EXPECT_EQ(train["config"]["needles"].get<int>(), 2);

  const fs::path killed = scratch("killed");
  const std::string config =
      tiny("--steps 8 --eval-every 2 --checkpoint-every 2 --log-checkpoints 0 ");
  const int kills =
      kill_while_training(std::string(POSBIAS_BIN) + " " + config + "--out " + killed.string(),
                          std::string(POSBIAS_BIN) + " train --resume " + killed.string(), killed);
  EXPECT_GE(kills, 1);
  ASSERT_EQ(run_cli("train --resume " + killed.string(), 300).code, 0);
  const fs::path whole = scratch("whole");
  ASSERT_EQ(run_cli(config + "--out " + whole.string(), 300).code, 0);
  const auto a = metrics_without_timing(whole), b = metrics_without_timing(killed);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i], b[i]) << "metrics line " << i;
  EXPECT_EQ(slurp(whole / "model.safetensors"), slurp(killed / "model.safetensors"));
}

TEST(PasskeyTasks, WritesExamplesTheCheckerAcceptsAndFailsOnAWrongAnswer) {
  const fs::path file = scratch("examples.jsonl");
  const CliResult w = run_cli("tasks --task passkey --run " + trained_run().string() +
                              " --count 20 --depth-prior ends -o " + file.string());
  ASSERT_EQ(w.code, 0) << w.err;
  std::ifstream in(file);
  std::string first;
  std::getline(in, first);
  const nlohmann::json j = nlohmann::json::parse(first);
  EXPECT_EQ(j["length"].get<int>(), 160);  // the run's
  EXPECT_EQ(j["needles"].get<int>(), 2);
  EXPECT_EQ(j["ids"].size(), 161u);
  const CliResult ok = run_cli("tasks check " + file.string());
  EXPECT_EQ(ok.code, 0) << ok.err;
  EXPECT_NE(ok.out.find("all 20 examples are correct"), std::string::npos) << ok.out;
  // A wrong answer in the file: the checker fails.
  std::string text = slurp(file);
  const std::string answer = "\"answer\":\"" + j["answer"].get<std::string>() + "\"";
  text.replace(text.find(answer), answer.size(), "\"answer\":\"00000\"");
  std::ofstream(file) << text;
  const CliResult bad = run_cli("tasks check " + file.string());
  EXPECT_EQ(bad.code, 1) << bad.err;
  EXPECT_NE(bad.err.find("line 1: the answer is"), std::string::npos) << bad.err;
}

TEST(PasskeyEval, WritesWilsonCellsChanceCsvAndFigures) {
  const fs::path out = scratch("eval");
  fs::create_directories(out);
  const CliResult r = run_cli("eval --run " + trained_run().string() +
                                  " --depths 0,50,100 --lengths 150,160 --count 6 --json " +
                                  (out / "e.json").string() + " --csv " + (out / "e.csv").string() +
                                  " --plot " + (out / "fig").string(),
                              300);
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(slurp(out / "e.json"));
  EXPECT_EQ(j["task"], "passkey");
  EXPECT_EQ(j["needles"].get<int>(), 2);
  for (const char* len : {"150", "160"}) {
    for (const char* depth : {"0", "50", "100"}) {
      const auto& cell = j["depth_accuracy"][len][depth];
      EXPECT_EQ(cell["n"].get<int>(), 6);
      EXPECT_EQ(cell["chance"].get<double>(), 0.5);
      EXPECT_LE(cell["lo"].get<double>(), cell["accuracy"].get<double>());
      EXPECT_GE(cell["hi"].get<double>(), cell["accuracy"].get<double>());
    }
  }
  EXPECT_TRUE(j.contains("effective_length"));
  EXPECT_TRUE(j["u_verdict"].contains("pooled"));
  EXPECT_EQ(lines(slurp(out / "e.csv")), 1 + 2 * 3);
  EXPECT_TRUE(fs::exists(out / "fig-heatmap.png"));
  EXPECT_TRUE(fs::exists(out / "fig-depth.png"));
  // The depth axis ends at the depths measured (it ran from -2 to 102).
  EXPECT_NE(slurp(out / "fig-depth.gp").find("set xrange [0:100]"), std::string::npos);
  // Without --depths or --lengths a passkey run still gets the text evaluation.
  const CliResult text = run_cli("eval --run " + trained_run().string(), 300);
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("bits_per_byte"), std::string::npos);
}

TEST(PasskeyBadInput, OneLineAndExitTwo) {
  const fs::path out = scratch("bad");
  for (const std::string& flags :
       {std::string("--needle-fraction 1.5"), std::string("--needle-fraction -0.1"),
        std::string("--needle-fraction 0 --needles 2"), std::string("--needles 0"),
        std::string("--needles 65"), std::string("--length 60"),
        std::string("--depth-prior middle")}) {
    // Too short for the needles: a byte-level run refuses before it writes anything (a
    // SentencePiece run first logs training its tokenizer, which the check needs).
    std::string command = tiny(flags + " --steps 2 --out " + out.string());
    if (flags == "--length 60") {
      command = tiny("--steps 2 --out " + out.string(), 60);
      command.replace(command.find("--tokenizer spm --vocab-size 300"), 32, "--tokenizer bytes");
    }
    const CliResult r = run_cli(command, 60);
    EXPECT_EQ(r.code, 2) << flags << ": " << r.err;
    EXPECT_EQ(lines(r.err), 1) << flags << ": " << r.err;
    EXPECT_FALSE(fs::exists(out / "train.json")) << flags;
  }
  expect_usage_error("train --task kv --needle-fraction 0.5 --steps 2 --out " + out.string(),
                     "for --task text");
  expect_usage_error("train --task text --depth-prior ends --steps 2 --out " + out.string(),
                     "depth_prior");
  const std::string run = trained_run().string();
  expect_usage_error("eval --run " + run + " --depths 0,120", "depth");
  expect_usage_error("eval --run " + run + " --lengths 320", "learned position table");
  expect_usage_error("eval --run " + run + " --lengths 60", "do not fit length 60");
  expect_usage_error("tasks --task passkey --run " + run + " -L 60", "do not fit length 60");
  expect_usage_error("tasks --task passkey", "--run");
  expect_usage_error("tasks --task kv --needles 2", "--task passkey");
}

}  // namespace
