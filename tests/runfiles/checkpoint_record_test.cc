// CheckpointRecord's field table (posbias/runfiles/checkpoint_record.h): the metadata of a
// checkpoint an earlier build wrote (tests/runfiles/checkpoint_files: step 2 of a tiny number run
// with log-spaced checkpoints, so loss_sum and loss_count are not 0) reads back and writes the
// same strings, and a mistyped, unknown or missing field is refused in one line naming it.
#include "posbias/runfiles/checkpoint_record.h"

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "../cli_run.h"
#include "../shipped_records.h"

namespace posbias {
namespace {

using Metadata = std::map<std::string, std::string>;

// The metadata of step_00000002.safetensors as `posbias train` wrote it, checksum included.
Metadata earlier_metadata() {
  const std::string path =
      std::string(POSBIAS_SOURCE_DIR) + "/tests/runfiles/checkpoint_files/step_2_metadata.json";
  return nlohmann::json::parse(posbias_test::slurp(path)).get<Metadata>();
}

std::string refusal(const Metadata& m) {
  return posbias_test::refusal_of([&] { checkpoint_record_from_metadata(m, {"sha256"}); });
}

TEST(CheckpointRecord, AnEarlierBuildsMetadataReadsBackAndWritesTheSameStrings) {
  Metadata written = earlier_metadata();
  ASSERT_EQ(written.erase("sha256"), 1u);
  const CheckpointRecord r = checkpoint_record_from_metadata(earlier_metadata(), {"sha256"});
  EXPECT_EQ(r.format, "posbias-hop-checkpoint-2");
  EXPECT_EQ(r.info.step, 2);
  EXPECT_EQ(r.adam_steps, 2);
  EXPECT_EQ(r.info.loss_count, 2);
  EXPECT_EQ(r.info.loss_sum, 14.105846405029297);
  EXPECT_EQ(r.info.config.layers, 1);
  EXPECT_EQ(to_metadata(r), written);
}

TEST(CheckpointRecord, AMistypedFieldIsRefusedInOneLineNamingIt) {
  const std::map<std::string, std::string> bad = {
      {"step", "2.5"},  {"adam_steps", "-1"}, {"seed", "zero"},          {"train_seconds", "0.03x"},
      {"loss_sum", ""}, {"loss_count", " 2"}, {"config", "{\"layers\":"}};
  for (const auto& [key, text] : bad) {
    Metadata m = earlier_metadata();
    m[key] = text;
    const std::string message = refusal(m);
    EXPECT_NE(message.find("checkpoint metadata field '" + key + "'"), std::string::npos)
        << key << ": " << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
  Metadata m = earlier_metadata();
  m["train_seconds"] = "inf";
  EXPECT_NE(refusal(m).find("'train_seconds' is not a finite number"), std::string::npos);
  m = earlier_metadata();
  m["seed"] = "5";
  EXPECT_NE(refusal(m).find("'seed' is 5 but the config's seed is 0"), std::string::npos);
  m = earlier_metadata();
  m["epoch"] = "1";
  EXPECT_NE(refusal(m).find("unknown checkpoint metadata field 'epoch'"), std::string::npos);
  EXPECT_EQ(refusal(earlier_metadata()), "");
}

TEST(CheckpointRecord, AMissingFieldIsRefusedButALossPairAbsentReadsAsZero) {
  for (const char* key : {"format", "config", "seed", "step", "adam_steps", "train_seconds",
                          "version", "loss_sum", "loss_count"}) {
    Metadata m = earlier_metadata();
    m.erase(key);
    EXPECT_EQ(refusal(m), std::string("missing checkpoint metadata field '") + key + "'");
  }
  // Checkpoints written before log-spaced checkpoints existed have neither.
  Metadata m = earlier_metadata();
  m.erase("loss_sum");
  m.erase("loss_count");
  const CheckpointRecord r = checkpoint_record_from_metadata(m, {"sha256"});
  EXPECT_EQ(r.info.loss_sum, 0.0);
  EXPECT_EQ(r.info.loss_count, 0);
}

}  // namespace
}  // namespace posbias
