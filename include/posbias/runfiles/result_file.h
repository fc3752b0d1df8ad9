// Reading a result file of a posbias command back (what `seeds` and the report sections that
// summarize over seeds read) when it may hold anything: each field is checked where it enters,
// and a bad one is a one-line std::runtime_error "'FILE': ..." naming the file and the field.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <stdexcept>
#include <string>

namespace posbias {

// The largest result file a summary reads, and its name in the error message.
inline constexpr std::uintmax_t kMaxSeedFileBytes = std::uintmax_t{512} << 20;
inline constexpr const char* kMaxSeedFileName = "512 MiB";

[[noreturn]] void result_error(const std::string& source, const std::string& what);
// `read(in)`, a field table's strict reader (or a check of what it read), with its
// std::invalid_argument (the field named) as result_error's one line naming the file.
template <class Read, class In>
auto read_result_table(Read read, const In& in, const std::string& source) {
  try {
    return read(in);
  } catch (const std::invalid_argument& e) {
    result_error(source, e.what());
  }
}
// The text as JSON ("'source': is not valid JSON" otherwise).
nlohmann::json parse_result_json(const std::string& text, const std::string& source);
// The file, read within kMaxSeedFileBytes, as JSON.
nlohmann::json read_result_json(const std::string& path);

// j[key]: "'source': has no "parent.key" (is it a `posbias <kind>` result?)" when j is not an
// object or has no such key. `parent` names where j sits in the file ("" at the top).
const nlohmann::json& result_field(const nlohmann::json& j, const std::string& key,
                                   const std::string& source, const char* kind,
                                   const std::string& parent = "");
std::int64_t bounded_integer(const nlohmann::json& j, const std::string& source,
                             const std::string& name, std::int64_t low, std::int64_t high);

}  // namespace posbias
