#include "posbias/theory/shares_summary.h"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "posbias/stats/seed_interval_record.h"

namespace posbias {

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
