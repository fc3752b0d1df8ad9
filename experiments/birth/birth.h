// `posbias birth`: the measured influence profile of a model at initialization (or of a
// trained checkpoint), averaged over seeds, fitted against the theory of DESIGN.md §1.
//
// Per seed: fresh Hugging Face init (or the loaded weights), an input of L embeddings
// (Gaussian with the init std, random token ids, or ids from --tokens), and the profile
// p_j = ‖∂y_q/∂x_j‖_F from jacobian.h. The mean profile is fitted with theory/fit.h.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "posbias/arch/config.h"
#include "posbias/core/plot.h"
#include "posbias/theory/fit.h"

namespace posbias {

struct BirthOptions {
  std::string arch = "gpt2";  // preset (gpt2, gpt2-medium, qwen2-0.5b, gptj-hop) or family
  // Overrides of the preset; 0 keeps the preset's value.
  std::int64_t layers = 0, d_model = 0, heads = 0, kv_heads = 0, mlp = 0, rotary_dim = 0;
  std::string pos;            // learned | rope | none | alibi; empty keeps the family's
  std::int64_t length = 256;  // L
  int seeds = 8;
  std::string method = "exact";    // exact | hutchinson | autograd
  std::string paths = "linear";    // linear | quadrature: the headline fit (both are reported)
  std::int64_t probes = 16;        // Hutchinson probes
  std::int64_t query = 0;          // 0 = last
  std::string input = "gaussian";  // gaussian | tokens
  std::string init = "hf";         // hf | unscaled (GPT-2 residual projections not scaled)
  std::uint64_t seed = 0;          // base seed: seed s uses seed + s
  int bootstrap = 200;
  std::string config, weights, tokens;  // a trained checkpoint and its token file
  std::string json, csv, plot;
};

struct BirthResult {
  ModelConfig config;
  std::vector<std::vector<double>> profile_seeds;  // [seeds][q]
  std::vector<double> profile;                     // mean, positions 1..q
  FitResult fit;                                   // against the theory with --paths
  FitSpec fit_spec;
  FitResult other_fit;  // against the other path sum (no bootstrap)
  FitSpec other_spec;
  double entropy_ratio = 0;
  double seconds = 0;
  double peak_rss_mb = 0;
};

// Resolves the preset and overrides (throws std::invalid_argument for bad values).
ModelConfig birth_model_config(const BirthOptions& options);
BirthResult measure_birth(const BirthOptions& options);
nlohmann::json birth_json(const BirthOptions& options, const BirthResult& result);
std::string birth_csv(const BirthResult& result);
Figure birth_figure(const BirthResult& result, const std::string& title);
// Runs the measurement and writes --json / --csv / --plot (JSON to stdout when no file).
void run_birth(const BirthOptions& options);

}  // namespace posbias
