#include "posbias/runfiles/checkpoint_record.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "posbias/core/json_read.h"

namespace posbias {
namespace {

std::string text_of(const nlohmann::json& j, const std::string& what) {
  return FieldCodec<std::string>::read(j, what);
}

// The whole of `text` as a T by std::from_chars (no sign, space or trailing text).
template <class T>
bool parse_whole(const std::string& text, T& v) {
  if (text.empty() || text[0] == '+' || text[0] == '-') return false;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  return ec == std::errc() && ptr == end;
}

// A count (step, seed) written in decimal.
template <class T>
struct CountText {
  static constexpr const char* type = "INT";
  static nlohmann::json write(T v) { return std::to_string(v); }
  static T read(const nlohmann::json& j, const std::string& what) {
    const std::string text = text_of(j, what);
    T v = 0;
    if (!parse_whole(text, v))
      throw std::invalid_argument(what + " is not a count: '" + text.substr(0, 40) + "'");
    return v;
  }
};

// A finite number written with printf's Format::value.
template <class Format>
struct NumberText {
  static constexpr const char* type = "NUMBER";
  static nlohmann::json write(double v) {
    char text[64];
    std::snprintf(text, sizeof text, Format::value, v);
    return std::string(text);
  }
  static double read(const nlohmann::json& j, const std::string& what) {
    const std::string text = text_of(j, what);
    double v = 0;
    if (!parse_whole(text, v) || !std::isfinite(v))
      throw std::invalid_argument(what + " is not a finite number: '" + text.substr(0, 40) + "'");
    return v;
  }
};
struct SecondsFormat {
  static constexpr const char* value = "%.6f";
};
struct ExactFormat {
  static constexpr const char* value = "%.17g";
};

// The training config as its JSON text, finalized when read.
struct ConfigText {
  static constexpr const char* type = "OBJECT";
  static nlohmann::json write(const TrainConfig& c) { return train_config_to_json(c).dump(); }
  static TrainConfig read(const nlohmann::json& j, const std::string& what) {
    const std::string text = text_of(j, what);
    try {
      TrainConfig c = train_config_from_json(parse_json(text, what));
      c.finalize();
      return c;
    } catch (const std::exception& e) {
      throw std::invalid_argument(what + " is not a training config: " + e.what());
    }
  }
};

}  // namespace

const std::vector<FieldRow<CheckpointInfo>>& checkpoint_info_fields() {
  using I = CheckpointInfo;
  static const std::vector<FieldRow<I>> rows = {
      required(field<I, TrainConfig, ConfigText>("config", &I::config, "the training config")),
      required(field<I, std::int64_t, CountText<std::int64_t>>("step", &I::step,
                                                               "training steps taken")),
      required(field<I, double, NumberText<SecondsFormat>>(
          "train_seconds", &I::train_seconds, "wall time spent training up to this step")),
      field<I, double, NumberText<ExactFormat>>("loss_sum", &I::loss_sum,
                                                "training loss summed since the last evaluation"),
      field<I, std::int64_t, CountText<std::int64_t>>("loss_count", &I::loss_count,
                                                      "steps loss_sum sums over"),
  };
  return rows;
}

const std::vector<FieldRow<CheckpointRecord>>& checkpoint_record_fields() {
  using R = CheckpointRecord;
  static const std::vector<FieldRow<R>> rows = [] {
    std::vector<FieldRow<R>> r = {
        required(field("format", &R::format, "the checkpoint format")),
        required(field<R, std::uint64_t, CountText<std::uint64_t>>("seed", &R::seed,
                                                                   "the config's seed")),
        required(field<R, std::int64_t, CountText<std::int64_t>>("adam_steps", &R::adam_steps,
                                                                 "AdamW's step count")),
        required(field("version", &R::version, "posbias's version that wrote it")),
    };
    for (auto& row : member_fields(&R::info, checkpoint_info_fields())) r.push_back(row);
    return r;
  }();
  return rows;
}

std::map<std::string, std::string> to_metadata(const CheckpointRecord& record) {
  std::map<std::string, std::string> out;
  const nlohmann::json j = fields_to_json(checkpoint_record_fields(), record);
  for (const auto& [key, value] : j.items()) out[key] = value.get<std::string>();
  return out;
}

CheckpointRecord checkpoint_record_from_metadata(const std::map<std::string, std::string>& metadata,
                                                 const std::vector<std::string>& ignored) {
  const nlohmann::json j(metadata);
  const std::string what = "checkpoint metadata field";
  CheckpointRecord record = fields_from_json(checkpoint_record_fields(), j, {}, what, ignored);
  for (const char* key : {"loss_sum", "loss_count"})  // both or neither
    if (j.contains("loss_sum") != j.contains("loss_count") && !j.contains(key))
      throw std::invalid_argument("missing " + field_what(what, key));
  if (record.seed != record.info.config.seed) {
    throw std::invalid_argument(field_what(what, "seed") + " is " + std::to_string(record.seed) +
                                " but the config's seed is " +
                                std::to_string(record.info.config.seed));
  }
  return record;
}

}  // namespace posbias
