// `posbias train` and `posbias eval` as a user meets them: a tiny model learns 1-hop Letter,
// a run killed with SIGKILL at random moments (mid-checkpoint included) resumes to the same
// metrics as an uninterrupted run, a damaged checkpoint is detected and set aside and the run
// resumes from the one before, a diverging run stops before it writes bad weights, a run's
// checkpoints load wherever --weights is taken, eval chooses checkpoints by step as birth and heads
// do, and bad input gets one line with exit 1 or 2.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <thread>

#include "../cli_run.h"
#include "kill_while_training.h"

namespace {

using namespace posbias_test;
namespace fs = std::filesystem;

fs::path scratch(const std::string& name) { return scratch_path("posbias_train", name); }

const std::string kTiny =
    "--task letter --layers 2 --d-model 64 --mlp 128 --rotary-dim 8 --eval-per-hop 64 ";

TEST(TrainCli, TinyModelLearnsOneHopLetterWithinAMinute) {
  const fs::path run = scratch("learn");
  const auto t0 = std::chrono::steady_clock::now();
  const CliResult r = run_cli(
      "train --task letter --layers 2 --eval-per-hop 64 --hops 1 --steps 150 "
      "--warmup 30 --eval-every 50 --checkpoint-every 50 --out " +
          run.string(),
      300);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_EQ(r.code, 0) << r.err;
  const auto rows = metrics_without_timing(run);
  ASSERT_EQ(rows.size(), 4u);                              // steps 0, 50, 100, 150
  EXPECT_LT(rows.front()["acc"]["1"].get<double>(), 0.2);  // chance is 1/80 among targets
  EXPECT_GE(rows.back()["acc"]["1"].get<double>(), 0.95);
  EXPECT_LT(seconds, 60.0) << "a CI-sized training run should take well under a minute";
  for (const char* f :
       {"train.json", "summary.json", "training_accuracy.svg", "training_loss.png",
        "model.safetensors", "config.json", "checkpoints/step_00000150.safetensors"}) {
    EXPECT_TRUE(fs::exists(run / f)) << f;
  }
  // eval on the trained run: JSON accuracy[length][hop] and the decoy control.
  const CliResult e = run_cli("eval --run " + run.string() + " --lengths 17,40 --count 50 --json " +
                              (run / "eval.json").string() + " --plot " + (run / "eval").string());
  ASSERT_EQ(e.code, 0) << e.err;
  const nlohmann::json j = nlohmann::json::parse(slurp(run / "eval.json"));
  EXPECT_GE(j["accuracy"]["17"]["1"].get<double>(), 0.9);
  // Chance beside accuracy, with the same keys: a uniform guess among the input's 8 targets
  // (fewer when two targets repeat a token), so a little above 1/8.
  for (const auto& [length, by_hop] : j["accuracy"].items()) {
    for (const auto& [hop, value] : by_hop.items()) {
      const double chance = j["chance"][length][hop].get<double>();
      EXPECT_GE(chance, 0.125) << length << " " << hop;
      EXPECT_LT(chance, 0.15) << length << " " << hop;
    }
  }
  EXPECT_TRUE(j["accuracy"]["40"].contains("all"));
  EXPECT_TRUE(j["controls"]["decoy"]["decoy_rate"].contains("40"));
  EXPECT_TRUE(fs::exists(run / "eval.png"));
  // Memory is planned before anything is allocated: one line naming the bytes, exit 2. Dense
  // attention at 100k tokens does not fit (auto would take the blockwise path), and nothing
  // fits a 1 MB budget.
  expect_usage_error("eval --run " + run.string() + " --lengths 17,100000 --attention dense",
                     "use --attention blockwise");
  expect_usage_error("eval --run " + run.string() + " --lengths 17 --memory-budget 0.001",
                     "the memory budget is 1.0 MB (--memory-budget)");
}

// The NoPE ablation: a hop run with --pos none records it, and its model is not the rope
// model of the same seed (rotary_dim 0 would be: it means every dim).
// Same seed, same numbers holds at one thread count: train.json records it, and a resume on
// another count says so in one line (and goes on); on the same count it says nothing.
TEST(TrainCli, TheRunRecordsItsThreadCountAndAResumeOnAnotherSaysSo) {
  const fs::path run = scratch("threads");
  const std::string bin = POSBIAS_BIN;
  CliResult r = run_shell("OMP_NUM_THREADS=1 " + bin +
                          " train --task number --layers 1 --d-model 16 --heads 2 --mlp 32 "
                          "--steps 4 --warmup 1 --batch 4 --out " +
                          run.string());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(slurp(run / "train.json"))["threads"], 1);
  r = run_shell("OMP_NUM_THREADS=2 " + bin + " train --resume " + run.string());
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("resuming on 2 threads; the run started on 1"), std::string::npos) << r.err;
  r = run_shell("OMP_NUM_THREADS=1 " + bin + " train --resume " + run.string());
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err.find("resuming on"), std::string::npos) << r.err;
}

TEST(TrainCli, HopRunWithoutPositionalEncoding) {
  const std::string common =
      "train --task letter --layers 2 --d-model 64 --mlp 128 --eval-per-hop 16 --hops 1 "
      "--steps 20 --warmup 5 --eval-every 10 --checkpoint-every 10 --out ";
  const fs::path nope = scratch("nope"), rope = scratch("rope"), every = scratch("every_dim");
  ASSERT_EQ(run_cli(common + nope.string() + " --pos none", 300).code, 0);
  ASSERT_EQ(run_cli(common + rope.string() + " --rotary-dim 64", 300).code, 0);
  ASSERT_EQ(run_cli(common + every.string() + " --rotary-dim 0", 300).code, 0);
  const auto config = nlohmann::json::parse(slurp(nope / "train.json"))["config"];
  EXPECT_EQ(config["pos"], "none");
  EXPECT_EQ(nlohmann::json::parse(slurp(rope / "train.json"))["config"]["pos"], "rope");
  // d 64, 1 head: rotary on 64 dims is every dim, the same model as rotary_dim 0. The tensor
  // data are compared: the headers differ in the run config each file carries.
  auto tensors = [](const fs::path& run) {
    const std::string bytes = slurp(run / "model.safetensors");
    std::uint64_t n = 0;
    std::memcpy(&n, bytes.data(), 8);
    return bytes.substr(8 + n);
  };
  EXPECT_EQ(tensors(rope), tensors(every));
  EXPECT_NE(tensors(nope), tensors(rope));
  const CliResult e = run_cli("eval --run " + nope.string() + " --lengths 17,40 --count 16");
  EXPECT_EQ(e.code, 0) << e.err;
  // Lengths drawn per step from 17..48: trains, and the run keeps the range.
  const fs::path ranged = scratch("length_max");
  const CliResult r = run_cli(common + ranged.string() + " --length-max 48", 300);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(slurp(ranged / "train.json"))["config"]["length_max"], 48);
}

TEST(TrainCli, KilledRunsResumeToTheUninterruptedMetrics) {
  const std::string config = kTiny + "--steps 60 --warmup 10 --eval-every 5 --checkpoint-every 5 ";
  const fs::path whole = scratch("whole"), killed = scratch("killed");
  ASSERT_EQ(run_cli("train " + config + "--out " + whole.string()).code, 0);

  const int kills = kill_while_training(
      std::string(POSBIAS_BIN) + " train " + config + "--out " + killed.string(),
      std::string(POSBIAS_BIN) + " train --resume " + killed.string(), killed);
  EXPECT_GE(kills, 1);
  const CliResult r = run_cli("train --resume " + killed.string());
  ASSERT_EQ(r.code, 0) << r.err;
  const auto a = metrics_without_timing(whole), b = metrics_without_timing(killed);
  ASSERT_EQ(a.size(), 13u);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i], b[i]) << "metrics line " << i;
  EXPECT_EQ(slurp(whole / "model.safetensors"), slurp(killed / "model.safetensors"));
}

void write_raw(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

// A run of 10 steps with checkpoints at 5 and 10; its final weights are the reference.
fs::path ten_step_run(const std::string& name) {
  const fs::path run = scratch(name);
  EXPECT_EQ(run_cli("train " + kTiny +
                    "--steps 10 --warmup 2 --eval-every 5 --checkpoint-every 5 "
                    "--out " +
                    run.string())
                .code,
            0);
  return run;
}

TEST(TrainCli, DamagedCheckpointsAreSetAsideAndTheRunResumesFromTheOneBefore) {
  const fs::path run = ten_step_run("damaged");
  const std::string reference = slurp(run / "model.safetensors");
  const fs::path last = run / "checkpoints" / "step_00000010.safetensors";
  const fs::path aside = run / "checkpoints" / "step_00000010.safetensors.damaged";
  const std::string intact = slurp(last);
  // One flipped bit in the tensor data, one in the header's JSON values, a truncation, and a
  // valid safetensors file that is not ours: each is named and set aside, the run resumes from
  // step 5 and ends with the weights of the uninterrupted run.
  std::string data_bit = intact, header_digit = intact;
  data_bit[data_bit.size() - 1000] ^= 0x01;
  const std::size_t step_field = header_digit.find("\"step\":\"10\"");
  ASSERT_NE(step_field, std::string::npos);
  header_digit[step_field + 9] = '9';  // "step":"90": still valid JSON, and a plausible step
  const std::string foreign =
      slurp(fs::path(POSBIAS_SOURCE_DIR) / "tests/golden/models/gptj/model.safetensors");
  const std::pair<std::string, std::string> cases[] = {
      {data_bit, "damaged"},
      {header_digit, "damaged"},
      {intact.substr(0, intact.size() / 2), "step_00000010.safetensors"},
      {foreign, "not a posbias"}};
  for (const auto& [bytes, why] : cases) {
    SCOPED_TRACE(why);
    write_raw(last, bytes);
    expect_error("eval --run " + run.string(), why, 1);
    const CliResult r = run_cli("train --resume " + run.string());
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find(why), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("set aside as step_00000010.safetensors.damaged"), std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("resuming " + run.string() + " at step 5"), std::string::npos) << r.err;
    EXPECT_EQ(slurp(aside), bytes);
    EXPECT_EQ(slurp(run / "model.safetensors"), reference);
    EXPECT_EQ(run_cli("eval --run " + run.string()).code, 0);
  }
  // A garbage header after a valid length: eval names the file.
  write_raw(last, intact.substr(0, 8) + std::string(intact.size() - 8, '\x7f'));
  expect_error("eval --run " + run.string(), "step_00000010.safetensors", 1);
}

// A checkpoint rewritten in format 1 (before checksums, so the loader has nothing to check it
// against) with the first value of every parameter set to `value`.
std::string with_first_weights(const std::string& checkpoint, float value) {
  std::uint64_t n = 0;
  std::memcpy(&n, checkpoint.data(), 8);
  nlohmann::json header = nlohmann::json::parse(checkpoint.substr(8, n));
  std::string data = checkpoint.substr(8 + n);
  header["__metadata__"].erase("sha256");
  header["__metadata__"]["format"] = "posbias-hop-checkpoint-1";
  for (const auto& [name, entry] : header.items()) {
    if (name.rfind("param/", 0) == 0)
      std::memcpy(data.data() + entry["data_offsets"][0].get<std::size_t>(), &value, sizeof value);
  }
  std::string text = header.dump();
  text.append((8 - text.size() % 8) % 8, ' ');
  std::string out(8, '\0');
  const std::uint64_t length = text.size();
  std::memcpy(out.data(), &length, 8);
  return out + text + data;
}

TEST(TrainCli, ADivergingRunStopsBeforeItWritesBadWeights) {
  const fs::path run = scratch("diverging");
  ASSERT_EQ(run_cli("train " + kTiny +
                    "--steps 20 --warmup 2 --eval-every 5 --checkpoint-every 5 "
                    "--out " +
                    run.string())
                .code,
            0);
  // Back to step 10 as if killed there, with weights that step 10's checkpoint restores so
  // large (finite, so the loader takes them) that the next loss overflows.
  for (const char* later : {"step_00000015.safetensors", "step_00000020.safetensors"})
    fs::remove(run / "checkpoints" / later);
  fs::remove(run / "summary.json");
  const fs::path ten = run / "checkpoints" / "step_00000010.safetensors";
  const std::string bytes = with_first_weights(slurp(ten), 3e38f);
  write_raw(ten, bytes);
  const CliResult r = run_cli("train --resume " + run.string());
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("training diverged at step 11"), std::string::npos) << r.err;
  EXPECT_EQ(lines(r.err), 2) << r.err;  // "resuming ..." and the divergence
  EXPECT_EQ(slurp(ten), bytes);
  EXPECT_FALSE(fs::exists(run / "checkpoints" / "step_00000015.safetensors"));
  EXPECT_FALSE(fs::exists(run / "summary.json"));
  EXPECT_EQ(metrics_without_timing(run).back()["step"], 10);

  // NaN weights in that checkpoint are refused in the loader, naming the tensor: it is set
  // aside like a damaged one and the run resumes from step 5 to its end.
  const std::string nan_bytes =
      with_first_weights(slurp(ten), std::numeric_limits<float>::quiet_NaN());
  write_raw(ten, nan_bytes);
  const CliResult n = run_cli("train --resume " + run.string());
  EXPECT_EQ(n.code, 0) << n.err;
  EXPECT_NE(n.err.find("tensor 'param/"), std::string::npos) << n.err;
  EXPECT_NE(n.err.find("non-finite"), std::string::npos) << n.err;
  EXPECT_NE(n.err.find("resuming " + run.string() + " at step 5"), std::string::npos) << n.err;
  EXPECT_EQ(slurp(fs::path(ten.string() + ".damaged")), nan_bytes);
  EXPECT_TRUE(fs::exists(run / "model.safetensors"));
}

TEST(TrainCli, BadInputGetsOneLine) {
  const fs::path run = scratch("bad");
  expect_usage_error("train --task words --out " + run.string(), "unknown task");
  expect_usage_error("train --task number --hops 0 --out " + run.string(), "hops");
  expect_usage_error("train --task number --hops 5 --out " + run.string(), "hops");
  expect_usage_error("train --task letter --length 10 --hops 4 --out " + run.string(), "too short");
  expect_usage_error("train --task letter --lr nan --out " + run.string(), "lr");
  expect_usage_error("train --task letter --batch -3 --out " + run.string(), "batch");
  expect_usage_error("train --task letter", "--out");
  expect_usage_error("train --task letter --seed -1 --out " + run.string(), "seed");
  expect_usage_error("train --resume /nonexistent/run", "does not exist");
  // Past memory: one line naming the bytes before anything is allocated or written; blockwise
  // attention is suggested only where it would fit.
  expect_usage_error("train --task letter --length 8192 --out " + run.string(),
                     "a training step of batch 64 at length 8192");
  expect_usage_error("train --task letter --batch 65536 --length 1000 --out " + run.string(),
                     "use a smaller --batch, --length or --d-model");
  const CliResult wide = run_cli("train --task letter --d-model 16384 --out " + run.string());
  EXPECT_EQ(wide.code, 2);
  EXPECT_EQ(wide.err.find("blockwise"), std::string::npos) << wide.err;
  EXPECT_FALSE(fs::exists(run));
  expect_error("eval --run /nonexistent/run", "does not exist", 1);
  expect_usage_error("eval --run /tmp --count 0", "--count");
  expect_usage_error("eval --run /tmp --lengths 17,1", "--lengths");
  expect_usage_error("tasks --task letter --count -1", "--count");
  expect_usage_error("tasks --task number --hops 3 --length 10", "too short");
  expect_usage_error("tasks --task letters", "unknown task");
  expect_error("tasks check /nonexistent.jsonl", "no such file", 1);
  // A device is refused before a byte is read, not read to the end of memory.
  expect_error("tasks check /dev/zero", "'/dev/zero': not a regular file", 1);
  expect_usage_error("train --task number --pos learned --out " + run.string(),
                     "learned positions end at the training length");
  expect_usage_error("train --task number --arch gpt2 --out " + run.string(), "gptj-hop");
  expect_usage_error("train --task number --length-max 10 --out " + run.string(),
                     "length_max must be 0 or at least the length 17");
  expect_usage_error("train --task number --length-max 2000 --out " + run.string(), "1024");
  expect_usage_error("train --task text --length-max 512 --out " + run.string(),
                     "length_max is for the hop tasks and kv");
  expect_usage_error("train --task kv --pos learned -L 16 --pos-lr-scale -1 --out " + run.string(),
                     "pos_lr_scale must be a number >= 0, got -1");
  expect_usage_error(
      "train --task kv -L 16 --pos-lr-scale 0.1 --out " + run.string(),
      "pos_lr_scale scales the learned position table's learning rate; pos rope has no table");
  expect_usage_error(
      "train --task kv --pos learned -L 16 --pos-init-scale -1 --out " + run.string(),
      "pos_init_scale must be a number >= 0, got -1");
  expect_usage_error(
      "train --task kv -L 16 --pos-init-scale 0 --out " + run.string(),
      "pos_init_scale scales the learned position table's init; pos rope has no table");
  const fs::path cfg = scratch("bad.json");
  { std::ofstream(cfg) << R"({"task": "letter", "learning_rate": 0.1})"; }
  expect_usage_error("train --config " + cfg.string() + " --out " + run.string(), "learning_rate");
}

TEST(TasksCli, WritesCheckableJsonlAndTokenIds) {
  const fs::path dir = scratch("tasks");
  fs::create_directories(dir);
  const CliResult r =
      run_cli("tasks --task number --count 64 --seed 3 -o " + (dir / "n.jsonl").string());
  ASSERT_EQ(r.code, 0) << r.err;
  const CliResult c = run_cli("tasks check " + (dir / "n.jsonl").string());
  EXPECT_EQ(c.code, 0) << c.err;
  EXPECT_NE(c.out.find("all 64 examples are correct"), std::string::npos) << c.out;
  // One wrong answer is found and reported with its line.
  std::string text = slurp(dir / "n.jsonl");
  const auto pos = text.find("\"answer\":\"");
  text.replace(pos + 10, 1, text[pos + 10] == 'z' ? "y" : "z");
  std::ofstream(dir / "bad.jsonl") << text;
  const CliResult bad = run_cli("tasks check " + (dir / "bad.jsonl").string());
  EXPECT_EQ(bad.code, 1);
  EXPECT_NE(bad.err.find("line 1:"), std::string::npos) << bad.err;
  const CliResult ids = run_cli("tasks --task letter --count 3 --format tokens");
  ASSERT_EQ(ids.code, 0);
  EXPECT_EQ(lines(ids.out), 3);
  EXPECT_EQ(ids.out.find_first_not_of("0123456789 \n"), std::string::npos);
}

// Help shows the defaults of the task asked for, and a short run takes defaults that follow
// its flags (a warmup that fits 10 steps, MLP 4 × d_model) instead of failing on hidden ones.
TEST(TrainCli, HelpAndDefaultsFollowTheTaskAndTheFlagsGiven) {
  const CliResult hop = run_cli("train --help");
  ASSERT_EQ(hop.code, 0);
  EXPECT_NE(hop.out.find("--d-model INT=128"), std::string::npos) << hop.out;
  // Options written only when given show "none" (their help once read an empty optional).
  EXPECT_NE(hop.out.find("--null-sink NUMBER=none"), std::string::npos) << hop.out;
  EXPECT_NE(hop.out.find("--logn-scale NUMBER=none"), std::string::npos) << hop.out;
  EXPECT_NE(hop.out.find("--precision NAME=fp32"), std::string::npos) << hop.out;
  const CliResult text = run_cli("train --task text --help");
  ASSERT_EQ(text.code, 0);
  EXPECT_NE(text.out.find("--d-model INT=256"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("--warmup INT=50"), std::string::npos) << text.out;
  const fs::path run =
      fs::temp_directory_path() / ("posbias_derived_" + std::to_string(::getpid()));
  fs::remove_all(run);
  const CliResult r = run_cli(
      "train --task text --steps 10 --layers 1 --d-model 32 --heads 2 --length 32 --batch 4 "
      "--tokenizer bytes --eval-every 10 --out " +
      run.string());
  ASSERT_EQ(r.code, 0) << r.err;
  std::ifstream in(run / "train.json");
  const nlohmann::json saved = nlohmann::json::parse(in);
  const nlohmann::json& c = saved.contains("config") ? saved["config"] : saved;
  EXPECT_EQ(c["warmup"], 1);
  EXPECT_EQ(c["mlp"], 128);
  fs::remove_all(run);
}

// birth --run follows a hop run through training: eval's held-out examples at the run's length
// (or --length), each checkpoint's influence profile on them; a length the task cannot fill
// is one line.
TEST(TrainCli, BirthRunMeasuresAHopRunsCheckpoints) {
  const fs::path run =
      fs::temp_directory_path() / ("posbias_hop_birth_" + std::to_string(::getpid()));
  fs::remove_all(run);
  const CliResult t = run_cli(
      "train --task number --layers 2 --d-model 64 --steps 20 --warmup 2 --eval-every 10 "
      "--eval-per-hop 8 --checkpoint-every 10 --out " +
      run.string());
  ASSERT_EQ(t.code, 0) << t.err;
  const CliResult b = run_cli("birth --run " + run.string() + " --seeds 4 --bootstrap 0");
  ASSERT_EQ(b.code, 0) << b.err;
  const nlohmann::json j = nlohmann::json::parse(b.out);
  EXPECT_EQ(j["length"], 17);
  ASSERT_EQ(j["checkpoints"].size(), 2u);  // steps 10 and 20
  for (const auto& c : j["checkpoints"]) EXPECT_EQ(c["profile"].size(), 17u);
  const CliResult longer = run_cli("birth --run " + run.string() +
                                   " --checkpoints last --seeds 4 --length 40 --bootstrap 0");
  ASSERT_EQ(longer.code, 0) << longer.err;
  EXPECT_EQ(nlohmann::json::parse(longer.out)["checkpoints"][0]["profile"].size(), 40u);
  expect_usage_error("birth --run " + run.string() + " --length 5", "short");
  fs::remove_all(run);
}

// A tiny Number run with checkpoints at steps 10 and 20 (two seconds), shared by the tests that
// only read it.
const fs::path& two_checkpoint_run() {
  static const fs::path run = [] {
    const fs::path r = scratch("two_checkpoints");
    const CliResult t = run_cli(
        "train --task number --layers 2 --d-model 64 --steps 20 --warmup 2 --eval-every 10 "
        "--eval-per-hop 8 --checkpoint-every 10 --out " +
        r.string());
    EXPECT_EQ(t.code, 0) << t.err;
    return r;
  }();
  return run;
}

std::vector<double> profile_of(const std::string& birth_json) {
  const nlohmann::json j = nlohmann::json::parse(birth_json);
  return (j.contains("checkpoints") ? j["checkpoints"][0]["profile"] : j["profile"])
      .get<std::vector<double>>();
}

// A step's checkpoint is --weights like the run's model.safetensors: with the run's config.json
// (written when the run starts), birth measures on it the profile birth --run gives at that step
// on the same inputs (`tasks --seed 1` writes eval's), and the last step's the final weights';
// heads reads it too. A config of another model is refused naming the checkpoint.
TEST(TrainCli, ARunsCheckpointsLoadAsWeights) {
  const fs::path& run = two_checkpoint_run();
  const fs::path tokens = run.parent_path() / "eval-inputs.txt";
  ASSERT_EQ(
      run_cli("tasks --task number --count 4 --seed 1 --format tokens -o " + tokens.string()).code,
      0);
  const std::string config = " --config " + (run / "config.json").string();
  auto birth_on = [&](const fs::path& weights) {
    const CliResult b = run_cli("birth" + config + " --weights " + weights.string() + " --tokens " +
                                tokens.string() + " -L 17 --bootstrap 0");
    EXPECT_EQ(b.code, 0) << b.err;
    return profile_of(b.out);
  };
  const std::vector<double> step10 = birth_on(run / "checkpoints/step_00000010.safetensors");
  const CliResult r =
      run_cli("birth --run " + run.string() + " --checkpoints 10 --seeds 4 --bootstrap 0");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(step10, profile_of(r.out));  // the same weights and inputs: the same numbers
  const std::vector<double> step20 = birth_on(run / "checkpoints/step_00000020.safetensors");
  EXPECT_EQ(step20, birth_on(run / "model.safetensors"));
  EXPECT_NE(step10, step20);
  const CliResult h =
      run_cli("heads" + config + " --weights " +
              (run / "checkpoints/step_00000010.safetensors").string() + " --samples 4");
  ASSERT_EQ(h.code, 0) << h.err;
  EXPECT_FALSE(nlohmann::json::parse(h.out)["checkpoints"][0]["heads"].empty());
  // A config.json of another shape: one line naming the checkpoint and what it holds.
  const fs::path other = scratch("other_config.json");
  nlohmann::json wider = nlohmann::json::parse(slurp(run / "config.json"));
  wider["n_embd"] = 128;
  std::ofstream(other) << wider.dump();
  expect_error("birth --config " + other.string() + " --weights " +
                   (run / "checkpoints/step_00000010.safetensors").string() + " --tokens " +
                   tokens.string() + " -L 17",
               "a training checkpoint of a gptj model", 1);
}

nlohmann::json without_seconds(nlohmann::json j) {
  j.erase("seconds");
  return j;
}

// eval chooses checkpoints as birth and heads do: by default the last (the file as it always
// was), one step gives that checkpoint's file, several give one file with each checkpoint's
// result in training order (and a figure of them all) that seeds --eval refuses in one line.
TEST(TrainCli, EvalChoosesCheckpointsByStep) {
  const fs::path& run = two_checkpoint_run();
  const std::string eval = "eval --run " + run.string() + " --lengths 17,32 --count 8";
  auto result = [&](const std::string& extra) {
    const CliResult e = run_cli(eval + extra);
    EXPECT_EQ(e.code, 0) << e.err;
    return nlohmann::json::parse(e.out);
  };
  const nlohmann::json latest = result("");
  EXPECT_EQ(latest["step"], 20);
  EXPECT_EQ(without_seconds(result(" --checkpoints last")), without_seconds(latest));
  EXPECT_EQ(without_seconds(result(" --checkpoints 20")), without_seconds(latest));
  const nlohmann::json first = result(" --checkpoints 10");
  EXPECT_EQ(first["step"], 10);
  EXPECT_NE(first["checkpoint"], latest["checkpoint"]);

  const fs::path both = run.parent_path() / "eval-all.json";
  const fs::path figure = run.parent_path() / "eval-all";
  const CliResult written =
      run_cli(eval + " --checkpoints all --json " + both.string() + " --plot " + figure.string());
  ASSERT_EQ(written.code, 0) << written.err;
  const nlohmann::json all = nlohmann::json::parse(slurp(both));
  EXPECT_EQ(all["run"], run.string());
  EXPECT_EQ(all["task"], "number");
  ASSERT_EQ(all["checkpoints"].size(), 2u);
  EXPECT_EQ(without_seconds(all["checkpoints"][0]), without_seconds(first));
  EXPECT_EQ(without_seconds(all["checkpoints"][1]), without_seconds(latest));
  EXPECT_TRUE(fs::exists(figure.string() + ".png"));
  const nlohmann::json listed = result(" --checkpoints 20,10");
  ASSERT_EQ(listed["checkpoints"].size(), 2u);
  for (std::size_t i = 0; i < 2; ++i)
    EXPECT_EQ(without_seconds(listed["checkpoints"][i]), without_seconds(all["checkpoints"][i]));
  const fs::path copy = run.parent_path() / "eval-all-copy.json";
  fs::copy_file(both, copy, fs::copy_options::overwrite_existing);
  expect_error("seeds --eval " + both.string() + " " + copy.string(),
               "holds the eval of 2 checkpoints", 1);

  expect_usage_error(eval + " --checkpoints 12", "no checkpoint at step 12; the run has 10, 20");
  expect_usage_error(eval + " --checkpoints first", "all, last or a comma list of steps");
  expect_usage_error(eval + " --checkpoints 10,x", "all, last or a comma list of steps");
  expect_usage_error(
      eval + " --checkpoint " + (run / "checkpoints/step_00000010.safetensors").string(),
      "--checkpoints 10");
}

}  // namespace
