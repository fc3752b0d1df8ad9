// `posbias birth`: measured influence profiles at init (or of a checkpoint) against theory.
#include <memory>

#include "commands.h"
#include "experiments/birth/birth.h"
#include "posbias/core/parse.h"

namespace posbias::cli {
namespace {

struct BirthArgs {
  std::string layers = "0", d_model = "0", heads = "0", kv_heads = "0", mlp = "0", rotary_dim = "0";
  std::string length = "256", seeds = "8", probes = "16", query = "0", seed = "0",
              bootstrap = "200";
  BirthOptions options;
};

int to_int(const std::string& text, const char* name, std::int64_t lo, std::int64_t hi) {
  const std::int64_t v = parse_integer(text, name);
  if (v < lo || v > hi) {
    throw std::invalid_argument(std::string(name) + " must be in " + std::to_string(lo) + ".." +
                                std::to_string(hi) + ", got " + text);
  }
  return static_cast<int>(v);
}

}  // namespace

void register_birth(CLI::App& app, Action* selected) {
  auto a = std::make_shared<BirthArgs>();
  BirthOptions& o = a->options;
  CLI::App* cmd = app.add_subcommand("birth", torch_command_description("birth"));
  cmd->add_option("--arch", o.arch,
                  "preset (gpt2, gpt2-medium, qwen2-0.5b, gptj-hop) or family (gpt2, qwen2, gptj)")
      ->capture_default_str();
  cmd->add_option("--layers", a->layers, "number of layers (0 = the preset's)")
      ->capture_default_str();
  cmd->add_option("--d-model", a->d_model, "hidden size d (0 = the preset's)")
      ->capture_default_str();
  cmd->add_option("--heads", a->heads, "attention heads (0 = the preset's)")->capture_default_str();
  cmd->add_option("--kv-heads", a->kv_heads,
                  "key/value heads for grouped-query attention (0 = the preset's)")
      ->capture_default_str();
  cmd->add_option("--mlp", a->mlp, "MLP hidden width (0 = the preset's)")->capture_default_str();
  cmd->add_option("--rotary-dim", a->rotary_dim,
                  "rotary dims per head (0 = the preset's; whole head if unset)")
      ->capture_default_str();
  cmd->add_option("--pos", o.pos,
                  "positional encoding: learned, rope, none or alibi (default: the family's)");
  cmd->add_option("-L,--length", a->length, "sequence length L in tokens")->capture_default_str();
  cmd->add_option("--seeds", a->seeds, "seeds to average (weights and inputs redrawn per seed)")
      ->capture_default_str();
  cmd->add_option(
         "--method", o.method,
         "exact (all d cotangents in one batched backward), hutchinson (k Gaussian probes), "
         "or autograd (d separate VJPs, the slow reference)")
      ->capture_default_str();
  cmd->add_option("--probes", a->probes, "Hutchinson probes k")->capture_default_str();
  add_paths_option(cmd, &o.paths);
  cmd->add_option("-q,--query", a->query, "query position (0 = the last)")->capture_default_str();
  cmd->add_option("--input", o.input,
                  "gaussian (embeddings ~ N(0, init std²)) or tokens (random ids)")
      ->capture_default_str();
  cmd->add_option("--init", o.init,
                  "hf (Hugging Face init; GPT-2's residual projections / sqrt(2·layers)) or "
                  "unscaled (those projections drawn like every other weight)")
      ->capture_default_str();
  cmd->add_option("--seed", a->seed, "base seed; seed s uses seed + s")->capture_default_str();
  cmd->add_option("--bootstrap", a->bootstrap, "bootstrap resamples for the α CI")
      ->capture_default_str();
  cmd->add_option("--config", o.config, "Hugging Face config.json of a trained checkpoint");
  cmd->add_option("--weights", o.weights,
                  "model.safetensors of that checkpoint (measured on token ids)");
  cmd->add_option("--tokens", o.tokens,
                  "token-id file: one sequence per line (ids separated by spaces or commas)");
  cmd->add_option("--json", o.json, "result JSON (default: stdout)");
  cmd->add_option("--csv", o.csv,
                  "profile CSV: position, influence, seed0, ... (input for `theory fit`)");
  cmd->add_option("--plot", o.plot,
                  "figure stem: measured profile with seed band against fitted theory");
  cmd->callback([a, selected] {
    *selected = [a] {
      BirthOptions opt = a->options;
      opt.layers = to_int(a->layers, "--layers", 0, 1024);
      opt.d_model = to_int(a->d_model, "--d-model", 0, 65536);
      opt.heads = to_int(a->heads, "--heads", 0, 1024);
      opt.kv_heads = to_int(a->kv_heads, "--kv-heads", 0, 1024);
      opt.mlp = to_int(a->mlp, "--mlp", 0, 1000000);
      opt.rotary_dim = to_int(a->rotary_dim, "--rotary-dim", 0, 65536);
      opt.length = to_int(a->length, "--length", 2, 65536);
      opt.seeds = to_int(a->seeds, "--seeds", 1, 10000);
      opt.probes = to_int(a->probes, "--probes", 1, 100000);
      opt.query = to_int(a->query, "--query", 0, 65536);
      opt.seed = static_cast<std::uint64_t>(to_int(a->seed, "--seed", 0, 2000000000));
      opt.bootstrap = to_int(a->bootstrap, "--bootstrap", 0, 100000);
      run_birth(opt);
    };
  });
}

}  // namespace posbias::cli
