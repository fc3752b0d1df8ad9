// ReproduceRunRecord's field table (experiments/reproduce/reproduce_record.h): run.json keeps the
// layout run_reproduce wrote by hand before it (the text below, byte for byte), reads back into
// the same record, and a bad file is refused by the field's name.
#include "experiments/reproduce/reproduce_record.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "../shipped_records.h"

namespace posbias {
namespace {

ReproduceRunRecord run_record() {
  ReproduceRunRecord r;
  r.config.out = "out/report";
  r.config.endpoint = "http://localhost:8000/v1";
  r.config.model = "tiny";
  r.config.api_key_env = "KEY";  // not recorded
  r.machine = {"0.1.0", "vm", "Linux 6.1 x86_64", "AMD EPYC", 2, 23.5};
  r.seconds = 12.5;
  r.section_seconds = {{"theory", 1.25}, {"birth", 3.0}};
  return r;
}

std::string message_of(const nlohmann::json& j) {
  return posbias_test::refusal_of([&] { reproduce_run_record_from_json(j); });
}

TEST(ReproduceRunRecord, WritesTheLayoutOfEarlierBuildsAndReadsItBack) {
  const std::string expected = R"({
  "command": "reproduce",
  "config": {
    "api": "chat",
    "endpoint": "http://localhost:8000/v1",
    "full": false,
    "model": "tiny",
    "out": "out/report"
  },
  "machine": {
    "cores": 2,
    "cpu": "AMD EPYC",
    "host": "vm",
    "memory_gib": 23.5,
    "os": "Linux 6.1 x86_64",
    "version": "0.1.0"
  },
  "seconds": 12.5,
  "section_seconds": {
    "birth": 3.0,
    "theory": 1.25
  },
  "seed": 0
}
)";
  const nlohmann::json j = to_json(run_record());
  EXPECT_EQ(posbias_test::json_text(j), expected);
  const ReproduceRunRecord back = reproduce_run_record_from_json(nlohmann::json::parse(expected));
  EXPECT_EQ(back.config.model, "tiny");
  EXPECT_EQ(back.section_seconds.at("birth"), 3.0);
  EXPECT_EQ(posbias_test::json_text(to_json(back)), expected);
}

TEST(ReproduceRunRecord, RefusesABadFileByTheFieldsName) {
  const nlohmann::json good = to_json(run_record());
  nlohmann::json bad = good;
  bad["config"]["full"] = "yes";
  EXPECT_NE(message_of(bad).find("reproduce run field 'config.full' must be true or false"),
            std::string::npos);
  bad = good;
  bad["section_seconds"]["text"] = "slow";
  EXPECT_NE(message_of(bad).find("reproduce run field 'section_seconds.text' must be a number"),
            std::string::npos);
  bad = good;
  bad["config"]["api_key_env"] = "KEY";
  EXPECT_NE(message_of(bad).find("unknown reproduce run field 'config.api_key_env'"),
            std::string::npos);
  bad = good;
  bad.erase("section_seconds");
  EXPECT_NE(message_of(bad).find("missing reproduce run field 'section_seconds'"),
            std::string::npos);
  bad = good;
  bad["command"] = "birth";
  EXPECT_NE(message_of(bad).find("'command' must be reproduce, not birth"), std::string::npos);
  EXPECT_EQ(message_of(good), "");
}

}  // namespace
}  // namespace posbias
