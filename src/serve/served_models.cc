#include "posbias/serve/served_models.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "posbias/serve/greedy_step.h"
#include "posbias/serve/openai_server.h"

namespace posbias {

namespace {

constexpr std::int64_t kBatchTokens = 16384;  // largest batch × length of one forward pass

}  // namespace

struct ServedModels::Served {
  std::string name;
  LoadedModel loaded;
  std::unique_ptr<BatchQueue> queue;  // last: its worker stops before the model goes
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

ServedModels::ServedModels(const std::vector<ServedRun>& runs, double busy_timeout,
                           const Check& check)
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
    check(r, s->loaded);
    s->loaded.model->eval();
    served_.push_back(std::move(s));
  }
  for (auto& s : served_) {
    s->queue = std::make_unique<BatchQueue>(
        [m = s.get()](const std::vector<const BatchQueue::Input*>& batch) {
          return greedy_last_tokens(m->loaded.model, batch);
        },
        kBatchTokens);
  }
}

ServedModels::~ServedModels() = default;

std::vector<std::string> ServedModels::names() const {
  std::vector<std::string> out;
  for (const auto& s : served_) out.push_back(s->name);
  return out;
}

std::size_t ServedModels::find(const std::string& model) const {
  for (std::size_t i = 0; i < served_.size(); ++i) {
    if (served_[i]->name == model) return i;
  }
  if (served_.size() == 1) return 0;
  throw UnknownModel("no model named '" + model + "' is served");
}

const std::string& ServedModels::name(std::size_t i) const { return served_.at(i)->name; }

const LoadedModel& ServedModels::loaded(std::size_t i) const { return served_.at(i)->loaded; }

std::int64_t ServedModels::max_width(std::size_t i) const {
  const ModelConfig& m = served_.at(i)->loaded.model->config();
  return std::min<std::int64_t>(m.position_limit().value_or(kMaxServedTokens), kMaxServedTokens);
}

void ServedModels::check_width(std::size_t i, std::int64_t prompt, std::int64_t decoded) const {
  const std::int64_t width = prompt + decoded - 1, limit = max_width(i);
  if (width <= limit) return;
  throw std::invalid_argument("the prompt has " + std::to_string(prompt) + " tokens and decoding " +
                              std::to_string(decoded) + " reads " + std::to_string(width) +
                              "; model '" + name(i) + "' reads at most " + std::to_string(limit) +
                              ": send at most " + std::to_string(limit - decoded + 1) +
                              " prompt tokens, or lower max_tokens");
}

std::int64_t ServedModels::next_token(std::size_t i, const BatchQueue::Input& ids) const {
  Served& s = *served_.at(i);
  try {
    return s.queue->answer(ids, busy_timeout_);
  } catch (const BackendBusy&) {
    throw BackendBusy("model '" + s.name + "' is busy; try again");
  }
}

}  // namespace posbias
