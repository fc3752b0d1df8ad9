// The answer-influence result (posbias/train/answer_influence_record.h): every one shipped in
// docs/data reads back and writes out byte for byte, a file of a build before one position base
// reads with its share regions moved to it, and fields deep inside are refused by their dotted
// path.
#include "posbias/train/answer_influence_record.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "../shipped_records.h"

namespace posbias {
namespace {

using nlohmann::json;
using posbias_test::json_text;

TEST(AnswerInfluenceRecordFields, EveryShippedResultReadsBackAndWritesOutTheSameBytes) {
  int files = 0, kv = 0, passkey = 0;
  for (const auto& [path, bytes] : posbias_test::shipped_json("\"target\": \"answer\"")) {
    const AnswerInfluenceRecord r = answer_influence_record_from_json(json::parse(bytes));
    EXPECT_EQ(json_text(to_json(r)), bytes) << path;
    ++files;
    kv += r.pairs.has_value();
    passkey += r.needles.has_value();
  }
  EXPECT_GE(files, 30);
  EXPECT_GE(kv, 1);
  EXPECT_GE(passkey, 1);
}

json shipped_one() {
  const auto files = posbias_test::shipped_json("\"target\": \"answer\"");
  return json::parse(files.at(0).bytes);
}

TEST(AnswerInfluenceRecordFields, AFileWithoutAPositionBaseIsOneBased) {
  const json now = shipped_one();
  ASSERT_EQ(now["position_base"], 0);
  json old = now;
  old.erase("position_base");
  for (auto& c : old["checkpoints"])
    if (c.contains("shares"))
      for (auto& [name, span] : c["shares"]["regions"].items())
        for (auto& p : span) p = p.get<std::int64_t>() + 1;
  EXPECT_EQ(to_json(answer_influence_record_from_json(old)), now);
}

std::string message_of(const json& j) {
  return posbias_test::refusal_of([&] { answer_influence_record_from_json(j); });
}

TEST(AnswerInfluenceRecordFields, FieldsDeepInsideAreRefusedByTheirPath) {
  const json good = shipped_one();
  json bad = good;
  bad["checkpoints"][0]["by_depth"][1]["needle"]["mean"] = "high";
  EXPECT_NE(message_of(bad).find("influence field 'checkpoints.0.by_depth.1.needle.mean'"),
            std::string::npos)
      << message_of(bad);
  bad = good;
  bad["checkpoints"][0]["heads"] = 1;
  EXPECT_NE(message_of(bad).find("unknown influence field 'checkpoints.0.heads'"),
            std::string::npos)
      << message_of(bad);
  bad = good;
  bad.erase("depths");
  EXPECT_NE(message_of(bad).find("missing influence field 'depths'"), std::string::npos)
      << message_of(bad);
  bad = good;
  bad["position_base"] = 3;
  EXPECT_NE(message_of(bad).find("must be 0 or 1, got 3"), std::string::npos) << message_of(bad);
}

}  // namespace
}  // namespace posbias
