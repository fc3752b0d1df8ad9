#include "experiments/mech/heads_options.h"

#include "posbias/core/flag_rows.h"
#include "posbias/runfiles/checkpoint_selection_codec.h"

namespace posbias {
namespace {

// The causal tests' rows, reaching HeadsOptions::causal.
std::vector<FieldRow<HeadsOptions>> causal_option_rows() {
  using O = HeadsOptions;
  using C = CausalOptions;
  return member_fields(
      &O::causal,
      std::vector<FieldRow<C>>{
          field("ablate", &C::ablate,
                "hop run: mean-ablate each layer's attention output at the last checkpoint and "
                "report accuracy per hop and length (JSON `ablation`)"),
          field("patch", &C::patch,
                "Number run: patch each layer's attention output from an input whose query "
                "integer differs (JSON `patching`)"),
          field("causal_lengths", &C::lengths, "input lengths of --ablate and --patch"),
          integer_field("causal_count", &C::count,
                        "examples per hop and length (--ablate), pairs per length (--patch)"),
          field("layers", &C::layers,
                "0-based layers --ablate and --patch test (default: every layer); two or more: "
                "--ablate also ablates them all at once"),
          field("spans", &C::spans,
                "with --ablate: also ablate layers 0..k and k..last at once, for every k")});
}

std::vector<FieldRow<HeadsOptions>> heads_option_rows() {
  using O = HeadsOptions;
  std::vector<FieldRow<O>> r = {
      field("run", &O::run, "run directory from `posbias train`", "PATH"),
      named_field<CheckpointSelectionNames>("checkpoints", &O::checkpoints,
                                            checkpoint_selection_choices(),
                                            checkpoint_selection_type()),
      field("config", &O::config, "Hugging Face config.json (instead of --run)", "PATH"),
      field("weights", &O::weights,
            "model.safetensors for --config, or its model.safetensors.index.json when sharded",
            "PATH"),
      field("tokens", &O::tokens, "token ids, one sequence a line (default: random ids)", "PATH"),
      field("text", &O::text,
            "text file, one input per line (UTF-8), encoded by the checkpoint's own tokenizer "
            "(instead of --tokens)",
            "PATH"),
      field("tokenizer", &O::tokenizer,
            "with --text: the checkpoint's tokenizer.json or tokenizer.model, or the folder "
            "holding it (default: beside --config)",
            "PATH"),
      integer_field(
          "length", &O::length,
          "tokens per sample (0: the run's, the first token row's, the shortest line's, or 128)"),
      integer_field("samples", &O::samples, "samples averaged over"),
      seed_field("seed", &O::seed, "seed of the samples"),
      field("tau", &O::tau, "temperature of the pair weights softmax(|a_i - a_j| / tau)"),
      field("at_init", &O::at_init,
            "the scores' null: the run's model as training starts (its seed), not its "
            "checkpoints"),
      field("qk_scale", &O::qk_scale,
            "the scores' null: multiply every layer's query and key projections by this"),
      integer_field("rank_timeout", &O::rank_timeout,
                    "data-parallel ranks (posbias launch, torchrun): a run's checkpoints are split "
                    "over the ranks and gathered; seconds a rank waits for the others",
                    1)};
  for (FieldRow<O>& row : causal_option_rows()) r.push_back(std::move(row));
  return r;
}

}  // namespace

const std::vector<FieldRow<HeadsOptions>>& heads_option_fields() {
  static const std::vector<FieldRow<HeadsOptions>> table = heads_option_rows();
  return table;
}

}  // namespace posbias
