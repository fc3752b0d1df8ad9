#include "experiments/theory/shares_command.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "experiments/theory/compare_command.h"
#include "experiments/theory/theory_shares_record.h"
#include "posbias/core/atomic_file.h"
#include "posbias/core/json_result.h"
#include "posbias/stats/paired_verdict.h"
#include "posbias/theory/shares_record.h"
#include "posbias/theory/shares_summary.h"

namespace posbias {
namespace {

SharesRun read_shares_run(const std::string& file) {
  const std::string label = std::filesystem::path(file).stem().string();
  const CompareRun run = read_birth_run(file, label);
  const std::vector<std::vector<double>> profiles =
      run.seeds.empty() ? std::vector<std::vector<double>>{run.measured} : run.seeds;
  return {file, label, shares_over_seeds(profiles), profile_shares(run.predicted)};
}

}  // namespace

SharesResult shares_of_runs(const SharesOptions& o) {
  if (o.runs.empty()) throw std::invalid_argument("give one or more birth --json results");
  SharesResult out;
  for (const std::string& file : o.runs) out.runs.push_back(read_shares_run(file));
  if (o.baseline.empty()) return out;
  out.baseline = read_shares_run(o.baseline);
  for (const SharesRun& r : out.runs) {
    if (r.shares.length != out.baseline->shares.length ||
        r.shares.share[3].values.size() != out.baseline->shares.share[3].values.size() ||
        r.shares.share[3].values.size() < 2) {
      throw std::invalid_argument(
          "--baseline pairs runs by seed: " + r.file + " and " + o.baseline +
          " need the same length and the same two or more seeds (re-run birth with equal "
          "--length, --seeds and --seed)");
    }
  }
  return out;
}

TheorySharesRecord theory_shares_record(const SharesResult& result) {
  TheorySharesRecord out;
  if (result.baseline) out.baseline = result.baseline->file;
  for (const SharesRun& r : result.runs) {
    TheorySharesRunRecord& rec = out.runs.emplace_back();
    rec.file = r.file;
    rec.label = r.label;
    rec.length = r.shares.length;
    rec.seeds = static_cast<std::int64_t>(r.shares.share[3].values.size());
    rec.profile_shares = profile_shares_record(r.shares);
    if (result.baseline) {
      ShareChangeRecord change = share_change_record(result.baseline->shares, r.shares);
      change.scale = "log10(share of this run / share of the baseline), per seed, paired by seed";
      const auto& middle = change.change[static_cast<std::size_t>(ShareRegion::kMiddle)];
      rec.middle_verdict = middle ? paired_verdict(middle->interval) : "no effect";
      std::map<std::string, double> predicted;
      for (ShareRegion region : kShareRegions) {
        const double a = result.baseline->predicted.of(region), b = r.predicted.of(region);
        if (r.predicted.region(region).present() && a > 0 && b > 0)
          predicted[to_string(region)] = std::log10(b / a);
      }
      if (middle && predicted.count("middle")) {
        const double p = predicted["middle"];
        const SeedInterval& m = middle->interval;
        rec.nofit_middle_agreement =
            m.low <= p && p <= m.high
                ? "within the measured interval"
                : ((p > 0) == (m.mean > 0) ? "the measured sign, outside its interval"
                                           : "the other sign than measured");
      }
      rec.nofit_change_from_baseline = std::move(predicted);
      rec.change_from_baseline = std::move(change);
    }
  }
  return out;
}

nlohmann::json to_json(const SharesResult& result) { return to_json(theory_shares_record(result)); }

void run_shares(const SharesOptions& o) {
  const SharesResult result = shares_of_runs(o);
  // The JSON for a pipe or a file; on a terminal these lines instead (core/json_result.h).
  write_json_result(o.json, to_json(result).dump(2) + "\n", [&result] {
    std::string out;
    for (const SharesRun& r : result.runs)
      out += "theory shares: " + r.label + ": " + shares_text(r.shares) + "; U test " +
             u_test_text(r.shares.u) + "\n";
    return out;
  });
}

}  // namespace posbias
