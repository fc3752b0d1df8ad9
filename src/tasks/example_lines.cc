#include "posbias/tasks/example_lines.h"

#include <stdexcept>

#include "posbias/core/int_in_codec.h"
#include "posbias/tasks/task_codecs.h"

namespace posbias {

const std::vector<FieldRow<ExampleLine>>& example_line_fields() {
  using E = Example;
  using L = ExampleLine;
  static const std::vector<FieldRow<L>> rows = [] {
    std::vector<FieldRow<E>> e = {
        required(field("task", &E::task, "number or letter")),
        field("variant", &E::variant, "standard, seen_jumps or decoy (absent: standard)"),
        required(field<E, int, IntIn<1, kMaxHops>>("hops", &E::hops, "hops to the answer")),
        required(field("tokens", &E::tokens, "the input tokens, the query last")),
        required(field("answer", &E::answer, "the token the chain ends on")),
        required(field<E, std::vector<int>, ListCodec<int, IntIn<0, kMaxLength - 1>>>(
            "chain", &E::chain, "the chain's positions, the answer's last")),
        field("decoy", &E::decoy, "the decoy chain's target (Letter, variant decoy)")};
    e.back().present = [](const E& x) { return !x.decoy.empty(); };
    std::vector<FieldRow<L>> out = member_fields(&L::example, e);
    out.push_back(required(
        field<L, int, IntIn<0, kMaxLength>>("length", &L::length, "tokens, the query included")));
    return out;
  }();
  return rows;
}

const std::vector<FieldRow<KvExampleLine>>& kv_example_line_fields() {
  using E = KvExample;
  using L = KvExampleLine;
  using Count = IntIn<0, kKvMaxLength>;
  static const std::vector<FieldRow<L>> rows = [] {
    std::vector<FieldRow<L>> out = member_fields(
        &L::example,
        std::vector<FieldRow<E>>{
            required(field("depth_prior", &E::prior, "uniform or ends")),
            required(field<E, int, Count>("pairs", &E::pairs, "key-value pairs")),
            required(field("tokens", &E::tokens, "the input tokens, the query last")),
            required(field("answer", &E::answer, "the queried value's tokens")),
            required(field("depth", &E::depth, "the queried pair's depth, percent")),
            required(field<E, int, Count>("position", &E::position,
                                          "token index of the queried pair's first key token"))});
    out.push_back(required(field("task", &L::task, "kv")));
    out.push_back(required(field<L, int, Count>("length", &L::length, "tokens, query included")));
    return out;
  }();
  return rows;
}

const std::vector<FieldRow<PasskeyExampleLine>>& passkey_example_line_fields() {
  using L = PasskeyExampleLine;
  static const std::vector<FieldRow<L>> rows = {
      required(field("task", &L::task, "passkey")),
      required(field("length", &L::length, "L: the tokens the model reads")),
      required(field("needles", &L::needles, "K: needles in the text")),
      required(field("depth", &L::depth, "the queried needle's depth, percent")),
      required(field("position", &L::position, "index of the queried needle's first id")),
      required(field("offset", &L::offset, "Brown ids before the queried needle")),
      required(field("haystack", &L::haystack, "F: Brown ids in the example")),
      required(field("queried_name", &L::queried_name, "the name the question asks about")),
      required(field("answer", &L::answer, "the queried needle's number")),
      required(field("answer_start", &L::answer_start, "index of the answer's first digit")),
      required(field("text", &L::text, "the decoded ids before the answer")),
      required(field("ids", &L::ids, "the example's L + 1 ids"))};
  return rows;
}

nlohmann::json to_json(const PasskeyExampleLine& line) {
  return fields_to_json(passkey_example_line_fields(), line);
}

PasskeyExampleLine passkey_example_line_from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw std::invalid_argument("a passkey example must be a JSON object");
  const PasskeyExampleLine line =
      fields_from_json(passkey_example_line_fields(), j, PasskeyExampleLine{}, "field");
  if (line.task != AnswerInputs::kPasskey)
    throw std::invalid_argument("'task' must be \"passkey\"");
  return line;
}

}  // namespace posbias
