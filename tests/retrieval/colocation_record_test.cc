// `birth --colocate`'s result (experiments/retrieval/colocation_record.h): every one shipped in
// docs/data reads back and writes out byte for byte (those of earlier builds without the inputs
// and the cut flag), and fields deep inside are refused by their dotted path.
#include "experiments/retrieval/colocation_record.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "../shipped_records.h"

namespace posbias {
namespace {

using nlohmann::json;
using posbias_test::json_text;

TEST(ColocationRecordFields, EveryShippedResultReadsBackAndWritesOutTheSameBytes) {
  int files = 0, earlier = 0;
  json good;
  for (const auto& [path, bytes] : posbias_test::shipped_json("\"seeds_same_bin\"")) {
    const json j = json::parse(bytes);
    if (!j.contains("verdict")) continue;  // a summary that quotes the field
    const ColocationRecord r = colocation_record_from_json(j);
    EXPECT_EQ(json_text(to_json(r)), bytes) << path;
    ++files;
    earlier += !r.inputs.has_value();
    good = j;
  }
  EXPECT_GE(files, 15);
  EXPECT_GE(earlier, 3);
  auto message_of = [](const json& j) {
    return posbias_test::refusal_of([&] { colocation_record_from_json(j); });
  };
  json bad = good;
  bad["seeds"][1]["spearman"] = "high";
  EXPECT_NE(message_of(bad).find("colocation field 'seeds.1.spearman'"), std::string::npos)
      << message_of(bad);
  bad = good;
  bad["spearman"]["median"] = 0.5;
  EXPECT_NE(message_of(bad).find("unknown colocation field 'spearman.median'"), std::string::npos)
      << message_of(bad);
  bad = good;
  bad.erase("verdict");
  EXPECT_NE(message_of(bad).find("missing colocation field 'verdict'"), std::string::npos)
      << message_of(bad);
}

}  // namespace
}  // namespace posbias
