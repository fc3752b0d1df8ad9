#include "experiments/birth/seed_journal.h"

#include <stdexcept>
#include <string>

#include "posbias/core/atomic_file.h"
#include "posbias/core/bounded_read.h"
#include "posbias/core/field_table.h"
#include "posbias/core/json_read.h"
#include "posbias/core/parse.h"

namespace posbias {

namespace {
constexpr std::uintmax_t kMaxJournalBytes = std::uintmax_t{1} << 30;

std::filesystem::path journal_path(const std::filesystem::path& result) {
  return result.string() + ".seeds.json";
}

// The journal's file: what is measured (the key) and each finished seed's profile by seed
// number, {"key": {...}, "seeds": {"0": [...], "3": [...]}}.
struct JournalFile {
  nlohmann::json key;
  std::map<std::string, std::vector<double>> seeds;
};

const std::vector<FieldRow<JournalFile>>& journal_fields() {
  using J = JournalFile;
  static const std::vector<FieldRow<J>> rows = {
      required(field("key", &J::key, "the measurement's options; a resume must match them")),
      required(field("seeds", &J::seeds, "seed number → its measured profile")),
  };
  return rows;
}

}  // namespace

SeedJournal::SeedJournal(const std::filesystem::path& result, nlohmann::json key, bool resume)
    : path_(journal_path(result)), key_(std::move(key)) {
  if (!resume || !std::filesystem::exists(path_)) return;
  const std::string text = read_bounded_file(path_, kMaxJournalBytes, "1 GiB journal");
  JournalFile file;
  try {
    file = fields_from_json(journal_fields(), parse_json_or_discarded(text), JournalFile{},
                            "journal field");
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error("'" + path_.string() + "' is not a birth seed journal: " + e.what());
  }
  if (file.key != key_) {
    throw std::invalid_argument("'" + path_.string() +
                                "' was written by a birth measurement with other options; "
                                "run without --resume to start over");
  }
  for (auto& [seed, profile] : file.seeds) {
    try {
      done_[static_cast<int>(parse_integer_in(seed, "seed", 0, 1 << 30))] = std::move(profile);
    } catch (const std::invalid_argument&) {
      throw std::runtime_error("'" + path_.string() + "' holds a malformed seed '" +
                               seed.substr(0, 40) + "'");
    }
  }
}

void SeedJournal::record(int seed, const std::vector<double>& profile) {
  done_[seed] = profile;
  JournalFile file{key_, {}};
  for (const auto& [s, row] : done_) file.seeds[std::to_string(s)] = row;
  write_file_atomic(path_, fields_to_json(journal_fields(), file).dump() + "\n");
}

void SeedJournal::discard(const std::filesystem::path& result) {
  std::error_code ec;
  std::filesystem::remove(journal_path(result), ec);
}

}  // namespace posbias
