// A query position's flag text: "last" (none) or a 0-based position, parsed by the one parser
// that `birth`'s table and ParsedOptions share, and printed back to the same text.
#include "posbias/core/query_position.h"

#include <gtest/gtest.h>

#include <optional>
#include <stdexcept>

namespace posbias {
namespace {

TEST(QueryPosition, ParsesAndPrintsBack) {
  EXPECT_EQ(parse_query_position("last", "--query"), std::nullopt);
  EXPECT_EQ(parse_query_position("0", "--query"), 0);
  EXPECT_EQ(parse_query_position("17", "--query"), 17);
  for (const std::optional<std::int64_t> position :
       {std::optional<std::int64_t>(), std::optional<std::int64_t>(0),
        std::optional<std::int64_t>(17)})
    EXPECT_EQ(parse_query_position(query_position_text(position), "-q"), position);
  EXPECT_EQ(query_position_text(std::nullopt), "last");
}

// --help's type and help name the word the parser takes.
TEST(QueryPosition, HelpNamesTheWord) {
  EXPECT_EQ(query_position_type(), "POS|last");
  EXPECT_EQ(query_position_help(),
            "the query's position, 0..L-1 (positions count from 0), or last");
  const std::string type = query_position_type();
  EXPECT_EQ(parse_query_position(type.substr(type.find('|') + 1), "-q"), std::nullopt);
}

TEST(QueryPosition, RefusesWhatIsNotAPosition) {
  for (const char* bad : {"", "-1", "Last", "first", "1.5", "3,4"}) {
    try {
      (void)parse_query_position(bad, "--query");
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()).rfind("--query", 0), 0u) << e.what();
    }
  }
}

}  // namespace
}  // namespace posbias
