// Hugging Face checkpoints ↔ posbias transformers: the tensor-name mapping for GPT-2, Qwen2,
// Llama (and Mistral) and GPT-J (including GPT-2's transposed Conv1D weights and the q/k/v and
// gate/up matrices posbias fuses), loading from a validated safetensors file and saving with HF
// names.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "posbias/hf/safetensors.h"
#include "posbias/hf/safetensors_index.h"
#include "posbias/model/transformer.h"

namespace posbias {

// One HF tensor and where it lives in the model: rows [row_begin, row_begin + rows) of an
// internal parameter (all rows when rows == 0), transposed for GPT-2's Conv1D layout.
struct HfSlot {
  std::string hf_name;
  torch::Tensor param;
  std::int64_t row_begin = 0, rows = 0;
  bool transposed = false;
};

std::vector<HfSlot> hf_slots(Transformer& model);

// Copies every slot from the file (accepting GPT-2 names with or without "transformer.";
// extra tensors such as GPT-2's attention-mask buffers are ignored). Throws std::runtime_error
// naming a missing tensor, a shape mismatch, an unusable dtype or a non-finite value, before
// changing any parameter.
void load_hf_weights(Transformer& model, const SafetensorsFile& file);
// The same from a checkpoint's shards (model.safetensors.index.json) or its one file.
void load_hf_weights(Transformer& model, const SafetensorsCheckpoint& weights);
// The same from tensors held in memory under HF names (a training checkpoint's, read through its
// own model: train/checkpoint.h's load_model_weights); `source` names them in errors.
void load_hf_weights(Transformer& model, const std::map<std::string, torch::Tensor>& tensors,
                     const std::string& source);

// The model's parameters (or their gradients) under Hugging Face names, as float32 copies.
std::map<std::string, torch::Tensor> hf_tensors(Transformer& model, bool gradients = false);

// Writes model.safetensors with HF names, atomically, with its SHA-256 (kChecksumKey) and
// `metadata` (a training run's config, for one) in the safetensors metadata.
void save_hf_weights(Transformer& model, const std::filesystem::path& path,
                     const std::map<std::string, std::string>& metadata = {});

}  // namespace posbias
