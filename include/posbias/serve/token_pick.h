// Choosing a served model's next token from its scores: greedy (temperature 0: the argmax), or
// sampled from the distribution at a temperature within a top-p nucleus, with the request's
// seed. The reported log-probabilities are the model's own (temperature 1), as OpenAI reports
// them, whatever the temperature the token was drawn at.
#pragma once

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "posbias/serve/batch_queue.h"

namespace posbias {

struct TokenPick {
  std::int64_t id = 0;
  double logprob = 0;                                // the model's, of `id`
  std::vector<std::pair<std::int64_t, double>> top;  // the `top` most likely, most likely first
};

// temperature in [0, 2], top_p in (0, 1], top ≥ 0. A NextToken without log-probabilities can
// only be picked greedily (its logprob is then 0 and `top` empty).
TokenPick pick_token(const NextToken& next, double temperature, double top_p, int top,
                     std::mt19937_64& rng);

}  // namespace posbias
