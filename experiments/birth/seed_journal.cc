#include "experiments/birth/seed_journal.h"

#include <stdexcept>
#include <string>

#include "posbias/core/atomic_file.h"
#include "posbias/core/bounded_read.h"
#include "posbias/core/json_read.h"

namespace posbias {

namespace {
constexpr std::uintmax_t kMaxJournalBytes = std::uintmax_t{1} << 30;

std::filesystem::path journal_path(const std::filesystem::path& result) {
  return result.string() + ".seeds.json";
}

}  // namespace

SeedJournal::SeedJournal(const std::filesystem::path& result, nlohmann::json key, bool resume)
    : path_(journal_path(result)), key_(std::move(key)) {
  if (!resume || !std::filesystem::exists(path_)) return;
  const std::string text = read_bounded_file(path_, kMaxJournalBytes, "1 GiB journal");
  const nlohmann::json j = parse_json_or_discarded(text);
  if (!j.is_object() || !j.contains("key") || !j.contains("seeds") || !j["seeds"].is_object())
    throw std::runtime_error("'" + path_.string() + "' is not a birth seed journal");
  if (j["key"] != key_) {
    throw std::invalid_argument("'" + path_.string() +
                                "' was written by a birth measurement with other options; "
                                "run without --resume to start over");
  }
  for (const auto& [seed, profile] : j["seeds"].items()) {
    std::vector<double> row;
    try {
      row = profile.get<std::vector<double>>();
      done_[std::stoi(seed)] = std::move(row);
    } catch (const std::exception&) {
      throw std::runtime_error("'" + path_.string() + "' holds a malformed seed '" + seed + "'");
    }
  }
}

void SeedJournal::record(int seed, const std::vector<double>& profile) {
  done_[seed] = profile;
  nlohmann::json seeds = nlohmann::json::object();
  for (const auto& [s, row] : done_) seeds[std::to_string(s)] = row;
  write_file_atomic(path_, nlohmann::json{{"key", key_}, {"seeds", seeds}}.dump() + "\n");
}

void SeedJournal::discard(const std::filesystem::path& result) {
  std::error_code ec;
  std::filesystem::remove(journal_path(result), ec);
}

}  // namespace posbias
