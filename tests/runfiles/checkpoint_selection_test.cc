// --checkpoints: all, last or a list of steps, parsed once; to_string parses back to the same
// selection; a run's steps resolve it, and a listed step the run lacks is named with the steps
// it has.
#include "posbias/runfiles/checkpoint_selection.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace posbias {
namespace {

TEST(CheckpointSelection, ParsesAndPrintsBack) {
  EXPECT_EQ(parse_checkpoint_selection("all").kind, CheckpointSelection::Kind::kAll);
  EXPECT_EQ(parse_checkpoint_selection("last").kind, CheckpointSelection::Kind::kLast);
  const CheckpointSelection steps = parse_checkpoint_selection("1000,0,500,500");
  EXPECT_EQ(steps.kind, CheckpointSelection::Kind::kSteps);
  EXPECT_EQ(steps.steps, (std::vector<std::int64_t>{0, 500, 1000}));  // sorted, distinct
  for (const char* text : {"all", "last", "0,500,1000", "7"})
    EXPECT_EQ(to_string(parse_checkpoint_selection(text)), text);
  for (const char* bad : {"", "first", "1,x", "-5", "1e13"})
    EXPECT_THROW(parse_checkpoint_selection(bad), std::invalid_argument) << bad;
}

// Each named kind through the one table: printed, then parsed back as itself; a bad text is
// refused in one line listing the names.
TEST(CheckpointSelection, NamedKindsRoundTrip) {
  for (const CheckpointSelection& s : {CheckpointSelection::all(), CheckpointSelection::last()})
    EXPECT_EQ(parse_checkpoint_selection(to_string(s)).kind, s.kind) << to_string(s);
  try {
    parse_checkpoint_selection("first");
    FAIL() << "accepted 'first'";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "--checkpoints must be all, last or a comma list of steps (0 to 10^12), got "
                 "'first'");
  }
}

// --help's type and the help texts' words for --checkpoints come from the same table, and what
// they name parses.
TEST(CheckpointSelection, HelpWordsComeFromTheTable) {
  EXPECT_EQ(checkpoint_selection_type(), "all|last|STEPS");
  EXPECT_EQ(checkpoint_selection_choices(), "all, last or a comma list of steps");
  std::string type = checkpoint_selection_type();
  for (std::size_t bar = type.find('|'); bar != std::string::npos; bar = type.find('|')) {
    EXPECT_NO_THROW(parse_checkpoint_selection(type.substr(0, bar))) << type;
    type.erase(0, bar + 1);
  }
}

TEST(CheckpointSelection, ResolvesAgainstTheRunsSteps) {
  const std::vector<std::int64_t> available = {0, 250, 500, 1000};
  EXPECT_EQ(select_checkpoint_steps(CheckpointSelection::all(), available), available);
  EXPECT_EQ(select_checkpoint_steps(CheckpointSelection::last(), available),
            std::vector<std::int64_t>{1000});
  EXPECT_EQ(select_checkpoint_steps(parse_checkpoint_selection("500,0"), available),
            (std::vector<std::int64_t>{0, 500}));
  try {
    select_checkpoint_steps(parse_checkpoint_selection("0,750"), available);
    FAIL() << "step 750 is not in the run";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("750"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("0, 250, 500, 1000"), std::string::npos) << e.what();
  }
  EXPECT_THROW(select_checkpoint_steps(CheckpointSelection::all(), {}), std::runtime_error);
}

}  // namespace
}  // namespace posbias
