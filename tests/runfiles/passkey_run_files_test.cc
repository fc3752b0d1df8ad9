// open_passkey_run (runfiles/passkey_run_files.h): a text run's folder read through RunHeader.
// The folder is a shipped passkey run's train.json with the byte tokenizer and a small corpus
// written by the test (no model, no network); a damaged train.json is refused in one line naming
// the field, and what is not a text run, or was trained on another corpus, is refused too.
#include "posbias/runfiles/passkey_run_files.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "../shipped_records.h"
#include "../text/brown_excerpt.h"
#include "posbias/text/brown_corpus.h"
#include "posbias/text/text_data.h"

namespace posbias {
namespace {

namespace fs = std::filesystem;

// The first shipped train.json of `task` (text: one with its corpus's fingerprint).
nlohmann::json shipped_train_json(const std::string& task) {
  for (const auto& [path, bytes] : posbias_test::shipped_json("\"task\": \"" + task + "\"")) {
    if (!path.filename().string().ends_with("train.json")) continue;
    const nlohmann::json j = nlohmann::json::parse(bytes);
    if (task != "text" || j.contains("corpus_fingerprint")) return j;
  }
  ADD_FAILURE() << "no shipped train.json of task " << task;
  return {};
}

struct TextRunFolder {
  fs::path dir, corpus;
  nlohmann::json header;  // written by write()
  void write() const {
    fs::create_directories(dir);
    std::ofstream(dir / "train.json") << header.dump(2) << "\n";
  }
};

// A shipped passkey run (gpt2, learned positions) on a small corpus, with 2 needles and the
// byte tokenizer.
TextRunFolder text_run(const std::string& name) {
  TextRunFolder f;
  f.corpus = posbias_test::write_brown_excerpt(name + "_corpus", 12);
  f.dir = fs::path(f.corpus.string() + "_run");
  fs::remove_all(f.dir);
  f.header = shipped_train_json("text");
  f.header["config"]["tokenizer"] = "bytes";
  f.header["config"]["needles"] = 2;
  f.header["corpus"] = f.corpus.string();
  f.header["corpus_fingerprint"] = fingerprint_hex(read_brown_corpus(f.corpus).fingerprint);
  f.write();
  return f;
}

TEST(PasskeyRunFiles, OpensATextRunsLengthNeedlesTokenizerAndHeldOutText) {
  TextRunFolder f = text_run("passkey_run_files_open");
  ASSERT_EQ(f.header["config"]["pos"], "learned");
  const PasskeyRun run = open_passkey_run(f.dir);
  EXPECT_EQ(run.length, f.header["config"]["length"].get<int>());
  EXPECT_EQ(run.needles, 2);
  EXPECT_EQ(run.max_length, run.length);  // learned positions end at the training length
  EXPECT_EQ(run.tokenizer.kind(), TokenizerKind::kBytes);
  EXPECT_EQ(run.heldout, encode_files(read_brown_corpus(f.corpus).heldout, Tokenizer::bytes()));
  f.header["config"]["arch"] = "qwen2";
  f.header["config"]["pos"] = "rope";
  f.write();
  EXPECT_EQ(open_passkey_run(f.dir).max_length, 0);  // rotary: no limit
  fs::remove_all(f.dir);
  fs::remove_all(f.corpus);
}

TEST(PasskeyRunFiles, ADamagedTrainJsonIsRefusedInOneLineNamingTheField) {
  TextRunFolder f = text_run("passkey_run_files_damaged");
  const std::string file = (f.dir / "train.json").string();
  for (const auto& [field, value, message] :
       {std::tuple<std::string, nlohmann::json, std::string>{
            "needles", "2",
            "train.json field 'config': config field 'needles' must be a number (an integer)"},
        {"tokenizer", "bites", "'tokenizer'"},
        {"lenght", 64, "unknown config field 'lenght'"}}) {
    nlohmann::json& config = f.header["config"];
    const nlohmann::json kept = config;
    config[field] = value;
    f.write();
    try {
      open_passkey_run(f.dir);
      ADD_FAILURE() << "opened with config." << field << " = " << value.dump();
    } catch (const std::runtime_error& e) {
      const std::string what = e.what();
      EXPECT_TRUE(what.starts_with(file + " is corrupt: ")) << what;
      EXPECT_NE(what.find(message), std::string::npos) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
    config = kept;
  }
  f.header["corpus_fingerprint"] = 7;
  f.write();
  EXPECT_EQ(posbias_test::refusal_of([&] {
              try {
                open_passkey_run(f.dir);
              } catch (const std::runtime_error& e) {
                throw std::invalid_argument(e.what());
              }
            }),
            file + " is corrupt: train.json field 'corpus_fingerprint' must be a string");
  fs::remove_all(f.dir);
  fs::remove_all(f.corpus);
}

TEST(PasskeyRunFiles, RefusesWhatIsNotATextRunOrWasTrainedOnAnotherCorpus) {
  TextRunFolder f = text_run("passkey_run_files_refused");
  f.header["corpus_fingerprint"] = "0000000000000000";
  f.write();
  try {
    open_passkey_run(f.dir);
    ADD_FAILURE() << "opened on another corpus";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("is not the one the run was trained on"),
              std::string::npos)
        << e.what();
  }
  f.header = shipped_train_json("kv");
  f.write();
  EXPECT_EQ(posbias_test::refusal_of([&] { open_passkey_run(f.dir); }),
            "--run '" + f.dir.string() + "' is not a text run (train --task text)");
  fs::remove(f.dir / "train.json");
  EXPECT_EQ(posbias_test::refusal_of([&] { open_passkey_run(f.dir); }),
            "--run '" + f.dir.string() + "' is not a training run (no train.json)");
  fs::remove_all(f.dir);
  fs::remove_all(f.corpus);
}

}  // namespace
}  // namespace posbias
