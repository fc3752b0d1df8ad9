// The BOS sink token of `train --sink` (remedy 4a of docs/mitigations.md): every sequence a sink
// run's model reads starts with one dedicated token at position 0, and the example follows from
// position 1. The token is a new id after the task's vocabulary (kv: id 39, written "<bos>"), so
// the model has an embedding row (and an output row) of its own for it. Built for kv runs;
// TrainConfig refuses the option for the other tasks.
#pragma once

#include <cstdint>
#include <string_view>

#include "posbias/model/transformer.h"

namespace posbias {

struct TrainConfig;

constexpr std::string_view kSinkToken = "<bos>";

// The sink token's id for a kv run: the size of the kv vocabulary.
std::int64_t sink_token_id();

// The tokens a model reads before the example: 1 with the sink, 0 without.
constexpr int sink_tokens(bool sink) { return sink ? 1 : 0; }

// A sink run's initial weights, after model->init_weights(c.seed): every weight of the model
// without the sink is copied bit for bit from that model at the same seed (the rows of the
// token embedding, the output head and a learned position table that both models have), so a
// sink run and its baseline start from the same weights; the one row each of those tables has
// more (the sink token's, and the last position's) keeps what init_weights drew for it. Does
// nothing when !c.sink.
void init_sink_weights(Transformer& model, const TrainConfig& c);

}  // namespace posbias
