#include "experiments/birth/birth_summary.h"

#include <fmt/format.h>

#include <cmath>
#include <vector>

namespace posbias {
namespace {

// "a, b, c" of the parts that are not empty.
std::string joined(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& p : parts)
    if (!p.empty()) out += (out.empty() ? "" : ", ") + p;
  return out;
}

// A value as the summary prints it: 4 significant digits, null for none.
std::string number_text(double v) { return std::isfinite(v) ? fmt::format("{:.4g}", v) : "null"; }

std::string model_line(const BirthRecord& r) {
  const HfConfig& model = r.config;
  const BirthMeasurementRecord& m = r.measurement;
  return joined({hf_model_type(model) + " (" + to_string(model.position_encoding) + ")",
                 fmt::format("layers {}", model.num_hidden_layers),
                 fmt::format("d {}", model.hidden_size),
                 fmt::format("heads {}", model.num_attention_heads), fmt::format("L {}", m.length),
                 fmt::format("seeds {}", m.seeds), m.weights == "init" ? "at init" : m.weights,
                 to_string(m.method)});
}

// "influence (mean over seeds): 3.91 at position 0, minimum 1.2 at 39, 5.2 at 62, 160 at the
// query 63"
std::string profile_line(const BirthRecord& r) {
  const std::vector<double>& p = r.profile;
  if (p.empty()) return "";
  auto at = [&](std::size_t position) { return number_text(p[position]); };
  const std::size_t n = p.size();
  std::vector<std::string> parts{at(0) + " at position 0"};
  std::size_t minimum = 0;
  if (r.nofit && r.nofit->argmin_measured > 0 &&
      r.nofit->argmin_measured + 1 < static_cast<std::int64_t>(n)) {
    minimum = static_cast<std::size_t>(r.nofit->argmin_measured);
    parts.push_back("minimum " + at(minimum) + " at " + std::to_string(minimum));
  }
  if (n > 2 && minimum != n - 2) parts.push_back(at(n - 2) + " at " + std::to_string(n - 2));
  if (n > 1) parts.push_back(at(n - 1) + " at the query " + std::to_string(n - 1));
  return "influence (mean over seeds): " + joined(parts);
}

std::string shares_line(const BirthRecord& r) {
  if (!r.shares) return "";
  std::vector<std::string> parts;
  for (ShareRegion region : kShareRegions) {
    const std::optional<SeedStatistic>& s = r.shares->share[static_cast<std::size_t>(region)];
    if (s && std::isfinite(s->interval.mean))
      parts.push_back(std::string(to_string(region)) + " " + number_text(s->interval.mean));
  }
  return parts.empty() ? "" : "shares of the profile: " + joined(parts);
}

}  // namespace

std::string birth_summary(const BirthRecord& r) {
  std::string out;
  for (const std::string& line : {model_line(r), profile_line(r), shares_line(r)})
    if (!line.empty()) out += "birth: " + line + "\n";
  return out;
}

}  // namespace posbias
