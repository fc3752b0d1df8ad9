#include "posbias/llm/hop_completer.h"

#include <chrono>
#include <filesystem>
#include <mutex>
#include <set>

#include "posbias/llm/probe.h"
#include "posbias/tasks/hop_task.h"
#include "posbias/train/checkpoint.h"

namespace posbias {

struct HopCompleter::Served {
  std::string name;
  LoadedModel loaded;
  std::timed_mutex mutex;  // one forward pass at a time per model
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
    s->loaded.model->eval();
    served_.push_back(std::move(s));
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
  const std::vector<std::int64_t> ids = vocab.encode(tokens);
  const torch::Tensor input = torch::tensor(ids, torch::kInt64).unsqueeze(0);
  std::unique_lock<std::timed_mutex> lock(s->mutex, std::defer_lock);
  if (!lock.try_lock_for(std::chrono::duration<double>(busy_timeout_))) {
    throw BackendBusy("model '" + s->name + "' is busy; try again");
  }
  std::int64_t predicted;
  {
    torch::NoGradGuard no_grad;
    predicted = s->loaded.model->last_logits(input).argmax(-1).item<std::int64_t>();
  }
  lock.unlock();
  Completion c;
  c.model = s->name;
  c.text = vocab.token(predicted);
  c.prompt_tokens = length;
  c.completion_tokens = 1;
  return c;
}

}  // namespace posbias
