// core/enum_names.h: a value's name, a name's value, and the one-line error for a name that is
// not in the table, with "did you mean" for a near miss (a unique prefix, or an edit distance of
// at most 2).
#include "posbias/core/enum_names.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace {

using posbias::closest_name;
using posbias::did_you_mean;
using posbias::edit_distance;

enum class Pos { kLearned, kRope, kNone, kAlibi };
constexpr posbias::EnumNames<Pos, 4> kPosNames{{{Pos::kLearned, "learned"},
                                                {Pos::kRope, "rope"},
                                                {Pos::kNone, "none"},
                                                {Pos::kAlibi, "alibi"}}};

enum class Family { kGpt2, kQwen2, kGptj };
constexpr posbias::EnumNames<Family, 3> kFamilyNames{
    {{Family::kGpt2, "gpt2"}, {Family::kQwen2, "qwen2"}, {Family::kGptj, "gptj"}}};

std::string error_of(const std::string& name) {
  try {
    posbias::value_of(kFamilyNames, name, "architecture family");
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(EnumNames, NamesAndValuesRoundTrip) {
  EXPECT_EQ(posbias::name_of(kPosNames, Pos::kAlibi), "alibi");
  EXPECT_EQ(posbias::value_of(kPosNames, "rope", "positional encoding"), Pos::kRope);
  EXPECT_EQ(posbias::name_list(kPosNames), "learned, rope, none or alibi");
}

TEST(EnumNames, EditDistanceCountsSwapsAsOneAndIgnoresCase) {
  EXPECT_EQ(edit_distance("qwen3", "qwen2"), 1u);
  EXPECT_EQ(edit_distance("rope", "rpoe"), 1u);  // a swap of neighbours
  EXPECT_EQ(edit_distance("alibi", "alibi"), 0u);
  EXPECT_EQ(edit_distance("GPT2", "gpt2"), 0u);
  EXPECT_EQ(edit_distance("", "none"), 4u);
  EXPECT_EQ(edit_distance("learned", "leanred"), 1u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
}

TEST(EnumNames, ClosestNameIsAUniquePrefixOrOneNearMiss) {
  const std::vector<std::string_view> pos = posbias::names_of(kPosNames);
  const std::vector<std::string_view> family = posbias::names_of(kFamilyNames);
  EXPECT_EQ(closest_name(pos, "rop"), "rope");      // prefix
  EXPECT_EQ(closest_name(pos, "lear"), "learned");  // prefix beyond distance 2
  EXPECT_EQ(closest_name(pos, "alibl"), "alibi");
  EXPECT_EQ(closest_name(pos, "ALiBi"), "alibi");
  EXPECT_EQ(closest_name(family, "qwen3"), "qwen2");
  EXPECT_EQ(closest_name(family, "gtp2"), "gpt2");
  // Two names equally near (gpt2 and gptj), nothing near, or too short to tell: no guess.
  EXPECT_EQ(closest_name(family, "gpt"), "");
  EXPECT_EQ(closest_name(family, "llama"), "");
  EXPECT_EQ(closest_name(pos, "sinusoidal"), "");
  EXPECT_EQ(closest_name(pos, "x"), "");
  EXPECT_EQ(closest_name(pos, ""), "");
  EXPECT_EQ(did_you_mean(pos, "rop"), "; did you mean 'rope'?");
  EXPECT_EQ(did_you_mean(pos, "llama"), "");
}

TEST(EnumNames, TheErrorKeepsItsWordsAndAddsTheGuess) {
  EXPECT_EQ(error_of("qwen3"),
            "unknown architecture family 'qwen3' (use gpt2, qwen2 or gptj); did you mean 'qwen2'?");
  EXPECT_EQ(error_of("llama"), "unknown architecture family 'llama' (use gpt2, qwen2 or gptj)");
  // One line, the typed name cut at 40 characters, whatever was typed.
  const std::string long_name(5000, 'q');
  const std::string e = error_of(long_name);
  EXPECT_EQ(
      e, "unknown architecture family '" + long_name.substr(0, 40) + "' (use gpt2, qwen2 or gptj)");
}

}  // namespace
