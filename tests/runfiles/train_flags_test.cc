// train_flags: the command line of a config parses back, through the flags' own parsers
// (FieldRow::from_flag) and the defaults that follow them, to the same config: for every task's
// defaults, for configs that set the derived fields' sources, and for every train.json shipped
// in docs/data.
#include "posbias/runfiles/train_flags.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "../shipped_records.h"
#include "posbias/runfiles/train_config.h"

namespace posbias {
namespace {

// A command line's words, with the shell's single quotes undone ('\'' is a quote).
std::vector<std::string> shell_words(const std::string& line) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false, quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '\'')
        quoted = false;
      else
        word += c;
    } else if (c == '\'') {
      quoted = in_word = true;
    } else if (c == '\\' && i + 1 < line.size()) {
      word += line[++i], in_word = true;
    } else if (c == ' ') {
      if (in_word) words.push_back(word);
      word.clear(), in_word = false;
    } else {
      word += c, in_word = true;
    }
  }
  if (in_word) words.push_back(word);
  return words;
}

// What `posbias train FLAGS` runs: each flag through its row's parser, then the task's defaults
// following the fields given, finalized.
TrainConfig parse_flags(const std::string& flags) {
  const std::vector<std::string> words = shell_words(flags);
  nlohmann::json j = nlohmann::json::object();
  for (std::size_t i = 0; i < words.size(); ++i) {
    const FieldRow<TrainConfig>* row = nullptr;
    for (const auto& r : train_config_fields())
      if (r.flag == words[i]) row = &r;
    if (row == nullptr) throw std::invalid_argument("no flag " + words[i]);
    if (row->type == "BOOL") {
      j[row->name] = true;
      continue;
    }
    if (i + 1 >= words.size()) throw std::invalid_argument(words[i] + " has no value");
    j[row->name] = row->type == "PATH" ? nlohmann::json(words[i + 1]) : row->from_flag(words[++i]);
    if (row->type == "PATH") ++i;
  }
  const Task task = parse_task(j.at("task").get<std::string>());
  TrainConfig c = train_config_from_json(j, TrainConfig::defaults_following(task, j));
  c.finalize();  // as `posbias train` runs it and train.json holds it
  return c;
}

// The config's JSON without its seed (train_flags leaves --seed to the command).
nlohmann::json without_seed(const TrainConfig& c) {
  nlohmann::json j = train_config_to_json(c);
  j.erase("seed");
  return j;
}

void expect_round_trip(const TrainConfig& c, const std::string& what) {
  const std::string flags = train_flags(c);
  EXPECT_EQ(without_seed(parse_flags(flags)), without_seed(c)) << what << ": " << flags;
}

TEST(TrainFlags, EveryTasksDefaultsIsItsTaskAlone) {
  for (Task task : {Task::kNumber, Task::kLetter, Task::kText, Task::kKv}) {
    TrainConfig c = TrainConfig::defaults(task);
    c.finalize();
    expect_round_trip(c, "defaults");
    EXPECT_EQ(train_flags(c), "--task " + std::string(task_name(task)));
  }
}

TEST(TrainFlags, ARetrievalConfigNamesWhatDiffers) {
  TrainConfig c = TrainConfig::defaults(Task::kKv);
  c.arch = Family::kGpt2;
  c.pos = PosEncoding::kLearned;
  c.d_model = 64;  // the command derives mlp 256 from it
  c.mlp = 256;
  c.steps = 40;  // and a warmup of 4 from this
  c.warmup = 4;
  c.window = 16;
  c.depth_prior = DepthPrior::kEnds;
  c.lr = 3e-4;
  c.finalize();
  expect_round_trip(c, "kv");
  const std::string flags = train_flags(c);
  EXPECT_NE(flags.find("--arch gpt2 --depth-prior"), std::string::npos) << flags;
  EXPECT_EQ(flags.find("--pos"), std::string::npos) << flags;  // learned: the family's own
  EXPECT_NE(flags.find("--depth-prior ends"), std::string::npos) << flags;
  EXPECT_NE(flags.find("--window 16"), std::string::npos) << flags;
  EXPECT_NE(flags.find("--lr 0.0003"), std::string::npos) << flags;
  EXPECT_EQ(flags.find("--seed"), std::string::npos) << flags;
  EXPECT_EQ(flags.find("--mlp"), std::string::npos) << flags;     // derived from --d-model
  EXPECT_EQ(flags.find("--warmup"), std::string::npos) << flags;  // derived from --steps
}

TEST(TrainFlags, TheRemedyOptionsAndListsParseBack) {
  TrainConfig c = TrainConfig::defaults(Task::kKv);
  c.sink = true;
  c.null_sink = 2.0;
  c.middle_weight = 3.0;
  c.logn_scale = 0.2885;
  c.finalize();
  expect_round_trip(c, "kv remedies");
  EXPECT_NE(train_flags(c).find("--sink"), std::string::npos);
  TrainConfig n = TrainConfig::defaults(Task::kNumber);
  n.hops = {1, 3};
  n.pose = 1024;
  n.finalize();
  expect_round_trip(n, "number");
  EXPECT_NE(train_flags(n).find("--hops 1,3"), std::string::npos) << train_flags(n);
  TrainConfig t = TrainConfig::defaults(Task::kText);
  t.corpus = "/a dir/it's here";  // a path a shell must quote
  t.needle_fraction = 0.5;
  t.finalize();
  expect_round_trip(t, "text");
}

// Every run shipped in docs/data can be trained again from its command line.
TEST(TrainFlags, EveryShippedTrainJsonParsesBack) {
  const auto shipped = posbias_test::shipped_train_configs();
  for (const auto& [path, config] : shipped)
    expect_round_trip(train_config_from_json(config), path.string());
  const auto files = shipped.size();
  EXPECT_GE(files, 10u);
}

}  // namespace
}  // namespace posbias
