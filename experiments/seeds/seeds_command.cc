#include "experiments/seeds/seeds_command.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "experiments/hops/hop_compare.h"
#include "experiments/hops/hop_seeds.h"
#include "experiments/retrieval/kv_seeds.h"
#include "experiments/seeds/seeds_record.h"
#include "posbias/core/atomic_file.h"
#include "posbias/core/bounded_read.h"
#include "posbias/core/json_number.h"
#include "posbias/core/json_result.h"
#include "posbias/runfiles/eval_steps.h"
#include "posbias/runfiles/heldout_split.h"
#include "posbias/runfiles/result_file.h"
#include "posbias/theory/birth_run_record.h"
#include "posbias/theory/profile_summary.h"
#include "posbias/theory/shares_summary.h"

namespace posbias {
namespace {

constexpr std::size_t kMaxBirthCheckpoints = 100000;
constexpr std::size_t kMaxPositions = 10'000'000;

// The mean of v over the positions 0.4n <= i < 0.6n, at least one entry.
double middle_mean(const std::vector<double>& v) {
  const std::size_t n = v.size();
  const std::size_t lo = std::min(n - 1, n * 2 / 5), hi = std::max(lo + 1, n * 3 / 5);
  double sum = 0;
  for (std::size_t i = lo; i < hi; ++i) sum += v[i];
  return sum / static_cast<double>(hi - lo);
}

struct SeedEval {
  double bits_per_byte = 0, unigram = 0, bigram = 0;
  std::vector<double> loss_per_position;  // at the run's training length
  RunConfig run;
};

SeedEval parse_eval(const std::string& text, const std::string& source) {
  const nlohmann::json j = parse_result_json(text, source);
  refuse_eval_steps(j, source);
  SeedEval e;
  TextEvalResult r = read_result_table(text_eval_result_from_json, j, source);
  e.run = run_config(source, r.run);
  if (r.loss_per_position.empty() || r.loss_per_position.size() > kMaxPositions)
    result_error(source,
                 fmt::format("loss_per_position must be an array of 1..{} numbers", kMaxPositions));
  // The table reads null as NaN (a diverged evaluation); an interval over seeds needs numbers.
  for (double v : r.loss_per_position)
    if (!std::isfinite(v)) result_error(source, "loss_per_position entries must be finite numbers");
  e.bits_per_byte = r.bits_per_byte;
  e.unigram = r.unigram_bits_per_byte;
  e.bigram = r.bigram_bits_per_byte;
  e.loss_per_position = std::move(r.loss_per_position);
  return e;
}

Series position_series(const std::string& title, const std::vector<SeedInterval>& rows) {
  std::vector<double> x(rows.size());
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<double>(i);
  Series s = band_series(title, x, rows);
  s.style = "lines";
  s.line_width = 1;
  return s;
}

}  // namespace

namespace {

// Exactly `size` finite numbers, each > 0.
void require_positive_row(const std::vector<double>& row, const std::string& source,
                          const std::string& name, std::size_t size) {
  if (row.size() != size)
    result_error(source, fmt::format("{} must be an array of {} numbers", name, size));
  for (double x : row)
    if (!(std::isfinite(x) && x > 0)) result_error(source, name + " must hold numbers > 0");
}

}  // namespace

TrainingSeed parse_training_seed(const std::string& text, const std::string& source) {
  const nlohmann::json j = parse_result_json(text, source);
  const BirthRunRecord record = read_result_table(birth_run_record_from_json, j, source);
  TrainingSeed r;
  r.file = source;
  r.run = run_config(source, record.run);
  r.target = record.target;
  r.length = record.length;
  r.query = record.query;
  if (r.length < 2 || r.length > static_cast<std::int64_t>(kMaxPositions))
    result_error(source, fmt::format("length must be in 2..{}", kMaxPositions));
  if (r.query < 1 || r.query >= r.length)
    result_error(source, fmt::format("query must be a position in 1..{}", r.length - 1));
  if (record.checkpoints.empty() || record.checkpoints.size() > kMaxBirthCheckpoints)
    result_error(
        source, fmt::format("checkpoints must be an array of 1..{} records", kMaxBirthCheckpoints));
  const auto q = static_cast<std::size_t>(r.query + 1);  // positions 0..query
  for (const BirthRunCheckpointRecord& c : record.checkpoints) {
    TrainingSeedCheckpoint cp;
    cp.step = c.step;
    if (cp.step < 0 || cp.step > std::int64_t{1'000'000'000'000})
      result_error(source, "step must be in 0..1000000000000");
    if (!r.checkpoints.empty() && cp.step <= r.checkpoints.back().step)
      result_error(source, "checkpoint steps must increase");
    require_positive_row(c.profile, source, "profile", q);
    cp.profile = c.profile;
    if (!std::isfinite(c.log10_middle_to_ends) || !std::isfinite(c.log10_dead_zone_depth))
      result_error(source, "log10_middle_to_ends and log10_dead_zone_depth must be numbers");
    cp.log10_middle_to_ends = c.log10_middle_to_ends;
    cp.log10_dead_zone_depth = c.log10_dead_zone_depth;
    if (c.argmin < 0 || c.argmin >= r.query)
      result_error(source, fmt::format("argmin must be a position in 0..{}", r.query - 1));
    cp.argmin = c.argmin;
    cp.entropy_ratio = c.attention_entropy_ratio;
    cp.nofit_error = c.nofit ? c.nofit->median_abs_log10_error : kNaN;
    cp.column_sum_error = cp.root_sum_square_error = cp.flat_error = kNaN;
    if (c.gradient) {
      // Logged by the training run at its own length, whatever length birth measured at.
      if (c.gradient->measured) {
        const std::vector<double>& measured = *c.gradient->measured;
        const std::size_t size = measured.size();
        if (size < 2 || size > kMaxPositions || (r.gradient_length && size != r.gradient_length))
          result_error(source,
                       fmt::format("gradient.measured must be an array of {} numbers "
                                   "(the run's training length), the same at every step",
                                   r.gradient_length ? fmt::format("{}", r.gradient_length)
                                                     : fmt::format("2..{}", kMaxPositions)));
        require_positive_row(measured, source, "gradient.measured", size);
        cp.gradient = measured;
        r.gradient_length = size;
      }
      const GradientErrorsRecord& e = c.gradient->median_abs_log10_error;
      cp.column_sum_error = e.column_sum;
      cp.root_sum_square_error = e.root_sum_square;
      cp.flat_error = e.flat;
    }
    r.checkpoints.push_back(std::move(cp));
  }
  return r;
}

namespace {

// Every birth --run result of --birth, checked to measure one target at one length and query
// and to log gradients (if any) at one length. Returns the first seed that logged gradients.
const TrainingSeed* read_training_seeds(const SeedsOptions& o, SeedsResult& r,
                                        std::vector<RunConfig>& birth_runs) {
  const TrainingSeed* with_gradient = nullptr;
  for (const auto& f : o.birth) {
    r.seeds.push_back(
        parse_training_seed(read_bounded_file(f, kMaxSeedFileBytes, kMaxSeedFileName), f));
    birth_runs.push_back(r.seeds.back().run);
    const TrainingSeed& first = r.seeds.front();
    const TrainingSeed& s = r.seeds.back();
    if (s.target != first.target || s.length != first.length || s.query != first.query)
      throw std::runtime_error(fmt::format(
          "'{}' measures target {} at length {}, query {}; '{}' target {} at length {}, query {}",
          s.file, to_string(s.target), s.length, s.query, first.file, to_string(first.target),
          first.length, first.query));
  }
  for (const TrainingSeed& s : r.seeds) {
    if (!s.gradient_length) continue;
    if (!with_gradient) with_gradient = &s;
    if (s.gradient_length != with_gradient->gradient_length)
      throw std::runtime_error(fmt::format(
          "'{}' logged gradients over {} positions but '{}' over {}: give runs trained at one "
          "length",
          s.file, s.gradient_length, with_gradient->file, with_gradient->gradient_length));
  }
  return with_gradient;
}

// Every eval of --eval, each at its run's training length: one length, the gradients' when
// logged.
std::vector<SeedEval> read_evals(const SeedsOptions& o, const TrainingSeed* with_gradient,
                                 std::vector<RunConfig>& eval_runs) {
  std::vector<SeedEval> evals;
  for (std::size_t i = 0; i < o.eval.size(); ++i) {
    const std::string& f = o.eval[i];
    evals.push_back(parse_eval(read_bounded_file(f, kMaxSeedFileBytes, kMaxSeedFileName), f));
    eval_runs.push_back(evals.back().run);
    const std::size_t length = evals.back().loss_per_position.size();
    const std::size_t expected = i > 0 ? evals.front().loss_per_position.size()
                                       : (with_gradient ? with_gradient->gradient_length : length);
    if (length != expected)
      throw std::runtime_error(fmt::format(
          "'{}' holds the loss at {} positions but '{}' {} (the training length): give the evals "
          "of the same runs",
          f, length, i > 0 ? o.eval.front() : with_gradient->file, expected));
  }
  return evals;
}

// The checkpoint steps every seed has.
std::vector<std::int64_t> common_steps(const std::vector<TrainingSeed>& seeds) {
  std::vector<std::int64_t> steps;
  for (const auto& cp : seeds.front().checkpoints) steps.push_back(cp.step);
  for (const TrainingSeed& s : seeds) {
    std::vector<std::int64_t> has, common;
    for (const auto& cp : s.checkpoints) has.push_back(cp.step);
    std::set_intersection(steps.begin(), steps.end(), has.begin(), has.end(),
                          std::back_inserter(common));
    steps = common;
  }
  if (steps.empty()) throw std::runtime_error("the birth --run results share no checkpoint step");
  return steps;
}

// One step over the seeds: each statistic with its interval, the shares and the gradients.
SeedsCheckpoint checkpoint_over_seeds(const std::vector<TrainingSeed>& seeds, std::int64_t step) {
  const auto q = static_cast<std::size_t>(seeds.front().query + 1);  // positions 0..query
  std::vector<const TrainingSeedCheckpoint*> at;
  for (const TrainingSeed& s : seeds)
    at.push_back(&*std::find_if(s.checkpoints.begin(), s.checkpoints.end(),
                                [&](const auto& c) { return c.step == step; }));
  SeedsCheckpoint c;
  c.step = step;
  auto collect = [&](auto get) {
    std::vector<double> v;
    for (const auto* cp : at) v.push_back(get(*cp));
    return seed_statistic(std::move(v));
  };
  c.middle_to_ends = collect([](const auto& cp) { return cp.log10_middle_to_ends; });
  c.dead_zone_depth = collect([](const auto& cp) { return cp.log10_dead_zone_depth; });
  c.entropy_ratio = collect([](const auto& cp) { return cp.entropy_ratio; });
  c.nofit_error = collect([](const auto& cp) { return cp.nofit_error; });
  for (const auto* cp : at) c.argmin.push_back(cp->argmin);
  std::vector<std::vector<double>> shares;
  for (const auto* cp : at) shares.push_back(unit_sum_log10(cp->profile));
  for (std::size_t i = 0; i < q; ++i) {
    std::vector<double> column;
    for (const auto& row : shares) column.push_back(row[i]);
    c.log10_share.push_back(seed_interval(column));
  }
  std::vector<std::vector<double>> profiles;
  for (const auto* cp : at) profiles.push_back(cp->profile);
  c.shares = shares_over_seeds(profiles);
  c.has_gradient =
      std::all_of(at.begin(), at.end(), [](const auto* cp) { return !cp->gradient.empty(); });
  if (c.has_gradient) {
    c.gradient_middle_to_first = collect(
        [](const auto& cp) { return std::log10(middle_mean(cp.gradient) / cp.gradient.front()); });
    c.gradient_last_to_first = collect(
        [](const auto& cp) { return std::log10(cp.gradient.back() / cp.gradient.front()); });
    c.column_sum_error = collect([](const auto& cp) { return cp.column_sum_error; });
    c.root_sum_square_error = collect([](const auto& cp) { return cp.root_sum_square_error; });
    c.flat_error = collect([](const auto& cp) { return cp.flat_error; });
  }
  return c;
}

// The paired changes from the first to the last step (and the first to the last step with
// gradients).
void changes_over_training(SeedsResult& r) {
  const std::size_t n = r.seeds.size();
  auto change = [&](const SeedStatistic& first, const SeedStatistic& last) {
    std::vector<double> d(n);
    for (std::size_t s = 0; s < n; ++s) d[s] = last.values[s] - first.values[s];
    return seed_statistic(std::move(d));
  };
  r.change_middle_to_ends =
      change(r.checkpoints.front().middle_to_ends, r.checkpoints.back().middle_to_ends);
  r.change_dead_zone_depth =
      change(r.checkpoints.front().dead_zone_depth, r.checkpoints.back().dead_zone_depth);
  const SeedsCheckpoint* g0 = nullptr;
  const SeedsCheckpoint* g1 = nullptr;
  for (const SeedsCheckpoint& c : r.checkpoints) {
    if (!c.has_gradient) continue;
    if (!g0) g0 = &c;
    g1 = &c;
  }
  if (g0 && g1 != g0) {
    r.gradient_steps = {g0->step, g1->step};
    r.change_gradient_middle_to_first =
        change(g0->gradient_middle_to_first, g1->gradient_middle_to_first);
  }
}

// The held-out loss and bits per byte over the seeds' evals.
SeedsHeldout heldout_over_seeds(const std::vector<SeedEval>& evals) {
  SeedsHeldout h;
  auto collect = [&](auto get) {
    std::vector<double> v;
    for (const SeedEval& e : evals) v.push_back(get(e));
    return seed_statistic(std::move(v));
  };
  h.bits_per_byte = collect([](const SeedEval& e) { return e.bits_per_byte; });
  h.unigram_bits_per_byte = collect([](const SeedEval& e) { return e.unigram; });
  h.bigram_bits_per_byte = collect([](const SeedEval& e) { return e.bigram; });
  h.loss_first = collect([](const SeedEval& e) { return e.loss_per_position.front(); });
  h.loss_middle = collect([](const SeedEval& e) { return middle_mean(e.loss_per_position); });
  h.loss_last = collect([](const SeedEval& e) { return e.loss_per_position.back(); });
  for (std::size_t i = 0; i < evals.front().loss_per_position.size(); ++i) {
    std::vector<double> column;
    for (const SeedEval& e : evals) column.push_back(e.loss_per_position[i]);
    h.loss_per_position.push_back(seed_interval(column));
  }
  return h;
}

}  // namespace

SeedsResult summarize_seeds(const SeedsOptions& o) {
  if (o.birth.size() < 2 || o.birth.size() > kMaxSeeds)
    throw std::invalid_argument(
        fmt::format("give 2..{} birth --run results, one per training seed (got {})", kMaxSeeds,
                    o.birth.size()));
  if (!o.eval.empty() && o.eval.size() != o.birth.size())
    throw std::invalid_argument(fmt::format("--eval needs one file per birth result ({} for {})",
                                            o.eval.size(), o.birth.size()));
  require_distinct_files(o.birth);
  SeedsResult r;
  std::vector<RunConfig> birth_runs, eval_runs;
  const TrainingSeed* with_gradient = read_training_seeds(o, r, birth_runs);
  const std::vector<SeedEval> evals = read_evals(o, with_gradient, eval_runs);
  r.unchecked = require_one_configuration({birth_runs, eval_runs}, &r.unchecked_file);
  for (std::int64_t step : common_steps(r.seeds))
    r.checkpoints.push_back(checkpoint_over_seeds(r.seeds, step));
  changes_over_training(r);
  if (!o.eval.empty()) r.heldout = heldout_over_seeds(evals);
  return r;
}

nlohmann::json to_json(const SeedsResult& r) { return to_json(text_seeds_record(r)); }

namespace {

// A checkpoint's columns: its step, the seeds, each statistic's interval (named for the
// statistic, then low and high; empty where a run has no gradient or a profile lacks a region)
// and the U test's verdict.
std::vector<CsvColumn<SeedsCheckpoint>> seeds_checkpoint_columns(std::size_t seeds) {
  using C = SeedsCheckpoint;
  const SeedInterval none{NAN, NAN, NAN, 0};
  std::vector<CsvColumn<C>> columns = {
      {"step", [](const C& c) { return std::to_string(c.step); }},
      {"seeds", [seeds](const C&) { return std::to_string(seeds); }}};
  const auto statistic = [&columns](const std::string& name,
                                    std::function<SeedInterval(const C&)> get) {
    columns = csv_concat(columns, csv_mapped_columns<C>(interval_columns(name), get));
  };
  statistic("log10_middle_to_ends", [](const C& c) { return c.middle_to_ends.interval; });
  statistic("log10_dead_zone_depth", [](const C& c) { return c.dead_zone_depth.interval; });
  statistic("attention_entropy_ratio", [](const C& c) { return c.entropy_ratio.interval; });
  statistic("gradient_log10_middle_to_first", [none](const C& c) {
    return c.has_gradient ? c.gradient_middle_to_first.interval : none;
  });
  for (ShareRegion region : kShareRegions) {
    const auto k = static_cast<std::size_t>(region);
    statistic(std::string(to_string(region)) + "_share", [k, none](const C& c) {
      return c.shares.regions[k].present() ? c.shares.share[k].interval : none;
    });
  }
  columns.push_back({"u_test", [](const C& c) { return c.shares.u.verdict; }});
  return columns;
}

}  // namespace

std::string seeds_csv(const SeedsResult& r) {
  return csv_text(seeds_checkpoint_columns(r.seeds.size()), r.checkpoints);
}

void render_seeds_figures(const SeedsResult& r, const std::string& stem) {
  const std::string seeds = fmt::format("{} training seeds, 95% t band", r.seeds.size());
  auto render = [&](Panel panel, const std::string& suffix) {
    Figure f;
    f.panels = {std::move(panel)};
    render_figure(f, stem + suffix);
  };
  // Two statistics of the checkpoints with `keep` against training step.
  auto step_panel = [&](const std::string& title, const std::string& ylabel, auto keep,
                        const std::string& title_a, auto a, const std::string& title_b, auto b) {
    std::vector<double> x;
    std::vector<SeedInterval> ya, yb;
    for (const SeedsCheckpoint& c : r.checkpoints) {
      if (!keep(c)) continue;
      x.push_back(static_cast<double>(c.step + 1));
      ya.push_back(a(c).interval);
      yb.push_back(b(c).interval);
    }
    Panel p;
    p.title = title + " (" + seeds + ")";
    p.xlabel = "training step + 1";
    p.log_x = true;
    p.ylabel = ylabel;
    p.series = {band_series(title_a, x, ya), band_series(title_b, x, yb)};
    return p;
  };
  render(step_panel(
             "middle and minimum against the ends (position 0, query) by step", "log10 ratio",
             [](const SeedsCheckpoint&) { return true; }, "middle / mean of the ends",
             [](const SeedsCheckpoint& c) { return c.middle_to_ends; },
             "dead zone (argmin) / mean of the ends",
             [](const SeedsCheckpoint& c) { return c.dead_zone_depth; }),
         "_shape");

  {
    std::vector<std::int64_t> steps;
    std::vector<SharesOverSeeds> shares;
    for (const SeedsCheckpoint& c : r.checkpoints) {
      steps.push_back(c.step);
      shares.push_back(c.shares);
    }
    render_figure(shares_figure(steps, shares, fmt::format("{} training seeds", r.seeds.size())),
                  stem + "_shares");
  }

  Panel profiles;
  profiles.title = "influence profile, first and last step (" + seeds + ")";
  profiles.xlabel = "position";
  profiles.ylabel = "share of the influence";
  profiles.log10_y = true;
  profiles.series = {position_series(fmt::format("step {}", r.checkpoints.front().step),
                                     r.checkpoints.front().log10_share),
                     position_series(fmt::format("step {}", r.checkpoints.back().step),
                                     r.checkpoints.back().log10_share)};
  render(profiles, "_profiles");

  if (std::any_of(r.checkpoints.begin(), r.checkpoints.end(),
                  [](const SeedsCheckpoint& c) { return c.has_gradient; })) {
    render(step_panel(
               "gradient reaching the input embeddings", "log10 ratio to position 0",
               [](const SeedsCheckpoint& c) { return c.has_gradient; }, "middle fifth / position 0",
               [](const SeedsCheckpoint& c) { return c.gradient_middle_to_first; },
               "last position / position 0",
               [](const SeedsCheckpoint& c) { return c.gradient_last_to_first; }),
           "_gradient");
  }
  if (r.heldout) {
    Panel loss;
    loss.title = "held-out loss per position at the end (" + seeds + ")";
    loss.xlabel = "position";
    loss.ylabel = "loss (nats)";
    loss.series = {position_series("next-token loss", r.heldout->loss_per_position)};
    render(loss, "_loss");
  }
}

SeedsMode seeds_mode(const SeedsFlags& f) {
  const bool hop_files =
      !f.summary.empty() || !f.metrics.empty() || !f.heads.empty() || !f.discrepancy.empty();
  if (!f.compare.empty()) {
    if (!f.birth.empty() || !f.eval.empty() || hop_files)
      throw std::invalid_argument(
          "--compare takes each configuration's eval files after its label "
          "(LABEL=EVAL.json,...); give it without birth files, --eval, --summary, --metrics, "
          "--heads or --discrepancy");
    return HopCompareOptions{f.compare, f.json, f.csv, f.plot};
  }
  if (f.birth.empty() && !f.eval.empty() && is_kv_eval_file(f.eval.front())) {
    if (hop_files)
      throw std::invalid_argument(
          "kv eval results are summarized alone; give them without --summary, --metrics, "
          "--heads or --discrepancy");
    return KvSeedsOptions{f.eval, f.json, f.csv, f.plot};
  }
  if (f.birth.empty())
    return HopSeedsOptions{f.summary,     f.metrics, f.eval, f.heads,
                           f.discrepancy, f.json,    f.csv,  f.plot};
  if (hop_files)
    throw std::invalid_argument(
        "--summary, --metrics, --heads and --discrepancy summarize hop runs; give them without "
        "birth files");
  return SeedsOptions{f.birth, f.eval, f.json, f.csv, f.plot};
}

void run_seeds(const SeedsMode& mode) {
  if (const auto* text = std::get_if<SeedsOptions>(&mode)) {
    run_text_seeds(*text);
  } else if (const auto* hops = std::get_if<HopSeedsOptions>(&mode)) {
    run_hop_seeds(*hops);
  } else if (const auto* kv = std::get_if<KvSeedsOptions>(&mode)) {
    run_kv_seeds(*kv);
  } else {
    run_hop_comparison(std::get<HopCompareOptions>(mode));
  }
}

void run_text_seeds(const SeedsOptions& o) {
  const SeedsResult r = summarize_seeds(o);
  // The JSON for a pipe or a file; on a terminal these lines instead (core/json_result.h).
  write_json_result(o.json, to_json(r).dump(2) + "\n", [&r] {
    const SeedsCheckpoint& a = r.checkpoints.front();
    const SeedsCheckpoint& b = r.checkpoints.back();
    std::string out = fmt::format(
        "seeds: {} seeds; log10 middle-to-ends {} at step {}, {} at step {} (change {})\n",
        r.seeds.size(), format_interval(a.middle_to_ends.interval), a.step,
        format_interval(b.middle_to_ends.interval), b.step,
        format_interval(r.change_middle_to_ends.interval));
    out += fmt::format("seeds: U test at step {}: {}\nseeds: U test at step {}: {}\n", a.step,
                       u_test_text(a.shares.u), b.step, u_test_text(b.shares.u));
    if (r.heldout)
      out += "seeds: held-out bits per byte " + format_interval(r.heldout->bits_per_byte.interval) +
             "\n";
    return out;
  });
  if (!o.csv.empty()) write_file_atomic(o.csv, seeds_csv(r));
  if (!o.plot.empty()) render_seeds_figures(r, o.plot);
  note_unchecked_configurations(r.unchecked, o.birth.size() + o.eval.size(), r.unchecked_file);
}

}  // namespace posbias
