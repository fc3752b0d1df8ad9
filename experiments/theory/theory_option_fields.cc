#include "experiments/theory/theory_option_fields.h"

#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "posbias/arch/config.h"
#include "posbias/core/flag_rows.h"
#include "posbias/core/parse.h"
#include "posbias/core/query_position.h"
#include "posbias/theory/exact.h"

namespace posbias {

struct RowFormatNames {
  static std::string name(RowFormat f) { return to_string(f); }
  static RowFormat parse(const std::string& s) { return parse_row_format(s); }
};
template <>
struct FieldCodec<RowFormat> : EnumCodec<RowFormat, RowFormatNames> {};

namespace {

// An enum field whose flag takes one of its names; an unknown name is refused with the names'
// own message.
template <class S, class E>
FieldRow<S> named(std::string name, E S::*member, std::string help) {
  FieldRow<S> row = field(std::move(name), member, std::move(help));
  row.from_flag = [](const std::string& text) {
    FieldCodec<E>::read(text, "");  // the names' own message for an unknown one
    return nlohmann::json(text);
  };
  return row;
}

// The query's position (0-based), or "last" for the last token (the field unset).
template <class S>
FieldRow<S> query_row(std::optional<std::int64_t> S::*member) {
  FieldRow<S> row = field("query", member, query_position_help(), query_position_type());
  row.from_flag = [flag = row.flag](const std::string& text) {
    const std::optional<std::int64_t> position = parse_query_position(text, flag);
    return position ? nlohmann::json(*position) : nlohmann::json();
  };
  return row;
}

// The attention operator's knobs, which `theory` and `theory fit` share (the sink share's type
// is each command's own: sink_help gives its help).
template <class S>
FieldRow<S> window_row(std::int64_t S::*member) {
  return integer_field(
      "window", member,
      "sliding-window attention: each query sees its last W keys (0 = all earlier keys)");
}

template <class S>
FieldRow<S> alibi_row(std::vector<double> S::*member) {
  FieldRow<S> row = field("alibi_slopes", member,
                          "ALiBi slopes: one slope m (expected attention ∝ exp(-m·distance)), a "
                          "list m1,m2,... averaged over heads, or heads:N for the standard "
                          "2^(-8h/N) slopes",
                          "SLOPES");
  row.flag = "--alibi";
  row.from_flag = [](const std::string& text) { return nlohmann::json(parse_alibi(text)); };
  return row;
}

std::string sink_help() {
  return "attention-sink share: each query puts this fraction of its mass on position 0 (the "
         "first token), in [0, 1]";
}

template <class S>
FieldRow<S> null_sink_row(std::optional<double> S::*member) {
  return field("null_sink", member,
               "a null sink of logit b in every head (softmax off by one): each query's "
               "normalizer gains e^b and the sink carries no value, so uniform attention becomes "
               "1/(i + e^b); --exact takes the double nearest e^b as an exact rational");
}

// TheoryNumbers as written: the float engine's numbers, or --exact's rationals as text ("1/3");
// one value, or (`list`) a list.
nlohmann::json write_numbers(const TheoryNumbers& n, bool list) {
  nlohmann::json values = nlohmann::json::array();
  if (!n.values.empty()) {
    for (double v : n.values) values.push_back(v);
  } else {
    for (const mpq_class& q : n.exact) values.push_back(q.get_str());
  }
  return list || values.size() != 1 ? values : values.front();
}

// Numbers for the float engine, strings of rationals for the exact one, and a flag's text
// ({"text": TEXT}) by the engine `exact` chooses; std::invalid_argument naming `what` otherwise.
TheoryNumbers read_numbers(const nlohmann::json& j, const std::string& what,
                           const std::string& flag, bool exact, bool list) {
  if (j.is_object() && j.size() == 1 && j.contains("text") && j["text"].is_string())
    return parse_theory_numbers(j["text"].get<std::string>(), flag, exact, list);
  const std::string kind = list ? " must be a list of numbers or of rationals (\"1/3\")"
                                : " must be a number or a rational (\"1/3\")";
  const nlohmann::json items = list ? j : nlohmann::json::array({j});
  if (!items.is_array() || items.empty()) throw std::invalid_argument(what + kind);
  TheoryNumbers n;
  const bool rationals = items.front().is_string();
  for (const nlohmann::json& v : items) {
    if (rationals && v.is_string()) {
      try {
        n.exact.push_back(parse_rational(v.get<std::string>()));
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(what + ": " + e.what());
      }
    } else if (!rationals && v.is_number()) {
      n.values.push_back(v.get<double>());
    } else {
      throw std::invalid_argument(what + kind);
    }
  }
  return n;
}

FieldRow<TheoryOptions> numbers_row(std::string name, TheoryNumbers TheoryOptions::*member,
                                    std::string help, std::string type, bool list) {
  FieldRow<TheoryOptions> row;
  row.name = std::move(name);
  row.flag = "--" + row.name;
  row.help = std::move(help);
  row.type = std::move(type);
  row.present = [](const TheoryOptions&) { return true; };
  row.write = [member, list](const TheoryOptions& o) { return write_numbers(o.*member, list); };
  row.read = [member, list, key = row.name, flag = row.flag](
                 const nlohmann::json& j, TheoryOptions& o, const std::string& what) {
    o.*member = read_numbers(j, field_what(what, key), flag, o.exact, list);
  };
  row.from_flag = [](const std::string& text) { return nlohmann::json{{"text", text}}; };
  return row;
}

std::vector<FieldRow<TheoryOptions>> theory_rows() {
  using S = TheoryOptions;
  return {
      integer_field("length", &S::length, "sequence length L in tokens (integer, 1e5 notation ok)"),
      integer_field("layers", &S::layers, "number of layers H (>= 0)"),
      numbers_row(
          "alpha", &S::alpha,
          "residual weight α of the attention branch, in [0, 1]; or one value per layer a1,a2,...",
          "NUMBER|LIST", true),
      query_row(&S::query),
      window_row(&S::window),
      alibi_row(&S::alibi_slopes),
      numbers_row("sink", &S::sink, sink_help(), "NUMBER", false),
      null_sink_row(&S::null_sink),
      field("exact", &S::exact,
            "exact rationals with GMP (q up to 20000; α and sink read as exact decimals or a/b), "
            "printed as fractions"),
      named("format", &S::format, "row output format: csv or json (json includes the summary)"),
      field("epsilon", &S::epsilon, "primacy window as a fraction of q, in (0, 1]"),
      integer_field("grid", &S::grid, "points of the continuum density grid"),
  };
}

std::vector<FieldRow<FitOptions>> fit_rows() {
  using S = FitOptions;
  return {
      required(integer_field("layers", &S::layers, "layers H of the theory (the model's depth)")),
      window_row(&S::window),
      alibi_row(&S::alibi_slopes),
      field("sink", &S::sink, sink_help()),
      null_sink_row(&S::null_sink),
      integer_field("bootstrap", &S::bootstrap, "bootstrap resamples over seeds for the α CI"),
      seed_field("seed", &S::seed, "bootstrap RNG seed"),
  };
}

std::vector<FieldRow<CompareOptions>> compare_rows() {
  using S = CompareOptions;
  return {
      field("labels", &S::labels, "one label per run (default: file stems)", "TEXT"),
      integer_field("bootstrap", &S::bootstrap,
                    "bootstrap resamples of each run's seeds for its assignment"),
      seed_field("seed", &S::seed, "bootstrap RNG seed"),
  };
}

std::vector<FieldRow<DesignOptions>> design_rows() {
  using S = DesignOptions;
  return {
      integer_field("length", &S::length, "sequence length L in tokens"),
      integer_field("layers", &S::layers, "number of layers H (>= 1)"),
      query_row(&S::query),
      field("baseline_alpha", &S::baseline_alpha,
            "the baseline's α (every layer), in [0, 1]; added to --alphas when missing, and the "
            "only α birth can build an operator at"),
      integer_field("top", &S::top, "the best profiles drawn beside the baseline, 0..10"),
  };
}

std::vector<FieldRow<DesignGridFlags>> design_grid_flag_rows() {
  using S = DesignGridFlags;
  return {
      field("windows", &S::windows, "sliding windows W, >= 0 (0: none; always searched)", "LIST"),
      field("alibis", &S::alibis,
            "ALiBi settings: none (always searched), a slope m >= 0, or heads:N for the standard "
            "2^(-8h/N) slopes",
            "LIST"),
      field("sinks", &S::sinks,
            "attention-sink shares on position 0, in [0, 1] (0 always searched)", "LIST"),
      field("null_sinks", &S::null_sinks,
            "null-sink logits b, |b| <= 700, or none (always searched)", "LIST"),
      field("alphas", &S::alphas, "one α for every layer, each in [0, 1]", "LIST"),
      field("ramps", &S::ramps,
            "per-layer α ramps a1:aH, linear from layer 1 to layer H, each in [0, 1]; none for "
            "no ramp",
            "LIST"),
  };
}

// The items of a list option; one line naming it for an empty list or item.
std::vector<std::string> list_items(const std::string& text, const std::string& what) {
  std::vector<std::string> items;
  for (std::string item : split_commas(text)) {
    const auto first = item.find_first_not_of(' ');
    item = first == std::string::npos ? ""
                                      : item.substr(first, item.find_last_not_of(' ') - first + 1);
    items.push_back(item);
  }
  if (items.empty() || std::find(items.begin(), items.end(), "") != items.end())
    throw std::invalid_argument(what + " needs a comma list of one or more values, got '" + text +
                                "'");
  return items;
}

// none, a slope m, or heads:N (the standard slopes of N heads), named as typed.
DesignAlibi parse_design_alibi(const std::string& item) {
  if (item == "none") return {item, {}, 0};
  if (item.rfind("heads:", 0) == 0) {
    const std::int64_t n = parse_integer(item.substr(6), "--alibis heads:N");
    if (n < 1 || n > 1024)
      throw std::invalid_argument("--alibis heads:N needs N in 1..1024, got " + item);
    return {item, alibi_standard_slopes(static_cast<int>(n)), static_cast<int>(n)};
  }
  return {item, {parse_number(item, "--alibis")}, 0};
}

}  // namespace

DesignGrid parse_design_grid(const DesignGridFlags& t, std::int64_t layers) {
  DesignGrid g;
  for (const std::string& item : list_items(t.windows, "--windows"))
    g.windows.push_back(parse_integer(item, "--windows"));
  for (const std::string& item : list_items(t.alibis, "--alibis"))
    g.alibis.push_back(parse_design_alibi(item));
  for (const std::string& item : list_items(t.sinks, "--sinks"))
    g.sinks.push_back(parse_number(item, "--sinks"));
  for (const std::string& item : list_items(t.null_sinks, "--null-sinks"))
    g.null_sinks.push_back(item == "none" ? std::optional<double>()
                                          : parse_number(item, "--null-sinks"));
  for (const std::string& item : list_items(t.alphas, "--alphas"))
    g.alphas.push_back(design_alpha(parse_number(item, "--alphas")));
  if (t.ramps == "none") return g;
  for (const std::string& item : list_items(t.ramps, "--ramps")) {
    const auto colon = item.find(':');
    if (colon == std::string::npos)
      throw std::invalid_argument("--ramps items are a1:aH (α of the first and last layer), got '" +
                                  item + "'");
    g.alphas.push_back(design_ramp(parse_number(item.substr(0, colon), "--ramps"),
                                   parse_number(item.substr(colon + 1), "--ramps"), layers));
  }
  return g;
}

const std::vector<FieldRow<TheoryOptions>>& theory_option_fields() {
  static const std::vector<FieldRow<TheoryOptions>> rows = theory_rows();
  return rows;
}

const std::vector<FieldRow<FitOptions>>& fit_option_fields() {
  static const std::vector<FieldRow<FitOptions>> rows = fit_rows();
  return rows;
}

const std::vector<FieldRow<CompareOptions>>& compare_option_fields() {
  static const std::vector<FieldRow<CompareOptions>> rows = compare_rows();
  return rows;
}

const std::vector<FieldRow<DesignOptions>>& design_option_fields() {
  static const std::vector<FieldRow<DesignOptions>> rows = design_rows();
  return rows;
}

const std::vector<FieldRow<DesignGridFlags>>& design_grid_flag_fields() {
  static const std::vector<FieldRow<DesignGridFlags>> rows = design_grid_flag_rows();
  return rows;
}

}  // namespace posbias
