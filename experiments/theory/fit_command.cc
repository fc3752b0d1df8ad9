#include "experiments/theory/fit_command.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "experiments/theory/theory_command.h"
#include "posbias/arch/config.h"
#include "posbias/core/atomic_file.h"
#include "posbias/core/csv.h"
#include "posbias/core/json_result.h"
#include "posbias/core/parse.h"
#include "posbias/theory/fit_figure.h"
#include "posbias/theory/fit_record.h"
#include "posbias/theory/profile_columns.h"

namespace posbias {

MeasuredProfile read_profile_csv(const std::filesystem::path& path) {
  const CsvTable table = read_numeric_csv(path);
  const int pos = table.column(profile_csv::kPosition);
  if (pos < 0)
    throw std::runtime_error(path.string() + ": needs a '" + profile_csv::kPosition + "' column");
  const int mean_col = table.column(profile_csv::kInfluence);
  std::vector<int> seed_cols;
  for (std::size_t c = 0; c < table.header.size(); ++c) {
    if (profile_csv::is_seed_column(table.header[c])) seed_cols.push_back(static_cast<int>(c));
  }
  if (mean_col < 0 && seed_cols.empty()) {
    throw std::runtime_error(path.string() + ": needs an '" + profile_csv::kInfluence +
                             "' column or '" + profile_csv::kSeedPrefix + "*' columns");
  }
  MeasuredProfile p;
  p.seeds.assign(seed_cols.size(), {});
  // A profile starts at the first token: its first row gives the file's base (0, or 1 for a
  // file written before positions counted from 0; position_base.h).
  const double base = table.rows.empty() ? 0.0 : table.rows.front()[pos];
  if (base != 0.0 && base != 1.0)
    throw std::runtime_error(path.string() + ": positions must run 0, 1, ..., L-1 in order (or " +
                             "1, ..., L in a 1-based file); the first row has position " +
                             fmt::format("{}", base));
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    const auto& row = table.rows[r];
    if (row[pos] != static_cast<double>(r) + base) {
      throw std::runtime_error(path.string() + ": positions must run " + fmt::format("{}", base) +
                               ", " + fmt::format("{}", base + 1) + ", ... in order; row " +
                               std::to_string(r + 1) + " has position " +
                               fmt::format("{}", row[pos]));
    }
    double mean = 0;
    for (std::size_t s = 0; s < seed_cols.size(); ++s) {
      p.seeds[s].push_back(row[seed_cols[s]]);
      mean += row[seed_cols[s]];
    }
    p.mean.push_back(mean_col >= 0 ? row[mean_col] : mean / static_cast<double>(seed_cols.size()));
  }
  p.validate();
  return p;
}

void run_fit(const FitOptions& o) {
  if (o.profile.empty()) throw std::invalid_argument("theory fit needs --profile FILE.csv");
  FitSpec spec;
  spec.layers = o.layers;
  spec.op.window = o.window;
  spec.op.alibi_slopes = o.alibi_slopes;
  spec.op.sink = o.sink;
  if (o.null_sink) spec.op.null_sink_weight = null_sink_weight(*o.null_sink);
  spec.paths = o.paths;
  spec.bootstrap = o.bootstrap;
  spec.seed = o.seed;
  if (spec.layers < 1)
    throw std::invalid_argument("theory fit needs --layers H >= 1 (the model's depth)");
  spec.validate();  // before reading the file
  const MeasuredProfile profile = read_profile_csv(o.profile);
  const FitResult r = fit_profile(profile, spec);
  // The JSON for a pipe or a file; on a terminal the fit's numbers instead (core/json_result.h).
  write_json_result(o.json, to_json(fit_record(r, spec)).dump(2) + "\n", [&r] {
    std::string out = fmt::format("theory fit: alpha {:.4f}", r.alpha);
    if (std::isfinite(r.alpha_ci_low))
      out +=
          fmt::format(" [{:.4f}, {:.4f}] over {} seeds", r.alpha_ci_low, r.alpha_ci_high, r.seeds);
    return out + fmt::format(", log10 gain {:.4f}; log R² {:.4f}, Spearman {:.4f}, W1/L {:.4f}\n",
                             r.log10_gain, r.log_r2, r.spearman, r.w1);
  });
  if (!o.plot.empty()) {
    render_figure(
        fit_figure(profile, r,
                   "Measured profile against theory (H = " + std::to_string(o.layers) + ")"),
        o.plot);
  }
}

}  // namespace posbias
