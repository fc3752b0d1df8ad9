#include "experiments/birth/birth_summary.h"

#include <fmt/format.h>

#include <initializer_list>
#include <vector>

namespace posbias {
namespace {

// The first of `keys` that `j` holds as a number, as text; "" when none does.
std::string number_of(const nlohmann::json& j, std::initializer_list<const char*> keys) {
  if (!j.is_object()) return "";
  for (const char* k : keys) {
    const auto it = j.find(k);
    if (it == j.end() || !it->is_number()) continue;
    return it->is_number_integer() ? std::to_string(it->get<long long>())
                                   : fmt::format("{:.4g}", it->get<double>());
  }
  return "";
}

std::string text_of(const nlohmann::json& j, const char* key) {
  if (!j.is_object()) return "";
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

// "a, b, c" of the parts that are not empty.
std::string joined(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& p : parts)
    if (!p.empty()) out += (out.empty() ? "" : ", ") + p;
  return out;
}

std::string model_line(const nlohmann::json& r) {
  const nlohmann::json& c = r.value("config", nlohmann::json::object());
  const nlohmann::json& m = r.value("measurement", nlohmann::json::object());
  auto labelled = [](const std::string& label, const std::string& value) {
    return value.empty() ? "" : label + " " + value;
  };
  const std::string family = text_of(c, "model_type");
  const std::string pos = text_of(c, "position_encoding");
  std::string seeds = number_of(m, {"seeds"});
  if (seeds.empty()) seeds = number_of(r, {"seeds"});
  return joined({family.empty() ? "" : family + (pos.empty() ? "" : " (" + pos + ")"),
                 labelled("layers", number_of(c, {"n_layer", "num_hidden_layers"})),
                 labelled("d", number_of(c, {"n_embd", "hidden_size"})),
                 labelled("heads", number_of(c, {"n_head", "num_attention_heads"})),
                 labelled("L", number_of(m, {"length"})), labelled("seeds", seeds),
                 text_of(m, "weights") == "init" ? "at init" : text_of(m, "weights"),
                 text_of(m, "method")});
}

// "influence (mean over seeds): 3.91 at position 1, minimum 1.2 at 40, 5.2 at 63, 160 at the
// query 64"
std::string profile_line(const nlohmann::json& r) {
  const auto it = r.find("profile");
  if (it == r.end() || !it->is_array() || it->empty()) return "";
  const nlohmann::json& p = *it;
  auto at = [&](std::size_t position) {  // 1-based
    const nlohmann::json& v = p[position - 1];
    return v.is_number() ? fmt::format("{:.4g}", v.get<double>()) : std::string("null");
  };
  const std::size_t n = p.size();
  std::vector<std::string> parts{at(1) + " at position 1"};
  std::size_t minimum = 0;
  const nlohmann::json nofit = r.value("nofit", nlohmann::json::object());
  const auto argmin = nofit.find("argmin_measured");
  if (argmin != nofit.end() && argmin->is_number_integer() && argmin->get<long long>() > 1 &&
      argmin->get<long long>() < static_cast<long long>(n)) {
    minimum = static_cast<std::size_t>(argmin->get<long long>());
    parts.push_back("minimum " + at(minimum) + " at " + std::to_string(minimum));
  }
  if (n > 2 && minimum != n - 1) parts.push_back(at(n - 1) + " at " + std::to_string(n - 1));
  if (n > 1) parts.push_back(at(n) + " at the query " + std::to_string(n));
  return "influence (mean over seeds): " + joined(parts);
}

std::string shares_line(const nlohmann::json& r) {
  const nlohmann::json& s = r.value("shares", nlohmann::json::object());
  std::vector<std::string> parts;
  for (const char* region : {"primacy", "middle", "recency", "query"}) {
    const std::string mean = number_of(s.value(region, nlohmann::json::object()), {"mean"});
    if (!mean.empty()) parts.push_back(std::string(region) + " " + mean);
  }
  return parts.empty() ? "" : "shares of the profile: " + joined(parts);
}

}  // namespace

std::string birth_summary(const nlohmann::json& r) {
  if (!r.is_object()) return "";
  std::string out;
  for (const std::string& line : {model_line(r), profile_line(r), shares_line(r)})
    if (!line.empty()) out += "birth: " + line + "\n";
  return out;
}

}  // namespace posbias
