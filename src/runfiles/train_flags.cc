#include "posbias/runfiles/train_flags.h"

#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string>

#include "posbias/core/shell_quote.h"
#include "posbias/runfiles/train_config.h"

namespace posbias {
namespace {

// A value as a shell word: as it is when it holds only letters, digits and -_.,:/+=, else quoted.
std::string shell_word(const std::string& text) {
  const bool plain = !text.empty() && text.find_first_not_of(
                                          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                          "0123456789-_.,:/+=") == std::string::npos;
  return plain ? text : shell_quote(text);
}

// A field's JSON value as its flag's text (lists comma-separated, as the flags take them).
std::string flag_text(const FieldRow<TrainConfig>& row, const nlohmann::json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number()) return value.dump();
  if (value.is_array()) {
    std::string out;
    for (const auto& v : value)
      out += (out.empty() ? "" : ",") + (v.is_string() ? v.get<std::string>() : v.dump());
    return out;
  }
  throw std::invalid_argument("train flags: config field '" + row.name + "' has no flag for " +
                              value.dump());
}

// What `posbias train` runs with the fields `given` of `want` (`task` among them): each as its
// flag gives it, the rest from the task's defaults following them, then finalized as train.json
// holds it. A set the command would refuse (a field given whose partner is not yet: checkpoint
// steps that the eval steps do not divide) comes back unfinalized, with `finalized` false.
nlohmann::json parsed_back(Task task, const nlohmann::json& want,
                           const std::set<std::string>& given, bool& finalized) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& key : given) j[key] = want.at(key);
  TrainConfig parsed = train_config_from_json(j, TrainConfig::defaults_following(task, j));
  try {
    parsed.finalize();
    finalized = true;
  } catch (const std::invalid_argument&) {
    finalized = false;
  }
  return train_config_to_json(parsed);
}

// The first field in the table's order that `got` does not hold as `want` does ("" when none;
// the seed is the command's).
std::string first_difference(const nlohmann::json& want, const nlohmann::json& got) {
  for (const FieldRow<TrainConfig>& row : train_config_fields()) {
    const std::string& key = row.name;
    if (key == "seed") continue;
    if (want.contains(key) != got.contains(key)) return key;
    if (want.contains(key) && want.at(key) != got.at(key)) return key;
  }
  return "";
}

}  // namespace

std::string train_flags(const TrainConfig& config) {
  const nlohmann::json want = train_config_to_json(config);
  std::set<std::string> given = {"task"};
  // Give the first field the command line leaves different, and again, until none is: the
  // fields the table lists earlier (--d-model before --mlp, --steps before --warmup) are given
  // first, so a field whose default follows them is given only when it must be.
  for (;;) {
    bool finalized = false;
    const std::string key =
        first_difference(want, parsed_back(config.task, want, given, finalized));
    if (key.empty() && finalized) break;
    const bool settable = !key.empty() && want.contains(key) &&
                          !(want.at(key).is_boolean() && !want.at(key).get<bool>());
    if (!settable || !given.insert(key).second) {
      throw std::invalid_argument(
          key.empty() ? "train flags: the config does not finalize"
                      : "train flags: no flag gives config field '" + key + "' its value " +
                            (want.contains(key) ? want.at(key).dump() : "(absent)"));
    }
  }
  std::string out;
  for (const FieldRow<TrainConfig>& row : train_config_fields()) {
    if (!given.contains(row.name) || !want.contains(row.name)) continue;
    out += (out.empty() ? "" : " ") + row.flag;
    if (row.type != "BOOL") out += " " + shell_word(flag_text(row, want.at(row.name)));
  }
  return out;
}

}  // namespace posbias
