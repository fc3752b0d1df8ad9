#include "experiments/theory/theory_command.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <thread>

#include "posbias/arch/config.h"
#include "posbias/core/atomic_file.h"
#include "posbias/core/csv_table.h"
#include "posbias/core/enum_names.h"
#include "posbias/core/machine_record.h"
#include "posbias/core/memory.h"
#include "posbias/core/parse.h"
#include "posbias/core/position_base.h"
#include "posbias/core/progress.h"
#include "posbias/theory/continuum.h"
#include "posbias/theory/exact.h"
#include "posbias/theory/profile_columns.h"
#include "posbias/theory/profile_summary.h"

namespace posbias {
namespace {

void emit(const std::string& path, const std::string& text) {
  write_output(path == "-" ? "" : path, text);
}

void append_double(std::string& s, double v) {
  char buf[32];
  s.append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}

std::string json_number(double v) {
  if (!std::isfinite(v)) return "null";
  std::string s;
  append_double(s, v);
  return s;
}

std::string fraction_text(const mpq_class& q) { return q.get_str(); }

// The exact row: each position's fraction, and its double and log10 (shortest text).
std::string exact_csv(const std::vector<mpq_class>& row) {
  using J = std::size_t;  // a position
  const auto shortest = [](double v) {
    std::string s;
    append_double(s, v);
    return s;
  };
  const std::vector<CsvColumn<J>> columns = {
      {profile_csv::kPosition, [](const J& j) { return std::to_string(j); }},
      {profile_csv::kFraction, [&row](const J& j) { return fraction_text(row[j]); }},
      {profile_csv::kInfluence, [&row, shortest](const J& j) { return shortest(row[j].get_d()); }},
      {profile_csv::kLog10Influence,
       [&row, shortest](const J& j) { return shortest(log10_of(row[j])); }},
  };
  return csv_text(columns, csv_indices(row.size()));
}

ExactTheoryRecord exact_theory_record(const ExactSpec& spec, const std::optional<double>& null_sink,
                                      const std::vector<mpq_class>& row) {
  ExactTheoryRecord r;
  r.position_base = kPositionBase;
  r.config = {spec.length,
              spec.query_position() - 1,
              spec.layers,
              spec.window,
              spec.sink.get_str(),
              true,
              {},
              std::nullopt,
              std::nullopt};
  for (const auto& a : spec.alpha) r.config.alpha.push_back(a.get_str());
  if (null_sink) {
    r.config.null_sink = *null_sink;
    r.config.null_sink_weight = spec.null_sink_weight.get_str();
  }
  r.version = POSBIAS_VERSION;
  for (std::size_t k = 0; k < row.size(); ++k) {
    r.position.push_back(static_cast<std::int64_t>(k));
    r.fraction.push_back(fraction_text(row[k]));
    r.log10_influence.push_back(log10_of(row[k]));
  }
  return r;
}

void run_exact(const TheoryOptions& o) {
  if (!o.plot.empty() || !o.plot_sweep.empty())
    throw std::invalid_argument(
        "--exact cannot take --plot or --plot-sweep: plot the same row "
        "without --exact (its values agree to double precision)");
  if (!o.alibi_slopes.empty()) {
    throw std::invalid_argument(
        "--exact cannot take --alibi: its weights exp(-m(i-j)) are irrational");
  }
  ExactSpec spec;
  spec.length = o.length;
  spec.query = query_key(o.query, o.length, "-q/--query");
  spec.layers = o.layers;
  if (o.alpha.exact.empty() || o.sink.exact.size() != 1)
    throw std::invalid_argument("--exact needs --alpha and --sink read as exact rationals");
  spec.alpha = o.alpha.exact;
  spec.window = o.window;
  spec.sink = o.sink.exact.front();
  if (o.null_sink) spec.null_sink_weight = mpq_class(null_sink_weight(*o.null_sink));
  spec.validate();
  // The recurrence, then the row as text (JSON keeps it twice: its array and its dump).
  const ExactCost cost = exact_cost(spec);
  require_memory(cost.peak_bytes + cost.text_bytes * (o.format == RowFormat::kCsv ? 1 : 2),
                 "theory --exact at query position " + std::to_string(spec.query_position() - 1) +
                     ", H = " + std::to_string(spec.layers) + " (numbers of up to " +
                     std::to_string(std::llround(cost.denominator_bits)) + " bits)",
                 "use fewer --layers, a smaller -L, or drop --exact for the float engine");
  // Layer k's numbers have k times the first layer's bits, so its work grows with k: the
  // progress counts layer k as k units, and its ETA holds.
  const std::int64_t units = spec.layers * (spec.layers + 1) / 2;
  Progress progress("theory --exact", units);
  const std::vector<mpq_class> row = exact_influence_row(
      spec, [&](std::int64_t done, std::int64_t) { progress.update(done * (done + 1) / 2); });
  progress.finish();
  std::string text;
  if (o.format == RowFormat::kCsv) {
    text = exact_csv(row);
  } else {
    // The record goes before the dump: the fractions are held twice at most.
    const nlohmann::json j = to_json(exact_theory_record(spec, o.null_sink, row));
    text = j.dump(1) + "\n";
  }
  emit(o.out, text);
}

Series row_series(const std::vector<ExtReal>& row, const std::string& title) {
  Series s;
  s.title = title;
  const double q = static_cast<double>(row.size());
  for (std::size_t i : thin_indices(row.size())) {
    s.x.push_back(static_cast<double>(i + 1) / q);
    s.y.push_back(row[i].log10());
  }
  return s;
}

// A panel for rows drawn against j / q on a log y-axis.
Panel profile_panel(std::string title) {
  Panel p;
  p.title = std::move(title);
  p.xlabel = "key position j / q";
  p.ylabel = "influence of j on the query";
  p.log10_y = true;
  return p;
}

// Position 0, the minimum before the query and the query's own entry, marked on a row drawn
// against j / q.
std::vector<Label> profile_marks(const std::vector<ExtReal>& row) {
  const ProfileSummary sum = summarize_profile(row);
  const double q = static_cast<double>(row.size());
  std::vector<Label> marks{{1.0 / q, sum.log10_first, "position 0", true, false}};
  if (sum.dead_zone_position > 0) {
    marks.push_back({sum.dead_zone_x, sum.log10_dead_zone,
                     "minimum, position " + std::to_string(sum.dead_zone_position), true, true});
  }
  marks.push_back({1.0, sum.log10_last, "the query itself", true, true});
  return marks;
}

std::string alpha_label(double a) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", a);
  return buf;
}

}  // namespace

namespace {
constexpr EnumNames<RowFormat, 2> kRowFormatNames{
    {{RowFormat::kCsv, "csv"}, {RowFormat::kJson, "json"}}};
}  // namespace

RowFormat parse_row_format(const std::string& name) {
  return value_of(kRowFormatNames, name, "--format");
}

std::string to_string(RowFormat format) { return std::string(name_of(kRowFormatNames, format)); }

TheoryNumbers parse_theory_numbers(const std::string& text, const std::string& what, bool exact,
                                   bool list) {
  TheoryNumbers n;
  if (!exact) {
    n.values = list ? parse_number_list(text, what) : std::vector<double>{parse_number(text, what)};
  } else if (list) {
    for (const auto& part : split_commas(text)) n.exact.push_back(parse_rational(part));
  } else {
    n.exact = {parse_rational(text)};
  }
  return n;
}

std::vector<double> parse_alibi(const std::string& text) {
  if (text.empty()) return {};
  if (text.rfind("heads:", 0) == 0) {
    const std::vector<double> n = parse_number_list(text.substr(6), "--alibi heads:N");
    if (n.size() != 1 || n[0] != std::floor(n[0])) {
      throw std::invalid_argument("--alibi heads:N needs an integer head count, got '" + text +
                                  "'");
    }
    return alibi_standard_slopes(static_cast<int>(n[0]));
  }
  return parse_number_list(text, "--alibi");
}

InfluenceSpec make_influence_spec(const TheoryOptions& o) {
  InfluenceSpec spec;
  spec.length = o.length;
  spec.layers = o.layers;
  spec.query = query_key(o.query, o.length, "-q/--query");
  if (o.alpha.values.empty() || o.sink.values.size() != 1)
    throw std::invalid_argument("--alpha and --sink must be read as numbers (without --exact)");
  spec.alpha = o.alpha.values;
  spec.op.window = o.window;
  spec.op.alibi_slopes = o.alibi_slopes;
  spec.op.sink = o.sink.values.front();
  if (o.null_sink) spec.op.null_sink_weight = null_sink_weight(*o.null_sink);
  spec.validate();
  return spec;
}

TheoryResult summarize_theory(const InfluenceSpec& spec, const std::vector<ExtReal>& row,
                              double epsilon, int grid) {
  if (grid < 2 || grid > 1000000) throw std::invalid_argument("--grid must be in 2..1000000");
  TheoryResult r{spec, summarize_profile(row, epsilon), std::nullopt};
  // The closed-form density is derived for the Cesàro operator.
  if (!spec.op.is_cesaro() || spec.layers > Continuum::kMaxLayers) return r;
  const Continuum c(spec.layers, spec.alpha);
  ContinuumSummary& cs = r.continuum.emplace();
  cs.recency_mass = c.recency_mass();
  cs.primacy_epsilon = epsilon;
  cs.primacy_mass = c.primacy_mass(epsilon);
  cs.middle_to_ends = c.middle_to_ends();
  cs.dead_zone_x = NAN;
  cs.dead_zone_log10_density = INFINITY;
  for (int g = 0; g < grid; ++g) {
    const double x = (g + 0.5) / grid;
    const double y = c.log10_density(x);
    cs.grid_x.push_back(x);
    cs.grid_log10_density.push_back(y);
    if (y < cs.dead_zone_log10_density) cs.dead_zone_log10_density = y, cs.dead_zone_x = x;
  }
  // How far the discrete row is from its limit in the bulk (1e-3 < x < 0.9), as q·r_j vs ρ.
  const double q = static_cast<double>(row.size());
  for (std::size_t i : thin_indices(row.size(), 2000)) {
    const double x = static_cast<double>(i + 1) / q;
    if (x <= 1e-3 || x >= 0.9) continue;
    const double rel = std::pow(10.0, row[i].log10() + std::log10(q) - c.log10_density(x)) - 1.0;
    cs.bulk_max_relative_error = std::max(cs.bulk_max_relative_error, std::fabs(rel));
  }
  return r;
}

TheoryRecord theory_record(const TheoryResult& r) {
  TheoryRecord t;
  const InfluenceSpec& spec = r.spec;
  t.position_base = kPositionBase;
  t.config = {spec.length,
              spec.query_position() - 1,
              spec.layers,
              spec.alpha,
              {spec.op.describe(), spec.op.window, spec.op.alibi_slopes, spec.op.sink,
               spec.op.null_sink_weight}};
  t.version = POSBIAS_VERSION;
  const ProfileSummary& s = r.discrete;
  t.discrete = {s.log10_first,
                s.log10_last,
                s.log10_middle,
                {s.dead_zone_position, s.dead_zone_x, s.log10_dead_zone},
                {s.epsilon, s.primacy_mass},
                s.recency_mass,
                s.total_mass,
                s.log10_middle_to_ends};
  if (!r.continuum) return t;
  const ContinuumSummary& c = *r.continuum;
  t.continuum = ContinuumRecord{
      c.recency_mass,
      {c.primacy_epsilon, c.primacy_mass},
      c.middle_to_ends,
      {c.dead_zone_x, c.dead_zone_log10_density,
       "the continuous density is non-increasing, so its minimum sits at the right end of the "
       "grid, just before the recency delta"},
      {c.grid_x, c.grid_log10_density},
      c.bulk_max_relative_error};
  return t;
}

nlohmann::json to_json(const TheoryResult& r) { return to_json(theory_record(r)); }

namespace {

void append_csv_rows(const std::vector<ExtReal>& row, std::size_t first, std::size_t last,
                     std::string& text) {
  text.reserve(text.size() + (last - first) * 64);  // a row is at most ~60 bytes
  char buf[64];
  for (std::size_t j = first; j < last; ++j) {
    text.append(buf, std::to_chars(buf, buf + sizeof buf, j).ptr);
    text += ',';
    text.append(buf, row[j].to_chars(buf, buf + sizeof buf));
    text += ',';
    append_double(text, row[j].log10());
    text += '\n';
  }
}

}  // namespace

std::string row_csv(const std::vector<ExtReal>& row) {
  // Formatting dominates for long rows; the two halves are formatted on two threads.
  std::string text = std::string(profile_csv::kPosition) + ',' + profile_csv::kInfluence + ',' +
                     profile_csv::kLog10Influence + '\n';
  text.reserve(row.size() * 64 + 64);
  const std::size_t mid = row.size() / 2;
  std::string upper;
  std::thread worker([&] { append_csv_rows(row, mid, row.size(), upper); });
  append_csv_rows(row, 0, mid, text);
  worker.join();
  text += upper;
  return text;
}

Figure theory_family_figure(const InfluenceSpec& spec, const std::vector<std::int64_t>& layer_set,
                            const std::vector<double>& alpha_set) {
  Figure fig;
  fig.width = 1200;
  fig.height = 520;
  const double alpha = spec.alpha.size() == 1 ? spec.alpha[0] : NAN;
  const std::string where = "L = " + std::to_string(spec.query_position()) +
                            (spec.op.is_cesaro() ? "" : ", " + spec.op.describe());
  Panel by_layers = profile_panel("Influence at birth, varying depth (" + where + ")");
  Panel by_alpha = by_layers;
  by_alpha.title = "varying residual weight α (H = " + std::to_string(spec.layers) + ")";
  by_layers.order_label =
      "layers H" + (std::isnan(alpha) ? "" : " (α = " + alpha_label(alpha) + ")");
  by_alpha.order_label = "residual weight α";
  for (std::int64_t h : layer_set) {
    InfluenceSpec s = spec;
    s.layers = h;
    if (spec.alpha.size() != 1) continue;
    by_layers.series.push_back(
        row_series(influence_row(s), "H = " + std::to_string(h) + ", α = " + alpha_label(alpha)));
    by_layers.series.back().order = static_cast<double>(h);
  }
  for (double a : alpha_set) {
    InfluenceSpec s = spec;
    s.alpha = {a};
    by_alpha.series.push_back(row_series(
        influence_row(s), "α = " + alpha_label(a) + ", H = " + std::to_string(spec.layers)));
    by_alpha.series.back().order = a;
  }
  // Mark position 1, the minimum and the query on the requested row (the α panel squeezes its
  // decades too close for the labels).
  const std::vector<ExtReal> row = influence_row(spec);
  by_layers.labels = profile_marks(row);
  if (by_layers.series.empty()) by_layers.series.push_back(row_series(row, "per-layer α"));
  fig.panels = {by_layers, by_alpha};
  return fig;
}

Figure theory_profile_figure(const InfluenceSpec& spec, const std::vector<ExtReal>& row) {
  Figure fig;
  fig.width = 800;
  fig.height = 520;
  const std::string alphas =
      spec.alpha.size() == 1 ? "α = " + alpha_label(spec.alpha[0]) : "per-layer α";
  const std::string what =
      "L = " + std::to_string(spec.length) +
      (spec.query_position() == spec.length
           ? ""
           : ", query at position " + std::to_string(spec.query_position() - 1)) +
      ", H = " + std::to_string(spec.layers) + ", " + alphas +
      (spec.op.is_cesaro() ? "" : ", " + spec.op.describe());
  Panel p = profile_panel("Influence at birth (" + what + ")");
  p.key = "off";  // one curve, named by the title
  p.series.push_back(row_series(row, what));
  p.labels = profile_marks(row);
  fig.panels = {p};
  return fig;
}

void run_theory(const TheoryOptions& o) {
  if (!(o.epsilon > 0.0 && o.epsilon <= 1.0)) {
    throw std::invalid_argument("--epsilon must be in (0, 1], got " + std::to_string(o.epsilon));
  }
  if (o.exact) {
    run_exact(o);
    return;
  }
  const InfluenceSpec spec = make_influence_spec(o);
  const std::vector<ExtReal> row = influence_row(spec);
  const bool need_summary = o.format == RowFormat::kJson || !o.summary.empty();
  TheoryRecord summary;
  if (need_summary) summary = theory_record(summarize_theory(spec, row, o.epsilon, o.grid));
  if (o.format == RowFormat::kCsv) {
    emit(o.out, row_csv(row));
  } else {
    // The profile's arrays under the profile CSV's column names.
    const auto array = [](const char* key) { return std::string("\"") + key + "\": ["; };
    std::string text = "{\"position_base\": " + std::to_string(kPositionBase) +
                       ",\n\"summary\": " + to_json(summary).dump() + ",\n" +
                       array(profile_csv::kPosition);
    for (std::size_t j = 0; j < row.size(); ++j) text += (j ? "," : "") + std::to_string(j);
    text += "],\n" + array(profile_csv::kInfluence);
    char buf[64];
    for (std::size_t j = 0; j < row.size(); ++j) {
      if (j) text += ',';
      text.append(buf, row[j].to_chars(buf, buf + sizeof buf));
    }
    text += "],\n" + array(profile_csv::kLog10Influence);
    for (std::size_t j = 0; j < row.size(); ++j)
      text += (j ? "," : "") + json_number(row[j].log10());
    text += "]}\n";
    emit(o.out, text);
  }
  if (!o.summary.empty()) {
    summary.machine = machine_record();
    write_file_atomic(o.summary, to_json(summary).dump(2) + "\n");
  }
  if (!o.plot.empty()) render_figure(theory_profile_figure(spec, row), o.plot);
  if (!o.plot_sweep.empty()) {
    std::vector<std::int64_t> layer_set;
    for (std::int64_t h :
         {std::max<std::int64_t>(1, spec.layers / 4), std::max<std::int64_t>(1, spec.layers / 2),
          spec.layers, 2 * spec.layers}) {
      if (h >= 1 && std::find(layer_set.begin(), layer_set.end(), h) == layer_set.end())
        layer_set.push_back(h);
    }
    std::vector<double> alpha_set = {0.25, 0.5, 0.75, 1.0};
    if (spec.alpha.size() == 1 &&
        std::find(alpha_set.begin(), alpha_set.end(), spec.alpha[0]) == alpha_set.end()) {
      alpha_set.push_back(spec.alpha[0]);
      std::sort(alpha_set.begin(), alpha_set.end());
    }
    render_figure(theory_family_figure(spec, layer_set, alpha_set), o.plot_sweep);
  }
}

}  // namespace posbias
