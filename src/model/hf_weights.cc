#include "posbias/model/hf_weights.h"

#include <functional>
#include <optional>
#include <stdexcept>

namespace posbias {
namespace {

torch::Tensor slot_view(const HfSlot& s, const torch::Tensor& t) {
  const torch::Tensor rows = s.rows > 0 ? t.narrow(0, s.row_begin, s.rows) : t;
  return s.transposed ? rows.t() : rows;
}

std::string join_shape(const std::vector<std::int64_t>& shape) {
  std::string out = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + "]";
}

}  // namespace

std::vector<HfSlot> hf_slots(Transformer& model) {
  const ModelConfig& c = model->config();
  const std::int64_t qd = c.heads * c.head_dim(), kvd = c.kv_heads * c.head_dim();
  std::vector<HfSlot> slots;
  auto add = [&](std::string name, torch::Tensor p, std::int64_t begin = 0, std::int64_t rows = 0,
                 bool tr = false) {
    slots.push_back({std::move(name), std::move(p), begin, rows, tr});
  };
  // GPT2LMHeadModel and GPTJForCausalLM prefix "transformer."; LlamaForCausalLM (and
  // Qwen2ForCausalLM, MistralForCausalLM, which name their tensors as it does) "model.".
  const bool llama_names = c.family == Family::kQwen2 || c.family == Family::kLlama;
  const std::string top = llama_names ? "model." : "transformer.";
  if (model->wte)
    add(top + (llama_names ? "embed_tokens.weight" : "wte.weight"), model->wte->weight);
  if (c.learned_positions()) add(top + "wpe.weight", model->wpe);
  for (std::int64_t l = 0; l < c.layers; ++l) {
    const Block& b = model->layers[static_cast<std::size_t>(l)];
    const std::string i = std::to_string(l);
    if (b->attn->null_sink.defined())  // gpt-oss's name for learned per-head sink logits
      add((llama_names ? "model.layers." + i + ".self_attn" : "transformer.h." + i + ".attn") +
              ".sinks",
          b->attn->null_sink);
    if (c.family == Family::kGpt2) {
      const std::string p = "transformer.h." + i + ".";
      add(p + "ln_1.weight", b->ln1->weight);
      add(p + "ln_1.bias", b->ln1->bias);
      add(p + "attn.c_attn.weight", b->attn->qkv->weight, 0, 0, true);
      add(p + "attn.c_attn.bias", b->attn->qkv->bias);
      add(p + "attn.c_proj.weight", b->attn->out->weight, 0, 0, true);
      add(p + "attn.c_proj.bias", b->attn->out->bias);
      add(p + "ln_2.weight", b->ln2->weight);
      add(p + "ln_2.bias", b->ln2->bias);
      add(p + "mlp.c_fc.weight", b->mlp->fc->weight, 0, 0, true);
      add(p + "mlp.c_fc.bias", b->mlp->fc->bias);
      add(p + "mlp.c_proj.weight", b->mlp->proj->weight, 0, 0, true);
      add(p + "mlp.c_proj.bias", b->mlp->proj->bias);
    } else if (llama_names) {
      const std::string p = "model.layers." + i + ".";
      add(p + "input_layernorm.weight", b->ln1->weight);
      for (const char* part : {"weight", "bias"}) {
        const bool weight = std::string(part) == "weight";
        if (!weight && !c.qkv_bias()) continue;  // Llama's q, k and v have no bias
        const torch::Tensor& t = weight ? b->attn->qkv->weight : b->attn->qkv->bias;
        add(p + "self_attn.q_proj." + part, t, 0, qd);
        add(p + "self_attn.k_proj." + part, t, qd, kvd);
        add(p + "self_attn.v_proj." + part, t, qd + kvd, kvd);
      }
      add(p + "self_attn.o_proj.weight", b->attn->out->weight);
      add(p + "post_attention_layernorm.weight", b->ln2->weight);
      add(p + "mlp.gate_proj.weight", b->mlp->fc->weight, 0, c.mlp);
      add(p + "mlp.up_proj.weight", b->mlp->fc->weight, c.mlp, c.mlp);
      add(p + "mlp.down_proj.weight", b->mlp->proj->weight);
    } else {
      const std::string p = "transformer.h." + i + ".";
      add(p + "ln_1.weight", b->ln1->weight);
      add(p + "ln_1.bias", b->ln1->bias);
      add(p + "attn.q_proj.weight", b->attn->qkv->weight, 0, qd);
      add(p + "attn.k_proj.weight", b->attn->qkv->weight, qd, kvd);
      add(p + "attn.v_proj.weight", b->attn->qkv->weight, qd + kvd, kvd);
      add(p + "attn.out_proj.weight", b->attn->out->weight);
      add(p + "mlp.fc_in.weight", b->mlp->fc->weight);
      add(p + "mlp.fc_in.bias", b->mlp->fc->bias);
      add(p + "mlp.fc_out.weight", b->mlp->proj->weight);
      add(p + "mlp.fc_out.bias", b->mlp->proj->bias);
    }
  }
  const std::string final_norm = llama_names ? "model.norm." : top + "ln_f.";
  add(final_norm + "weight", model->ln_f->weight);
  if (model->ln_f->bias.defined()) add(final_norm + "bias", model->ln_f->bias);
  if (model->lm_head) {
    add("lm_head.weight", model->lm_head->weight);
    if (model->lm_head->bias.defined()) add("lm_head.bias", model->lm_head->bias);
  }
  return slots;
}

namespace {

// One HF tensor as a source holds it: its shape and how to read it as float32 (after checking its
// values are finite), and what to name in an error.
struct HfSource {
  std::string source;
  std::vector<std::int64_t> shape;
  std::function<torch::Tensor()> read;
};
using Lookup = std::function<std::optional<HfSource>(const std::string&)>;

HfSource file_source(const SafetensorsFile& file, const TensorView& view) {
  return {file.source_name(), view.shape, [&file, &view] {
            file.require_finite(view);
            std::vector<float> data = to_float32(view);
            return torch::from_blob(data.data(), view.shape, torch::kFloat32).clone();
          }};
}

void load_from(Transformer& model, const Lookup& find, const std::string& source) {
  const std::vector<HfSlot> slots = hf_slots(model);
  std::vector<torch::Tensor> values;
  values.reserve(slots.size());
  for (const HfSlot& s : slots) {  // validate everything before touching the model
    auto found = find(s.hf_name);
    const std::string bare =
        s.hf_name.substr(s.hf_name.find('.') + 1);  // GPT2Model files drop the prefix
    if (!found && model->config().family == Family::kGpt2) found = find(bare);
    if (!found) {
      throw std::runtime_error(source + ": tensor '" + s.hf_name +
                               "' is missing (the config says " +
                               to_string(model->config().family) + ", " +
                               std::to_string(model->config().layers) + " layers)");
    }
    const torch::Tensor target = slot_view(s, s.param);
    const std::vector<std::int64_t> want(target.sizes().begin(), target.sizes().end());
    if (found->shape != want) {
      throw std::runtime_error(found->source + ": tensor '" + s.hf_name + "' has shape " +
                               join_shape(found->shape) + ", the config needs " + join_shape(want));
    }
    values.push_back(found->read());
  }
  torch::NoGradGuard no_grad;
  for (std::size_t i = 0; i < slots.size(); ++i)
    slot_view(slots[i], slots[i].param).copy_(values[i]);
}

}  // namespace

void load_hf_weights(Transformer& model, const SafetensorsFile& file) {
  load_from(
      model,
      [&file](const std::string& name) -> std::optional<HfSource> {
        const TensorView* t = file.find(name);
        if (t == nullptr) return std::nullopt;
        return file_source(file, *t);
      },
      file.source_name());
}

void load_hf_weights(Transformer& model, const SafetensorsCheckpoint& weights) {
  load_from(
      model,
      [&weights](const std::string& name) -> std::optional<HfSource> {
        const auto found = weights.find(name);
        if (!found) return std::nullopt;
        return file_source(*found->file, *found->tensor);
      },
      weights.source_name());
}

void load_hf_weights(Transformer& model, const std::map<std::string, torch::Tensor>& tensors,
                     const std::string& source) {
  load_from(
      model,
      [&tensors, &source](const std::string& name) -> std::optional<HfSource> {
        const auto it = tensors.find(name);
        if (it == tensors.end()) return std::nullopt;
        const torch::Tensor& t = it->second;
        return HfSource{source, t.sizes().vec(), [&t, &source, name] {
                          if (!torch::isfinite(t).all().item<bool>())
                            throw std::runtime_error(source + ": tensor '" + name +
                                                     "' holds a non-finite value");
                          return t.detach().to(torch::kFloat32).contiguous().clone();
                        }};
      },
      source);
}

std::map<std::string, torch::Tensor> hf_tensors(Transformer& model, bool gradients) {
  std::map<std::string, torch::Tensor> out;
  for (const HfSlot& s : hf_slots(model)) {
    const torch::Tensor source = gradients ? s.param.grad() : s.param;
    if (!source.defined()) continue;
    out[s.hf_name] = slot_view(s, source.detach()).to(torch::kFloat32).contiguous().clone();
  }
  return out;
}

void save_hf_weights(Transformer& model, const std::filesystem::path& path,
                     const std::map<std::string, std::string>& metadata) {
  std::vector<OwnedTensor> tensors;
  for (const auto& [name, t] : hf_tensors(model)) {
    OwnedTensor o;
    o.name = name;
    o.shape.assign(t.sizes().begin(), t.sizes().end());
    o.data.assign(t.data_ptr<float>(), t.data_ptr<float>() + t.numel());
    tensors.push_back(std::move(o));
  }
  std::map<std::string, std::string> all = metadata;
  all.insert({{"format", "pt"}, {"producer", "posbias"}});
  write_safetensors(path, tensors, all, Checksum::kSha256);
}

}  // namespace posbias
