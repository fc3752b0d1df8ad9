#include "posbias/train/trainer.h"

#include <ATen/Parallel.h>
#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <thread>

#include "posbias/core/atomic_file.h"
#include "posbias/core/machine_record.h"
#include "posbias/core/memory.h"
#include "posbias/core/progress.h"
#include "posbias/core/rng.h"
#include "posbias/hf/hf_config.h"
#include "posbias/model/hf_weights.h"
#include "posbias/model/memory_plan.h"
#include "posbias/runfiles/hop_key.h"
#include "posbias/runfiles/metrics.h"
#include "posbias/runfiles/run_header.h"
#include "posbias/runfiles/training_figures.h"
#include "posbias/runfiles/training_summary.h"
#include "posbias/train/checkpoint.h"
#include "posbias/train/hop_eval.h"
#include "posbias/train/kv_batch.h"
#include "posbias/train/middle_weight.h"
#include "posbias/train/optimizer.h"
#include "posbias/train/passkey_batch.h"
#include "posbias/train/position_ids.h"
#include "posbias/train/position_table_init.h"
#include "posbias/train/precision_scope.h"
#include "posbias/train/sink_token.h"
#include "posbias/train/text_eval.h"
#include "posbias/train/text_run.h"

namespace posbias {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// `--answers shuffled`: the batch's answers [B] permuted among its examples, from a stream of
// (seed, step, first example) that nothing else draws from, so a step is reproducible.
torch::Tensor shuffled_answers(const torch::Tensor& answers, std::uint64_t seed, std::int64_t step,
                               std::int64_t first) {
  std::vector<std::int64_t> order(static_cast<std::size_t>(answers.size(0)));
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<std::int64_t>(i);
  Rng rng = Rng::stream(seed ^ 0x616e7377657273ULL, static_cast<std::uint64_t>(step),
                        static_cast<std::uint64_t>(first));
  rng.shuffle(order);
  return answers.index({torch::tensor(order, torch::kInt64)});
}

// The held-out set: balanced over hops, targets and answers, from a stream training never uses.
// Generated a batch at a time at every evaluation (evaluate_hops), never held whole.
DatasetSpec held_out_spec(const TrainConfig& c) {
  DatasetSpec spec;
  spec.task = c.task;
  spec.hops = c.hops;
  spec.length = c.length;
  spec.count = static_cast<std::int64_t>(c.eval_per_hop) * static_cast<std::int64_t>(c.hops.size());
  spec.seed = c.seed ^ 0x5EED0E7A1ull;
  return spec;
}

// The kv held-out set: eval_per_hop examples at the training length with the most pairs that
// fit, queried pairs uniform, from a stream training never uses.
KvSpec kv_held_out_spec(const TrainConfig& c) {
  KvSpec spec;
  spec.length = c.length;
  spec.count = c.eval_per_hop;
  spec.seed = c.seed ^ 0x5EED0E7A1ull;
  return spec;
}

// Exact match over the kv held-out set, generated a batch at a time (one batch held, whatever
// eval_per_hop is), as the memory plan counts it.
double kv_held_out_accuracy(Transformer& model, const TrainConfig& c) {
  const std::int64_t rows = eval_batch_size(kv_input_length(c.length, c.sink));
  std::int64_t correct = 0, total = 0;
  std::vector<KvExample> batch;
  auto score = [&] {
    for (bool right : kv_exact_matches(model, batch, rows, c.sink)) correct += right ? 1 : 0;
    total += static_cast<std::int64_t>(batch.size());
    batch.clear();
  };
  for_each_kv_example(kv_held_out_spec(c), [&](const KvExample& ex) {
    batch.push_back(ex);
    if (static_cast<std::int64_t>(batch.size()) == rows) score();
  });
  if (!batch.empty()) score();
  return static_cast<double>(correct) / static_cast<double>(total);
}

// A metrics row is logged at step 0, every eval_every-th step and the last step.
bool logged_at(const TrainConfig& c, std::int64_t step) {
  return step == 0 || step % c.eval_every == 0 || step == c.steps;
}

// The steps of a run's metrics rows up to `last`.
std::vector<std::int64_t> logged_steps(const TrainConfig& c, std::int64_t last) {
  std::vector<std::int64_t> out;
  for (std::int64_t step = 0; step <= last; ++step)
    if (logged_at(c, step)) out.push_back(step);
  return out;
}

// The hop step's mean loss over the batch b, its gradient written to flat.grads (the
// batch-parallel step, batch_shards): `shards` contiguous shards of the batch, each forwarded
// and differentiated on a thread of its own with one intra-op thread (OpenMP's thread count is
// per thread, and at::parallel_for and oneDNN's and OpenBLAS's products read the calling
// thread's), each shard's gradient taken with autograd::grad (nothing accumulates into .grad
// from two threads), then summed in shard order: the same numbers on every run.
double sharded_hop_gradients(Transformer& model, FlatParams& flat, const HopBatch& b,
                             const torch::Tensor& position_ids, std::uint64_t dropout_seed,
                             Precision precision, int shards) {
  const std::int64_t rows = b.ids.size(0);
  const std::vector<torch::Tensor> params = model->parameters();
  std::vector<double> losses(static_cast<std::size_t>(shards));
  std::vector<std::vector<torch::Tensor>> grads(static_cast<std::size_t>(shards));
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(shards));
  auto run = [&](std::size_t s) {
    try {
      at::internal::lazy_init_num_threads();  // else the first parallel_for resets the count
      omp_set_num_threads(1);
      const std::int64_t begin = rows * static_cast<std::int64_t>(s) / shards,
                         end = rows * static_cast<std::int64_t>(s + 1) / shards;
      const BatchShard shard{
          begin, rows, position_ids.defined() ? position_ids.slice(0, begin, end) : torch::Tensor(),
          dropout_seed};
      torch::Tensor loss;
      {
        const PrecisionScope scope(precision);  // the forward pass only
        // The rows' terms of the whole batch's mean: their sum over the batch size.
        loss = torch::cross_entropy_loss(
                   model->last_logits(b.ids.slice(0, begin, end), shard).to(torch::kFloat32),
                   b.answers.slice(0, begin, end), {}, at::Reduction::Sum) /
               static_cast<double>(rows);
      }
      grads[s] = torch::autograd::grad({loss}, params, {}, /*retain_graph=*/false,
                                       /*create_graph=*/false, /*allow_unused=*/true);
      losses[s] = loss.item<double>();
    } catch (...) {
      errors[s] = std::current_exception();
    }
  };
  std::vector<std::thread> threads;
  for (std::size_t s = 0; s < static_cast<std::size_t>(shards); ++s) threads.emplace_back(run, s);
  for (std::thread& t : threads) t.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
  torch::NoGradGuard no_grad;
  double loss = 0;
  for (std::size_t s = 0; s < grads.size(); ++s) {
    loss += losses[s];
    for (std::size_t i = 0; i < params.size(); ++i) {
      const ParamSlot& slot = flat.slots()[i];
      torch::Tensor into = flat.grads.narrow(0, slot.offset, slot.numel);
      const torch::Tensor& g = grads[s][i];
      if (!g.defined()) {
        if (s == 0) into.zero_();
      } else if (s == 0) {
        into.copy_(g.reshape({-1}));
      } else {
        into.add_(g.reshape({-1}));
      }
    }
  }
  return loss;
}

}  // namespace

int batch_shards(const TrainConfig& c, int threads, bool data_parallel) {
  const bool fits = threads >= 2 && is_hop_task(c.task) && !data_parallel &&
                    c.precision == Precision::kFp32 && c.batch >= 2 * threads;
  return fits ? threads : 1;
}

namespace {

// RUN_DIR/config.json: the run's model as Hugging Face names it, for `--config` beside its
// model.safetensors or any of its checkpoints (`birth --weights RUN/checkpoints/step_N...`).
void write_hf_config(const std::filesystem::path& run_dir, const TrainConfig& c) {
  write_file_atomic(run_dir / "config.json",
                    to_json(hf_config_from_model(c.model_config())).dump(2) + "\n");
}

void write_outputs(const std::filesystem::path& run_dir, const TrainConfig& c, Transformer& model,
                   const std::vector<MetricsRow>& rows, const TextRunData* text,
                   TrainingSummary& summary) {
  summary.metrics = accuracy_summary(rows);
  if (text) summary.heldout = evaluate_heldout_split(c, model, *text);
  write_file_atomic(run_dir / "summary.json", to_json(summary).dump(2) + "\n");
  render_run_training_figures(rows, c, run_dir / "training");
  // Bound to the run: its readers check the checksum and the config (open_model_weights).
  save_hf_weights(model, run_dir / "model.safetensors",
                  {{std::string(kRunConfigKey), train_config_to_json(c).dump()}});
  write_hf_config(run_dir, c);
}

}  // namespace

Trainer::Trainer(const TrainConfig& c, const std::vector<std::int32_t>* stream,
                 ProcessGroup* process_group)
    : config(c), text_stream(stream), group(process_group) {
  if (c.task == Task::kText && stream == nullptr)
    throw std::logic_error("a text trainer needs its token stream");
  // No step draws from torch's global generator, and the trainer leaves it alone:
  // init_weights uses a generator of its own (and building the model leaves the global one as
  // it was), and dropout masks come from posbias streams keyed by (seed, step, rank)
  // (set_dropout_seed in step()), so a resumed run repeats its steps exactly with no saved RNG
  // state.
  require_precision_supported(c.precision);
  model = Transformer(c.model_config());
  model->init_weights(c.seed);
  init_sink_weights(model, c);
  scale_position_table_init(model, c);
  flat = std::make_unique<FlatParams>(*model);
  adam = std::make_unique<AdamW>(*flat, c);
  if (group) {
    if (c.batch % group->size() != 0)  // run_training refuses this before the ranks join
      throw std::logic_error("Trainer: the batch does not split over the ranks");
    group->broadcast({flat->params});  // the same seed gives the same weights; this makes sure
    reducer = std::make_unique<GradientReducer>(*flat, *model, *group);
  }
  model->train();
}

double Trainer::step(std::int64_t step) {
  const TrainConfig& c = config;
  const auto s = static_cast<std::uint64_t>(step);
  const std::uint64_t dropout_seed =
      Rng::stream(c.seed, s, static_cast<std::uint64_t>(rank()) + 7).next();
  model->set_dropout_seed(dropout_seed);
  const std::int64_t local_batch = c.batch / world_size(), first = rank() * local_batch;
  torch::Tensor loss;
  std::optional<double> sharded_loss;  // the batch-parallel step's (gradients already in flat)
  std::optional<PrecisionScope> scope(std::in_place, c.precision);  // the forward pass only
  if (c.task == Task::kText) {  // next-token loss at every position
    std::vector<std::int64_t> w =
        sample_windows(*text_stream, c.length, local_batch, c.seed, s, first);
    if (c.needle_fraction > 0) {  // a fraction of the windows carry passkey needles
      if (passkey == nullptr)
        throw std::logic_error("a text run with needles needs its passkey ids");
      add_training_needles(w, local_batch, c, *passkey, s, first);
    }
    // A copy: the backward reads the ids after this block has freed `w`.
    const torch::Tensor ids =
        torch::from_blob(w.data(), {local_batch, c.length + 1}, torch::kInt64).clone();
    const torch::Tensor logits = model->forward(ids.slice(1, 0, c.length)).to(torch::kFloat32);
    loss = c.middle_weight ? middle_weighted_loss(logits, ids.slice(1, 1), *c.middle_weight)
                           : torch::cross_entropy_loss(logits.reshape({-1, logits.size(2)}),
                                                       ids.slice(1, 1).reshape({-1}));
  } else if (c.task == Task::kKv) {  // the value's tokens, teacher-forced
    const KvBatch b = encode_kv_examples(sample_kv_batch(c, local_batch, s, first), c.sink);
    model->set_position_ids(training_position_ids(c, b.ids.size(0), b.ids.size(1), s, first));
    loss = kv_loss(model, b);
  } else {
    const std::vector<Example> batch =
        sample_batch(c.task, c.hops, c.step_length(s), local_batch, c.seed, s, first);
    HopBatch b = encode_examples(batch, 0, batch.size());
    if (c.answers == "shuffled") b.answers = shuffled_answers(b.answers, c.seed, s, first);
    const torch::Tensor ids = training_position_ids(c, b.ids.size(0), b.ids.size(1), s, first);
    if (shards > 1 && !group) {
      scope.reset();
      sharded_loss = sharded_hop_gradients(model, *flat, b, ids, dropout_seed, c.precision, shards);
    } else {
      model->set_position_ids(ids);
      loss = torch::cross_entropy_loss(model->last_logits(b.ids).to(torch::kFloat32), b.answers);
    }
  }
  model->set_position_ids({});  // evaluation and everything else: ids 0..L−1
  scope.reset();
  if (!sharded_loss) {
    flat->zero_grad();
    if (reducer) reducer->arm();
    loss.backward();
    if (reducer) reducer->finish();
  }
  const double loss_value = sharded_loss ? *sharded_loss
                            : group      ? group->sum(loss.item<double>()) / world_size()
                                         : loss.item<double>();
  const double grad_norm = clip_gradients(*flat, c.grad_clip);
  if (!std::isfinite(loss_value) || !std::isfinite(grad_norm)) {
    // Before the update: the weights in memory and on disk stay the last good ones.
    throw std::runtime_error(
        fmt::format("training diverged at step {} (loss {:g}, gradient norm {:g}); the run keeps "
                    "its checkpoints up to the step before: lower --lr or raise --warmup",
                    step, loss_value, grad_norm));
  }
  const double lr = learning_rate(c, step);
  adam->step(lr);
  // A finite gradient can still make a non-finite update (0/0 when --adam-eps underflows, an
  // overflowing moment): one reduction over each flat buffer finds it before anything saves the
  // weights, and the step's evaluation and checkpoint never happen.
  const torch::Tensor counts =  // [3]: non-finite values in the weights and in each moment
      torch::stack({torch::isfinite(flat->params).logical_not().sum(),
                    torch::isfinite(adam->exp_avg).logical_not().sum(),
                    torch::isfinite(adam->exp_avg_sq).logical_not().sum()});
  if (counts.any().item<bool>()) {
    const std::int64_t weights = counts[0].item<std::int64_t>();
    const std::string what =
        weights > 0 ? fmt::format("{} of {} weights", weights, flat->size()) : "its moments";
    throw std::runtime_error(fmt::format(
        "training diverged at step {}: AdamW's update made {} non-finite (--adam-eps {:g}, "
        "learning rate {:g}); nothing of this step was saved and the run keeps its checkpoints "
        "from before it: start a new run with a larger --adam-eps (default {:g}) or a smaller --lr",
        step, what, c.adam_eps, lr, TrainConfig{}.adam_eps));
  }
  return loss_value;
}

namespace {

// A training step's peak (weights, gradients, AdamW moments, autograd's activations), or a hop
// run's held-out evaluation if that is larger (the state, one batch of eval_batch_size examples
// and its forward pass: the held-out set is generated a batch at a time, so --eval-per-hop adds
// time, not memory), on the dense path, else the blockwise one; refused in one line when
// neither fits the budget.
AttentionPath plan_training_memory(const TrainConfig& c, const TrainOptions& options,
                                   int world_size) {
  const ModelConfig cfg = c.model_config();
  const std::int64_t local_batch = c.batch / world_size;
  const std::int64_t width =
      c.task == Task::kKv ? kv_input_length(c.longest_length(), c.sink) : c.longest_length();
  const std::int64_t eval_batch = eval_batch_size(width);
  auto bytes = [&](AttentionPath a) {
    const double step = training_step_bytes(cfg, local_batch, width, a);
    if (c.task == Task::kText) return step;
    const double eval = 4 * weight_bytes(cfg, /*token_embeddings=*/true) +
                        hop_examples_bytes(eval_batch, width) +
                        forward_bytes(cfg, eval_batch, width, /*cached=*/false, {a});
    return std::max(step, eval);
  };
  const AttentionPath path = plan_attention(
      bytes, options.attention, options.memory_budget_gb,
      "a training step of batch " + std::to_string(local_batch) + " at length " +
          std::to_string(width) +
          (c.task == Task::kText ? std::string()
                                 : " and its evaluation of " + std::to_string(eval_batch) +
                                       " held-out examples at a time"),
      "a smaller --batch, --length or --d-model");
  if (path == AttentionPath::kBlockwise && c.dropout > 0) {
    throw std::invalid_argument(
        "a training step at length " + std::to_string(width) +
        " takes blockwise attention, which has no attention dropout: use --dropout 0");
  }
  if (path == AttentionPath::kBlockwise && c.null_sink) {
    throw std::invalid_argument("a training step at length " + std::to_string(width) +
                                " takes blockwise attention, which has no null sink: use a "
                                "smaller --batch or --length, or no --null-sink");
  }
  return path;
}

// A run opened for training: its header, its text data and passkey ids (text runs), and its
// data-parallel group. The members are kept in place: the Trainer points into text and passkey.
struct OpenedRun {
  TrainConfig config;
  RunHeader header;
  std::optional<TextRunData> text;
  std::optional<PasskeyCodec> passkey;  // text runs with needles
  std::unique_ptr<ProcessGroup> group;
  bool writer = true;  // rank 0 (or the only rank) evaluates and writes
  AttentionPath attention = AttentionPath::kDense;
};

// Reads or creates the run: the config (from train.json on --resume), the memory plan, the
// ranks' rendezvous, and on a fresh run its folder, tokenizer and train.json. Ranks join before
// anything is written, so a rank started wrongly leaves no directory behind; so does a refused
// plan.
void open_run(const TrainOptions& options, OpenedRun& run) {
  const std::filesystem::path& run_dir = options.run_dir;
  if (run_dir.empty()) throw std::invalid_argument("--out RUN_DIR is required");
  TrainConfig& c = run.config;
  c = options.config;
  // The run's passkey ids, refused in one line when the needles and question do not fit.
  auto prepare_passkey = [&] {
    if (!run.text || c.needle_fraction <= 0) return;
    run.passkey.emplace(run.text->tokenizer);
    run.passkey->check_fits(c.length, c.needles);
  };
  auto read_text = [&] {
    run.text =
        prepare_text_run(c, run_dir, /*fresh=*/false, run.header.corpus_fingerprint.value_or(""));
    prepare_passkey();
  };
  if (options.resume) {
    run.header = read_run_header(run_dir);
    c = run.header.config;
    // The same seed gives the same numbers on one machine at one thread count: reductions
    // split differently over another count, and the last bits of the losses move.
    const int threads = torch::get_num_threads();
    if (run.header.threads && *run.header.threads != threads &&
        (!options.ranks || options.ranks->rank == 0))  // said once, not by every rank
      std::fprintf(stderr,
                   "train: resuming on %d threads; the run started on %d, so its numbers from "
                   "here on may differ in the last bits from a run never stopped\n",
                   threads, *run.header.threads);
  } else {
    c.finalize();
  }
  const std::optional<RankEnv>& rank_env = options.ranks;
  const int world_size = rank_env ? rank_env->world_size : 1;
  if (c.batch % world_size != 0) {
    throw std::invalid_argument(fmt::format(
        "--batch {} does not split over WORLD_SIZE {}: use a multiple of the world size", c.batch,
        world_size));
  }
  run.attention = plan_training_memory(c, options, world_size);
  // Rank 0 refuses an occupied folder before the ranks join, so the others never meet a group
  // that is gone (launch stops them) and a launch prints this one line, not a lost peer as well.
  // Another rank checks nothing here: a process that claims a rank of a running job is told so
  // by the rendezvous.
  const bool first_rank = !rank_env || rank_env->rank == 0;
  if (!options.resume && first_rank && std::filesystem::exists(run_dir / "train.json")) {
    throw std::invalid_argument("'" + run_dir.string() +
                                "' already holds a run; continue it with --resume or choose "
                                "another --out");
  }
  if (rank_env) {
    run.group = std::make_unique<ProcessGroup>(
        *rank_env, std::chrono::duration_cast<std::chrono::milliseconds>(options.rank_timeout),
        (options.resume ? "resume " : "fresh ") + train_config_to_json(c).dump());
  }
  run.writer = !run.group || run.group->rank() == 0;
  if (!run.writer) {
    // The others wait for rank 0 to create the run (train.json, the tokenizer of a text run),
    // then read what they need of it from the shared directory.
    run.group->barrier();
    if (c.task == Task::kText) {
      run.header = read_run_header(run_dir);
      read_text();
    }
  } else if (!options.resume) {
    ensure_directory(run_dir);
    run.header.config = c;
    run.header.machine = machine_record();
    run.header.threads = torch::get_num_threads();  // same seed, same numbers: per count
    run.header.version = POSBIAS_VERSION;
    if (c.task == Task::kText) {
      // The tokenizer is written before train.json, so a run that has train.json has it.
      run.text = prepare_text_run(c, run_dir, /*fresh=*/true);
      run.header.corpus = run.text->corpus_dir.string();
      run.header.corpus_fingerprint = fingerprint_hex(run.text->corpus_fingerprint);
      prepare_passkey();
    }
    write_file_atomic(run_dir / "train.json", to_json(run.header).dump(2) + "\n");
    write_hf_config(run_dir, c);  // from the start, so a run's checkpoints load with it
  } else {
    // Runs written before config.json came with train.json get it on resume.
    if (!std::filesystem::exists(run_dir / "config.json")) write_hf_config(run_dir, c);
    if (c.task == Task::kText) read_text();
  }
  if (run.writer && run.group) run.group->barrier();
}

// Where a resumed run continues: its last good checkpoint's step, wall time and running loss,
// and the metrics rows up to that step.
struct ResumeState {
  bool resumed = false;  // from a checkpoint (possibly step 0's, whose row is already logged)
  std::int64_t start = 0;
  double train_seconds = 0, loss_sum = 0;
  std::int64_t loss_count = 0;
  std::vector<MetricsRow> rows;
};

// Everything that can refuse the resume (train.json against the checkpoints, the metrics rows
// up to the resumed step) is checked before anything on disk changes.
ResumeState find_resume_state(const std::filesystem::path& run_dir, Trainer& trainer,
                              const TrainConfig& c) {
  ResumeState r;
  const ResumePoint found = find_resume_point(run_dir, *trainer.flat, *trainer.adam, c);
  if (found.info) {
    const CheckpointInfo& info = *found.info;
    r.resumed = true;
    r.start = info.step;
    r.train_seconds = info.train_seconds;
    r.loss_sum = info.loss_sum;
    r.loss_count = info.loss_count;
    r.rows = read_resumed_metrics(run_dir / "metrics.jsonl", logged_steps(c, r.start));
  }
  set_aside_damaged(run_dir, found);
  if (found.info) {
    std::fprintf(stderr, "posbias train: resuming %s at step %lld\n", run_dir.c_str(),
                 static_cast<long long>(r.start));
  }
  return r;
}

// What a logged step measures on held-out data, by task: text (loss, bits per byte, loss and
// gradient per position, the passkey exact match of a run with needles), kv (exact match),
// hops (accuracy per hop).
struct HeldOut {
  const TextRunData* text = nullptr;
  std::vector<std::int64_t> text_windows, gradient_windows;
  std::vector<PasskeyExample> passkey_examples;
  DatasetSpec hops;
};

HeldOut held_out_data(const TrainConfig& c, const OpenedRun& run) {
  HeldOut h;
  h.text = run.text ? &*run.text : nullptr;
  if (is_hop_task(c.task)) h.hops = held_out_spec(c);
  if (!run.writer || !run.text) return h;
  h.text_windows = logged_windows(c, run.text->streams);
  // The per-position gradients read the first (up to) 16 logged windows.
  h.gradient_windows.assign(
      h.text_windows.begin(),
      h.text_windows.begin() +
          std::min<std::ptrdiff_t>(static_cast<std::ptrdiff_t>(h.text_windows.size()),
                                   16 * (c.length + 1)));
  // The held-out passkey examples: the logged windows with needles.
  if (run.passkey) h.passkey_examples = heldout_passkey_examples(c, *run.passkey, h.text_windows);
  return h;
}

void measure_held_out(Transformer& model, const TrainConfig& c, const HeldOut& h, MetricsRow& row) {
  if (h.text) {
    TextEvaluation e =
        evaluate_text(model, h.text_windows, c.length, h.text->tokenizer.token_bytes());
    row.heldout_loss = e.loss;
    row.bits_per_byte = e.bits_per_byte;
    row.loss_per_position = std::move(e.loss_per_position);
    row.grad_per_position =
        position_gradients(model, h.gradient_windows, c.length, logged_gradient_layers(c.layers));
    if (!h.passkey_examples.empty()) {  // greedy answer digits, exact match
      std::int64_t right = 0;
      for (bool r : passkey_exact_matches(model, h.passkey_examples, 16)) right += r ? 1 : 0;
      row.passkey_exact_match =
          static_cast<double>(right) / static_cast<double>(h.passkey_examples.size());
    }
  } else if (c.task == Task::kKv) {  // exact match of the value, a batch at a time
    row.acc = std::map<std::string, double>{{kAllHopsKey, kv_held_out_accuracy(model, c)}};
  } else {
    row.acc = evaluate_hops(model, h.hops, eval_batch_size(c.length)).by_name();
  }
}

}  // namespace

TrainResult run_training(const TrainOptions& options) {
  const std::filesystem::path& run_dir = options.run_dir;
  OpenedRun run;
  open_run(options, run);
  const TrainConfig& c = run.config;
  ProcessGroup* group = run.group.get();
  const bool writer = run.writer;

  Trainer trainer(c, run.text ? &run.text->streams.train : nullptr, group);
  trainer.passkey = run.passkey ? &*run.passkey : nullptr;
  Transformer& model = trainer.model;
  model->set_attention(run.attention);
  ResumeState state;
  if (options.resume && writer) state = find_resume_state(run_dir, trainer, c);
  std::int64_t start = state.start;
  std::vector<MetricsRow>& rows = state.rows;
  auto write_metrics = [&] {
    std::string lines;
    for (const MetricsRow& r : rows) lines += metrics_row_to_json(r).dump() + "\n";
    write_file_atomic(run_dir / "metrics.jsonl", lines);
  };
  // Lines past the resumed step (written before a kill or by a run that diverged) go now, so
  // metrics.jsonl always ends where the weights are.
  if (options.resume && writer) write_metrics();
  if (group && options.resume) {  // rank 0's checkpoint, on every rank
    torch::Tensor where = torch::tensor({start, trainer.adam->steps_taken}, torch::kInt64);
    group->broadcast(
        {trainer.flat->params, trainer.adam->exp_avg, trainer.adam->exp_avg_sq, where});
    start = where[0].item<std::int64_t>();
    trainer.adam->steps_taken = where[1].item<std::int64_t>();
  }

  // Wall time spent training (steps, evaluations, checkpoints), carried across resumes.
  const auto session_start = Clock::now();
  auto wall_seconds = [&] { return state.train_seconds + seconds_since(session_start); };
  const HeldOut held_out = held_out_data(c, run);
  // With length_max the lengths vary by step: their mean.
  const std::int64_t tokens_per_step =
      static_cast<std::int64_t>(c.batch) * (c.length + c.longest_length()) / 2;
  std::optional<Progress> progress;  // its status: the last logged row
  auto log_eval = [&](std::int64_t step, double loss, double interval_seconds,
                      std::int64_t interval_steps) {
    MetricsRow row;
    row.step = step;
    row.loss = std::isfinite(loss) ? loss : NAN;
    row.lr = step == 0 ? 0.0 : learning_rate(c, step);
    measure_held_out(model, c, held_out, row);
    row.tokens_per_s =
        interval_seconds > 0
            ? static_cast<double>(interval_steps * tokens_per_step) / interval_seconds
            : 0.0;
    row.train_seconds = wall_seconds();
    if (progress) progress->set_status(metrics_status(row));
    rows.push_back(std::move(row));
    write_metrics();
  };
  if (!state.resumed && writer) {
    log_eval(0, NAN, 0, 0);
    if (c.checkpoint_at(0))
      save_checkpoint(checkpoint_path(run_dir, 0), *trainer.flat, *trainer.adam, {c, 0, 0.0, 0, 0});
  }

  model->train();
  if (writer) progress.emplace(std::string(task_name(c.task)) + " training", c.steps, start);
  double loss_sum = state.loss_sum, interval_seconds = 0;
  std::int64_t loss_count = state.loss_count;
  for (std::int64_t step = start + 1; step <= c.steps; ++step) {
    const auto t0 = Clock::now();
    loss_sum += trainer.step(step);
    ++loss_count;
    interval_seconds += seconds_since(t0);  // step time alone, for tokens/s
    if (!writer) continue;
    if (logged_at(c, step)) {
      log_eval(step, loss_sum / static_cast<double>(loss_count), interval_seconds, loss_count);
      loss_sum = 0, loss_count = 0, interval_seconds = 0;
      model->train();
    }
    if (c.checkpoint_at(step)) {
      save_checkpoint(checkpoint_path(run_dir, step), *trainer.flat, *trainer.adam,
                      {c, step, wall_seconds(), loss_sum, loss_count});
    }
    progress->update(step);
  }
  if (progress) progress->finish();

  TrainResult result;
  result.rank = trainer.rank();
  TrainingSummary& summary = result.summary;
  summary.task = c.task;
  summary.steps = c.steps;
  summary.train_seconds = wall_seconds();
  summary.config = c;
  if (group) {  // this session's ranks and the communication the backward did not hide
    summary.data_parallel =
        DataParallelStats{group->size(), trainer.reducer->buckets(),
                          trainer.reducer->overlapped_buckets(), trainer.reducer->wait_seconds()};
  }
  if (writer) write_outputs(run_dir, c, model, rows, run.text ? &*run.text : nullptr, summary);
  if (group) group->barrier();  // rank 0's store stays up until every rank is done
  return result;
}

}  // namespace posbias
