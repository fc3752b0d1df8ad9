// What a head search (head_search.h) is asked to find, torch-free: the search's own options and
// the part of its result file (experiments/mech/head_search_record.h) that records them.
#pragma once

#include <cstdint>

namespace posbias {

enum class Construction;  // mech/constructions.h
enum class SearchFrequencies { kFree, kRope };

struct HeadSearchOptions {
  Construction function{};  // index, constructions.h's first value (checked in head_search.h)
  SearchFrequencies frequencies = SearchFrequencies::kFree;
  int head_dim = 8;                   // 2..256, even: F = head_dim / 2 rotary pairs
  double rope_theta = 10000;          // kRope: θ_f = rope_theta^(−2f/head_dim), fixed
  double omega = 0.7853981633974483;  // retrieval design: symbol phases s·ω (2π/8)
  int symbols = 8;                    // retrieval: 2..64
  int starts = 8;                     // random starts, beside the designs
  int steps = 400;                    // Adam steps per start
  std::uint64_t seed = 0;
};

}  // namespace posbias
