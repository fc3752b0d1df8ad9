#include "experiments/theory/design_command.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "experiments/theory/theory_command.h"
#include "posbias/arch/config.h"
#include "posbias/core/atomic_file.h"
#include "posbias/core/csv_table.h"
#include "posbias/core/json_number.h"
#include "posbias/core/json_result.h"
#include "posbias/core/machine_record.h"
#include "posbias/core/memory.h"
#include "posbias/core/position_base.h"
#include "posbias/core/progress.h"
#include "posbias/theory/birth_flags.h"
#include "posbias/theory/shares_record.h"

namespace posbias {
namespace {

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// v, refused in one line naming `what` outside [0, 1].
void check_unit(double v, const std::string& what) {
  if (!(v >= 0 && v <= 1))
    throw std::invalid_argument(what + " values must be in [0, 1], got " + number_text(v));
}

// Puts `neutral` first when `list` lacks it (by `same`), keeping the given order otherwise.
template <class T, class Same>
void add_neutral(std::vector<T>& list, const T& neutral, Same same) {
  for (const T& v : list)
    if (same(v, neutral)) return;
  list.insert(list.begin(), neutral);
}

std::string null_sink_text(const std::optional<double>& b) { return b ? number_text(*b) : "none"; }

}  // namespace

DesignAlpha design_alpha(double alpha) { return {number_text(alpha), {alpha}, false}; }

DesignAlpha design_ramp(double first, double last, std::int64_t layers) {
  DesignAlpha d{"ramp " + number_text(first) + ":" + number_text(last), {}, true};
  for (std::int64_t l = 0; l < layers; ++l) {  // first and last exactly at the two ends
    const double t = layers == 1 ? 0.0 : static_cast<double>(l) / static_cast<double>(layers - 1);
    d.alpha.push_back((1 - t) * first + t * last);
  }
  return d;
}

DesignGrid design_grid(const DesignOptions& o) {
  if (o.layers < 1)
    throw std::invalid_argument("--layers must be >= 1, got " + std::to_string(o.layers));
  if (o.top < 0 || o.top > 10)
    throw std::invalid_argument("--top must be in 0..10, got " + std::to_string(o.top));
  if (!(o.baseline_alpha >= 0 && o.baseline_alpha <= 1))
    throw std::invalid_argument("--baseline-alpha must be in [0, 1], got " +
                                number_text(o.baseline_alpha));
  DesignGrid g = o.grid;
  for (const std::int64_t w : g.windows)
    if (w < 0)
      throw std::invalid_argument("--windows values must be >= 0 (0: no window), got " +
                                  std::to_string(w));
  add_neutral(g.windows, std::int64_t{0}, [](auto a, auto b) { return a == b; });
  for (const DesignAlibi& a : g.alibis)
    for (const double m : a.slopes)
      if (!(m >= 0)) throw std::invalid_argument("--alibis slopes must be >= 0, got " + a.name);
  add_neutral(g.alibis, DesignAlibi{"none", {}, 0},
              [](const DesignAlibi& a, const DesignAlibi& b) { return a.name == b.name; });
  for (const double v : g.sinks) check_unit(v, "--sinks");
  add_neutral(g.sinks, 0.0, [](double a, double b) { return a == b; });
  for (const auto& b : g.null_sinks)
    if (b) null_sink_weight(*b);  // refuses |b| > 700 in one line
  add_neutral(
      g.null_sinks, std::optional<double>(),
      [](const std::optional<double>& a, const std::optional<double>& b) { return a == b; });
  for (const DesignAlpha& a : g.alphas) {
    const std::size_t values = a.per_layer ? static_cast<std::size_t>(o.layers) : 1;
    if (a.alpha.size() != values)
      throw std::invalid_argument("α schedule '" + a.name + "' needs " + std::to_string(values) +
                                  " values (one per layer when per-layer), got " +
                                  std::to_string(a.alpha.size()));
    check_unit(a.alpha.front(), a.per_layer ? "--ramps" : "--alphas");
    check_unit(a.alpha.back(), a.per_layer ? "--ramps" : "--alphas");
  }
  add_neutral(g.alphas, design_alpha(o.baseline_alpha),
              [](const DesignAlpha& a, const DesignAlpha& b) {
                return !a.per_layer && a.alpha == b.alpha;
              });
  if (g.size() > kMaxDesignOperators)
    throw std::invalid_argument("the grid holds " + std::to_string(g.size()) +
                                " operators, more than the " + std::to_string(kMaxDesignOperators) +
                                " theory design searches; shorten a knob's list");
  return g;
}

InfluenceSpec design_spec(const DesignOptions& o, std::int64_t window, const DesignAlibi& alibi,
                          double sink, const std::optional<double>& null_sink,
                          const DesignAlpha& alpha) {
  TheoryOptions t;
  t.length = o.length;
  t.layers = o.layers;
  t.query = o.query;
  t.alpha = {alpha.alpha, {}};
  t.window = window;
  t.alibi_slopes = alibi.slopes;
  t.sink = {{sink}, {}};
  t.null_sink = null_sink;
  InfluenceSpec spec = make_influence_spec(t);  // the spec `posbias theory` builds
  spec.paths = o.paths;
  spec.validate();
  return spec;
}

ProfileShares design_shares(const InfluenceSpec& spec) {
  return profile_shares(from_log10_row(log10_row(influence_row(spec))));
}

namespace {

// What birth can build of one operator, and what it cannot. The point's knobs go into its spec
// one at a time, in the grid's order as the design files have always listed them: the window,
// ALiBi (--pos, then --heads), the null sink; each knob's flags are birth_flags of the spec
// against the spec before it, so no flag is spelled here.
void birth_build(const DesignOptions& o, std::int64_t query, DesignPoint& p) {
  auto set = [&p](auto member, auto value) {
    const BirthSpec before = p.birth;
    p.birth.*member = value;
    const std::string flags = birth_flags(p.birth, before);
    if (!flags.empty()) p.birth_options += (p.birth_options.empty() ? "" : " ") + flags;
  };
  std::vector<std::string> notes;
  if (p.window > 0) {
    set(&BirthSpec::window, p.window);
    const std::int64_t reach = o.layers * (p.window - 1);
    if (reach < query - 1)
      notes.push_back("birth refuses a window whose " + std::to_string(o.layers) +
                      " layers reach " + std::to_string(reach) + " keys back, short of position 0");
  }
  if (p.alibi.heads > 0) {
    set(&BirthSpec::pos, PosEncoding::kAlibi);
    set(&BirthSpec::heads, std::int64_t{p.alibi.heads});
  } else if (!p.alibi.slopes.empty()) {
    notes.push_back(
        "birth's ALiBi takes the standard slopes of its head count (heads:N), not "
        "slope " +
        p.alibi.name);
  }
  if (p.null_sink) set(&BirthSpec::null_sink, p.null_sink);
  if (p.sink > 0) notes.push_back("birth has no attention-sink share");
  if (p.alpha.per_layer) {
    notes.push_back("birth sets no per-layer α");
  } else if (p.alpha.alpha.front() != o.baseline_alpha) {
    notes.push_back("birth sets α only through --attn-init-scale, and measures the α̂ it gets");
  }
  for (const std::string& s : notes) p.birth_note += (p.birth_note.empty() ? "" : "; ") + s;
  p.birth_buildable = notes.empty();
}

std::string operator_name(const DesignPoint& p) {
  if (p.baseline) return "baseline (α " + p.alpha.name + ")";
  std::vector<std::string> parts;
  if (p.window > 0) parts.push_back("W " + std::to_string(p.window));
  if (!p.alibi.slopes.empty()) parts.push_back("ALiBi " + p.alibi.name);
  if (p.sink > 0) parts.push_back("sink " + number_text(p.sink));
  if (p.null_sink) parts.push_back("null sink b " + number_text(*p.null_sink));
  parts.push_back("α " + p.alpha.name);
  std::string out;
  for (const std::string& s : parts) out += (out.empty() ? "" : ", ") + s;
  return out;
}

double share_value(const ProfileShares& s, ShareRegion r) {
  return s.region(r).present() ? s.of(r) : kNaN;
}

}  // namespace

DesignResult run_design_search(const DesignOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  DesignResult r;
  r.options = o;
  r.grid = design_grid(o);
  const DesignGrid& g = r.grid;
  // The baseline's spec first: it checks L, H and the query as `theory` does.
  const InfluenceSpec base =
      design_spec(o, 0, g.alibis.front(), 0.0, std::nullopt, design_alpha(o.baseline_alpha));
  r.query = base.query_position();
  if (share_regions(r.query)[1].absent.size() > 0)
    throw std::invalid_argument("theory design ranks by the middle fifth's share: " +
                                share_regions(r.query)[1].absent);
  // Per operator a point (its shares, names and notes) and, while it runs, the row's buffers.
  const double point_bytes = 1024.0;
  const double row_bytes = 160.0 * static_cast<double>(r.query) * static_cast<double>(o.layers + 2);
  require_memory(static_cast<double>(g.size()) * point_bytes + row_bytes,
                 "theory design over " + std::to_string(g.size()) + " operators at L = " +
                     std::to_string(o.length) + ", H = " + std::to_string(o.layers),
                 "shorten the knobs' lists, or use a smaller -L or --layers");
  const ProfileShares base_shares = design_shares(base);
  Progress progress("theory design", static_cast<std::int64_t>(g.size()));
  std::int64_t done = 0;
  for (std::int64_t w : g.windows)
    for (const DesignAlibi& a : g.alibis)
      for (double s : g.sinks)
        for (const std::optional<double>& b : g.null_sinks)
          for (const DesignAlpha& alpha : g.alphas) {
            DesignPoint p;
            p.window = w;
            p.alibi = a;
            p.sink = s;
            p.null_sink = b;
            p.alpha = alpha;
            p.baseline = w == 0 && a.slopes.empty() && s == 0 && !b && !alpha.per_layer &&
                         alpha.alpha.front() == o.baseline_alpha;
            p.shares = design_shares(design_spec(o, w, a, s, b, alpha));
            p.u = u_test({p.shares});
            const double m = p.shares.of(ShareRegion::kMiddle),
                         m0 = base_shares.of(ShareRegion::kMiddle);
            p.middle_change = m > 0 && m0 > 0 ? std::log10(m / m0) : kNaN;
            birth_build(o, r.query, p);
            r.points.push_back(std::move(p));
            progress.update(++done);
          }
  progress.finish();
  std::stable_sort(r.points.begin(), r.points.end(),
                   [](const DesignPoint& x, const DesignPoint& y) {
                     return x.shares.of(ShareRegion::kMiddle) > y.shares.of(ShareRegion::kMiddle);
                   });
  for (std::size_t i = 0; i < r.points.size(); ++i) {
    if (r.points[i].baseline) r.baseline_rank = i;
    if (r.points[i].birth_buildable && !r.points[i].baseline && r.confirm.size() < 2)
      r.confirm.push_back(i);
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

DesignRecord design_record(const DesignResult& r) {
  DesignRecord d;
  const DesignOptions& o = r.options;
  d.grid.length = o.length;
  d.grid.query = r.query - 1;
  d.grid.layers = o.layers;
  d.grid.paths = o.paths;
  d.grid.baseline_alpha = o.baseline_alpha;
  d.grid.windows = r.grid.windows;
  for (const DesignAlibi& a : r.grid.alibis) d.grid.alibis.push_back(a.name);
  d.grid.sinks = r.grid.sinks;
  for (const auto& b : r.grid.null_sinks) d.grid.null_sinks.push_back(null_sink_text(b));
  for (const DesignAlpha& a : r.grid.alphas) d.grid.alphas.push_back(a.name);
  d.grid.operators = static_cast<std::int64_t>(r.grid.size());
  d.statistic =
      "the middle fifth's share of the influence row: its sum over the row's sum (theory shares' "
      "regions), largest first";
  d.rule =
      "U when the middle's per-position share is below both primacy's and recency's (one profile: "
      "the two log10 ratios themselves)";
  const auto regions = share_regions(r.query);
  for (std::size_t k = 0; k < regions.size(); ++k)
    if (regions[k].present())
      d.regions[to_string(kShareRegions[k])] = {regions[k].first, regions[k].last};
  d.birth_builds =
      "window (--window W), null sink (--null-sink b), ALiBi with the standard slopes of its head "
      "count (--pos alibi --heads N); not a sink share, a single ALiBi slope or a per-layer α; α "
      "only indirectly (--attn-init-scale, its α̂ measured), so buildable operators are at the "
      "baseline α";
  d.baseline_rank = static_cast<std::int64_t>(r.baseline_rank) + 1;
  for (std::size_t i : r.confirm) d.confirm.push_back(static_cast<std::int64_t>(i) + 1);
  for (std::size_t i = 0; i < r.points.size(); ++i) {
    const DesignPoint& p = r.points[i];
    DesignOperatorRecord& op = d.operators.emplace_back();
    op.rank = static_cast<std::int64_t>(i) + 1;
    op.window = p.window;
    op.alibi = p.alibi.name;
    op.sink = p.sink;
    op.null_sink = null_sink_text(p.null_sink);
    op.alpha = p.alpha.name;
    op.baseline = p.baseline;
    op.primacy = share_value(p.shares, ShareRegion::kPrimacy);
    op.middle = share_value(p.shares, ShareRegion::kMiddle);
    op.recency = share_value(p.shares, ShareRegion::kRecency);
    op.query = share_value(p.shares, ShareRegion::kQuery);
    op.middle_change = p.middle_change;
    op.u_test = p.u.verdict;
    op.middle_vs_primacy = p.u.middle_vs_primacy.interval.mean;
    op.middle_vs_recency = p.u.middle_vs_recency.interval.mean;
    if (p.u.middle_vs_primacy.values.empty()) op.middle_vs_primacy = op.middle_vs_recency = kNaN;
    op.birth_buildable = p.birth_buildable;
    op.birth_options = p.birth_options;
    op.birth_note = p.birth_note;
  }
  d.seconds = r.seconds;
  d.machine = machine_record();
  d.version = POSBIAS_VERSION;
  return d;
}

nlohmann::json to_json(const DesignResult& r) { return to_json(design_record(r)); }

std::string design_csv(const DesignResult& r) {
  return csv_text(design_operator_columns(), design_record(r).operators);
}

namespace {

// The middle share as each knob alone moves from its neutral value (step 0, the baseline)
// along its list, each point labelled with the knob's value.
Panel knob_panel(const DesignResult& r) {
  const DesignOptions& o = r.options;
  Panel knobs;
  knobs.title = "One knob at a time from the baseline";
  knobs.xlabel = "step along the knob's list (0: its neutral value, the baseline)";
  knobs.ylabel = "middle fifth's share";
  auto neutral_except = [&o](const DesignPoint& p, int knob) {
    return (knob == 0 || p.window == 0) && (knob == 1 || p.alibi.slopes.empty()) &&
           (knob == 2 || p.sink == 0) && (knob == 3 || !p.null_sink) &&
           (knob == 4 || (!p.alpha.per_layer && p.alpha.alpha.front() == o.baseline_alpha));
  };
  auto is_neutral = [&o](const DesignPoint& p, int knob) {
    switch (knob) {
      case 0:
        return p.window == 0;
      case 1:
        return p.alibi.slopes.empty();
      case 2:
        return p.sink == 0;
      case 3:
        return !p.null_sink.has_value();
      default:
        return !p.alpha.per_layer && p.alpha.alpha.front() == o.baseline_alpha;
    }
  };
  auto knob_name = [&r](const DesignPoint& p, int knob) -> std::string {
    switch (knob) {
      case 0:
        return std::to_string(p.window);
      case 1:
        return p.alibi.name;
      case 2:
        return number_text(p.sink);
      case 3:
        return null_sink_text(p.null_sink);
      default:
        return p.alpha.name;
    }
  };
  const char* knob_titles[] = {"window W", "ALiBi", "sink share", "null sink b", "α"};
  std::size_t steps = 0;
  for (int knob = 0; knob < 5; ++knob) {
    std::vector<std::string> values;  // the knob's list as named
    switch (knob) {
      case 0:
        for (std::int64_t w : r.grid.windows) values.push_back(std::to_string(w));
        break;
      case 1:
        for (const DesignAlibi& a : r.grid.alibis) values.push_back(a.name);
        break;
      case 2:
        for (double v : r.grid.sinks) values.push_back(number_text(v));
        break;
      case 3:
        for (const auto& b : r.grid.null_sinks) values.push_back(null_sink_text(b));
        break;
      default:
        for (const DesignAlpha& a : r.grid.alphas) values.push_back(a.name);
    }
    std::vector<const DesignPoint*> along;  // the baseline, then the list's other values
    for (const DesignPoint& p : r.points)
      if (neutral_except(p, knob) && is_neutral(p, knob)) along.push_back(&p);
    for (const std::string& v : values)
      for (const DesignPoint& p : r.points)
        if (neutral_except(p, knob) && !is_neutral(p, knob) && knob_name(p, knob) == v)
          along.push_back(&p);
    if (along.size() < 2) continue;
    Series s;
    s.title = plain_text(knob_titles[knob]);
    s.style = "linespoints";
    for (std::size_t k = 0; k < along.size(); ++k) {
      s.x.push_back(static_cast<double>(k));
      s.y.push_back(along[k]->shares.of(ShareRegion::kMiddle));
      if (k > 0)
        knobs.labels.push_back({s.x.back(), s.y.back(),
                                plain_text(knob == 4 && along[k]->alpha.per_layer
                                               ? along[k]->alpha.name.substr(5)  // a1:aH
                                               : knob_name(*along[k], knob)),
                                false, false});
    }
    steps = std::max(steps, along.size() - 1);
    knobs.series.push_back(std::move(s));
  }
  knobs.xmin = -0.25;
  knobs.xmax = static_cast<double>(steps) + 0.75;  // room for the last values' labels
  return knobs;
}

}  // namespace

Figure design_figure(const DesignResult& r) {
  const DesignOptions& o = r.options;
  Figure fig;
  fig.width = 1400;
  fig.height = 620;
  const RegionSpan middle = share_regions(r.query)[1];
  Panel profiles;
  profiles.title =
      "Influence at birth, the theory's best operators (L = " + std::to_string(o.length) +
      ", H = " + std::to_string(o.layers) + ", " + to_string(o.paths) + " paths)";
  profiles.xlabel = "position (middle fifth: " + std::to_string(middle.first) + ".." +
                    std::to_string(middle.last) + ")";
  profiles.ylabel = "share of the influence";
  profiles.log10_y = true;
  std::vector<std::size_t> drawn;  // the best, the confirmation's two, the baseline
  for (std::size_t i = 0; i < r.points.size() && drawn.size() < static_cast<std::size_t>(o.top);
       ++i)
    drawn.push_back(i);
  for (std::size_t i : r.confirm)
    if (std::find(drawn.begin(), drawn.end(), i) == drawn.end()) drawn.push_back(i);
  drawn.push_back(r.baseline_rank);
  for (std::size_t i : drawn) {
    const DesignPoint& p = r.points[i];
    const std::vector<double> row =
        influence_row_double(design_spec(o, p.window, p.alibi, p.sink, p.null_sink, p.alpha));
    double total = 0;
    for (double v : row) total += v;
    Series s;
    const bool confirmed = std::find(r.confirm.begin(), r.confirm.end(), i) != r.confirm.end();
    s.title = plain_text("#" + std::to_string(i + 1) + " " + operator_name(p) + ": middle " +
                         number_text(std::round(p.shares.of(ShareRegion::kMiddle) * 1e4) / 1e4) +
                         (confirmed ? " (birth builds it)" : ""));
    for (std::size_t j : thin_indices(row.size())) {
      if (!(row[j] > 0)) continue;
      s.x.push_back(static_cast<double>(j));
      s.y.push_back(std::log10(row[j] / total));
    }
    if (p.baseline) s.line_width = 3;
    profiles.series.push_back(std::move(s));
  }
  fig.panels = {profiles, knob_panel(r)};
  return fig;
}

std::string design_summary(const DesignResult& r) {
  auto line = [&r](std::size_t i) {
    const DesignPoint& p = r.points[i];
    char buf[160];
    std::snprintf(buf, sizeof buf,
                  ": middle %.4f (log10 change %+.3f), primacy %.3f, recency %.3f, query %.3f, ",
                  p.shares.of(ShareRegion::kMiddle), p.middle_change,
                  p.shares.of(ShareRegion::kPrimacy), p.shares.of(ShareRegion::kRecency),
                  p.shares.of(ShareRegion::kQuery));
    const std::string s =
        "  #" + std::to_string(i + 1) + " " + operator_name(p) + buf + p.u.verdict;
    return s + "\n";
  };
  std::string out = "theory design: " + std::to_string(r.points.size()) +
                    " operators at L = " + std::to_string(r.options.length) +
                    ", H = " + std::to_string(r.options.layers) +
                    ", ranked by the middle fifth's share\n";
  for (std::size_t i = 0; i < std::min<std::size_t>(5, r.points.size()); ++i) out += line(i);
  out += "baseline:\n" + line(r.baseline_rank);
  out +=
      "best that birth can build (a window, a null sink, ALiBi heads:N, at the baseline α; not "
      "a sink share, one ALiBi slope or a per-layer α):\n";
  for (std::size_t i : r.confirm)
    out += line(i) + "    posbias birth " + r.points[i].birth_options + "\n";
  if (r.confirm.empty())
    out += "  none: birth can build no operator of this grid but the baseline\n";
  return out;
}

void run_design(const DesignOptions& o) {
  const DesignResult r = run_design_search(o);
  if (!o.csv.empty()) write_file_atomic(o.csv, design_csv(r));
  if (!o.plot.empty()) render_figure(design_figure(r), o.plot);
  write_json_result(o.json, to_json(r).dump(1) + "\n", [&r] { return design_summary(r); });
}

}  // namespace posbias
