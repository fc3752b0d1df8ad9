// Each family, loaded from the config.json + model.safetensors that an independent Python
// PyTorch implementation wrote (tests/golden/model_reference.py), must reproduce that
// implementation's hidden states, logits, input-embedding gradients and every parameter
// gradient within 1e-5, and its exact Jacobian profile.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "posbias/hf/hf_config.h"
#include "posbias/jacobian/jacobian.h"
#include "posbias/model/hf_weights.h"

namespace posbias {
namespace {

const std::filesystem::path kModels =
    std::filesystem::path(POSBIAS_SOURCE_DIR) / "tests/golden/models";

torch::Tensor tensor_of(const SafetensorsFile& f, const std::string& name) {
  const TensorView& v = f.get(name);
  std::vector<float> data = to_float32(v);
  return torch::from_blob(data.data(), v.shape, torch::kFloat32).clone();
}

double worst_error(const torch::Tensor& got, const torch::Tensor& want) {
  // absolute error, relative for entries above 1
  return ((got.to(torch::kFloat64) - want.to(torch::kFloat64)).abs() /
          want.to(torch::kFloat64).abs().clamp_min(1.0))
      .max()
      .item<double>();
}

class ModelGolden : public testing::TestWithParam<std::string> {};

TEST_P(ModelGolden, MatchesPythonReference) {
  const auto dir = kModels / GetParam();
  const ModelConfig cfg = model_config_from_hf(read_hf_config(dir / "config.json"));
  const SafetensorsFile weights = SafetensorsFile::open(dir / "model.safetensors");
  const SafetensorsFile expected = SafetensorsFile::open(dir / "expected.safetensors");
  std::ifstream in(dir / "input.json");
  const auto ids_json =
      nlohmann::json::parse(in)["input_ids"].get<std::vector<std::vector<std::int64_t>>>();
  std::vector<std::int64_t> flat;
  for (const auto& row : ids_json) flat.insert(flat.end(), row.begin(), row.end());
  const auto ids = torch::tensor(flat).view({static_cast<std::int64_t>(ids_json.size()), -1});

  for (auto dtype : {torch::kFloat32, torch::kFloat64}) {
    Transformer model(cfg);
    load_hf_weights(model, weights);
    model->to(dtype);
    model->eval();
    auto x = model->embed(ids);
    x.retain_grad();
    const auto hidden = model->forward_embeddings(x);
    const auto logits = model->logits(hidden);
    const auto loss = (logits * tensor_of(expected, "R").to(dtype)).sum();
    loss.backward();
    const std::string tag = GetParam() + (dtype == torch::kFloat64 ? " f64" : " f32");
    EXPECT_LT(worst_error(hidden, tensor_of(expected, "hidden")), 1e-5) << tag << " hidden";
    EXPECT_LT(worst_error(logits, tensor_of(expected, "logits")), 1e-5) << tag << " logits";
    EXPECT_LT(worst_error(loss, tensor_of(expected, "loss")), 1e-5) << tag << " loss";
    EXPECT_LT(worst_error(x.grad(), tensor_of(expected, "grad.inputs_embeds")), 1e-5)
        << tag << " grad.inputs_embeds";
    int grads = 0;
    for (const auto& [name, g] : hf_tensors(model, /*gradients=*/true)) {
      // GPT-2 files may name tensors with or without the "transformer." prefix.
      const std::string bare = name.rfind("transformer.", 0) == 0 ? name.substr(12) : name;
      const std::string key = expected.find("grad." + name) ? "grad." + name : "grad." + bare;
      EXPECT_LT(worst_error(g, tensor_of(expected, key)), 1e-5) << tag << " " << key;
      ++grads;
    }
    EXPECT_EQ(grads, static_cast<int>(hf_slots(model).size())) << tag;
  }

  // Exact Jacobian profile of batch item 0, against the reference's float64 autograd.
  Transformer model(cfg);
  load_hf_weights(model, weights);
  model->to(torch::kFloat64);
  model->eval();
  const auto x = model->embed(ids.slice(0, 0, 1)).detach();
  std::ifstream jin(dir / "jacobian.json");
  const auto j = nlohmann::json::parse(jin);
  for (const auto& [key, q] :
       {std::pair<std::string, std::int64_t>{"profile_last", 0}, {"profile_q4", 4}}) {
    const auto want = torch::tensor(j[key].get<std::vector<double>>(), torch::kFloat64);
    const auto got = jacobian_profile(model, x, {JacobianMethod::kExact, q});
    EXPECT_LT(worst_error(got, want), 1e-9) << GetParam() << " " << key;
  }
}

INSTANTIATE_TEST_SUITE_P(Families, ModelGolden,
                         testing::Values("gpt2", "gpt2_alibi", "qwen2", "qwen2_none", "gptj",
                                         "gptj_learned", "llama", "mistral"));

// GPT-2's init scales the residual projections by 1/sqrt(2·layers) unless switched off;
// other families never scale.
TEST(Init, ResidualProjectionScaling) {
  auto std_of = [](Transformer& m, const std::string& name) {
    for (const auto& p : m->named_parameters())
      if (p.key() == name) return p.value().std().item<double>();
    ADD_FAILURE() << "no parameter " << name;
    return 0.0;
  };
  for (const Family f : {Family::kGpt2, Family::kQwen2}) {
    for (const bool scaled : {true, false}) {
      ModelConfig cfg = family_default(f);
      cfg.vocab = 37, cfg.layers = 8, cfg.d_model = 64, cfg.heads = 4, cfg.kv_heads = 4;
      cfg.mlp = 256, cfg.max_positions = 16;
      cfg.residual_init_scaling = scaled;
      Transformer m(cfg, /*token_embeddings=*/false);
      m->init_weights(3);
      const double want = f == Family::kGpt2 && scaled ? 0.02 / 4.0 : 0.02;  // sqrt(2·8) = 4
      for (const char* name : {"blocks.0.attn.out.weight", "blocks.7.mlp.proj.weight"}) {
        EXPECT_NEAR(std_of(m, name), want, 0.05 * want) << to_string(f) << " " << name;
      }
      EXPECT_NEAR(std_of(m, "blocks.0.attn.qkv.weight"), 0.02, 0.001) << to_string(f);
    }
  }
}

TEST(HfWeights, RoundTripAndHostileFiles) {
  ModelConfig cfg = model_config_from_hf(read_hf_config(kModels / "qwen2/config.json"));
  Transformer a(cfg), b(cfg);
  a->init_weights(1);
  b->init_weights(2);
  const auto path = std::filesystem::temp_directory_path() /
                    ("posbias_hf_" + std::to_string(::getpid()) + ".safetensors");
  save_hf_weights(a, path);
  load_hf_weights(b, SafetensorsFile::open(path));
  for (const auto& [name, t] : hf_tensors(a))
    EXPECT_TRUE(torch::equal(t, hf_tensors(b)[name])) << name;
  // A file for another shape is refused before any parameter changes.
  ModelConfig wider = cfg;
  wider.d_model = 32;
  Transformer c(wider);
  const auto before = hf_tensors(c);
  EXPECT_THROW(load_hf_weights(c, SafetensorsFile::open(path)), std::runtime_error);
  for (const auto& [name, t] : hf_tensors(c)) EXPECT_TRUE(torch::equal(t, before.at(name))) << name;
  // A missing tensor is named.
  write_safetensors(path,
                    {{"model.embed_tokens.weight", {37, 16}, std::vector<float>(37 * 16, 0.f)}});
  try {
    load_hf_weights(b, SafetensorsFile::open(path));
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("missing"), std::string::npos) << e.what();
  }
  std::filesystem::remove(path);
}

// The llama golden split into two shards and an index loads exactly as the one file does; a
// tensor the index leaves out is named as missing, with the index's name.
TEST(HfWeights, ShardedCheckpointLoadsAsTheWholeFile) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("posbias_hf_shards_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const SafetensorsFile whole = SafetensorsFile::open(kModels / "llama/model.safetensors");
  const std::vector<std::string> names = whole.names();
  std::vector<OwnedTensor> first, second;
  nlohmann::json map = nlohmann::json::object();
  for (std::size_t i = 0; i < names.size(); ++i) {
    const TensorView& v = whole.get(names[i]);
    const bool in_first = i < names.size() / 2;
    (in_first ? first : second).push_back({names[i], v.shape, to_float32(v)});
    map[names[i]] =
        in_first ? "model-00001-of-00002.safetensors" : "model-00002-of-00002.safetensors";
  }
  ASSERT_FALSE(first.empty() || second.empty());
  write_safetensors(dir / "model-00001-of-00002.safetensors", first);
  write_safetensors(dir / "model-00002-of-00002.safetensors", second);
  std::ofstream(dir / "model.safetensors.index.json")
      << nlohmann::json{{"metadata", {{"total_size", 0}}}, {"weight_map", map}}.dump();

  const ModelConfig cfg = model_config_from_hf(read_hf_config(kModels / "llama/config.json"));
  Transformer a(cfg), b(cfg);
  a->init_weights(1);
  b->init_weights(2);
  load_hf_weights(a, whole);
  load_hf_weights(b, SafetensorsCheckpoint::open(dir / "model.safetensors.index.json"));
  const auto want = hf_tensors(a), got = hf_tensors(b);
  ASSERT_EQ(want.size(), got.size());
  for (const auto& [name, t] : want) EXPECT_TRUE(torch::equal(t, got.at(name))) << name;

  map.erase("model.norm.weight");
  std::ofstream(dir / "partial.index.json") << nlohmann::json{{"weight_map", map}}.dump();
  try {
    load_hf_weights(b, SafetensorsCheckpoint::open(dir / "partial.index.json"));
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), (dir / "partial.index.json").string() +
                                         ": tensor 'model.norm.weight' is missing (the config "
                                         "says llama, 2 layers)");
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace posbias
