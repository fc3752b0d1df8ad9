#include "posbias/train/train_config.h"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "posbias/core/rng.h"
#include "posbias/tasks/hop_task.h"
#include "posbias/tasks/kv_task.h"
#include "posbias/tasks/passkey_task.h"

namespace posbias {
namespace {

void require(bool ok, const std::string& message) {
  if (!ok) throw std::invalid_argument(message);
}

// The passkey fields of a text run: a fraction in [0, 1], and 1..the names there are needles,
// more than one only with needles in the windows.
void check_needle_fields(const TrainConfig& c) {
  require(std::isfinite(c.needle_fraction) && c.needle_fraction >= 0 && c.needle_fraction <= 1,
          fmt::format("needle_fraction must be in [0, 1], got {:g}", c.needle_fraction));
  const int names = static_cast<int>(passkey_names().size());
  require(c.needles >= 1 && c.needles <= names,
          fmt::format("needles must be in 1..{} (one name each), got {}", names, c.needles));
  require(c.needle_fraction > 0 || c.needles == 1,
          "needles is for --needle-fraction above 0 (a plain text run has no needles)");
  if (c.needle_fraction > 0) parse_depth_prior(c.depth_prior);
}

}  // namespace

TrainConfig TrainConfig::defaults(Task task) {
  TrainConfig c;
  c.task = task;
  if (task == Task::kKv) {
    c.arch = Family::kQwen2;
    c.layers = 4, c.d_model = 128, c.heads = 4, c.mlp = 512, c.rotary_dim = 0;
    c.length = 128;
    c.warmup = 100;
    c.dropout = 0.0;
    c.eval_every = 100;
    c.log_checkpoints = 8;
    return c;
  }
  if (task != Task::kText) return c;
  c.arch = Family::kGpt2;
  c.layers = 6, c.d_model = 256, c.heads = 4, c.mlp = 1024, c.rotary_dim = 0;
  c.length = 256;
  c.batch = 32;
  c.lr = 2e-3;
  c.warmup = 50;
  c.dropout = 0.0;  // under one pass-equivalent of data per parameter, dropout only slows it
  c.eval_every = 25;
  c.checkpoint_every = 100;
  c.log_checkpoints = 12;
  return c;
}

std::int64_t TrainConfig::default_steps() const {
  switch (task) {
    case Task::kNumber:
      return 3000;
    case Task::kLetter:
      return 5000;
    case Task::kText:
      return 700;  // 5.7 M tokens, about 3.6 passes over the training split
    case Task::kKv:
      return 2000;
  }
  return 3000;
}

std::int64_t TrainConfig::vocab() const {
  if (task == Task::kKv) return static_cast<std::int64_t>(kv_vocabulary().size());
  if (task != Task::kText) return Vocabulary::of(task).size();
  return tokenizer == TokenizerKind::kBytes ? 256 : vocab_size;
}

bool TrainConfig::checkpoint_at(std::int64_t step) const {
  if (step == steps || (step > 0 && step % checkpoint_every == 0)) return true;
  if (log_checkpoints <= 0) return false;
  if (step == 0) return true;
  // Steps round(steps^(k/(n-1))), k = 0..n-1: 1 .. steps, evenly spaced in log(step).
  const int n = log_checkpoints;
  for (int k = 0; k < n; ++k) {
    const double x = n == 1 ? 1.0 : static_cast<double>(k) / (n - 1);
    if (std::llround(std::pow(static_cast<double>(steps), x)) == step) return true;
  }
  return false;
}

int TrainConfig::step_length(std::int64_t step) const {
  if (length_max <= 0) return length;
  Rng rng = Rng::stream(seed ^ 0x6c656e677468ULL, static_cast<std::uint64_t>(step));
  return static_cast<int>(rng.between(length, length_max));
}

void TrainConfig::finalize() {
  if (steps == 0) steps = default_steps();
  if (task == Task::kText) {
    if (!pos) pos = family_default(arch).pos;
    require(length >= 2 && length <= 8192, "length must be in 2..8192 for text");
    require(tokenizer == TokenizerKind::kBytes ||
                (vocab_size >= kMinSpmVocab && vocab_size <= kMaxSpmVocab),
            "vocab_size must be in " + std::to_string(kMinSpmVocab) + ".." +
                std::to_string(kMaxSpmVocab));
    require(eval_windows >= 1 && eval_windows <= 10000, "eval_windows must be in 1..10000");
    check_needle_fields(*this);
  } else if (task == Task::kKv) {
    if (!pos) pos = family_default(arch).pos;
    const int most = kv_pairs(length);  // refuses a length outside the kv range
    require(
        pairs_max >= 0 && pairs_max <= most,
        fmt::format("pairs_max must be in 0..{} at length {} (0: as many as fit)", most, length));
    require(pairs_min >= kKvMinPairs && pairs_min <= (pairs_max ? pairs_max : most),
            fmt::format("pairs_min must be in {}..{} (pairs_max, or as many as fit)", kKvMinPairs,
                        pairs_max ? pairs_max : most));
    parse_depth_prior(depth_prior);
  } else {
    require(arch == Family::kGptj, "hop runs train the gptj-hop model; arch is for --task text");
    if (!pos) pos = PosEncoding::kRope;
    require(*pos != PosEncoding::kLearned,
            "hop runs take pos rope, alibi or none: learned positions end at the training "
            "length, and eval measures beyond it");
    require(!hops.empty(), "at least one hop count is needed");
    for (int h : hops) validate_spec(task, h, length, Variant::kStandard);
    validate_model_length(task, length);
    require(length_max == 0 || length_max >= length,
            "length_max must be 0 or at least the length " + std::to_string(length));
    if (length_max > 0) validate_model_length(task, length_max);
  }
  require(is_hop_task(task) || length_max == 0, "length_max is for the hop tasks");
  require(task == Task::kKv ||
              (pairs_min == TrainConfig{}.pairs_min && pairs_max == TrainConfig{}.pairs_max),
          "pairs_min and pairs_max are for --task kv");
  require(task == Task::kKv || (task == Task::kText && needle_fraction > 0) ||
              depth_prior == TrainConfig{}.depth_prior,
          "depth_prior is for --task kv, or --task text with --needle-fraction above 0");
  require(task == Task::kText || (needle_fraction == TrainConfig{}.needle_fraction &&
                                  needles == TrainConfig{}.needles),
          "needle_fraction and needles are for --task text");
  require(window >= 0 && window <= 1 << 30, "window must be in 0..2^30 (0: no window)");
  require(answers == "true" || answers == "shuffled",
          "answers must be true or shuffled, got '" + answers.substr(0, 40) + "'");
  require(answers == "true" || is_hop_task(task), "answers shuffled is for the hop tasks");
  require(log_checkpoints >= 0 && log_checkpoints <= 1000, "log_checkpoints must be in 0..1000");
  require(layers >= 1 && layers <= 256, "layers must be in 1..256");
  require(d_model >= 2 && d_model <= 16384, "d_model must be in 2..16384");
  require(heads >= 1 && d_model % heads == 0, "heads must divide d_model");
  require(mlp >= 1 && mlp <= 1 << 20, "mlp must be in 1..1048576");
  require(rotary_dim >= 0 && rotary_dim <= d_model / heads && rotary_dim % 2 == 0,
          "rotary_dim must be even and at most the head size");
  require(std::isfinite(rope_theta) && rope_theta > 1, "rope_theta must be > 1");
  require(dropout >= 0 && dropout < 1, "dropout must be in [0, 1)");
  require(init_std > 0 && init_std < 10, "init_std must be in (0, 10)");
  require(steps >= 1 && steps <= 100'000'000, "steps must be in 1..1e8");
  require(batch >= 1 && batch <= 65536, "batch must be in 1..65536");
  require(std::isfinite(lr) && lr > 0 && lr < 10, "lr must be in (0, 10)");
  require(warmup >= 0 && warmup <= steps, "warmup must be in 0..steps");
  require(std::isfinite(weight_decay) && weight_decay >= 0 && weight_decay < 1,
          "weight_decay must be in [0, 1)");
  require(beta1 >= 0 && beta1 < 1 && beta2 >= 0 && beta2 < 1, "betas must be in [0, 1)");
  require(adam_eps > 0 && adam_eps < 1, "adam_eps must be in (0, 1)");
  require(std::isfinite(grad_clip) && grad_clip >= 0, "grad_clip must be >= 0");
  require(eval_every >= 1, "eval_every must be >= 1");
  require(eval_per_hop >= 1 && eval_per_hop <= 100000, "eval_per_hop must be in 1..100000");
  require(checkpoint_every >= 1 && checkpoint_every % eval_every == 0,
          "checkpoint_every must be a positive multiple of eval_every");
}

ModelConfig TrainConfig::model_config() const {
  ModelConfig c = is_hop_task(task) ? model_preset("gptj-hop") : family_default(arch);
  c.vocab = vocab();
  c.pos = pos.value_or(c.pos);
  if (!is_hop_task(task)) {
    // A kv model reads the example and the value's first kKvValueTokens − 1 tokens.
    c.max_positions = task == Task::kKv ? length + kKvValueTokens - 1 : length;
    c.attn_init_scale = 1.0;
  }
  c.window = window;
  c.layers = layers;
  c.d_model = d_model;
  c.heads = c.kv_heads = heads;
  c.mlp = mlp;
  c.rotary_dim = rotary_dim;
  c.rope_theta = rope_theta;
  c.dropout = dropout;
  c.init_std = init_std;
  c.validate();
  return c;
}

nlohmann::json train_config_to_json(const TrainConfig& c) {
  return {{"task", task_name(c.task)},
          {"hops", c.hops},
          {"length", c.length},
          {"layers", c.layers},
          {"d_model", c.d_model},
          {"heads", c.heads},
          {"mlp", c.mlp},
          {"rotary_dim", c.rotary_dim},
          {"rope_theta", c.rope_theta},
          {"dropout", c.dropout},
          {"init_std", c.init_std},
          {"steps", c.steps},
          {"batch", c.batch},
          {"lr", c.lr},
          {"warmup", c.warmup},
          {"weight_decay", c.weight_decay},
          {"beta1", c.beta1},
          {"beta2", c.beta2},
          {"adam_eps", c.adam_eps},
          {"grad_clip", c.grad_clip},
          {"seed", c.seed},
          {"eval_every", c.eval_every},
          {"eval_per_hop", c.eval_per_hop},
          {"checkpoint_every", c.checkpoint_every},
          {"log_checkpoints", c.log_checkpoints},
          {"arch", to_string(c.arch)},
          {"pos", c.pos ? nlohmann::json(to_string(*c.pos)) : nlohmann::json()},
          {"corpus", c.corpus},
          {"tokenizer", to_string(c.tokenizer)},
          {"vocab_size", c.vocab_size},
          {"eval_windows", c.eval_windows},
          {"pairs_min", c.pairs_min},
          {"pairs_max", c.pairs_max},
          {"depth_prior", c.depth_prior},
          {"needle_fraction", c.needle_fraction},
          {"needles", c.needles},
          {"window", c.window},
          {"length_max", c.length_max},
          {"answers", c.answers}};
}

TrainConfig train_config_from_json(const nlohmann::json& j, const TrainConfig& base) {
  require(j.is_object(), "a training config must be a JSON object");
  TrainConfig c = base;
  for (const auto& item : j.items()) {
    const std::string& key = item.key();  // not a structured binding: lambdas capture these
    const nlohmann::json& value = item.value();
    auto number = [&](auto& field) {
      using T = std::decay_t<decltype(field)>;
      if (std::is_integral_v<T> ? !value.is_number_integer() : !value.is_number()) {
        throw std::invalid_argument("config field '" + key + "' must be a number" +
                                    (std::is_integral_v<T> ? " (an integer)" : ""));
      }
      field = value.get<T>();
    };
    if (key == "task") {
      require(value.is_string(), "config field 'task' must be a string");
      c.task = parse_task(value.get<std::string>());
    } else if (key == "hops") {
      require(value.is_array(), "config field 'hops' must be a list of integers");
      c.hops.clear();
      for (const auto& h : value) {
        require(h.is_number_integer(), "config field 'hops' must be a list of integers");
        c.hops.push_back(h.get<int>());
      }
    } else if (key == "length")
      number(c.length);
    else if (key == "layers")
      number(c.layers);
    else if (key == "d_model")
      number(c.d_model);
    else if (key == "heads")
      number(c.heads);
    else if (key == "mlp")
      number(c.mlp);
    else if (key == "rotary_dim")
      number(c.rotary_dim);
    else if (key == "rope_theta")
      number(c.rope_theta);
    else if (key == "dropout")
      number(c.dropout);
    else if (key == "init_std")
      number(c.init_std);
    else if (key == "steps")
      number(c.steps);
    else if (key == "batch")
      number(c.batch);
    else if (key == "lr")
      number(c.lr);
    else if (key == "warmup")
      number(c.warmup);
    else if (key == "weight_decay")
      number(c.weight_decay);
    else if (key == "beta1")
      number(c.beta1);
    else if (key == "beta2")
      number(c.beta2);
    else if (key == "adam_eps")
      number(c.adam_eps);
    else if (key == "grad_clip")
      number(c.grad_clip);
    else if (key == "seed") {
      require(value.is_number_unsigned() ||
                  (value.is_number_integer() && value.get<std::int64_t>() >= 0),
              "config field 'seed' must be a non-negative integer");
      number(c.seed);
    } else if (key == "eval_every")
      number(c.eval_every);
    else if (key == "eval_per_hop")
      number(c.eval_per_hop);
    else if (key == "checkpoint_every")
      number(c.checkpoint_every);
    else if (key == "log_checkpoints")
      number(c.log_checkpoints);
    else if (key == "vocab_size")
      number(c.vocab_size);
    else if (key == "eval_windows")
      number(c.eval_windows);
    else if (key == "pairs_min")
      number(c.pairs_min);
    else if (key == "pairs_max")
      number(c.pairs_max);
    else if (key == "window")
      number(c.window);
    else if (key == "length_max")
      number(c.length_max);
    else if (key == "needle_fraction")
      number(c.needle_fraction);
    else if (key == "needles")
      number(c.needles);
    else if (key == "arch" || key == "tokenizer" || key == "corpus" || key == "depth_prior" ||
             key == "answers") {
      require(value.is_string(), "config field '" + key + "' must be a string");
      const std::string text = value.get<std::string>();
      if (key == "arch") c.arch = parse_family(text);
      if (key == "tokenizer") c.tokenizer = parse_tokenizer_kind(text);
      if (key == "corpus") c.corpus = text;
      if (key == "depth_prior") c.depth_prior = text;
      if (key == "answers") c.answers = text;
    } else if (key == "pos") {
      require(value.is_string() || value.is_null(), "config field 'pos' must be a string");
      c.pos = value.is_null()
                  ? std::nullopt
                  : std::optional<PosEncoding>(parse_pos_encoding(value.get<std::string>()));
    } else if (key == "rank" || key == "world_size") {
      // Written by runs before data-parallel training: where a run trains is not part of it.
    } else
      throw std::invalid_argument("unknown config field '" + key.substr(0, 40) + "'");
  }
  return c;
}

}  // namespace posbias
