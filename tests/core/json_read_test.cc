// parse_json: nesting up to the limit is read as nlohmann reads it; one level deeper is refused
// in one line naming the source and the limit, for arrays, objects, text and streams, before
// the deep value exists (nlohmann's copy and dump recurse once per level: 100 000 levels
// overflow the stack). Text that is not JSON still throws nlohmann's parse_error.
#include "posbias/core/json_read.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

using posbias::JsonTooDeep;
using posbias::kMaxJsonDepth;
using posbias::parse_json;

std::string nested_arrays(int depth) { return std::string(depth, '[') + std::string(depth, ']'); }

std::string nested_objects(int depth) {
  std::string s;
  for (int i = 0; i < depth; ++i) s += "{\"a\":";
  s += "1";
  return s + std::string(depth, '}');
}

// The depth of a parsed value, counted independently of the parser: containers on the way down.
int depth_of(const nlohmann::json& j) {
  int depth = 0;
  const nlohmann::json* v = &j;
  while (v->is_structured() && !v->empty()) {
    ++depth;
    v = v->is_array() ? &v->front() : &v->begin().value();
  }
  return depth + (v->is_structured() ? 1 : 0);
}

TEST(JsonRead, ReadsUpToTheLimit) {
  EXPECT_EQ(kMaxJsonDepth, 128);
  EXPECT_EQ(depth_of(parse_json(nested_arrays(kMaxJsonDepth), "a.json")), kMaxJsonDepth);
  EXPECT_EQ(depth_of(parse_json(nested_objects(kMaxJsonDepth), "o.json")), kMaxJsonDepth);
  std::istringstream in(nested_objects(kMaxJsonDepth));
  EXPECT_EQ(depth_of(parse_json(in, "stream")), kMaxJsonDepth);
  const nlohmann::json j = parse_json(R"({"a": [1, {"b": "c"}], "d": null})", "s");
  EXPECT_EQ(j, nlohmann::json::parse(R"({"a": [1, {"b": "c"}], "d": null})"));
  const nlohmann::json copy = parse_json(nested_arrays(kMaxJsonDepth), "a.json");
  EXPECT_EQ(copy.dump(), nested_arrays(kMaxJsonDepth));  // copy and dump recurse: fine here
}

TEST(JsonRead, RefusesOneLevelDeeperInOneLine) {
  for (const std::string& text :
       {nested_arrays(kMaxJsonDepth + 1), nested_objects(kMaxJsonDepth + 1), nested_arrays(100000),
        nested_objects(50000), std::string(100000, '[')}) {
    try {
      parse_json(text, "grid.json");
      ADD_FAILURE() << "accepted " << text.substr(0, 20);
    } catch (const JsonTooDeep& e) {
      EXPECT_STREQ(e.what(),
                   "grid.json: JSON nested deeper than 128 levels; nest its arrays and objects "
                   "less deeply");
    }
    std::istringstream in(text);
    EXPECT_THROW(parse_json(in, "stream"), JsonTooDeep);
    EXPECT_TRUE(posbias::parse_json_or_discarded(text).is_discarded());
  }
}

TEST(JsonRead, CallersLimitAndGuardApply) {
  EXPECT_THROW(parse_json(nested_arrays(4), "x", nullptr, 3), JsonTooDeep);
  EXPECT_NO_THROW(parse_json(nested_arrays(3), "x", nullptr, 3));
  int keys = 0;
  const posbias::JsonGuard count_keys = [&](int, nlohmann::json::parse_event_t event,
                                            nlohmann::json&) {
    keys += event == nlohmann::json::parse_event_t::key;
    return true;
  };
  parse_json(R"({"a": {"b": 1, "c": 2}})", "x", count_keys);
  EXPECT_EQ(keys, 3);
}

TEST(JsonRead, TextThatIsNotJsonIsNlohmannsParseError) {
  EXPECT_THROW(parse_json("{\"a\": [1, 2", "bad.json"), nlohmann::json::parse_error);
  EXPECT_THROW(parse_json("", "empty.json"), nlohmann::json::parse_error);
  EXPECT_TRUE(posbias::parse_json_or_discarded("{x").is_discarded());
  EXPECT_FALSE(posbias::parse_json_or_discarded("[1]").is_discarded());
}

// Every parse in the product goes through parse_json: nlohmann's own parse (no depth limit)
// appears nowhere in src/, experiments/ or apps/.
TEST(JsonRead, EveryProductParseGoesThroughTheLimit) {
  namespace fs = std::filesystem;
  int files = 0;
  for (const char* dir : {"src", "experiments", "apps"}) {
    for (const auto& e : fs::recursive_directory_iterator(fs::path(POSBIAS_SOURCE_DIR) / dir)) {
      const std::string ext = e.path().extension().string();
      if (!e.is_regular_file() || (ext != ".cc" && ext != ".cpp" && ext != ".h")) continue;
      ++files;
      std::ifstream in(e.path());
      std::string line;
      for (int n = 1; std::getline(in, line); ++n) {
        for (const char* call : {"json::parse(", "json::accept(", "json::sax_parse("})
          EXPECT_EQ(line.find(call), std::string::npos) << e.path() << ":" << n << ": " << line;
      }
    }
  }
  EXPECT_GT(files, 100);
}

}  // namespace
