// Golden values from an independent Python implementation (tests/golden/theory_reference.py:
// dense vector-matrix products in exact Fractions, or 50-digit Decimals for ALiBi). The
// extended-range engine, the double engine and (for rational cases) GMP exact mode must
// reproduce every entry: log10 to 1e-12, value to 1e-12 relative.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "posbias/theory/exact.h"
#include "posbias/theory/influence.h"

namespace posbias {
namespace {

nlohmann::json load_golden() {
  std::ifstream in(std::string(POSBIAS_SOURCE_DIR) + "/tests/golden/theory_golden.json");
  EXPECT_TRUE(in.good()) << "missing tests/golden/theory_golden.json";
  return nlohmann::json::parse(in);
}

TEST(Golden, EveryCaseMatchesThePythonReference) {
  const nlohmann::json cases = load_golden();
  ASSERT_GE(cases.size(), 10u);
  for (const auto& c : cases) {
    const std::string name = c["name"];
    InfluenceSpec s;
    s.length = c["length"];
    s.query = c["query"];
    s.layers = c["layers"];
    for (const auto& a : c["alpha"])
      s.alpha.push_back(parse_rational(a.get<std::string>()).get_d());
    s.op.window = c["window"];
    s.op.alibi_slopes = c["alibi_slopes"].get<std::vector<double>>();
    s.op.sink = parse_rational(c["sink"].get<std::string>()).get_d();
    const auto ext = influence_row(s);
    const auto dbl = influence_row_double(s);
    std::vector<double> exact_log10;
    if (s.op.alibi_slopes.empty()) {
      ExactSpec es;
      es.length = s.length;
      es.query = s.query;
      es.layers = s.layers;
      for (const auto& a : c["alpha"]) es.alpha.push_back(parse_rational(a.get<std::string>()));
      es.window = s.op.window;
      es.sink = parse_rational(c["sink"].get<std::string>());
      for (const auto& v : exact_influence_row(es)) exact_log10.push_back(log10_of(v));
    }
    ASSERT_EQ(ext.size(), c["log10"].size()) << name;
    double worst_log = 0, worst_rel = 0;
    for (std::size_t j = 0; j < ext.size(); ++j) {
      const auto& g = c["log10"][j];
      if (g.is_null()) {
        EXPECT_TRUE(ext[j].is_zero()) << name << " j=" << j + 1;
        EXPECT_EQ(dbl[j], 0.0) << name << " j=" << j + 1;
        continue;
      }
      const double ref = g.get<double>();
      worst_log = std::max(worst_log, std::fabs(ext[j].log10() - ref));
      if (!exact_log10.empty()) worst_log = std::max(worst_log, std::fabs(exact_log10[j] - ref));
      const double value = std::stod(c["value"][j].get<std::string>());
      worst_rel = std::max(worst_rel, std::fabs(dbl[j] - value) / value);
    }
    EXPECT_LE(worst_log, 1e-12) << name;
    EXPECT_LE(worst_rel, 1e-12) << name;
  }
}

}  // namespace
}  // namespace posbias
