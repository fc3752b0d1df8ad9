// position_base.h: a record's base row is written under its one key, a file without it reads as
// 1-based and comes back shifted to 0, and a base other than 0 or 1 is refused naming the key.
#include "posbias/core/position_base.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace posbias {
namespace {

struct Positioned {
  std::int64_t position_base = kPositionBase;
  std::int64_t query = 0;
};

const std::vector<FieldRow<Positioned>>& positioned_fields() {
  static const std::vector<FieldRow<Positioned>> rows = {
      position_base_field(&Positioned::position_base),
      field("query", &Positioned::query, "the query's position")};
  return rows;
}

TEST(PositionBase, TheKeyIsWrittenReadAndNamedOnce) {
  const nlohmann::json j = fields_to_json(positioned_fields(), Positioned{kPositionBase, 4});
  EXPECT_EQ(j.dump(), R"({"position_base":0,"query":4})");  // as every shipped file spells it
  const auto [now, none] =
      read_positioned(positioned_fields(), j, &Positioned::position_base, "test field");
  EXPECT_EQ(none, 0);
  EXPECT_EQ(now.query, 4);
  const auto [old, shift] = read_positioned(positioned_fields(), {{"query", 5}},
                                            &Positioned::position_base, "test field");
  EXPECT_EQ(shift, 1);
  EXPECT_EQ(old.position_base, kPositionBase);
  try {
    read_positioned(positioned_fields(), {{"position_base", 3}}, &Positioned::position_base,
                    "test field");
    ADD_FAILURE() << "a base of 3 was read";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "test field 'position_base' must be 0 or 1, got 3");
  }
}

}  // namespace
}  // namespace posbias
