#include "posbias/tasks/vocab.h"

#include <stdexcept>

#include "posbias/core/enum_names.h"

namespace posbias {

namespace {

constexpr EnumNames<Task, 4> kTaskNames{{{Task::kNumber, "number"},
                                         {Task::kLetter, "letter"},
                                         {Task::kText, "text"},
                                         {Task::kKv, "kv"}}};

}  // namespace

std::string_view task_name(Task task) { return name_of(kTaskNames, task); }

bool is_hop_task(Task task) { return task == Task::kNumber || task == Task::kLetter; }

void require_hop_task(Task task, const std::string& what) {
  if (!is_hop_task(task)) {
    throw std::invalid_argument(what + " needs a number or letter run, not a " +
                                std::string(task_name(task)) + " run");
  }
}

Task parse_task(const std::string& name) { return value_of(kTaskNames, name, "task"); }

std::string number_letter(int index) {
  if (index < 0 || index >= kNumberLetters) {
    throw std::out_of_range("letter index " + std::to_string(index) + " outside 0..119");
  }
  if (index < 26) return std::string(1, static_cast<char>('a' + index));
  const int rest = index - 26;
  return std::string{static_cast<char>('a' + rest / 26), static_cast<char>('a' + rest % 26)};
}

namespace {

std::vector<std::string> number_tokens() {
  std::vector<std::string> t{"<pad>"};
  for (int n = 1; n <= kMaxNumberLength; ++n) t.push_back(std::to_string(n));
  for (int i = 0; i < kNumberLetters; ++i) t.push_back(number_letter(i));
  return t;
}

std::vector<std::string> letter_tokens() {
  std::vector<std::string> t{"<pad>"};
  for (int l = 0; l < kPairLetters; ++l) {
    const std::string left(1, static_cast<char>('a' + l));
    for (int r = 0; r < kPairLetters; ++r) t.push_back(left + ":" + static_cast<char>('a' + r));
    for (int r = 0; r < kPairInts; ++r) t.push_back(left + ":" + std::to_string(r));
  }
  return t;
}

}  // namespace

Vocabulary::Vocabulary(std::vector<std::string> tokens) : tokens_(std::move(tokens)) {
  for (std::size_t i = 0; i < tokens_.size(); ++i) {
    ids_.emplace(tokens_[i], static_cast<std::int64_t>(i));
  }
}

const Vocabulary& Vocabulary::of(Task task) {
  static const Vocabulary number(number_tokens());
  static const Vocabulary letter(letter_tokens());
  require_hop_task(task, "a hop vocabulary");
  return task == Task::kNumber ? number : letter;
}

const std::string& Vocabulary::token(std::int64_t id) const {
  if (id < 0 || id >= size()) throw std::out_of_range("token id " + std::to_string(id));
  return tokens_[static_cast<std::size_t>(id)];
}

bool Vocabulary::contains(std::string_view token) const {
  return ids_.count(std::string(token)) != 0;
}

std::int64_t Vocabulary::id(std::string_view token) const {
  const auto it = ids_.find(std::string(token));
  if (it == ids_.end()) {
    throw std::invalid_argument("token '" + std::string(token.substr(0, 20)) +
                                "' is not in the vocabulary");
  }
  return it->second;
}

std::vector<std::int64_t> Vocabulary::encode(const std::vector<std::string>& tokens) const {
  std::vector<std::int64_t> out;
  out.reserve(tokens.size());
  for (const std::string& t : tokens) out.push_back(id(t));
  return out;
}

}  // namespace posbias
