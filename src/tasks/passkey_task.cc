#include "posbias/tasks/passkey_task.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace posbias {
namespace {

// Ids of `text` alone: the tokenizer ends a line with the newline id, which is dropped.
std::vector<std::int32_t> encode_piece(const Tokenizer& tokenizer, const std::string& text) {
  std::vector<std::int32_t> ids = tokenizer.encode({text});
  if (ids.empty() || ids.back() != tokenizer.newline_id())
    throw std::logic_error("passkey: the tokenizer did not end a line with its newline id");
  ids.pop_back();
  return ids;
}

std::int32_t single_id(const Tokenizer& tokenizer, char c) {
  const std::vector<std::int32_t> ids = encode_piece(tokenizer, std::string(1, c));
  if (ids.size() != 1)
    throw std::runtime_error(
        fmt::format("the run's tokenizer encodes '{}' as {} ids, not one", c, ids.size()));
  return ids[0];
}

std::size_t name_index(const std::string& name) {
  const auto& names = passkey_names();
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end())
    throw std::invalid_argument("'" + name.substr(0, 40) + "' is not a passkey name");
  return static_cast<std::size_t>(it - names.begin());
}

}  // namespace

const std::vector<std::string>& passkey_names() {
  static const std::vector<std::string> names{
      "Alice",   "Bruno", "Carla",  "Daniel",   "Edith",  "Felix",  "Greta",  "Hugo",
      "Irene",   "Jonas", "Karen",  "Louis",    "Maria",  "Nathan", "Olga",   "Peter",
      "Quentin", "Rosa",  "Samuel", "Tanya",    "Ulrich", "Vera",   "Walter", "Xenia",
      "Yusuf",   "Zoe",   "Arthur", "Beatrice", "Conrad", "Diana",  "Ernest", "Flora",
      "George",  "Helen", "Isaac",  "Julia",    "Kevin",  "Laura",  "Martin", "Nora",
      "Oscar",   "Paula", "Robert", "Sarah",    "Thomas", "Ursula", "Victor", "Wanda",
      "Albert",  "Bella", "Cyril",  "Doris",    "Edgar",  "Fiona",  "Gordon", "Hazel",
      "Ivan",    "Joyce", "Keith",  "Lydia",    "Miles",  "Nadia",  "Owen",   "Priya"};
  return names;
}

std::string passkey_needle_text(const std::string& name, const std::string& number) {
  return "The pass key of " + name + " is " + number + ".";
}

std::string passkey_question_text(const std::string& name) {
  return "What is the pass key of " + name + "? The pass key of " + name + " is";
}

double passkey_depth(int offset, int haystack) {
  return haystack > 0 ? 100.0 * offset / haystack : 0.0;
}

int passkey_offset_at_depth(double depth, int haystack) {
  if (!(depth >= 0 && depth <= 100))
    throw std::invalid_argument(fmt::format("depth {:g} is outside 0..100 percent", depth));
  return static_cast<int>(std::lround(depth * static_cast<double>(haystack) / 100.0));
}

PasskeyCodec::PasskeyCodec(const Tokenizer& tokenizer) {
  newline_ = tokenizer.newline_id();
  space_ = single_id(tokenizer, ' ');
  dot_ = single_id(tokenizer, '.');
  for (int d = 0; d < 10; ++d) digit_[d] = single_id(tokenizer, static_cast<char>('0' + d));
  for (const std::string& name : passkey_names()) {
    // "The pass key of <Name> is": the number follows as " " and its digits.
    const std::string head = passkey_needle_text(name, "");
    const auto h = encode_piece(tokenizer, head.substr(0, head.size() - 2));
    needle_at_.push_back(needle_head_.size());
    needle_head_.insert(needle_head_.end(), h.begin(), h.end());
    const auto q = encode_piece(tokenizer, passkey_question_text(name));
    question_at_.push_back(question_.size());
    question_.insert(question_.end(), q.begin(), q.end());
  }
  needle_at_.push_back(needle_head_.size());
  question_at_.push_back(question_.size());
}

// "\n" head " " digits "." "\n"
int PasskeyCodec::needle_ids(std::size_t name) const {
  return static_cast<int>(needle_at_[name + 1] - needle_at_[name]) + 1 + kPasskeyAnswerIds + 2;
}

// "\n" question, then the answer " " digits and "."
int PasskeyCodec::question_ids(std::size_t name) const {
  return 1 + static_cast<int>(question_at_[name + 1] - question_at_[name]);
}

int PasskeyCodec::haystack(int length, const std::vector<std::string>& names) const {
  int used = kPasskeyAnswerIds + 1 + question_ids(name_index(names.at(0)));
  for (const std::string& name : names) used += needle_ids(name_index(name));
  return length + 1 - used;
}

int PasskeyCodec::check_fits(int length, int needles) const {
  int longest_needle = 0, longest_question = 0;
  for (std::size_t n = 0; n < passkey_names().size(); ++n) {
    longest_needle = std::max(longest_needle, needle_ids(n));
    longest_question = std::max(longest_question, question_ids(n));
  }
  const int fixed = kPasskeyAnswerIds + 1 + longest_question - 1;
  const int fewest = length - fixed - needles * longest_needle;
  if (fewest < needles)
    throw std::invalid_argument(fmt::format(
        "{} passkey needle(s) and the question do not fit length {} in the run's tokens (up to {} "
        "ids a needle, {} the question and answer, at least {} of Brown text): use -L {} or more",
        needles, length, longest_needle, fixed + 1, needles,
        fixed + needles * longest_needle + needles));
  return fewest;
}

PasskeyExample PasskeyCodec::build(const std::int32_t* brown, int length,
                                   const std::vector<std::string>& names,
                                   const std::vector<std::string>& numbers,
                                   const std::vector<int>& offsets, int queried) const {
  const std::size_t k = names.size();
  if (k == 0 || numbers.size() != k || offsets.size() != k || queried < 0 ||
      queried >= static_cast<int>(k))
    throw std::invalid_argument("passkey: names, numbers and offsets must match, queried in range");
  PasskeyExample ex;
  ex.haystack = haystack(length, names);
  if (ex.haystack < 0)
    throw std::invalid_argument(fmt::format("passkey: the needles do not fit length {}", length));
  std::vector<std::size_t> order(k);
  for (std::size_t i = 0; i < k; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](auto a, auto b) { return offsets[a] < offsets[b]; });
  ex.needles.resize(k);
  ex.queried = queried;
  ex.ids.reserve(static_cast<std::size_t>(length) + 1);
  auto put_number = [&](const std::string& number) {
    if (number.size() != kPasskeyDigits ||
        !std::all_of(number.begin(), number.end(), [](char c) { return c >= '0' && c <= '9'; }))
      throw std::invalid_argument("passkey: '" + number.substr(0, 20) + "' is not a number");
    ex.ids.push_back(space_);
    for (char c : number) ex.ids.push_back(digit_[c - '0']);
  };
  int brown_used = 0;
  for (std::size_t r = 0; r < k; ++r) {
    const std::size_t i = order[r];
    if (offsets[i] < 0 || offsets[i] > ex.haystack ||
        (r > 0 && offsets[i] == offsets[order[r - 1]]))
      throw std::invalid_argument("passkey: needle offsets must be distinct and in 0..haystack");
    ex.ids.insert(ex.ids.end(), brown + brown_used, brown + offsets[i]);
    brown_used = offsets[i];
    PasskeyNeedle& n = ex.needles[i];
    n = {names[i], numbers[i], offsets[i], static_cast<int>(ex.ids.size()),
         passkey_depth(offsets[i], ex.haystack)};
    const std::size_t at = name_index(names[i]);
    ex.ids.push_back(newline_);
    ex.ids.insert(ex.ids.end(), needle_head_.begin() + static_cast<std::ptrdiff_t>(needle_at_[at]),
                  needle_head_.begin() + static_cast<std::ptrdiff_t>(needle_at_[at + 1]));
    put_number(numbers[i]);
    ex.ids.push_back(dot_);
    ex.ids.push_back(newline_);
    n.size = static_cast<int>(ex.ids.size()) - n.position;
  }
  ex.ids.insert(ex.ids.end(), brown + brown_used, brown + ex.haystack);
  const std::size_t q = name_index(names[static_cast<std::size_t>(queried)]);
  ex.ids.push_back(newline_);
  ex.ids.insert(ex.ids.end(), question_.begin() + static_cast<std::ptrdiff_t>(question_at_[q]),
                question_.begin() + static_cast<std::ptrdiff_t>(question_at_[q + 1]));
  ex.answer_start = static_cast<int>(ex.ids.size()) + 1;  // after the space
  put_number(numbers[static_cast<std::size_t>(queried)]);
  ex.ids.push_back(dot_);
  if (static_cast<int>(ex.ids.size()) != length + 1)
    throw std::logic_error("passkey: the example is not length + 1 ids");
  return ex;
}

PasskeyDraw draw_passkey_names(int needles, Rng& rng) {
  const auto& all = passkey_names();
  if (needles < 1 || needles > static_cast<int>(all.size()))
    throw std::invalid_argument(fmt::format("needles must be in 1..{}", all.size()));
  PasskeyDraw d;
  std::vector<std::size_t> pick(all.size());
  for (std::size_t i = 0; i < pick.size(); ++i) pick[i] = i;
  for (int k = 0; k < needles; ++k) {  // a partial Fisher–Yates shuffle
    const auto j = static_cast<std::size_t>(k) +
                   static_cast<std::size_t>(rng.below(static_cast<std::int64_t>(pick.size()) - k));
    std::swap(pick[static_cast<std::size_t>(k)], pick[j]);
    d.names.push_back(all[pick[static_cast<std::size_t>(k)]]);
    d.numbers.push_back(std::to_string(rng.between(10000, 99999)));
  }
  return d;
}

std::vector<int> draw_passkey_offsets(int needles, int haystack, int fixed, DepthPrior prior,
                                      Rng& rng) {
  if (needles > haystack + 1)
    throw std::invalid_argument(
        fmt::format("passkey: {} needles need {} distinct offsets, the haystack has {}", needles,
                    needles, haystack + 1));
  std::vector<int> offsets;
  while (static_cast<int>(offsets.size()) < needles) {
    const int o = offsets.empty() && fixed >= 0 ? fixed : draw_kv_queried(haystack + 1, prior, rng);
    if (std::find(offsets.begin(), offsets.end(), o) == offsets.end()) offsets.push_back(o);
  }
  return offsets;
}

PasskeyExample draw_passkey_example(const PasskeyCodec& codec, const std::int32_t* brown,
                                    int length, int needles, DepthPrior prior, Rng& rng) {
  const PasskeyDraw d = draw_passkey_names(needles, rng);
  const int f = codec.haystack(length, d.names);
  return codec.build(brown, length, d.names, d.numbers,
                     draw_passkey_offsets(needles, f, -1, prior, rng), 0);
}

PasskeyExample passkey_depth_example(const PasskeyCodec& codec,
                                     const std::vector<std::int32_t>& heldout, int length,
                                     int needles, double depth, std::int64_t example,
                                     std::uint64_t seed) {
  passkey_offset_at_depth(depth, 0);  // refuses a depth outside 0..100 first
  const auto millipercent = static_cast<std::uint64_t>(std::llround(depth * 1000));
  const std::uint64_t cell =
      Rng::stream(seed, static_cast<std::uint64_t>(length), millipercent).next();
  Rng rng = Rng::stream(cell, static_cast<std::uint64_t>(example));
  const PasskeyDraw d = draw_passkey_names(needles, rng);
  const int f = codec.haystack(length, d.names);
  const auto n = static_cast<std::int64_t>(heldout.size());
  if (n < length + 1)
    throw std::invalid_argument(fmt::format(
        "length {} needs {} held-out ids, the held-out split has {}", length, length + 1, n));
  const std::int64_t start = rng.below(n - length);
  const std::vector<int> offsets = draw_passkey_offsets(
      needles, f, passkey_offset_at_depth(depth, f), DepthPrior::kUniform, rng);
  return codec.build(heldout.data() + start, length, d.names, d.numbers, offsets, 0);
}

PasskeyExampleLine passkey_example_line(const PasskeyExample& ex, const Tokenizer& tokenizer) {
  const PasskeyNeedle& target = ex.target();
  PasskeyExampleLine line;
  line.length = ex.length();
  line.needles = static_cast<int>(ex.needles.size());
  line.depth = target.depth;
  line.position = target.position;
  line.offset = target.offset;
  line.haystack = ex.haystack;
  line.queried_name = target.name;
  line.answer = target.number;
  line.answer_start = ex.answer_start;
  line.text = tokenizer.decode(
      std::vector<std::int32_t>(ex.ids.begin(), ex.ids.begin() + ex.answer_start - 1));
  line.ids = ex.ids;
  return line;
}

nlohmann::json passkey_example_to_json(const PasskeyExample& ex, const Tokenizer& tokenizer) {
  return to_json(passkey_example_line(ex, tokenizer));
}

}  // namespace posbias
