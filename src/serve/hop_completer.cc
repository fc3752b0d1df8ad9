#include "posbias/serve/hop_completer.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <future>
#include <mutex>
#include <set>
#include <thread>

#include "posbias/llm/probe.h"
#include "posbias/tasks/hop_task.h"
#include "posbias/train/checkpoint.h"

namespace posbias {

namespace {

constexpr std::int64_t kBatchTokens = 16384;  // largest batch × length of one forward pass

struct Pending {
  std::vector<std::int64_t> ids;
  std::promise<std::int64_t> answer;
  std::atomic<bool> abandoned{false};  // its client got 503: the worker skips it
};

}  // namespace

// One model and the worker thread that answers its queue: each pass takes every waiting
// request, groups them by length and runs one forward pass per group (at most kBatchTokens
// tokens), so concurrent requests share passes instead of taking turns.
struct HopCompleter::Served {
  std::string name;
  LoadedModel loaded;
  std::mutex mutex;
  std::condition_variable wake;
  std::deque<std::shared_ptr<Pending>> queue;
  bool stopping = false;
  std::atomic<std::int64_t> answered{0};
  std::thread worker;

  void run() {
    torch::NoGradGuard no_grad;
    while (true) {
      std::vector<std::shared_ptr<Pending>> taken;
      {
        std::unique_lock<std::mutex> lock(mutex);
        wake.wait(lock, [this] { return stopping || !queue.empty(); });
        if (stopping) break;
        for (auto& p : queue) {
          if (!p->abandoned.load()) taken.push_back(std::move(p));
        }
        queue.clear();
      }
      std::stable_sort(taken.begin(), taken.end(),
                       [](const auto& a, const auto& b) { return a->ids.size() < b->ids.size(); });
      for (std::size_t begin = 0; begin < taken.size();) {
        const auto length = static_cast<std::int64_t>(taken[begin]->ids.size());
        std::size_t end = begin;
        while (end < taken.size() && static_cast<std::int64_t>(taken[end]->ids.size()) == length &&
               static_cast<std::int64_t>(end - begin + 1) * length <=
                   std::max(kBatchTokens, length)) {
          ++end;
        }
        try {
          torch::Tensor ids =
              torch::empty({static_cast<std::int64_t>(end - begin), length}, torch::kInt64);
          for (std::size_t i = begin; i < end; ++i) {
            std::copy(taken[i]->ids.begin(), taken[i]->ids.end(),
                      ids[static_cast<std::int64_t>(i - begin)].data_ptr<std::int64_t>());
          }
          const torch::Tensor predicted = loaded.model->last_logits(ids).argmax(-1).contiguous();
          const auto p = predicted.accessor<std::int64_t, 1>();
          for (std::size_t i = begin; i < end; ++i) {
            taken[i]->answer.set_value(p[static_cast<std::int64_t>(i - begin)]);
          }
          answered.fetch_add(static_cast<std::int64_t>(end - begin));
        } catch (...) {
          for (std::size_t i = begin; i < end; ++i) {
            taken[i]->answer.set_exception(std::current_exception());
          }
        }
        begin = end;
      }
    }
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
  for (auto& s : served_) s->worker = std::thread([m = s.get()] { m->run(); });
}

HopCompleter::~HopCompleter() {
  for (auto& s : served_) {
    {
      std::lock_guard<std::mutex> lock(s->mutex);
      s->stopping = true;
    }
    s->wake.notify_all();
    if (s->worker.joinable()) s->worker.join();
  }
}

std::int64_t HopCompleter::answers_computed() const {
  std::int64_t n = 0;
  for (const auto& s : served_) n += s->answered.load();
  return n;
}

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
  auto pending = std::make_shared<Pending>();
  pending->ids = vocab.encode(tokens);
  std::future<std::int64_t> answer = pending->answer.get_future();
  {
    std::lock_guard<std::mutex> lock(s->mutex);
    s->queue.push_back(pending);
  }
  s->wake.notify_one();
  if (answer.wait_for(std::chrono::duration<double>(busy_timeout_)) != std::future_status::ready) {
    pending->abandoned.store(true);
    throw BackendBusy("model '" + s->name + "' is busy; try again");
  }
  const std::int64_t predicted = answer.get();
  Completion c;
  c.model = s->name;
  c.text = vocab.token(predicted);
  c.prompt_tokens = length;
  c.completion_tokens = 1;
  return c;
}

}  // namespace posbias
