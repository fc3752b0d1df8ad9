// The architecture description: names round-trip, presets match their published shapes (Hugging
// Face's config.json for gpt2, gpt2-medium and Qwen2-0.5B), and validate() names the bad field.
#include "posbias/arch/config.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace posbias {
namespace {

TEST(ArchConfig, NamesRoundTrip) {
  for (Family f : {Family::kGpt2, Family::kQwen2, Family::kGptj}) {
    EXPECT_EQ(parse_family(to_string(f)), f);
  }
  for (PosEncoding p :
       {PosEncoding::kLearned, PosEncoding::kRope, PosEncoding::kNone, PosEncoding::kAlibi}) {
    EXPECT_EQ(parse_pos_encoding(to_string(p)), p);
  }
  EXPECT_THROW(parse_family("llama"), std::invalid_argument);
  EXPECT_THROW(parse_pos_encoding("sinusoidal"), std::invalid_argument);
  EXPECT_THROW(to_string(static_cast<Family>(7)), std::invalid_argument);
}

TEST(ArchConfig, PresetsHaveThePublishedShapes) {
  const ModelConfig gpt2 = model_preset("gpt2");
  EXPECT_EQ(gpt2.layers, 12);
  EXPECT_EQ(gpt2.d_model, 768);
  EXPECT_EQ(gpt2.heads, 12);
  EXPECT_EQ(gpt2.mlp, 3072);
  EXPECT_EQ(gpt2.vocab, 50257);
  const ModelConfig medium = model_preset("gpt2-medium");
  EXPECT_EQ(medium.layers, 24);
  EXPECT_EQ(medium.d_model, 1024);
  EXPECT_EQ(medium.heads, 16);
  const ModelConfig qwen = model_preset("qwen2-0.5b");
  EXPECT_EQ(qwen.layers, 24);
  EXPECT_EQ(qwen.d_model, 896);
  EXPECT_EQ(qwen.heads, 14);
  EXPECT_EQ(qwen.kv_heads, 2);
  EXPECT_EQ(qwen.mlp, 4864);
  EXPECT_EQ(qwen.vocab, 151936);
  EXPECT_EQ(qwen.rope_theta, 1e6);
  const ModelConfig hop = model_preset("gptj-hop");
  EXPECT_EQ(hop.head_dim(), 128);
  EXPECT_EQ(hop.rotary_dims(), 16);
  for (const std::string& name : model_preset_names())
    EXPECT_NO_THROW(model_preset(name).validate());
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
