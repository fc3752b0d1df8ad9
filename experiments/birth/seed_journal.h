// The seeds of a `birth` measurement kept as they finish, so that a killed long run resumes
// (`birth --resume`): RESULT.seeds.json beside the result file, rewritten atomically after
// every seed, holding what is measured (the key) and each finished seed's profile. A resumed
// run redoes only the cheap forward pass of a finished seed (branch strengths, attention) and
// takes its profile from the journal, so it gives the numbers an uninterrupted run gives.
#pragma once

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <vector>

namespace posbias {

class SeedJournal {
 public:
  // The journal of the result file `result`. resume = false starts it empty (any old journal
  // is overwritten at the first seed); resume = true reads it, and throws std::invalid_argument
  // when it was written for a different measurement (its key differs from `key`) and
  // std::runtime_error when it cannot be read. A missing journal resumes nothing.
  SeedJournal(const std::filesystem::path& result, nlohmann::json key, bool resume);

  const std::map<int, std::vector<double>>& done() const { return done_; }
  void record(int seed, const std::vector<double>& profile);  // atomic rewrite
  // Deletes the journal of `result` (once the result itself is written).
  static void discard(const std::filesystem::path& result);

 private:
  std::filesystem::path path_;
  nlohmann::json key_;
  std::map<int, std::vector<double>> done_;
};

}  // namespace posbias
