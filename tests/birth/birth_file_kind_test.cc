// birth_file_kind (experiments/birth/birth_rescore.h): what a birth --json file is, told by each
// record's own field table, as --rescore and --redraw read it: every record as its writer writes
// it is told as its own kind, and a file missing a field its record requires is not taken for it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "experiments/birth/birth_record.h"
#include "experiments/birth/birth_rescore.h"
#include "posbias/theory/birth_run_record.h"
#include "posbias/train/answer_influence_record.h"

namespace posbias {
namespace {

TEST(BirthFileKind, EachRecordIsToldByItsOwnTable) {
  const nlohmann::json influence =
      fields_to_json(answer_influence_record_fields(), AnswerInfluenceRecord{});
  const nlohmann::json run = fields_to_json(birth_run_record_fields(), BirthRunRecord{});
  const nlohmann::json birth = to_json(BirthRecord{});
  EXPECT_EQ(birth_file_kind(influence), BirthFile::kAnswerInfluence);
  EXPECT_EQ(birth_file_kind(run), BirthFile::kBirthRun);
  EXPECT_EQ(birth_file_kind(birth), BirthFile::kBirth);
  // Without a field its record requires, a file is not that record's: its strict reader, or the
  // birth result's, says what is wrong with it.
  nlohmann::json partial = influence;
  partial.erase("inputs");
  EXPECT_NE(birth_file_kind(partial), BirthFile::kAnswerInfluence);
  partial = run;
  partial.erase("query");
  EXPECT_EQ(birth_file_kind(partial), BirthFile::kBirth);
  EXPECT_EQ(birth_file_kind(nlohmann::json::array()), BirthFile::kBirth);
}

}  // namespace
}  // namespace posbias
