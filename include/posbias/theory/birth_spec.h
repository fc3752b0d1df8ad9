// What `posbias birth` builds and how it measures it: the model at initialization (a preset or
// family, its overrides, the positional encoding, a window, a null sink) and the measurement
// (length, seeds, the Jacobian method, the query, the input, the init, the no-fit estimator), as
// one field table (core/field_table.h). birth's flags with their help, type and parsing come from
// it (apps/posbias), and so does a command line that builds the spec again (birth_flags.h), which
// birth's report and `theory design` write. Each row's from_flag parses the flag's text as the
// command line always has (ranges, a seed, "last" for the query) and gives the field's JSON value.
//
// In the library rather than in experiments/birth because two experiments use it: birth
// measures a spec (its BirthOptions, experiments/birth/birth.h, are this spec and birth's inputs,
// run and outputs) and `theory design` writes the spec of each operator birth can build. Not in
// the table (their flags are registered by hand, in BirthOptions): --paths, whose help `theory`
// shares; the trained-model inputs (--config, --weights, --tokens, --text, --tokenizer, --target),
// the run (--run, --checkpoints), the memory plan (--attention, --memory-budget), the ranks
// (--rank-timeout) and the outputs (--json, --csv, --plot, --resume).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "posbias/arch/config.h"
#include "posbias/core/field_table.h"
#include "posbias/theory/alpha_estimator.h"
#include "posbias/theory/influence_method.h"

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

struct BirthSpec {
  std::string arch = "gpt2";  // a preset (model_preset_names()) or a family
  // Overrides of the preset; 0 keeps the preset's value.
  std::int64_t layers = 0, d_model = 0, heads = 0, kv_heads = 0, mlp = 0, rotary_dim = 0;
  std::optional<PosEncoding> pos;   // none keeps the family's
  std::int64_t window = 0;          // sliding-window attention of W keys; 0 = full causal
  double attn_init_scale = 1.0;     // × the attention output projection's init std
  std::optional<double> null_sink;  // a null sink of logit b in every head; none: plain softmax
  AlphaEstimator alpha_estimator = AlphaEstimator::kPositions;  // α̂ of the headline no-fit
  int stay_probes = kStayProbes;  // Gaussian probes per layer behind the positions' MLP gains
  std::int64_t length = 256;      // L
  int seeds = 8;
  JacobianMethod method = JacobianMethod::kExact;
  std::int64_t probes = 16;           // Hutchinson probes
  std::optional<std::int64_t> query;  // the query's position; none: the last
  BirthInput input = BirthInput::kGaussian;
  BirthInit init = BirthInit::kHf;
  std::uint64_t seed = 0;  // base seed: seed s uses seed + s
  int bootstrap = 200;
};

// In the order `posbias birth --help` lists them.
const std::vector<FieldRow<BirthSpec>>& birth_spec_fields();

}  // namespace posbias
