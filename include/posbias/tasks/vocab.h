// The vocabularies and tokenizer of the hop tasks, shared by the generators, training,
// evaluation and the LLM prompts. Tokens are the strings a user reads.
//
// Number: id 0 "<pad>", ids 1..1024 the integers "1".."1024" (a jump of n positions back),
//         then 120 letters "a".."z", "aa", "ab", ... (ids 1025..1144).
// Letter: id 0 "<pad>", then the pairs "l:r" for l in a..h and r in a..h, 0..9
//         (l-major: "a:a" .. "a:h", "a:0" .. "a:9", "b:a", ...; ids 1..144).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace posbias {

// What a model is trained on: the two hop tasks, next-token prediction on text (`train --task
// text`), or key–value retrieval (`train --task kv`, tasks/kv_task.h). Text and kv have no hop
// vocabulary, examples or answers: hop functions refuse them.
enum class Task { kNumber, kLetter, kText, kKv };
std::string_view task_name(Task task);
// number | letter | text | kv; throws std::invalid_argument
Task parse_task(const std::string& name);
bool is_hop_task(Task task);  // number or letter
// Throws std::invalid_argument when `task` is not a hop task: "<what> needs a number or letter
// run".
void require_hop_task(Task task, const std::string& what);

constexpr int kNumberLetters = 120;  // letter vocabulary of the Number task
// The largest integer token, so the longest input a Number model reads.
constexpr int kMaxNumberLength = 1024;
constexpr int kPairLetters = 8;  // a..h in the Letter task
constexpr int kPairInts = 10;    // 0..9 on the right of Letter targets

// The i-th letter of the Number task's 120: a..z, aa..az, ba..
std::string number_letter(int index);

class Vocabulary {
 public:
  static const Vocabulary& of(Task task);  // built once, immutable; not for text

  std::int64_t size() const { return static_cast<std::int64_t>(tokens_.size()); }
  const std::string& token(std::int64_t id) const;  // throws std::out_of_range
  // Throws std::invalid_argument naming the token when it is not in the vocabulary.
  std::int64_t id(std::string_view token) const;
  bool contains(std::string_view token) const;
  std::vector<std::int64_t> encode(const std::vector<std::string>& tokens) const;

 private:
  explicit Vocabulary(std::vector<std::string> tokens);
  std::vector<std::string> tokens_;
  std::unordered_map<std::string, std::int64_t> ids_;
};

}  // namespace posbias
