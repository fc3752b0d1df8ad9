// How a forward computes attention, as a name a command line and a result file carry without
// libtorch: dense keeps the [B, H, L, L] pattern (what hooks and head scores read); blockwise
// keeps O(L) per head and computes scores one tile at a time (model/blockwise_attention.h).
// model/memory_plan.h chooses between them when a command is not told (`--attention auto`).
// A record holds the enum (its codec: arch_codecs.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace posbias {

enum class AttentionPath { kDense, kBlockwise };

// Queries (and keys) per tile of the blockwise path: tiles of [B, H, 128, 128] scores.
inline constexpr std::int64_t kAttentionTile = 128;

std::string to_string(AttentionPath path);  // "dense", "blockwise"
// dense | blockwise; std::invalid_argument listing the names otherwise ("unknown attention path
// 'x' (use dense or blockwise)").
AttentionPath parse_attention_path(const std::string& name);
// --attention's values: "auto" (nullopt: the memory plan chooses), "dense" or "blockwise".
std::optional<AttentionPath> parse_attention_choice(const std::string& name);
std::string to_string(std::optional<AttentionPath> choice);

}  // namespace posbias
