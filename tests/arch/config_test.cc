// The architecture description: names round-trip, presets match their published shapes (Hugging
// Face's config.json for gpt2, gpt2-medium, Qwen2-0.5B and TinyLlama-1.1B), each family's block
// comes from its row, and validate() names the bad field.
#include "posbias/arch/config.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "posbias/arch/presets.h"

namespace posbias {
namespace {

TEST(ArchConfig, NamesRoundTrip) {
  for (const FamilyTraits& row : kFamilies) {
    EXPECT_EQ(parse_family(std::string(row.name)), row.family);
    EXPECT_EQ(to_string(row.family), row.name);
    EXPECT_EQ(&traits(row.family), &row) << row.name;  // one row per family
  }
  for (const PosEncodingTraits& row : kPosEncodings) {
    EXPECT_EQ(parse_pos_encoding(std::string(row.name)), row.encoding);
    EXPECT_EQ(to_string(row.encoding), row.name);
    EXPECT_EQ(&traits(row.encoding), &row) << row.name;  // one row per encoding
  }
  EXPECT_THROW(parse_family("falcon"), std::invalid_argument);
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
      {"tinyllama-1.1b", {22, 2048, 32, 4, 5632, 32000}},
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
  EXPECT_EQ(family_default(Family::kLlama).family, Family::kLlama);
  EXPECT_EQ(model_preset("tinyllama-1.1b").rope_theta, 1e4);
}

// Every row of the preset table builds a valid config under its name, names are distinct and
// listed in the table's order, an unknown name's error lists them all, and each family's default
// is its first preset (gptj's without dropout).
TEST(ArchConfig, EveryPresetRowBuilds) {
  std::vector<std::string> names;
  for (const ModelPreset& p : model_presets()) {
    const ModelConfig c = model_preset(std::string(p.name));
    EXPECT_NO_THROW(c.validate()) << p.name;
    EXPECT_EQ(c.family, p.family) << p.name;
    EXPECT_EQ(std::count(names.begin(), names.end(), p.name), 0) << p.name << " twice";
    names.emplace_back(p.name);
  }
  EXPECT_EQ(model_preset_names(), names);
  try {
    model_preset("gpt3");
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "unknown preset 'gpt3' (use gpt2, gpt2-medium, qwen2-0.5b, tinyllama-1.1b or "
                 "gptj-hop)");
  }
  const std::vector<std::pair<Family, std::string>> reference = {
      {Family::kGpt2, "gpt2"},
      {Family::kQwen2, "qwen2-0.5b"},
      {Family::kGptj, "gptj-hop"},
      {Family::kLlama, "tinyllama-1.1b"}};
  EXPECT_EQ(reference.size(), kFamilies.size());
  for (const auto& [family, preset] : reference) {
    ModelConfig want = model_preset(preset);
    if (family == Family::kGptj) want.dropout = 0.0;
    const ModelConfig got = family_default(family);
    EXPECT_EQ(got.family, family) << preset;
    EXPECT_EQ((std::vector<std::int64_t>{got.layers, got.d_model, got.heads, got.vocab}),
              (std::vector<std::int64_t>{want.layers, want.d_model, want.heads, want.vocab}))
        << preset;
    EXPECT_EQ(got.dropout, want.dropout) << preset;
  }
}

// ModelConfig's block predicates read the family's row: llama is qwen2's block without the qkv
// bias; GPT-2 alone scales its residual projections at init; GPT-J alone is parallel and rotates
// interleaved pairs.
TEST(ArchConfig, BlockTraitsComeFromTheFamilyRow) {
  for (const FamilyTraits& row : kFamilies) {
    ModelConfig c;
    c.family = row.family;
    EXPECT_EQ(c.rms_norm(), row.rms_norm) << row.name;
    EXPECT_EQ(c.parallel_block(), row.parallel_block) << row.name;
    EXPECT_EQ(c.gated_mlp(), row.gated_mlp) << row.name;
    EXPECT_EQ(c.qkv_bias(), row.qkv_bias) << row.name;
    EXPECT_EQ(c.out_bias(), row.out_bias) << row.name;
    EXPECT_EQ(c.mlp_bias(), row.mlp_bias) << row.name;
    EXPECT_EQ(c.head_bias(), row.head_bias) << row.name;
    EXPECT_EQ(c.interleaved_rotary(), row.interleaved_rotary) << row.name;
    EXPECT_EQ(c.scaled_residual_init(), row.scaled_residual) << row.name;
    c.residual_init_scaling = false;
    EXPECT_FALSE(c.scaled_residual_init()) << row.name;
  }
  FamilyTraits qwen2 = traits(Family::kQwen2), llama = traits(Family::kLlama);
  EXPECT_TRUE(qwen2.qkv_bias);
  EXPECT_FALSE(llama.qkv_bias);
  qwen2.qkv_bias = false;
  EXPECT_EQ(std::tie(qwen2.rms_norm, qwen2.parallel_block, qwen2.gated_mlp, qwen2.qkv_bias,
                     qwen2.out_bias, qwen2.mlp_bias, qwen2.head_bias, qwen2.scaled_residual,
                     qwen2.interleaved_rotary),
            std::tie(llama.rms_norm, llama.parallel_block, llama.gated_mlp, llama.qkv_bias,
                     llama.out_bias, llama.mlp_bias, llama.head_bias, llama.scaled_residual,
                     llama.interleaved_rotary));
  // The table pins the three older families to what they were built as.
  EXPECT_TRUE(traits(Family::kGpt2).qkv_bias && traits(Family::kGpt2).out_bias &&
              traits(Family::kGpt2).mlp_bias && traits(Family::kGpt2).scaled_residual);
  EXPECT_TRUE(traits(Family::kGptj).parallel_block && traits(Family::kGptj).head_bias &&
              traits(Family::kGptj).interleaved_rotary && !traits(Family::kGptj).qkv_bias);
  EXPECT_THROW(traits(static_cast<Family>(9)), std::invalid_argument);
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
