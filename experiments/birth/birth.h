// `posbias birth`: the measured influence profile of a model at initialization (or of a
// trained checkpoint), averaged over seeds, fitted against the theory (docs/theory.md).
//
// Per seed: fresh Hugging Face init (or the loaded weights), an input of L embeddings
// (Gaussian with the init std, random token ids, or ids from --tokens), and the profile
// p_j = ‖∂y_q/∂x_j‖_F from jacobian.h. The mean profile is fitted with theory/fit.h.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "posbias/arch/config.h"
#include "posbias/core/plot.h"
#include "posbias/jacobian/method.h"
#include "posbias/theory/fit.h"

namespace posbias {

// What the model reads: Gaussian embeddings with the init std, or random token ids.
enum class BirthInput { kGaussian, kTokens };
BirthInput parse_birth_input(const std::string& name);  // gaussian | tokens
std::string to_string(BirthInput input);
// hf: Hugging Face's init (GPT-2's residual projections / sqrt(2·layers)); unscaled: those
// projections drawn like every other weight.
enum class BirthInit { kHf, kUnscaled };
BirthInit parse_birth_init(const std::string& name);  // hf | unscaled
std::string to_string(BirthInit init);

struct BirthOptions {
  std::string arch = "gpt2";  // preset (gpt2, gpt2-medium, qwen2-0.5b, gptj-hop) or family
  // Overrides of the preset; 0 keeps the preset's value.
  std::int64_t layers = 0, d_model = 0, heads = 0, kv_heads = 0, mlp = 0, rotary_dim = 0;
  std::optional<PosEncoding> pos;  // none keeps the family's
  std::int64_t length = 256;       // L
  int seeds = 8;
  JacobianMethod method = JacobianMethod::kExact;
  PathSum paths = PathSum::kLinear;  // the headline fit (both path sums are reported)
  std::int64_t probes = 16;          // Hutchinson probes
  std::int64_t query = 0;            // 0 = last
  BirthInput input = BirthInput::kGaussian;
  BirthInit init = BirthInit::kHf;
  std::uint64_t seed = 0;  // base seed: seed s uses seed + s
  int bootstrap = 200;
  std::string config, weights, tokens;  // a trained checkpoint and its token file
  std::string json, csv, plot;
};

struct BirthResult {
  BirthOptions options;  // what was measured
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
// {"config", "measurement", the fit (theory/fit_command.h), "path_sums", "profile", ...}.
nlohmann::json to_json(const BirthResult& result);
std::string birth_csv(const BirthResult& result);
Figure birth_figure(const BirthResult& result, const std::string& title);
// Runs the measurement and writes --json / --csv / --plot (JSON to stdout when no file).
void run_birth(const BirthOptions& options);

}  // namespace posbias
