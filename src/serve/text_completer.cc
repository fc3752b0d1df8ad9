#include "posbias/serve/text_completer.h"

#include <algorithm>
#include <set>

#include "posbias/serve/batch_queue.h"
#include "posbias/serve/greedy_step.h"
#include "posbias/text/tokenizer.h"
#include "posbias/train/checkpoint.h"
#include "posbias/train/text_run.h"

namespace posbias {

namespace {

constexpr std::int64_t kBatchTokens = 16384;  // largest batch × length of one forward pass

// The prompt's ids as the run's text stream holds them: lines joined by the newline id, none
// after the last line.
std::vector<std::int64_t> encode_prompt(const Tokenizer& tokenizer, const std::string& prompt) {
  std::vector<std::string> lines;
  std::size_t begin = 0;
  for (std::size_t nl; (nl = prompt.find('\n', begin)) != std::string::npos; begin = nl + 1) {
    lines.push_back(prompt.substr(begin, nl - begin));
  }
  lines.push_back(prompt.substr(begin));
  std::vector<std::int32_t> ids = tokenizer.encode(lines);
  ids.pop_back();  // encode ends every line with a newline; the prompt's last line has none
  return {ids.begin(), ids.end()};
}

}  // namespace

struct TextCompleter::Served {
  std::string name;
  LoadedModel loaded;
  Tokenizer tokenizer;
  std::unique_ptr<BatchQueue> queue;  // last: its worker stops before the model goes

  // The model's greedy next token after each of a batch of equal-length inputs.
  std::vector<std::int64_t> answer(const std::vector<const BatchQueue::Input*>& batch) {
    return greedy_last_tokens(loaded.model, batch);
  }
};

TextCompleter::TextCompleter(const std::vector<ServedRun>& runs, double busy_timeout)
    : busy_timeout_(busy_timeout) {
  std::set<std::string> names;
  for (const ServedRun& r : runs) {
    if (!names.insert(r.name).second) {
      throw std::invalid_argument("two runs are named '" + r.name + "'; use NAME=RUN_DIR");
    }
    auto s = std::make_unique<Served>();
    s->name = r.name;
    s->loaded = load_trained_model(r.dir);
    const TrainConfig& c = s->loaded.info.config;
    if (c.task != Task::kText) {
      throw std::invalid_argument("run '" + r.dir + "' is a " + std::string(task_name(c.task)) +
                                  " run; the text backend serves text runs");
    }
    s->tokenizer = c.tokenizer == TokenizerKind::kBytes
                       ? Tokenizer::bytes()
                       : Tokenizer::load_spm(tokenizer_path(r.dir));
    if (s->tokenizer.vocab_size() != c.vocab()) {
      throw std::runtime_error(tokenizer_path(r.dir).string() + " has " +
                               std::to_string(s->tokenizer.vocab_size()) +
                               " pieces, the run's config " + std::to_string(c.vocab()));
    }
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

TextCompleter::~TextCompleter() = default;

std::vector<std::string> TextCompleter::models() const {
  std::vector<std::string> out;
  for (const auto& s : served_) out.push_back(s->name);
  return out;
}

Completion TextCompleter::complete(const CompletionRequest& request) {
  Served* s = nullptr;
  for (const auto& m : served_) {
    if (m->name == request.model) s = m.get();
  }
  if (s == nullptr && served_.size() == 1) s = served_[0].get();
  if (s == nullptr) throw UnknownModel("no model named '" + request.model + "' is served");
  BatchQueue::Input ids = encode_prompt(s->tokenizer, request.prompt);
  if (ids.empty()) throw std::invalid_argument("the prompt is empty");
  const auto length = static_cast<std::int64_t>(ids.size());
  const std::int64_t width = length + request.max_tokens - 1;
  const ModelConfig& m = s->loaded.model->config();
  const std::int64_t limit = m.pos == PosEncoding::kLearned
                                 ? std::min<std::int64_t>(m.max_positions, kMaxServedTokens)
                                 : kMaxServedTokens;
  if (width > limit) {
    throw std::invalid_argument("the prompt has " + std::to_string(length) + " tokens and " +
                                "max_tokens " + std::to_string(request.max_tokens) + " reads " +
                                std::to_string(width) + "; model '" + s->name + "' reads at most " +
                                std::to_string(limit) + ": lower max_tokens or the prompt");
  }
  Completion c;
  c.model = s->name;
  c.prompt_tokens = length;
  std::vector<std::int32_t> produced;
  for (int k = 0; k < request.max_tokens; ++k) {
    std::int64_t next = 0;
    try {
      next = s->queue->answer(ids, busy_timeout_);
    } catch (const BackendBusy&) {
      throw BackendBusy("model '" + s->name + "' is busy; try again");
    }
    ++c.completion_tokens;
    produced.push_back(static_cast<std::int32_t>(next));
    c.text = s->tokenizer.decode(produced);
    if (cut_at_stop(c.text, request.stop)) break;
    ids.push_back(next);
  }
  return c;
}

}  // namespace posbias
