#include "experiments/theory/shares_command.h"

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "experiments/seeds/shares_json.h"
#include "experiments/theory/compare_command.h"
#include "posbias/core/atomic_file.h"
#include "posbias/core/bounded_read.h"

namespace posbias {
namespace {

constexpr std::uintmax_t kMaxRunBytes = std::uintmax_t{256} << 20;

}  // namespace

std::vector<SharesRun> shares_of_runs(const SharesOptions& o) {
  if (o.runs.empty()) throw std::invalid_argument("give one or more birth --json results");
  std::vector<SharesRun> out;
  for (const std::string& file : o.runs) {
    const std::string label = std::filesystem::path(file).stem().string();
    const CompareRun run =
        parse_birth_run(read_bounded_file(file, kMaxRunBytes, "256 MiB birth-result"), file, label);
    const std::vector<std::vector<double>> profiles =
        run.seeds.empty() ? std::vector<std::vector<double>>{run.measured} : run.seeds;
    out.push_back({file, label, shares_over_seeds(profiles)});
  }
  return out;
}

nlohmann::json to_json(const std::vector<SharesRun>& runs) {
  nlohmann::json j{{"runs", nlohmann::json::array()}};
  for (const SharesRun& r : runs) {
    nlohmann::json rec{{"file", r.file},
                       {"label", r.label},
                       {"length", r.shares.length},
                       {"seeds", r.shares.share[3].values.size()}};
    add_shares_json(rec, r.shares);
    j["runs"].push_back(std::move(rec));
  }
  return j;
}

void run_shares(const SharesOptions& o) {
  const std::vector<SharesRun> runs = shares_of_runs(o);
  write_output(o.json, to_json(runs).dump(2) + "\n");
  for (const SharesRun& r : runs)
    std::fprintf(stderr, "theory shares: %s: %s; U test %s\n", r.label.c_str(),
                 shares_text(r.shares).c_str(), u_test_text(r.shares.u).c_str());
}

}  // namespace posbias
