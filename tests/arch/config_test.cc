// The architecture description: names round-trip, presets match their published shapes (Hugging
// Face's config.json for gpt2, gpt2-medium and Qwen2-0.5B), and validate() names the bad field.
#include "posbias/arch/config.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace posbias {
namespace {

TEST(ArchConfig, NamesRoundTrip) {
  for (Family f : {Family::kGpt2, Family::kQwen2, Family::kGptj})
    EXPECT_EQ(parse_family(to_string(f)), f);
  for (const PosEncodingTraits& row : kPosEncodings) {
    EXPECT_EQ(parse_pos_encoding(std::string(row.name)), row.encoding);
    EXPECT_EQ(to_string(row.encoding), row.name);
    EXPECT_EQ(&traits(row.encoding), &row) << row.name;  // one row per encoding
  }
  EXPECT_THROW(parse_family("llama"), std::invalid_argument);
  EXPECT_THROW(parse_pos_encoding("sinusoidal"), std::invalid_argument);
  EXPECT_THROW(to_string(static_cast<Family>(7)), std::invalid_argument);
}

// What ModelConfig says about positions comes from the encoding's row: a learned table bounds
// the length, rope rotates, alibi gives one standard slope per head, none does nothing.
TEST(ArchConfig, PositionTraitsComeFromTheRow) {
  ModelConfig c = model_preset("gpt2");
  c.max_positions = 300;
  c.pos = PosEncoding::kLearned;
  EXPECT_EQ(c.position_limit(), 300);
  EXPECT_TRUE(c.learned_positions());
  EXPECT_FALSE(c.rotary());
  EXPECT_TRUE(c.alibi_slopes().empty());
  c.pos = PosEncoding::kRope;
  EXPECT_EQ(c.position_limit(), std::nullopt);
  EXPECT_TRUE(c.rotary());
  EXPECT_FALSE(c.learned_positions());
  c.pos = PosEncoding::kAlibi;
  EXPECT_EQ(c.alibi_slopes(), alibi_standard_slopes(12));
  EXPECT_EQ(c.alibi_slopes().front(), std::pow(2.0, -8.0 / 12));
  EXPECT_FALSE(c.rotary());
  c.pos = PosEncoding::kNone;
  EXPECT_FALSE(c.rotary() || c.learned_positions() || c.position_limit());
  EXPECT_TRUE(c.alibi_slopes().empty());
  EXPECT_EQ(pos_encoding_names(), "learned, rope, none or alibi");
  EXPECT_EQ(pos_encoding_names(/*with_table=*/false), "rope, none or alibi");
}

// Layers, d_model, heads, kv heads, MLP width and vocabulary of each preset, as the published
// config.json files give them (gptj-hop: the hop tasks' own model and vocabulary).
TEST(ArchConfig, PresetsHaveThePublishedShapes) {
  using Shape = std::vector<std::int64_t>;
  const std::vector<std::pair<std::string, Shape>> published = {
      {"gpt2", {12, 768, 12, 12, 3072, 50257}},
      {"gpt2-medium", {24, 1024, 16, 16, 4096, 50257}},
      {"qwen2-0.5b", {24, 896, 14, 2, 4864, 151936}},
      {"gptj-hop", {12, 128, 1, 1, 512, 1024}}};
  for (const auto& [name, shape] : published) {
    const ModelConfig c = model_preset(name);
    EXPECT_EQ((Shape{c.layers, c.d_model, c.heads, c.kv_heads, c.mlp, c.vocab}), shape) << name;
    EXPECT_NO_THROW(c.validate()) << name;
  }
  EXPECT_EQ(model_preset("qwen2-0.5b").rope_theta, 1e6);
  EXPECT_EQ(model_preset("gptj-hop").rotary_dims(), 16);
  EXPECT_EQ(published.size(), model_preset_names().size());
  EXPECT_THROW(model_preset("gpt3"), std::invalid_argument);
  EXPECT_EQ(family_default(Family::kGptj).dropout, 0.0);
}

TEST(ArchConfig, ValidateNamesTheBadField) {
  auto message = [](ModelConfig c) {
    try {
      c.validate();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("(valid)");
  };
  ModelConfig c = model_preset("gpt2");
  c.heads = 5;
  EXPECT_NE(message(c).find("does not divide d_model"), std::string::npos) << message(c);
  c = model_preset("qwen2-0.5b");
  c.kv_heads = 3;
  EXPECT_NE(message(c).find("kv heads = 3"), std::string::npos) << message(c);
  c = model_preset("gptj-hop");
  c.rotary_dim = 15;
  EXPECT_NE(message(c).find("rotary_dim"), std::string::npos) << message(c);
  c = model_preset("gpt2");
  c.layers = 0;
  EXPECT_NE(message(c).find("layers must be in 1..1024"), std::string::npos) << message(c);
}

}  // namespace
}  // namespace posbias
