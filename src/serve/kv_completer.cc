#include "posbias/serve/kv_completer.h"

#include <algorithm>
#include <sstream>

#include "posbias/llm/openai.h"
#include "posbias/tasks/kv_task.h"
#include "posbias/train/checkpoint.h"
#include "posbias/train/sink_token.h"

namespace posbias {

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
    : served_(runs, busy_timeout, [](const ServedRun& run, const LoadedModel& loaded) {
        const Task task = loaded.info.config.task;
        if (task != Task::kKv) {
          throw std::invalid_argument("run '" + run.dir + "' is a " + std::string(task_name(task)) +
                                      " run; the kv backend serves kv runs");
        }
      }) {}

Completion KvCompleter::complete(const CompletionRequest& request, const TokenSink& on_token) {
  require_text_prompt(request, "a kv model");
  const std::size_t m = served_.find(request.model);
  BatchQueue::Input ids;
  if (served_.loaded(m).info.config.sink) ids.push_back(sink_token_id());  // the run read it first
  for (const std::string& t : kv_prompt_tokens(request.prompt)) ids.push_back(kv_token_id(t));
  const auto token = [](std::int64_t id) {
    return kv_vocabulary().at(static_cast<std::size_t>(id));
  };
  const Detokenizer words{[&token](const std::vector<std::int64_t>& produced) {
                            std::string text;
                            for (std::size_t k = 0; k < produced.size(); ++k)
                              text += (k ? " " : "") + token(produced[k]);
                            return text;
                          },
                          token};
  return served_.decode(m, std::move(ids), kKvValueTokens, request, words, on_token);
}

}  // namespace posbias
