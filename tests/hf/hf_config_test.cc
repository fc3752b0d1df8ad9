// The config.json reader: the published gpt2 / Qwen2-0.5B / gpt-j-6B configs (copies in
// fuzz/corpus/hf_config/), per-family defaults, to_json round trips with the family's field
// names, and every hostile value it must refuse with a one-line message naming the field.
#include "posbias/hf/hf_config.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace posbias {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

fs::path corpus(const std::string& name) {
  return fs::path(POSBIAS_SOURCE_DIR) / "fuzz/corpus/hf_config" / name;
}

const char* const kTinyGpt2 =
    R"({"model_type":"gpt2","vocab_size":100,"n_embd":64,"n_layer":2,"n_head":4,"n_positions":32})";
const char* const kTinyQwen2 =
    R"({"model_type":"qwen2","vocab_size":100,"hidden_size":64,"num_hidden_layers":2,)"
    R"("num_attention_heads":4,"max_position_embeddings":32,"intermediate_size":96})";
const char* const kTinyLlama =
    R"({"model_type":"llama","vocab_size":100,"hidden_size":64,"num_hidden_layers":2,)"
    R"("num_attention_heads":4,"num_key_value_heads":2,"max_position_embeddings":32,)"
    R"("intermediate_size":96})";
const char* const kTinyGptj =
    R"({"model_type":"gptj","vocab_size":100,"n_embd":64,"n_layer":2,"n_head":4,)"
    R"("n_positions":32,"n_inner":null,"rotary_dim":null})";

// `base` with `patch` merged over it (a null in patch deletes the key).
std::string patched(const char* base, const std::string& patch) {
  json j = json::parse(base);
  j.merge_patch(json::parse(patch));
  return j.dump();
}

template <typename Error>
void expect_error(const std::string& text, const std::string& needle) {
  SCOPED_TRACE("expecting an error containing \"" + needle + "\" for " + text.substr(0, 200));
  try {
    const HfConfig c = parse_hf_config(text, "config.json");
    ADD_FAILURE() << "accepted; vocab_size = " << c.vocab_size;
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(needle), std::string::npos) << message;
    EXPECT_EQ(message.rfind("config.json: ", 0), 0u) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception type: " << e.what();
  }
}

void expect_invalid(const std::string& text, const std::string& needle) {
  expect_error<std::invalid_argument>(text, needle);
}

TEST(HfConfig, ReadsPublishedGpt2) {
  const HfConfig c = read_hf_config(corpus("gpt2.json"));
  EXPECT_EQ(c.model_type, Family::kGpt2);
  EXPECT_EQ(c.vocab_size, 50257);
  EXPECT_EQ(c.hidden_size, 768);
  EXPECT_EQ(c.num_hidden_layers, 12);
  EXPECT_EQ(c.num_attention_heads, 12);
  EXPECT_EQ(c.num_key_value_heads, 12);
  EXPECT_EQ(c.intermediate_size, 3072);  // n_inner absent: 4 * n_embd
  EXPECT_EQ(c.max_position_embeddings, 1024);
  EXPECT_EQ(c.head_dim(), 64);
  EXPECT_EQ(c.rotary_dim, 0);
  EXPECT_EQ(c.position_encoding, PosEncoding::kLearned);
  EXPECT_EQ(c.norm_eps, 1e-5);
  EXPECT_EQ(c.initializer_range, 0.02);
  EXPECT_EQ(c.activation, "gelu_new");
  EXPECT_TRUE(c.tie_word_embeddings);
  EXPECT_EQ(c.resid_pdrop, 0.1);
  EXPECT_EQ(c.embd_pdrop, 0.1);
  EXPECT_EQ(c.attn_pdrop, 0.1);
}

TEST(HfConfig, ReadsPublishedQwen2) {
  const HfConfig c = read_hf_config(corpus("qwen2.json"));
  EXPECT_EQ(c.model_type, Family::kQwen2);
  EXPECT_EQ(c.vocab_size, 151936);
  EXPECT_EQ(c.hidden_size, 896);
  EXPECT_EQ(c.num_hidden_layers, 24);
  EXPECT_EQ(c.num_attention_heads, 14);
  EXPECT_EQ(c.num_key_value_heads, 2);
  EXPECT_EQ(c.intermediate_size, 4864);
  EXPECT_EQ(c.max_position_embeddings, 131072);
  EXPECT_EQ(c.position_encoding, PosEncoding::kRope);
  EXPECT_EQ(c.rotary_dim, 64);  // 896 / 14, all of each head
  EXPECT_EQ(c.rope_theta, 1e6);
  EXPECT_EQ(c.norm_eps, 1e-6);
  EXPECT_EQ(c.activation, "silu");
  EXPECT_TRUE(c.tie_word_embeddings);
  EXPECT_EQ(c.attn_pdrop, 0.0);
}

TEST(HfConfig, ReadsPublishedGptj) {
  const HfConfig c = read_hf_config(corpus("gptj.json"));
  EXPECT_EQ(c.model_type, Family::kGptj);
  EXPECT_EQ(c.vocab_size, 50400);
  EXPECT_EQ(c.hidden_size, 4096);
  EXPECT_EQ(c.num_hidden_layers, 28);
  EXPECT_EQ(c.num_attention_heads, 16);
  EXPECT_EQ(c.intermediate_size, 16384);  // n_inner null: 4 * n_embd
  EXPECT_EQ(c.max_position_embeddings, 2048);
  EXPECT_EQ(c.rotary_dim, 64);  // of head_dim 256
  EXPECT_EQ(c.rope_theta, 10000.0);
  EXPECT_EQ(c.position_encoding, PosEncoding::kRope);
  EXPECT_FALSE(c.tie_word_embeddings);
  EXPECT_EQ(c.resid_pdrop, 0.0);
}

// TinyLlama-1.1B's config.json (LlamaForCausalLM) and Mistral-7B-v0.1's (MistralForCausalLM,
// a 4096-key window): both are the llama family, Mistral with its window.
TEST(HfConfig, ReadsPublishedLlamaAndMistral) {
  const HfConfig c = read_hf_config(corpus("tinyllama.json"));
  EXPECT_EQ(c.model_type, Family::kLlama);
  EXPECT_EQ(c.vocab_size, 32000);
  EXPECT_EQ(c.hidden_size, 2048);
  EXPECT_EQ(c.num_hidden_layers, 22);
  EXPECT_EQ(c.num_attention_heads, 32);
  EXPECT_EQ(c.num_key_value_heads, 4);
  EXPECT_EQ(c.intermediate_size, 5632);
  EXPECT_EQ(c.max_position_embeddings, 2048);
  EXPECT_EQ(c.position_encoding, PosEncoding::kRope);
  EXPECT_EQ(c.rotary_dim, 64);
  EXPECT_EQ(c.rope_theta, 10000.0);
  EXPECT_EQ(c.norm_eps, 1e-5);
  EXPECT_EQ(c.activation, "silu");
  EXPECT_FALSE(c.tie_word_embeddings);
  EXPECT_EQ(c.sliding_window, 0);
  const ModelConfig m = model_config_from_hf(c);
  EXPECT_EQ(m.family, Family::kLlama);
  EXPECT_FALSE(m.qkv_bias() || m.out_bias() || m.mlp_bias() || m.head_bias());
  EXPECT_TRUE(m.rms_norm() && m.gated_mlp());
  // The preset is that config.
  EXPECT_EQ(to_json(hf_config_from_model(model_preset("tinyllama-1.1b"))), to_json(c));

  const HfConfig mistral = read_hf_config(corpus("mistral.json"));
  EXPECT_EQ(mistral.model_type, Family::kLlama);
  EXPECT_EQ(mistral.sliding_window, 4096);
  EXPECT_EQ(mistral.num_key_value_heads, 8);
  EXPECT_EQ(model_config_from_hf(mistral).window, 4096);
  // MistralConfig's default window is 4096; null switches it off.
  const std::string bare = patched(kTinyLlama, R"({"model_type":"mistral"})");
  EXPECT_EQ(parse_hf_config(bare, "m").sliding_window, 4096);
  EXPECT_EQ(parse_hf_config(patched(bare.c_str(), R"({"sliding_window":8})"), "m").sliding_window,
            8);
  EXPECT_EQ(parse_hf_config(std::string(bare).replace(1, 0, R"("sliding_window":null,)"), "m")
                .sliding_window,
            0);
}

// Llama's own fields: the defaults of transformers' LlamaConfig, the switches posbias does not
// build refused by name, and to_json writing a windowed llama back as a mistral.
TEST(HfConfig, LlamaFieldsAndRefusals) {
  const HfConfig l = parse_hf_config(kTinyLlama, "l");
  EXPECT_EQ(l.norm_eps, 1e-6);
  EXPECT_EQ(l.rope_theta, 10000.0);
  EXPECT_FALSE(l.tie_word_embeddings);
  EXPECT_EQ(l.activation, "silu");
  EXPECT_EQ(l.rotary_dim, 16);
  for (const char* ok :
       {R"({"attention_bias":false,"mlp_bias":false,"head_dim":16,"pretraining_tp":2})",
        R"({"rope_scaling":{"rope_type":"default"}})", R"({"rope_scaling":{"type":"default"}})",
        R"({"sliding_window":4096})"})
    EXPECT_EQ(parse_hf_config(patched(kTinyLlama, ok), "l"), l) << ok;

  expect_invalid(patched(kTinyLlama, R"({"rope_scaling":{"rope_type":"llama3","factor":32.0,)"
                                     R"("low_freq_factor":1.0,"high_freq_factor":4.0,)"
                                     R"("original_max_position_embeddings":8192}})"),
                 "rope_scaling = {");
  expect_invalid(patched(kTinyLlama, R"({"rope_scaling":{"rope_type":"llama3","factor":32.0}})"),
                 "is not supported (rope type 'llama3'); posbias implements plain RoPE");
  expect_invalid(patched(kTinyLlama, R"({"rope_scaling":{"type":"yarn","factor":4.0}})"),
                 "(rope type 'yarn')");
  expect_invalid(patched(kTinyLlama, R"({"rope_scaling":{"factor":4.0}})"),
                 "(rope type (none given))");
  expect_invalid(patched(kTinyLlama, R"({"rope_scaling":"linear"})"), "rope_scaling = \"linear\"");
  expect_invalid(patched(kTinyLlama, R"({"attention_bias":true})"),
                 "config.json: attention_bias = true is not supported; posbias builds Llama "
                 "without attention biases");
  expect_invalid(patched(kTinyLlama, R"({"mlp_bias":true})"),
                 "mlp_bias = true is not supported; posbias builds Llama without MLP biases");
  expect_invalid(patched(kTinyLlama, R"({"attention_bias":"no"})"),
                 "attention_bias must be true or false");
  expect_invalid(patched(kTinyLlama, R"({"head_dim":32})"),
                 "head_dim = 32 is not supported; posbias builds head_dim = hidden_size / "
                 "num_attention_heads = 64 / 4");
  expect_invalid(patched(kTinyLlama, R"({"use_sliding_window":true,"sliding_window":8})"),
                 "use_sliding_window is not a Llama field");
  expect_invalid(patched(kTinyLlama, R"({"model_type":"mistral","sliding_window":0})"),
                 "sliding_window = 0 is out of range");
  expect_invalid(patched(kTinyLlama, R"({"model_type":"falcon"})"),
                 "model_type \"falcon\" is not supported (expected gpt2, qwen2, gptj, llama or "
                 "mistral)");
  // An activation other than silu: parsed (transformers knows it), refused when building.
  try {
    (void)model_config_from_hf(
        parse_hf_config(patched(kTinyLlama, R"({"hidden_act":"gelu"})"), "l"));
    ADD_FAILURE() << "built a llama with hidden_act gelu";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "hidden_act 'gelu' is not supported for llama (posbias builds silu)");
  }

  // to_json: llama's own names and switches; a window makes it a mistral; both round-trip.
  const json j = to_json(l);
  EXPECT_EQ(j.at("model_type"), "llama");
  EXPECT_EQ(j.at("architectures"), json::array({"LlamaForCausalLM"}));
  EXPECT_EQ(j.at("attention_bias"), false);
  EXPECT_EQ(j.at("num_key_value_heads"), 2);
  EXPECT_FALSE(j.contains("use_sliding_window"));
  EXPECT_EQ(parse_hf_config(j.dump(), "out"), l);
  HfConfig windowed = l;
  windowed.sliding_window = 8;
  const json w = to_json(windowed);
  EXPECT_EQ(w.at("model_type"), "mistral");
  EXPECT_EQ(w.at("architectures"), json::array({"MistralForCausalLM"}));
  EXPECT_EQ(w.at("sliding_window"), 8);
  EXPECT_FALSE(w.contains("use_sliding_window"));
  EXPECT_EQ(parse_hf_config(w.dump(), "out"), windowed);
  for (const char* name : {"tinyllama.json", "mistral.json"}) {
    const HfConfig c = read_hf_config(corpus(name));
    EXPECT_EQ(parse_hf_config(to_json(c).dump(), "out"), c) << name;
  }
}

TEST(HfConfig, FamilyDefaults) {
  const HfConfig g = parse_hf_config(kTinyGpt2, "g");
  EXPECT_EQ(g.intermediate_size, 256);
  EXPECT_EQ(g.num_key_value_heads, 4);
  EXPECT_EQ(g.norm_eps, 1e-5);
  EXPECT_EQ(g.activation, "gelu_new");
  EXPECT_TRUE(g.tie_word_embeddings);
  EXPECT_EQ(g.attn_pdrop, 0.1);
  EXPECT_EQ(g.position_encoding, PosEncoding::kLearned);
  EXPECT_EQ(g.rotary_dim, 0);

  const HfConfig q = parse_hf_config(kTinyQwen2, "q");
  EXPECT_EQ(q.norm_eps, 1e-6);
  EXPECT_EQ(q.activation, "silu");
  EXPECT_EQ(q.rope_theta, 10000.0);
  EXPECT_FALSE(q.tie_word_embeddings);  // transformers' Qwen2Config default
  EXPECT_EQ(q.attn_pdrop, 0.0);
  EXPECT_EQ(q.rotary_dim, 16);

  const HfConfig j = parse_hf_config(kTinyGptj, "j");
  EXPECT_EQ(j.intermediate_size, 256);
  EXPECT_EQ(j.rotary_dim, 16);  // null: head_dim
  EXPECT_FALSE(j.tie_word_embeddings);
  EXPECT_EQ(j.resid_pdrop, 0.0);  // transformers' GPTJConfig default
  EXPECT_EQ(j.position_encoding, PosEncoding::kRope);

  // posbias extension: any family may switch its position encoding.
  const HfConfig rope_gpt2 =
      parse_hf_config(patched(kTinyGpt2, R"({"position_encoding":"rope"})"), "g");
  EXPECT_EQ(rope_gpt2.rotary_dim, 16);
  const HfConfig alibi = read_hf_config(corpus("tiny_alibi.json"));
  EXPECT_EQ(alibi.position_encoding, PosEncoding::kAlibi);
  EXPECT_EQ(alibi.num_key_value_heads, 2);
  EXPECT_EQ(parse_hf_config(patched(kTinyGptj, R"({"position_encoding":"none"})"), "j").rotary_dim,
            0);
}

TEST(HfConfig, AttributeMapAliases) {
  // GPT2Config maps hidden_size onto n_embd; either spelling works, conflicting ones do not.
  const HfConfig c = parse_hf_config(
      patched(kTinyGpt2, R"({"n_embd":null,"hidden_size":128,"num_attention_heads":4})"), "g");
  EXPECT_EQ(c.hidden_size, 128);
  expect_invalid(patched(kTinyGpt2, R"({"hidden_size":32})"),
                 "config.json: hidden_size = 32 conflicts with n_embd = 64");
  expect_invalid(patched(kTinyGpt2, R"({"num_hidden_layers":3})"),
                 "num_hidden_layers = 3 conflicts with n_layer = 2");
}

TEST(HfConfig, ToJsonUsesFamilyNamesAndRoundTrips) {
  for (const std::string& text :
       {std::string(kTinyGpt2), std::string(kTinyQwen2), std::string(kTinyGptj),
        patched(kTinyGpt2, R"({"position_encoding":"rope","rope_theta":500000})"),
        patched(kTinyGptj, R"({"position_encoding":"learned","num_key_value_heads":2})")}) {
    SCOPED_TRACE(text);
    const HfConfig c = parse_hf_config(text, "in");
    const json j = to_json(c);
    EXPECT_EQ(parse_hf_config(j.dump(), "out"), c);
    EXPECT_EQ(j.at("model_type"), to_string(c.model_type));
  }
  for (const char* name : {"gpt2.json", "qwen2.json", "gptj.json", "tiny_alibi.json"}) {
    const HfConfig c = read_hf_config(corpus(name));
    EXPECT_EQ(parse_hf_config(to_json(c).dump(), "out"), c) << name;
  }
  const json g = to_json(read_hf_config(corpus("gpt2.json")));
  EXPECT_EQ(g.at("n_embd"), 768);
  EXPECT_EQ(g.at("n_inner"), 3072);
  EXPECT_EQ(g.at("layer_norm_epsilon"), 1e-5);
  EXPECT_EQ(g.at("activation_function"), "gelu_new");
  EXPECT_EQ(g.at("position_encoding"), "learned");
  EXPECT_FALSE(g.contains("hidden_size"));
  EXPECT_FALSE(g.contains("rotary_dim"));
  const json q = to_json(read_hf_config(corpus("qwen2.json")));
  EXPECT_EQ(q.at("hidden_size"), 896);
  EXPECT_EQ(q.at("num_key_value_heads"), 2);
  EXPECT_EQ(q.at("rms_norm_eps"), 1e-6);
  EXPECT_EQ(q.at("hidden_act"), "silu");
  EXPECT_EQ(q.at("rope_theta"), 1e6);
  EXPECT_FALSE(q.contains("n_embd"));
  const json gj = to_json(read_hf_config(corpus("gptj.json")));
  EXPECT_EQ(gj.at("rotary_dim"), 64);
  EXPECT_EQ(gj.at("architectures"), json::array({"GPTJForCausalLM"}));

  HfConfig broken = parse_hf_config(kTinyGpt2, "g");
  broken.num_attention_heads = 5;
  try {
    (void)to_json(broken);
    ADD_FAILURE() << "to_json accepted n_head = 5 with n_embd = 64";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "to_json: n_head = 5 does not divide n_embd = 64");
  }
}

// model_type through the one name table: every family (kFamilies) is written under its own
// name and read back as itself; a windowed llama as mistral; the refusal lists them all.
TEST(HfConfig, ModelTypeRoundTripsEveryFamily) {
  std::string names;
  for (const FamilyTraits& t : kFamilies) {
    SCOPED_TRACE(std::string(t.name));
    const HfConfig c = hf_config_from_model(family_default(t.family));
    const json j = to_json(c);
    EXPECT_EQ(j.at("model_type"), std::string(t.name));
    EXPECT_EQ(parse_hf_config(j.dump(), "out").model_type, t.family);
    names += std::string(t.name) + ", ";
  }
  HfConfig windowed = hf_config_from_model(family_default(Family::kLlama));
  windowed.sliding_window = 8;
  EXPECT_EQ(hf_model_type(windowed), "mistral");
  EXPECT_EQ(parse_hf_config(to_json(windowed).dump(), "out"), windowed);
  expect_invalid(patched(kTinyGpt2, R"({"model_type":"bert"})"),
                 "(expected " + names.substr(0, names.size() - 2) + " or mistral)");
}

// The members of ModelConfig that config.json holds (the others, residual_init_scaling,
// attn_init_scale and rope_scaling, are not saved in it).
auto saved_members(const ModelConfig& m) {
  return std::tie(m.family, m.vocab, m.d_model, m.layers, m.heads, m.kv_heads, m.mlp,
                  m.max_positions, m.rotary_dim, m.rope_theta, m.norm_eps, m.init_std,
                  m.tie_embeddings, m.pos, m.dropout, m.window, m.null_sink, m.logn_scale);
}

// Every row of the model <-> config.json table (hf_config_keys): a model of every family and
// encoding, windowed or not, with every saved setting off its default, is written with each key
// the table spells (over all of them) and reads back as the same model.
TEST(HfConfig, EveryTableRowRoundTripsAModel) {
  std::set<std::string> written;
  for (const FamilyTraits& f : kFamilies) {
    for (const PosEncodingTraits& p : kPosEncodings) {
      for (const std::int64_t window : {0, 16}) {
        ModelConfig c = family_default(f.family);
        c.pos = p.encoding;
        c.vocab = 77, c.d_model = 64, c.layers = 3, c.heads = 4, c.kv_heads = 2, c.mlp = 100;
        c.max_positions = 99;
        c.rotary_dim = f.family == Family::kGptj && p.rotary ? 8 : 0;  // of head_dim 16
        c.rope_theta = 5e5, c.norm_eps = 1e-7, c.init_std = 0.05;
        c.tie_embeddings = !c.tie_embeddings;
        c.dropout = f.gated_mlp ? 0.0 : 0.1;  // Qwen2 and Llama have no resid_pdrop
        c.window = window;
        if (window == 0 || p.slopes)  // a null sink or ALiBi refuses log-n scaling
          c.null_sink = 1.5;
        else
          c.logn_scale = 0.25;
        SCOPED_TRACE(std::string(f.name) + " " + std::string(p.name) + " window " +
                     std::to_string(window));
        const json j = to_json(hf_config_from_model(c));
        for (const auto& [key, value] : j.items()) written.insert(key);
        const ModelConfig back = model_config_from_hf(parse_hf_config(j.dump(), "out"));
        EXPECT_TRUE(saved_members(back) == saved_members(c)) << j.dump();
      }
    }
  }
  const std::vector<std::string> keys = hf_config_keys();
  EXPECT_GE(keys.size(), 25u);
  for (const std::string& key : keys) EXPECT_TRUE(written.count(key)) << key << " never written";
}

// A sliding window (every layer) reads, round-trips and reaches the model config.
TEST(HfConfig, SlidingWindowRoundTrips) {
  for (const char* base : {kTinyGpt2, kTinyQwen2, kTinyGptj}) {
    const HfConfig c = parse_hf_config(
        patched(base, R"({"use_sliding_window":true,"sliding_window":16,"max_window_layers":0})"),
        "window");
    EXPECT_EQ(c.sliding_window, 16);
    EXPECT_EQ(parse_hf_config(to_json(c).dump(), "again"), c);
    EXPECT_EQ(model_config_from_hf(c).window, 16);
    EXPECT_EQ(hf_config_from_model(model_config_from_hf(c)).sliding_window, 16);
  }
  // Off unless use_sliding_window is true (Qwen2's published configs carry a window size).
  EXPECT_EQ(
      parse_hf_config(patched(kTinyQwen2, R"({"sliding_window":4096})"), "off").sliding_window, 0);
}

TEST(HfConfig, RejectsBadJson) {
  expect_error<std::runtime_error>("{", "not valid JSON");
  expect_error<std::runtime_error>("", "not valid JSON");
  expect_error<std::runtime_error>(R"({"a":1} x)", "not valid JSON");
  expect_error<std::runtime_error>(R"({"a":NaN})", "not valid JSON");
  expect_error<std::runtime_error>(patched(kTinyGpt2, "{}").replace(1, 0, R"("x":1e400,)"),
                                   "not valid JSON");
  expect_error<std::runtime_error>("{\"\xff\":1}", "not valid JSON");
  expect_error<std::runtime_error>("[1]", "top level is array, not a JSON object");
  expect_error<std::runtime_error>(R"("gpt2")", "top level is string");
  expect_error<std::runtime_error>(
      R"({"model_type":"gpt2","n_embd":64,"n_embd":32,"vocab_size":1})", "duplicate key 'n_embd'");
  std::string deep = R"({"x":)";
  for (int i = 0; i < 100; ++i) deep += "[";
  expect_error<std::runtime_error>(deep, "nested deeper than 32 levels");
  std::string huge =
      std::string(kTinyGpt2).replace(1, 0, "\"pad\":\"" + std::string(1 << 20, 'x') + "\",");
  expect_error<std::runtime_error>(huge, "-byte limit for a config.json");
}

TEST(HfConfig, RejectsBadFields) {
  expect_invalid(R"({"vocab_size":1})", "config.json: required field model_type is missing");
  expect_invalid(patched(kTinyGpt2, R"({"model_type":2})"), "model_type must be a string, got 2");
  expect_invalid(patched(kTinyGpt2, R"({"model_type":"mamba"})"),
                 "model_type \"mamba\" is not supported (expected gpt2, qwen2, gptj, llama or "
                 "mistral)");
  // A llama type over gpt2's field names: the llama names are required.
  expect_invalid(patched(kTinyGpt2, R"({"model_type":"llama"})"),
                 "required field hidden_size is missing");
  expect_invalid(patched(kTinyGpt2, R"({"n_embd":null})"), "required field n_embd is missing");
  expect_invalid(patched(kTinyGpt2, R"({"vocab_size":null})"), "required field vocab_size");
  expect_invalid(patched(kTinyQwen2, R"({"intermediate_size":null})"),
                 "required field intermediate_size is missing");
  expect_invalid(patched(kTinyQwen2, R"({"num_hidden_layers":null,"n_layer":2})"),
                 "required field num_hidden_layers is missing");
  expect_invalid(patched(kTinyGpt2, R"({"n_embd":"64"})"), "n_embd must be an integer, got \"64\"");
  expect_invalid(patched(kTinyGpt2, R"({"n_embd":64.0})"), "n_embd must be an integer, got 64.0");
  expect_invalid(patched(kTinyGpt2, R"({"n_layer":true})"), "n_layer must be an integer, got true");
  expect_invalid(patched(kTinyGpt2, R"({"n_embd":0})"), "n_embd = 0 is out of range [1, 65536]");
  expect_invalid(patched(kTinyGpt2, R"({"n_embd":65537})"), "n_embd = 65537 is out of range");
  expect_invalid(patched(kTinyGpt2, R"({"n_embd":-64})"), "n_embd = -64 is out of range");
  expect_invalid(patched(kTinyGpt2, R"({"n_embd":18446744073709551615})"),
                 "n_embd = 18446744073709551615 is out of range");
  expect_invalid(patched(kTinyGpt2, R"({"n_layer":1025})"),
                 "n_layer = 1025 is out of range [1, 1024]");
  expect_invalid(patched(kTinyGpt2, R"({"n_head":0})"), "n_head = 0 is out of range [1, 1024]");
  expect_invalid(patched(kTinyGpt2, R"({"vocab_size":10000001})"),
                 "vocab_size = 10000001 is out of range [1, 10000000]");
  expect_invalid(patched(kTinyGpt2, R"({"n_positions":0})"), "n_positions = 0 is out of range");
  expect_invalid(patched(kTinyQwen2, R"({"max_position_embeddings":10000001})"),
                 "max_position_embeddings = 10000001 is out of range");
  expect_invalid(patched(kTinyGpt2, R"({"n_inner":1000001})"),
                 "n_inner = 1000001 is out of range [1, 1000000]");
  expect_invalid(patched(kTinyQwen2, R"({"intermediate_size":0})"), "intermediate_size = 0");
  expect_invalid(patched(kTinyGpt2, R"({"num_key_value_heads":0})"), "num_key_value_heads = 0");
}

TEST(HfConfig, RejectsInconsistentShapes) {
  try {
    (void)parse_hf_config(patched(kTinyGpt2, R"({"n_head":5})"), "config.json");
    ADD_FAILURE() << "accepted n_head = 5 with n_embd = 64";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "config.json: n_head = 5 does not divide n_embd = 64");
  }
  expect_invalid(patched(kTinyQwen2, R"({"num_attention_heads":3})"),
                 "num_attention_heads = 3 does not divide hidden_size = 64");
  expect_invalid(patched(kTinyGpt2, R"({"num_key_value_heads":3})"),
                 "num_key_value_heads = 3 does not divide n_head = 4");
  expect_invalid(patched(kTinyQwen2, R"({"num_key_value_heads":8})"),
                 "num_key_value_heads = 8 does not divide num_attention_heads = 4");
  expect_invalid(patched(kTinyGptj, R"({"rotary_dim":7})"), "rotary_dim = 7 must be even");
  expect_invalid(patched(kTinyGptj, R"({"rotary_dim":32})"),
                 "rotary_dim = 32 is outside [1, head_dim = 16]");
  expect_invalid(patched(kTinyGptj, R"({"rotary_dim":0})"), "rotary_dim = 0 is out of range");
  expect_invalid(patched(kTinyGptj, R"({"rotary_dim":"64"})"), "rotary_dim must be an integer");
  // Qwen2 rotates the whole head, so head_dim must be even: 12 / 4 = 3.
  expect_invalid(
      patched(kTinyQwen2, R"({"hidden_size":12})"),
      "rotary_dim = 3 must be even (RoPE rotates pairs of dimensions); here rotary_dim = head_dim");
}

TEST(HfConfig, RejectsBadScalars) {
  expect_invalid(patched(kTinyGpt2, R"({"layer_norm_epsilon":0})"),
                 "layer_norm_epsilon = 0.0 must be finite and > 0");
  expect_invalid(patched(kTinyGpt2, R"({"layer_norm_epsilon":-1e-5})"),
                 "layer_norm_epsilon = -1e-05");
  expect_invalid(patched(kTinyQwen2, R"({"rms_norm_eps":"1e-6"})"),
                 "rms_norm_eps must be a number, got \"1e-6\"");
  expect_invalid(patched(kTinyGpt2, R"({"initializer_range":0})"),
                 "initializer_range = 0.0 must be finite and > 0");
  expect_invalid(patched(kTinyQwen2, R"({"rope_theta":-10000})"), "rope_theta = -10000.0 must be");
  expect_invalid(patched(kTinyGpt2, R"({"rope_theta":0})"), "rope_theta = 0.0 must be finite");
  expect_invalid(std::string(kTinyQwen2).replace(1, 0, R"("rope_theta":null,)"),
                 "rope_theta must be a number");
}

TEST(HfConfig, RejectsBadStringsAndFlags) {
  expect_invalid(patched(kTinyGpt2, R"({"activation_function":"foo"})"),
                 "activation_function 'foo' is not supported for gpt2 (expected one of gelu,");
  expect_invalid(patched(kTinyQwen2, R"({"hidden_act":3})"), "hidden_act must be a string, got 3");
  expect_invalid(patched(kTinyGpt2, R"({"tie_word_embeddings":"yes"})"),
                 "tie_word_embeddings must be true or false, got \"yes\"");
  expect_invalid(patched(kTinyGpt2, R"({"tie_word_embeddings":1})"),
                 "tie_word_embeddings must be true or false, got 1");
  expect_invalid(patched(kTinyGpt2, R"({"attn_pdrop":1.0})"), "attn_pdrop = 1.0 must be in [0, 1)");
  expect_invalid(patched(kTinyGpt2, R"({"resid_pdrop":-0.1})"),
                 "resid_pdrop = -0.1 must be in [0, 1)");
  expect_invalid(patched(kTinyGptj, R"({"embd_pdrop":2})"), "embd_pdrop = 2.0 must be in [0, 1)");
  expect_invalid(patched(kTinyQwen2, R"({"attention_dropout":1.5})"), "attention_dropout = 1.5");
  expect_invalid(
      patched(kTinyGpt2, R"({"position_encoding":"sinusoidal"})"),
      "position_encoding 'sinusoidal' is not supported (expected learned, rope, none or alibi)");
  expect_invalid(patched(kTinyGpt2, R"({"position_encoding":1})"),
                 "position_encoding must be a string");
  expect_invalid(patched(kTinyQwen2, R"({"rope_scaling":{"type":"linear","factor":2.0}})"),
                 "rope_scaling = {\"factor\":2.0,\"type\":\"linear\"} is not supported");
  expect_invalid(patched(kTinyQwen2, R"({"use_sliding_window":true})"), "sliding_window");
  expect_invalid(patched(kTinyQwen2, R"({"use_sliding_window":true,"sliding_window":0})"),
                 "sliding_window");
  expect_invalid(patched(kTinyQwen2,
                         R"({"use_sliding_window":true,"sliding_window":8,"max_window_layers":2})"),
                 "max_window_layers > 0 is not supported");
  expect_invalid(patched(kTinyQwen2, R"({"use_sliding_window":"no"})"),
                 "use_sliding_window must be true or false");
}

TEST(HfConfig, ReadRejectsBadFiles) {
  const fs::path dir =
      fs::temp_directory_path() / ("posbias_hf_config_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  EXPECT_THROW((void)read_hf_config(dir / "missing.json"), std::runtime_error);
  EXPECT_THROW((void)read_hf_config(dir), std::runtime_error);
  {
    std::ofstream big(dir / "big.json");
    big << R"({"pad":")" << std::string((1 << 20) + 10, 'x') << R"("})";
  }
  try {
    (void)read_hf_config(dir / "big.json");
    ADD_FAILURE() << "read a config larger than 1 MiB";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("big.json: larger than the 1048576-byte limit"),
              std::string::npos)
        << e.what();
  }
  {
    std::ofstream bad(dir / "config.json");
    bad << patched(kTinyGpt2, R"({"n_head":5})");
  }
  try {
    (void)read_hf_config(dir / "config.json");
    ADD_FAILURE() << "read an invalid config";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              (dir / "config.json").string() + ": n_head = 5 does not divide n_embd = 64");
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace posbias
