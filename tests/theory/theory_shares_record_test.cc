// `theory shares`'s result (experiments/theory/theory_shares_record.h): every one shipped in
// docs/data reads back and writes out byte for byte (with and without --baseline), a file of a
// build before one position base reads with its regions moved to it, and fields deep inside are
// refused by their dotted path.
#include "experiments/theory/theory_shares_record.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "../shipped_records.h"
#include "experiments/theory/shares_command.h"
#include "posbias/theory/profile_shares.h"

namespace posbias {
namespace {

using nlohmann::json;
using posbias_test::json_text;

std::vector<posbias_test::ShippedJson> shipped() {
  std::vector<posbias_test::ShippedJson> out;
  for (auto& f : posbias_test::shipped_json("\"label\""))
    if (f.path.filename().string().find("shares") != std::string::npos) out.push_back(f);
  return out;
}

TEST(TheorySharesRecordFields, EveryShippedResultReadsBackAndWritesOutTheSameBytes) {
  int files = 0, with_baseline = 0;
  for (const auto& [path, bytes] : shipped()) {
    const TheorySharesRecord r = theory_shares_record_from_json(json::parse(bytes));
    EXPECT_EQ(json_text(to_json(r)), bytes) << path;
    ++files;
    with_baseline += r.baseline.has_value();
  }
  EXPECT_GE(files, 4);
  EXPECT_GE(with_baseline, 2);
}

TEST(TheorySharesRecordFields, AFileWithoutAPositionBaseIsOneBasedAndBadFieldsAreNamed) {
  const json now = json::parse(shipped().at(0).bytes);
  ASSERT_EQ(now["position_base"], 0);
  json old = now;
  old.erase("position_base");
  for (auto& run : old["runs"])
    for (auto& [name, span] : run["shares"]["regions"].items())
      for (auto& p : span) p = p.get<std::int64_t>() + 1;
  EXPECT_EQ(to_json(theory_shares_record_from_json(old)), now);
  auto message_of = [](const json& j) {
    return posbias_test::refusal_of([&] { theory_shares_record_from_json(j); });
  };
  json bad = now;
  bad["runs"][0]["shares"]["middle"]["mean"] = "low";
  EXPECT_NE(message_of(bad).find("shares field 'runs.0.shares.middle.mean'"), std::string::npos)
      << message_of(bad);
  bad = now;
  bad["runs"][0]["verdict"] = "U";
  EXPECT_NE(message_of(bad).find("unknown shares field 'runs.0.verdict'"), std::string::npos)
      << message_of(bad);
  bad = now;
  bad.erase("runs");
  EXPECT_NE(message_of(bad).find("missing shares field 'runs'"), std::string::npos)
      << message_of(bad);
}

// With --baseline, the no-fit predictions' change: log10 of the middle fifth's share of each
// file's nofit.profile over the baseline's, computed here from the files, and where it falls
// against the measured interval.
TEST(TheorySharesRecordFields, TheNoFitChangeIsTheChangeOfThePredictionsShares) {
  const std::string dir = (posbias_test::kShippedData / "mitigations").string();
  SharesOptions o;
  o.baseline = dir + "/gpt2_plain.json";
  o.runs = {dir + "/gpt2_sink2.json", dir + "/gpt2_sink4.json"};
  const TheorySharesRecord r = theory_shares_record(shares_of_runs(o));
  auto middle_of = [](const std::string& file) {
    std::ifstream in(file);
    const json j = json::parse(in);
    return profile_shares(j["nofit"]["profile"].get<std::vector<double>>())
        .of(ShareRegion::kMiddle);
  };
  ASSERT_EQ(r.runs.size(), 2u);
  for (std::size_t k = 0; k < 2; ++k) {
    ASSERT_TRUE(r.runs[k].nofit_change_from_baseline.has_value());
    const double predicted = r.runs[k].nofit_change_from_baseline->at("middle");
    EXPECT_NEAR(predicted, std::log10(middle_of(o.runs[k]) / middle_of(o.baseline)), 1e-12);
    const auto& measured = r.runs[k].change_from_baseline->change[1]->interval;
    const bool within = measured.low <= predicted && predicted <= measured.high;
    EXPECT_EQ(*r.runs[k].nofit_middle_agreement == "within the measured interval", within);
  }
  // Without a baseline there is no change, measured or predicted.
  o.baseline.clear();
  EXPECT_FALSE(theory_shares_record(shares_of_runs(o)).runs[0].nofit_change_from_baseline);
}

}  // namespace
}  // namespace posbias
