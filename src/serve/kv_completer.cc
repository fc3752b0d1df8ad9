#include "posbias/serve/kv_completer.h"

#include <algorithm>
#include <set>
#include <sstream>

#include "posbias/llm/openai.h"
#include "posbias/serve/batch_queue.h"
#include "posbias/serve/greedy_step.h"
#include "posbias/tasks/kv_task.h"
#include "posbias/train/checkpoint.h"

namespace posbias {

namespace {

constexpr std::int64_t kBatchTokens = 16384;  // largest batch × length of one forward pass

}  // namespace

struct KvCompleter::Served {
  std::string name;
  LoadedModel loaded;
  std::unique_ptr<BatchQueue> queue;  // last: its worker stops before the model goes

  // The model's greedy next token after each of a batch of equal-length inputs.
  std::vector<std::int64_t> answer(const std::vector<const BatchQueue::Input*>& batch) {
    return greedy_last_tokens(loaded.model, batch);
  }

  // Throws std::invalid_argument when the model cannot read `width` tokens.
  void check_width(std::int64_t prompt, std::int64_t width) const {
    const ModelConfig& m = loaded.model->config();
    if (m.pos == PosEncoding::kLearned && width > m.max_positions) {
      throw std::invalid_argument(
          "the prompt has " + std::to_string(prompt) + " tokens and decoding its value reads " +
          std::to_string(width) + "; model '" + name + "' has learned positions for at most " +
          std::to_string(m.max_positions) + " tokens: send at most " +
          std::to_string(m.max_positions - (width - prompt)) + " prompt tokens");
    }
  }
};

std::vector<std::string> kv_prompt_tokens(const std::string& prompt) {
  std::size_t end = prompt.size();
  std::vector<std::string> words;
  while (words.empty()) {
    const std::size_t nl = end == 0 ? std::string::npos : prompt.rfind('\n', end - 1);
    const std::size_t begin = nl == std::string::npos ? 0 : nl + 1;
    std::istringstream line(prompt.substr(begin, end - begin));
    for (std::string w; line >> w;) words.push_back(std::move(w));
    if (nl == std::string::npos) break;
    end = nl;
  }
  if (words.empty()) {
    throw std::invalid_argument(
        "the prompt is empty; send a kv example's tokens separated by spaces (\"A B C 4 0 7 "
        "D E F 1 2 3 ? A B C\")");
  }
  for (const std::string& w : words) {
    const auto& vocab = kv_vocabulary();
    if (std::find(vocab.begin(), vocab.end(), w) == vocab.end()) {
      throw std::invalid_argument("the prompt's token '" + w.substr(0, 20) +
                                  "' is not in the kv vocabulary (_ ? A..Z 0..9, separated by "
                                  "spaces)");
    }
  }
  return words;
}

KvCompleter::KvCompleter(const std::vector<ServedRun>& runs, double busy_timeout)
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
    if (s->loaded.info.config.task != Task::kKv) {
      throw std::invalid_argument("run '" + r.dir + "' is a " +
                                  std::string(task_name(s->loaded.info.config.task)) +
                                  " run; the kv backend serves kv runs");
    }
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

KvCompleter::~KvCompleter() = default;

std::vector<std::string> KvCompleter::models() const {
  std::vector<std::string> out;
  for (const auto& s : served_) out.push_back(s->name);
  return out;
}

Completion KvCompleter::complete(const CompletionRequest& request) {
  Served* s = nullptr;
  for (const auto& m : served_) {
    if (m->name == request.model) s = m.get();
  }
  if (s == nullptr && served_.size() == 1) s = served_[0].get();
  if (s == nullptr) throw UnknownModel("no model named '" + request.model + "' is served");
  const std::vector<std::string> tokens = kv_prompt_tokens(request.prompt);
  const auto length = static_cast<std::int64_t>(tokens.size());
  if (length > kMaxServedTokens) {
    throw std::invalid_argument("the prompt has " + std::to_string(length) +
                                " tokens; a served model reads at most " +
                                std::to_string(kMaxServedTokens));
  }
  const int steps = std::min(request.max_tokens, kKvValueTokens);
  s->check_width(length, length + steps - 1);
  BatchQueue::Input ids;
  for (const std::string& t : tokens) ids.push_back(kv_token_id(t));
  Completion c;
  c.model = s->name;
  c.prompt_tokens = length;
  for (int k = 0; k < steps; ++k) {
    std::int64_t next = 0;
    try {
      next = s->queue->answer(ids, busy_timeout_);
    } catch (const BackendBusy&) {
      throw BackendBusy("model '" + s->name + "' is busy; try again");
    }
    ++c.completion_tokens;
    c.text += (k ? " " : "") + kv_vocabulary()[static_cast<std::size_t>(next)];
    if (cut_at_stop(c.text, request.stop)) break;
    ids.push_back(next);
  }
  return c;
}

}  // namespace posbias
