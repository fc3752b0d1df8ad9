#include "experiments/seeds/shares_json.h"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "experiments/seeds/seed_summary.h"
#include "posbias/core/json_number.h"

namespace posbias {

nlohmann::json to_json(const SeedValues& v) {
  nlohmann::json j = to_json(v.interval);
  j["values"] = nlohmann::json::array();
  for (double x : v.values) j["values"].push_back(number_or_null(x));
  return j;
}

nlohmann::json shares_json(const SharesOverSeeds& s) {
  nlohmann::json j{{"regions", nlohmann::json::object()}};
  for (ShareRegion r : kShareRegions) {
    const auto k = static_cast<std::size_t>(r);
    const RegionSpan& span = s.regions[k];
    if (!span.present()) {
      j["unavailable"][to_string(r)] = span.absent;
      continue;
    }
    j["regions"][to_string(r)] = {span.first, span.last};
    j[to_string(r)] = to_json(s.share[k]);
  }
  return j;
}

nlohmann::json u_test_json(const UTest& t) {
  nlohmann::json j{{"verdict", t.verdict},
                   {"basis", t.basis},
                   {"reason", t.reason},
                   {"rule",
                    "U when both differences (log10 of the middle's per-position share over "
                    "primacy's, and over recency's) have their 95% interval over seeds below 0"}};
  if (t.verdict != "not testable" || !t.middle_vs_primacy.values.empty()) {
    j["middle_vs_primacy"] = to_json(t.middle_vs_primacy);
    j["middle_vs_recency"] = to_json(t.middle_vs_recency);
  }
  return j;
}

nlohmann::json share_change_json(const SharesOverSeeds& first, const SharesOverSeeds& last) {
  const std::array<SeedValues, 4> change = share_change(first, last);
  nlohmann::json j{{"scale", "log10(share at the later step / share at the earlier), per seed"}};
  for (ShareRegion r : kShareRegions) {
    const auto k = static_cast<std::size_t>(r);
    if (first.regions[k].present()) j[to_string(r)] = to_json(change[k]);
  }
  return j;
}

void add_shares_json(nlohmann::json& j, const SharesOverSeeds& shares) {
  j["shares"] = shares_json(shares);
  j["u_test"] = u_test_json(shares.u);
}

std::string shares_text(const SharesOverSeeds& s) {
  std::string out;
  for (ShareRegion r : kShareRegions) {
    const auto k = static_cast<std::size_t>(r);
    if (!s.regions[k].present()) continue;
    out += fmt::format("{}{} {}", out.empty() ? "" : ", ", to_string(r),
                       format_interval(s.share[k].interval));
  }
  return out;
}

std::string u_test_text(const UTest& t) {
  if (t.verdict == "not testable") return "not testable (" + t.reason + ")";
  return fmt::format("{} (middle vs primacy {}, middle vs recency {}; {})", t.verdict,
                     format_interval(t.middle_vs_primacy.interval),
                     format_interval(t.middle_vs_recency.interval), t.basis);
}

Figure shares_figure(const std::vector<std::int64_t>& steps,
                     const std::vector<SharesOverSeeds>& shares, const std::string& over) {
  Figure f;
  f.width = 1500;
  for (bool per_position : {false, true}) {
    Panel p;
    p.title = fmt::format("{} ({}, 95% t band)",
                          per_position ? "share per position" : "share of the influence", over);
    p.xlabel = "training step + 1";
    p.log_x = true;
    p.log10_y = true;
    p.ylabel = per_position ? "region share / positions" : "region share";
    for (ShareRegion region : kShareRegions) {
      const auto k = static_cast<std::size_t>(region);
      const RegionSpan& span = shares.front().regions[k];
      if (!span.present()) continue;
      const double size = per_position ? static_cast<double>(span.size()) : 1.0;
      Series s;
      s.title = span.first == span.last
                    ? fmt::format("{} ({})", to_string(region), span.first)
                    : fmt::format("{} ({}..{})", to_string(region), span.first, span.last);
      s.style = "linespoints";
      for (std::size_t c = 0; c < shares.size(); ++c) {
        const SeedInterval& i = shares[c].share[k].interval;
        if (!(i.mean > 0)) continue;
        s.x.push_back(static_cast<double>(steps[c] + 1));
        s.y.push_back(std::log10(i.mean / size));
        // A band reaching 0 or below cannot be drawn on a log scale: it stops at the mean.
        s.y_low.push_back(std::log10((i.low > 0 ? i.low : i.mean) / size));
        s.y_high.push_back(std::log10((std::isfinite(i.high) ? i.high : i.mean) / size));
      }
      p.series.push_back(std::move(s));
    }
    f.panels.push_back(std::move(p));
  }
  return f;
}

}  // namespace posbias
