#include "posbias/serve/hop_completer.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "posbias/llm/probe.h"
#include "posbias/serve/batch_queue.h"
#include "posbias/serve/greedy_step.h"
#include "posbias/tasks/hop_task.h"
#include "posbias/train/checkpoint.h"

namespace posbias {

namespace {

constexpr std::int64_t kBatchTokens = 16384;  // largest batch × length of one forward pass

}  // namespace

struct HopCompleter::Served {
  std::string name;
  LoadedModel loaded;
  std::unique_ptr<BatchQueue> queue;  // last: its worker stops before the model goes

  // The model's greedy answers at the last position of a batch of equal-length inputs.
  std::vector<std::int64_t> answer(const std::vector<const BatchQueue::Input*>& batch) {
    return greedy_last_tokens(loaded.model, batch);
  }
};

ServedRun parse_served_run(const std::string& spec) {
  ServedRun r;
  const std::size_t eq = spec.find('=');
  if (eq != std::string::npos) {
    r.name = spec.substr(0, eq);
    r.dir = spec.substr(eq + 1);
  } else {
    r.dir = spec;
    std::filesystem::path p(spec);
    if (!p.has_filename()) p = p.parent_path();
    r.name = p.filename().string();
  }
  if (r.name.empty() || r.dir.empty()) {
    throw std::invalid_argument("--run takes RUN_DIR or NAME=RUN_DIR, got '" + spec + "'");
  }
  return r;
}

HopCompleter::HopCompleter(const std::vector<ServedRun>& runs, double busy_timeout)
    : busy_timeout_(busy_timeout) {
  if (runs.empty()) throw std::invalid_argument("--run RUN_DIR is required");
  std::set<std::string> names;
  for (const ServedRun& r : runs) {
    if (!names.insert(r.name).second) {
      throw std::invalid_argument("two runs are named '" + r.name + "'; use NAME=RUN_DIR");
    }
    auto s = std::make_unique<Served>();
    s->name = r.name;
    s->loaded = load_trained_model(r.dir);
    require_hop_task(s->loaded.info.config.task, "serve");
    s->loaded.model->eval();
    served_.push_back(std::move(s));
  }
  for (auto& s : served_) {
    s->queue = std::make_unique<BatchQueue>(
        [m = s.get()](const std::vector<const BatchQueue::Input*>& batch) {
          return m->answer(batch);
        },
        kBatchTokens);
  }
}

HopCompleter::~HopCompleter() = default;

std::vector<std::string> HopCompleter::models() const {
  std::vector<std::string> out;
  for (const auto& s : served_) out.push_back(s->name);
  return out;
}

Completion HopCompleter::complete(const CompletionRequest& request) {
  Served* s = nullptr;
  for (const auto& m : served_) {
    if (m->name == request.model) s = m.get();
  }
  if (s == nullptr && served_.size() == 1) s = served_[0].get();
  if (s == nullptr) throw UnknownModel("no model named '" + request.model + "' is served");
  const Task task = s->loaded.info.config.task;
  const Vocabulary& vocab = Vocabulary::of(task);
  const std::vector<std::string> tokens = extract_task_input(request.prompt, vocab);
  const int length = static_cast<int>(tokens.size());
  if (length > kMaxServedTokens) {
    throw std::invalid_argument("the task input has " + std::to_string(length) +
                                " tokens; a served model reads at most " +
                                std::to_string(kMaxServedTokens));
  }
  validate_model_length(task, length);
  std::int64_t predicted = 0;
  try {
    predicted = s->queue->answer(vocab.encode(tokens), busy_timeout_);
  } catch (const BackendBusy&) {
    throw BackendBusy("model '" + s->name + "' is busy; try again");
  }
  Completion c;
  c.model = s->name;
  c.text = vocab.token(predicted);
  c.prompt_tokens = length;
  c.completion_tokens = 1;
  return c;
}

}  // namespace posbias
