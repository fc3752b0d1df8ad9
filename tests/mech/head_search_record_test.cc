// HeadSearchRecord's field table (experiments/mech/head_search_record.h): an index and a
// retrieval search round-trip through JSON with the fields only their kind writes, bad fields
// are refused by their dotted path, and every `discrepancy --search optimized` result shipped in
// docs/data reads back and writes out byte for byte.
#include "experiments/mech/head_search_record.h"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "../shipped_records.h"
#include "experiments/mech/head_search_sweep.h"

namespace posbias {
namespace {

HeadSearchSweepResult searched(Construction function) {
  HeadSearchSweepResult r;
  r.sweep.search.function = function;
  r.sweep.search.head_dim = 4;
  r.sweep.fit_from = 64;
  r.points = {{64, 1e-3, 2e-3, 3e-4, {1e-3, NAN}, {0.1, 0.2}},
              {128, 2.5e-4, 5e-4, 7e-5, {2.5e-4, 1e-4}, {0.05, 0.1}}};
  r.exponent = {-2.0, -2.1, -1.9, 0.99, 2};
  r.construction_exponent = {-2.0, NAN, NAN, 1.0, 2};
  r.seconds = 1.5;
  return r;
}

std::string message_of(const nlohmann::json& j) {
  return posbias_test::refusal_of([&] { head_search_record_from_json(j); });
}

TEST(HeadSearchRecordFields, IndexAndRetrievalSearchesRoundTripWithTheirOwnFields) {
  const nlohmann::json index = to_json(head_search_record(searched(Construction::kIndex)));
  EXPECT_EQ(index["function"], "index");
  EXPECT_EQ(index["points"][1]["n"], 128);
  EXPECT_DOUBLE_EQ(index["points"][0]["bound"].get<double>(), M_PI * M_PI / (2 * 64.0 * 64.0));
  EXPECT_EQ(index["points"][0]["single_frequency_gap"], 3e-4);
  EXPECT_TRUE(index["points"][0]["start_gaps"][1].is_null());
  EXPECT_TRUE(index["construction_exponent"]["ci"][0].is_null());
  EXPECT_FALSE(index.contains("symbols"));
  EXPECT_FALSE(index.contains("rope_theta"));
  EXPECT_EQ(to_json(head_search_record_from_json(index)), index);

  const nlohmann::json retrieval = to_json(head_search_record(searched(Construction::kRetrieval)));
  EXPECT_EQ(retrieval["symbols"], 8);
  EXPECT_FALSE(retrieval["points"][0].contains("bound"));
  EXPECT_EQ(to_json(head_search_record_from_json(retrieval)), retrieval);

  nlohmann::json bad = index;
  bad["points"][1]["best_gap"] = "small";
  EXPECT_NE(message_of(bad).find("head search field 'points.1.best_gap'"), std::string::npos);
  bad = index;
  bad.erase("exponent");
  EXPECT_NE(message_of(bad).find("missing head search field 'exponent'"), std::string::npos);
  bad = index;
  bad["points"][0]["extra"] = 1;
  EXPECT_NE(message_of(bad).find("unknown head search field 'points.0.extra'"), std::string::npos);
}

TEST(HeadSearchRecordFields, EveryShippedSearchReadsBackByteForByte) {
  int files = 0;
  for (const auto& f : posbias_test::shipped_json("\"search\": \"optimized\"")) {
    const HeadSearchRecord r = head_search_record_from_json(nlohmann::json::parse(f.bytes));
    EXPECT_EQ(posbias_test::json_text(to_json(r)), f.bytes) << f.path;
    ++files;
  }
  EXPECT_GE(files, 10);
}

}  // namespace
}  // namespace posbias
