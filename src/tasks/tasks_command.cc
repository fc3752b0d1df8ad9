#include "posbias/tasks/tasks_command.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "posbias/core/atomic_file.h"
#include "posbias/core/enum_names.h"
#include "posbias/core/json_read.h"
#include "posbias/tasks/hop_task.h"
#include "posbias/tasks/passkey_task.h"
#include "posbias/tasks/task_check.h"
#include "posbias/text/brown_corpus.h"
#include "posbias/text/text_data.h"

namespace posbias {

namespace {

constexpr EnumNames<ExampleFormat, 2> kExampleFormatNames{
    {{ExampleFormat::kJsonl, "jsonl"}, {ExampleFormat::kTokens, "tokens"}}};

// `--task`'s names: the hop tasks' and kv's own (vocab.h's table), and passkey for the needles a
// text run's examples carry.
const EnumNames<Task, 4>& tasks_task_names() {
  static const EnumNames<Task, 4> names{{{Task::kNumber, task_name(Task::kNumber)},
                                         {Task::kLetter, task_name(Task::kLetter)},
                                         {Task::kKv, task_name(Task::kKv)},
                                         {Task::kText, "passkey"}}};
  return names;
}

// The options every task shares: length and count.
void validate_common(const TasksOptions& o) {
  if (o.length < 2 || o.length > kMaxLength) {
    throw std::invalid_argument("--length must be in 2.." + std::to_string(kMaxLength) + ", got " +
                                std::to_string(o.length));
  }
  if (o.count < 0)
    throw std::invalid_argument("--count must be >= 0, got " + std::to_string(o.count));
  if (static_cast<double>(o.count) * static_cast<double>(o.length) > 2e9) {
    throw std::invalid_argument("--count × --length exceeds 2e9 tokens; write several files");
  }
}

// Collects lines and writes them: to stdout a megabyte at a time, or to --out atomically.
class LineWriter {
 public:
  explicit LineWriter(std::string out) : out_(std::move(out)) {}
  void add(const std::string& line) {
    buffer_ += line;
    buffer_ += '\n';
    if (out_.empty() && buffer_.size() > (1u << 20)) flush();
  }
  void finish() {
    if (out_.empty()) {
      flush();
    } else {
      write_file_atomic(out_, buffer_);
    }
  }

 private:
  void flush() {
    write_output("", buffer_);
    buffer_.clear();
  }
  std::string out_;
  std::string buffer_;
};

std::string join_ids(const std::vector<std::int64_t>& ids) {
  std::string line;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (i) line += ' ';
    line += std::to_string(ids[i]);
  }
  return line;
}

void write_kv(const TasksOptions& o) {
  if (o.variant != Variant::kStandard) {
    throw std::invalid_argument("--variant belongs to the hop tasks, not --task kv");
  }
  const KvSpec spec{static_cast<int>(o.length), o.count, o.seed, o.depth_prior};
  kv_pairs(spec.length);
  LineWriter writer(o.out);
  for_each_kv_example(spec, [&](const KvExample& ex) {
    if (o.format == ExampleFormat::kJsonl) {
      writer.add(kv_example_to_json(ex).dump());
    } else {
      std::vector<std::int64_t> ids;
      for (const std::string& t : ex.tokens) ids.push_back(kv_token_id(t));
      writer.add(join_ids(ids));
    }
  });
  writer.finish();
}

// Example i: a held-out window drawn from the stream keyed by (seed, i), needles at depths
// drawn by the prior.
void write_passkey(const TasksOptions& o, const PasskeyRunOpener& open_run) {
  if (o.variant != Variant::kStandard)
    throw std::invalid_argument("--variant belongs to the hop tasks, not --task passkey");
  if (o.run.empty())
    throw std::invalid_argument(
        "--task passkey needs --run RUN, a text run (its tokenizer and held-out text)");
  if (o.needles < 0 || o.needles > static_cast<int>(passkey_names().size()))
    throw std::invalid_argument("--needles must be in 1.." +
                                std::to_string(passkey_names().size()));
  const PasskeyRun run = open_run(o.run);
  TasksOptions checked = o;
  checked.length = o.length > 0 ? o.length : run.length;
  validate_common(checked);
  const int length = static_cast<int>(checked.length);
  const int needles = o.needles > 0 ? o.needles : run.needles;
  const PasskeyCodec codec(run.tokenizer);
  codec.check_fits(length, needles);
  const auto n = static_cast<std::int64_t>(run.heldout.size());
  if (n <= length + 1)
    throw std::invalid_argument("-L " + std::to_string(length) +
                                " is longer than the held-out text (" + std::to_string(n) +
                                " ids)");
  LineWriter writer(o.out);
  for (std::int64_t i = 0; i < o.count; ++i) {
    Rng rng = Rng::stream(o.seed, static_cast<std::uint64_t>(i), 5);
    const std::int64_t start = rng.below(n - length);
    const PasskeyExample ex = draw_passkey_example(codec, run.heldout.data() + start, length,
                                                   needles, o.depth_prior, rng);
    if (o.format == ExampleFormat::kJsonl) {
      writer.add(passkey_example_to_json(ex, run.tokenizer).dump());
    } else {
      writer.add(join_ids(std::vector<std::int64_t>(ex.ids.begin(), ex.ids.end())));
    }
  }
  writer.finish();
}

void write_hops(const TasksOptions& o, Task task) {
  if (o.depth_prior != DepthPrior::kUniform) {
    throw std::invalid_argument("--depth-prior belongs to --task kv, not the hop tasks");
  }
  if (o.hops.empty()) throw std::invalid_argument("--hops needs at least one hop count");
  const DatasetSpec spec{task, o.hops, static_cast<int>(o.length), o.count, o.seed, o.variant};
  for (int h : spec.hops) validate_spec(spec.task, h, spec.length, spec.variant);
  const Vocabulary& vocab = Vocabulary::of(spec.task);
  LineWriter writer(o.out);
  for_each_example(spec, [&](const Example& ex) {
    writer.add(o.format == ExampleFormat::kJsonl ? example_to_json(ex).dump()
                                                 : join_ids(vocab.encode(ex.tokens)));
  });
  writer.finish();
}

}  // namespace

ExampleFormat parse_example_format(const std::string& name) {
  return value_of(kExampleFormatNames, name, "--format");
}

std::string to_string(ExampleFormat format) {
  return std::string(name_of(kExampleFormatNames, format));
}

Task parse_tasks_task(const std::string& name) {
  return value_of(tasks_task_names(), name, "task");
}

std::string tasks_task_name(Task task) { return std::string(name_of(tasks_task_names(), task)); }

void run_tasks(const TasksOptions& o, const PasskeyRunOpener& open_run) {
  if (o.task != Task::kText && (!o.run.empty() || o.needles != 0))
    throw std::invalid_argument("--run and --needles belong to --task passkey");
  if (o.task == Task::kText) {
    write_passkey(o, open_run);
    return;
  }
  validate_common(o);
  if (o.task == Task::kKv) {
    write_kv(o);
  } else {
    write_hops(o, o.task);
  }
}

void run_tasks_check(const std::string& path) {
  const CheckReport report = check_file(path);
  for (const std::string& p : report.problems)
    std::fprintf(stderr, "%s: %s\n", path.c_str(), p.c_str());
  if (!report.problems.empty()) {
    throw std::runtime_error(std::to_string(report.problems.size()) + " of " +
                             std::to_string(report.examples) + " examples in " + path +
                             " are wrong");
  }
  std::printf("%s: all %lld examples are correct\n", path.c_str(),
              static_cast<long long>(report.examples));
}

}  // namespace posbias
