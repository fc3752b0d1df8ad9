// `posbias theory fit`: fit α and a gain to a measured profile CSV, report the metrics,
// draw theory against measurement (the record and the figure are theory/fit_record.h's and
// theory/fit_figure.h's, which `posbias birth` writes too).
//
// Profile CSV: a `position` column (0..L-1, the query last; a file starting at 1 is read as
// 1-based, position_base.h), an `influence` column (the mean
// profile) and/or one column per seed named `seed*`. Without `influence`, the mean of the
// seed columns is used. Seeds give the bootstrap CI on α.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "posbias/theory/fit.h"

namespace posbias {

struct FitOptions {
  std::string profile;      // CSV path
  std::int64_t layers = 0;  // H of the theory (required)
  std::int64_t window = 0;
  std::vector<double> alibi_slopes;  // empty: no ALiBi
  double sink = 0;                   // sink share
  std::optional<double> null_sink;   // the null sink's logit b; none: no null sink
  PathSum paths = PathSum::kLinear;
  int bootstrap = 200;
  std::uint64_t seed = 0;
  std::string json;  // result file; empty = stdout
  std::string plot;  // figure stem
};

void run_fit(const FitOptions& options);

MeasuredProfile read_profile_csv(const std::filesystem::path& path);

}  // namespace posbias
