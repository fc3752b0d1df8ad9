// TrainConfig's field table (train_config_fields): every row round-trips through JSON, every
// row refuses a mistyped value naming its field, unknown fields are refused, and every
// train.json shipped in docs/data still loads to the config it holds.
#include "posbias/runfiles/train_config.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "../shipped_records.h"

namespace posbias {
namespace {

// A value of the row's type other than the default's, that the reader takes.
nlohmann::json other_value(const FieldRow<TrainConfig>& row, const nlohmann::json& value) {
  if (value.is_boolean()) return !value.get<bool>();
  if (value.is_number_integer()) return value.get<std::int64_t>() + 3;
  if (value.is_number_float()) return value.get<double>() * 0.5 + 0.25;
  if (value.is_array()) return nlohmann::json::array({2, 3});
  if (value.is_null()) {  // a row written only when set (its empty value writes null): a number
    for (const nlohmann::json& number : {nlohmann::json(0.5), nlohmann::json(64)}) {
      TrainConfig c;
      try {
        row.read(number, c, "config field");
        return number;
      } catch (const std::invalid_argument&) {
      }
    }
  }
  for (const char* name :
       {"letter", "gpt2", "alibi", "bytes", "ends", "shuffled", "bf16", "/corpus"}) {
    if (value == name) continue;
    TrainConfig c;
    try {
      row.read(name, c, "config field");
      return name;
    } catch (const std::invalid_argument&) {
    }
  }
  ADD_FAILURE() << row.name << ": no other name is read";
  return value;
}

TEST(TrainConfigFields, EveryRowRoundTripsThroughJson) {
  const nlohmann::json defaults = train_config_to_json(TrainConfig{});
  std::set<std::string> names;
  std::size_t omitted = 0;  // rows written only away from their default (precision)
  for (const auto& row : train_config_fields()) {
    EXPECT_TRUE(names.insert(row.name).second) << row.name << " is in the table twice";
    const bool written = defaults.contains(row.name);
    EXPECT_EQ(written, row.present(TrainConfig{})) << row.name;
    omitted += written ? 0 : 1;
    const nlohmann::json value = written ? defaults[row.name] : row.write(TrainConfig{});
    nlohmann::json changed = defaults;
    changed[row.name] = other_value(row, value);
    ASSERT_NE(changed[row.name], value) << row.name;
    const TrainConfig c = train_config_from_json(changed);
    EXPECT_EQ(train_config_to_json(c), changed) << row.name;
    EXPECT_FALSE(row.help.empty()) << row.name;
  }
  EXPECT_EQ(names.size(), defaults.size() + omitted);
}

TEST(TrainConfigFields, EveryRowRefusesAMistypedValueNamingItsField) {
  for (const auto& row : train_config_fields()) {
    const nlohmann::json wrong = row.type == "INT" || row.type == "NUMBER" || row.type == "LIST"
                                     ? nlohmann::json("x")
                                     : nlohmann::json(5);
    try {
      train_config_from_json({{row.name, wrong}});
      ADD_FAILURE() << row.name << " took " << wrong.dump();
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("'" + row.name + "'"), std::string::npos)
          << row.name << ": " << e.what();
    }
  }
  EXPECT_THROW(train_config_from_json({{"length", 1.5}}), std::invalid_argument);
  EXPECT_THROW(train_config_from_json({{"seed", -1}}), std::invalid_argument);
  EXPECT_THROW(train_config_from_json({{"layers", std::int64_t{1} << 40}}), std::invalid_argument);
  EXPECT_THROW(train_config_from_json({{"hops", {1, "2"}}}), std::invalid_argument);
}

TEST(TrainConfigFields, UnknownFieldsAreRefusedAndOldRankFieldsSkipped) {
  try {
    train_config_from_json({{"lenght", 17}});
    ADD_FAILURE() << "a typo was taken";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("unknown config field 'lenght'"), std::string::npos);
  }
  const TrainConfig c = train_config_from_json({{"rank", 0}, {"world_size", 2}, {"length", 9}});
  EXPECT_EQ(c.length, 9);
  EXPECT_THROW(train_config_from_json(nlohmann::json::array()), std::invalid_argument);
}

TEST(TrainConfigFields, FlagsParseToTheFieldsType) {
  for (const auto& row : train_config_fields()) {
    if (row.name == "length") {
      EXPECT_EQ(row.from_flag("32"), 32);
      EXPECT_THROW(row.from_flag("1.5"), std::invalid_argument);
    } else if (row.name == "lr") {
      EXPECT_EQ(row.from_flag("3e-3"), 3e-3);
      EXPECT_THROW(row.from_flag("fast"), std::invalid_argument);
    } else if (row.name == "hops") {
      EXPECT_EQ(row.from_flag("1,3"), nlohmann::json::array({1, 3}));
    }
  }
}

// Every train.json and bench copy shipped in docs/data: its config loads, and writing it back
// gives every field it holds unchanged (fields added since default).
TEST(TrainConfigFields, ShippedTrainFilesLoad) {
  const auto shipped = posbias_test::shipped_train_configs();
  for (const auto& [path, config] : shipped) {
    const nlohmann::json back = train_config_to_json(train_config_from_json(config));
    for (const auto& [key, value] : config.items()) {
      if (key == "rank" || key == "world_size") continue;
      EXPECT_EQ(back.at(key), value) << path << " " << key;
    }
  }
  const auto files = shipped.size();
  EXPECT_GE(files, 10u);
}

}  // namespace
}  // namespace posbias

// Defaults that follow the flags given: MLP 4·d, a warmup that fits the steps, a rotary width
// that fits the head; a field given keeps its value, and nothing given keeps the task's.
TEST(TrainConfigDefaults, FollowTheFieldsGiven) {
  using posbias::Task;
  using posbias::TrainConfig;
  const auto with = [](Task task, const char* given) {
    return TrainConfig::defaults_following(task, nlohmann::json::parse(given));
  };
  EXPECT_EQ(with(Task::kText, R"({"d_model": 64})").mlp, 256);
  EXPECT_EQ(with(Task::kText, R"({"d_model": 64, "mlp": 100})").mlp, 1024);  // given: not ours
  EXPECT_EQ(with(Task::kText, R"({})").mlp, TrainConfig::defaults(Task::kText).mlp);
  EXPECT_EQ(with(Task::kText, R"({"steps": 10})").warmup, 1);
  EXPECT_EQ(with(Task::kText, R"({"steps": 700})").warmup, 50);  // it fits: the task's
  EXPECT_EQ(with(Task::kText, R"({"steps": 10, "warmup": 5})").warmup, 50);
  EXPECT_EQ(with(Task::kNumber, R"({"d_model": 16, "heads": 2})").rotary_dim, 8);
  EXPECT_EQ(with(Task::kNumber, R"({"d_model": 64})").rotary_dim, 16);  // 16 fits in 64
  EXPECT_EQ(with(Task::kNumber, R"({"d_model": "x"})").mlp, 512);       // the reader refuses it
}
