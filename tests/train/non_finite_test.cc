// Non-finite weights are never written, served or reported. A run whose AdamW update turns
// weights into NaN (--adam-eps 1e-45: 0/0 where a gradient is zero) stops with exit 1 before any
// checkpoint or model.safetensors holds them, and resuming it starts from its last intact
// checkpoint; the same run with the default ε finishes. Every command that reads weights, given
// a file with one NaN written through the library's own writer (so its checksum and metadata
// are intact and only the value is wrong), refuses in one line naming the file and the tensor
// (exit 1), where the intact file works; text runs' readers too.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "../cli_run.h"
#include "../text/brown_excerpt.h"
#include "posbias/hf/safetensors.h"

namespace {

using namespace posbias_test;
namespace fs = std::filesystem;

fs::path scratch(const std::string& name) { return scratch_path("posbias_non_finite", name); }

// The reproduction: one step, evaluated and checkpointed.
std::string one_step_run(const fs::path& out, const std::string& extra = "") {
  return "train --task letter --layers 2 --d-model 64 --mlp 128 --steps 1 --eval-every 1 "
         "--checkpoint-every 1 --warmup 0 --batch 32 --dropout 0 --eval-per-hop 16 " +
         extra + "--out " + out.string();
}

// Non-finite values in the file, counted by converting every float tensor (the loaders' view).
std::int64_t non_finite_values(const fs::path& file) {
  const posbias::SafetensorsFile f = posbias::SafetensorsFile::open(file);
  std::int64_t bad = 0;
  for (const auto& [name, view] : f.tensors()) {
    for (const float v : posbias::to_float32(view)) bad += !std::isfinite(v);
  }
  return bad;
}

// Rewrites `file` through write_safetensors with element 0 of its first tensor whose name starts
// with `prefix` set to NaN: the same tensors, metadata and (when it had one) a fresh checksum.
// Returns that tensor's name.
std::string write_one_nan(const fs::path& file, const std::string& prefix) {
  std::vector<posbias::OwnedTensor> tensors;
  std::map<std::string, std::string> metadata;
  posbias::Checksum checksum = posbias::Checksum::kNone;
  std::string poisoned;
  {
    const posbias::SafetensorsFile f = posbias::SafetensorsFile::open(file);
    for (const auto& [name, view] : f.tensors()) {
      tensors.push_back({name, view.shape, posbias::to_float32(view)});
      if (poisoned.empty() && name.rfind(prefix, 0) == 0) {
        poisoned = name;
        tensors.back().data.at(0) = std::numeric_limits<float>::quiet_NaN();
      }
    }
    for (const auto& [key, value] : f.metadata()) {
      if (key == posbias::kChecksumKey)
        checksum = posbias::Checksum::kSha256;
      else
        metadata[key] = value;
    }
  }
  EXPECT_FALSE(poisoned.empty()) << file << " has no tensor named " << prefix << "*";
  posbias::write_safetensors(file, tensors, metadata, checksum);
  EXPECT_EQ(non_finite_values(file), 1);
  return poisoned;
}

TEST(NonFinite, AnUpdateThatMakesNaNWeightsStopsTheRunBeforeItSavesThem) {
  const fs::path run = scratch("tiny_eps");
  const fs::path zero = run / "checkpoints" / "step_00000000.safetensors";
  // --log-checkpoints 2 adds a checkpoint at step 0, before the update that breaks the weights.
  const CliResult r = run_cli(one_step_run(run, "--adam-eps 1e-45 --log-checkpoints 2 "));
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("training diverged at step 1"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("non-finite"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--adam-eps"), std::string::npos) << r.err;
  ASSERT_TRUE(fs::exists(zero));
  EXPECT_EQ(non_finite_values(zero), 0);
  EXPECT_FALSE(fs::exists(run / "checkpoints" / "step_00000001.safetensors"));
  EXPECT_FALSE(fs::exists(run / "model.safetensors"));
  EXPECT_FALSE(fs::exists(run / "summary.json"));

  // Resuming restores the intact step-0 checkpoint (nothing is set aside) and stops again at
  // the same update, with the same advice.
  const std::string before = slurp(zero);
  const CliResult again = run_cli("train --resume " + run.string());
  EXPECT_EQ(again.code, 1) << again.err;
  EXPECT_NE(again.err.find("resuming " + run.string() + " at step 0"), std::string::npos)
      << again.err;
  EXPECT_NE(again.err.find("training diverged at step 1"), std::string::npos) << again.err;
  EXPECT_EQ(lines(again.err), 2) << again.err;
  EXPECT_EQ(slurp(zero), before);
  EXPECT_FALSE(fs::exists(fs::path(zero.string() + ".damaged")));
  EXPECT_FALSE(fs::exists(run / "model.safetensors"));

  // The negative control: the same run with the default ε finishes with finite weights.
  const fs::path good = scratch("default_eps");
  const CliResult g = run_cli(one_step_run(good, "--log-checkpoints 2 "));
  ASSERT_EQ(g.code, 0) << g.err;
  EXPECT_EQ(non_finite_values(good / "checkpoints" / "step_00000001.safetensors"), 0);
  EXPECT_EQ(non_finite_values(good / "model.safetensors"), 0);
}

TEST(NonFinite, EveryReaderRefusesWeightsWithOneNaN) {
  const fs::path run = scratch("readers");
  ASSERT_EQ(run_cli(one_step_run(run)).code, 0);
  const fs::path checkpoint = run / "checkpoints" / "step_00000001.safetensors";
  const fs::path weights = run / "model.safetensors";
  const std::string config =
      " --config " + (run / "config.json").string() + " --weights " + weights.string();
  const std::vector<std::string> run_readers = {
      "eval --run " + run.string() + " --lengths 17 --count 8",
      "heads --run " + run.string() + " --samples 5",
      "discrepancy --run " + run.string() + " --lengths 17 --count 8",
  };
  const std::vector<std::string> weight_readers = {
      "heads" + config + " --length 12 --samples 5",
      "birth" + config + " --length 6 --seeds 1",
  };
  // The intact files work.
  for (const std::string& args : run_readers) {
    const CliResult r = run_cli(args);
    EXPECT_EQ(r.code, 0) << args << "\n" << r.err;
  }
  for (const std::string& args : weight_readers) {
    const CliResult r = run_cli(args);
    EXPECT_EQ(r.code, 0) << args << "\n" << r.err;
  }

  const std::string param = write_one_nan(checkpoint, "param/");
  for (const std::string& args : run_readers) {
    SCOPED_TRACE(args);
    expect_error(args, checkpoint.string() + ": tensor '" + param + "' holds 1 non-finite", 1);
  }
  // serve refuses before it listens (a server that started would run until the timeout).
  const CliResult serve = run_cli("serve --run " + run.string() + " --port 0", 30);
  EXPECT_EQ(serve.code, 1) << serve.err;
  EXPECT_EQ(lines(serve.err), 1) << serve.err;
  EXPECT_NE(serve.err.find(checkpoint.string() + ": tensor '" + param + "' holds 1 non-finite"),
            std::string::npos)
      << serve.err;

  const std::string tensor = write_one_nan(weights, "");
  for (const std::string& args : weight_readers) {
    SCOPED_TRACE(args);
    expect_error(args, weights.string() + ": tensor '" + tensor + "' holds 1 non-finite", 1);
  }
}

// Text runs read their checkpoints through the same loader: text `eval` (which printed "-nan
// bits per byte") and `birth --run`.
TEST(NonFinite, TextRunReadersRefuseACheckpointWithOneNaN) {
  const fs::path corpus =
      write_brown_excerpt("posbias_non_finite_corpus", /*files=*/12, /*sentences=*/20);
  const fs::path run = scratch("text");
  ASSERT_EQ(run_cli("train --task text --corpus " + corpus.string() +
                    " --tokenizer bytes --layers 1 --d-model 16 --heads 2 --mlp 32 --length 16 "
                    "--batch 4 --eval-windows 4 --steps 1 --warmup 0 --eval-every 1 "
                    "--checkpoint-every 1 --out " +
                    run.string())
                .code,
            0);
  const fs::path checkpoint = run / "checkpoints" / "step_00000001.safetensors";
  const std::vector<std::string> readers = {
      "eval --run " + run.string(),
      "birth --run " + run.string() + " --checkpoints last --seeds 1 --length 16",
  };
  for (const std::string& args : readers) {
    const CliResult r = run_cli(args);
    EXPECT_EQ(r.code, 0) << args << "\n" << r.err;
  }
  const std::string param = write_one_nan(checkpoint, "param/");
  for (const std::string& args : readers) {
    // birth --run logs the checkpoint it measures first; the error is the one line after it.
    const CliResult r = run_cli(args);
    EXPECT_EQ(r.code, 1) << args << "\n" << r.err;
    const std::string last = r.err.substr(r.err.rfind('\n', r.err.size() - 2) + 1);
    EXPECT_NE(last.find(checkpoint.string() + ": tensor '" + param + "' holds 1 non-finite"),
              std::string::npos)
        << args << "\n"
        << r.err;
    EXPECT_EQ(r.err.find("error"), r.err.rfind("error")) << args << "\n" << r.err;
  }
  fs::remove_all(corpus);
}

}  // namespace
