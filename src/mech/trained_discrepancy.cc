#include "posbias/mech/trained_discrepancy.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "posbias/core/parse.h"
#include "posbias/core/progress.h"
#include "posbias/mech/head_scores.h"
#include "posbias/model/memory_plan.h"
#include "posbias/train/checkpoint.h"
#include "posbias/train/hop_eval.h"

namespace posbias {
namespace {

struct KeyHead {
  int layer = 0, head = 0;
  KeyHeadKind kind = KeyHeadKind::kChosen;  // the role it was chosen for
  double positional = NAN, symbolic = NAN;
  HeadLabel label = HeadLabel::kMixed;  // head_label of its scores
};

}  // namespace

namespace {

std::vector<KeyHead> choose_heads(LoadedModel& m, const TrainedDiscrepancyOptions& o) {
  const ModelConfig& cfg = m.model->config();
  const TrainConfig& c = m.info.config;
  // Layer-major, as score_heads returns them.
  const auto scores =
      score_heads(m.model, encode_dataset({c.task, c.hops, c.length, o.samples, o.seed}).ids);
  std::vector<KeyHead> out;
  if (o.heads.empty()) {
    auto best = [&](bool positional) {
      return *std::max_element(
          scores.begin(), scores.end(), [&](const HeadScore& a, const HeadScore& b) {
            const double sa = positional ? a.positional - a.symbolic : a.symbolic - a.positional;
            const double sb = positional ? b.positional - b.symbolic : b.symbolic - b.positional;
            return sa < sb;
          });
    };
    for (bool positional : {true, false}) {
      const HeadScore h = best(positional);
      out.push_back({h.layer, h.head,
                     positional ? KeyHeadKind::kPositional : KeyHeadKind::kSymbolic, h.positional,
                     h.symbolic, h.label});
    }
    if (out[0].layer == out[1].layer && out[0].head == out[1].head) out.pop_back();
    return out;
  }
  for (const HeadRef& ref : o.heads) {
    const std::int64_t layer = ref.layer, head = ref.head;
    if (layer < 0 || layer >= cfg.layers || head < 0 || head >= cfg.heads) {
      throw std::invalid_argument("--heads: '" + head_name(layer, head) +
                                  "' is not a head of this " + std::to_string(cfg.layers) +
                                  "-layer, " + std::to_string(cfg.heads) +
                                  "-head model (layers and heads are 0-based)");
    }
    const HeadScore& h = scores[static_cast<std::size_t>(layer * cfg.heads + head)];
    out.push_back({h.layer, h.head, KeyHeadKind::kChosen, h.positional, h.symbolic, h.label});
  }
  return out;
}

// Examples per forward: a quarter of eval's batch, as each keeps every block's cache.
std::int64_t discrepancy_batch(std::int64_t length) {
  return std::max<std::int64_t>(1, eval_batch_size(length) / 4);
}

// The q-quantile of sorted values (linear interpolation).
double sorted_quantile(const std::vector<double>& v, double q) {
  const double pos = q * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const auto hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (pos - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

GapPoint gap_point(int length, std::vector<double> v) {
  GapPoint p{length, NAN, NAN, NAN, NAN, NAN, static_cast<std::int64_t>(v.size())};
  if (v.empty()) return p;
  double mean = 0;
  for (double x : v) mean += x;
  p.mean = mean / static_cast<double>(v.size());
  std::sort(v.begin(), v.end());  // once, for the minimum and the three quantiles
  p.min = v.front();
  p.median = sorted_quantile(v, 0.5);
  p.p10 = sorted_quantile(v, 0.1);
  p.p90 = sorted_quantile(v, 0.9);
  return p;
}

}  // namespace

TrainedDiscrepancyResult measure_trained_discrepancy(const TrainedDiscrepancyOptions& o) {
  if (o.count < 1 || o.count > 100000)
    throw std::invalid_argument("--count must be in 1..100000, got " + std::to_string(o.count));
  for (int n : o.lengths) {
    if (n < 2 || n > 100000)
      throw std::invalid_argument("--lengths must be in 2..100000, got " + std::to_string(n));
  }
  LoadedModel m = load_trained_model(o.run, o.checkpoint);
  const TrainConfig& c = m.info.config;
  require_hop_task(c.task, "discrepancy --run");
  // The bounds are those of a plain softmax over the keys (paper 2); a null sink adds e^b to
  // every row's normalizer.
  if (c.model_config().null_sink)
    throw std::invalid_argument("discrepancy --run: run '" + o.run +
                                "' has a null sink (train --null-sink); the discrepancy bounds "
                                "are those of plain softmax attention");
  if (c.model_config().logn_scale)
    throw std::invalid_argument("discrepancy --run: run '" + o.run +
                                "' has log-n attention scaling (train --logn-scale); the "
                                "discrepancy bounds are those of plain softmax attention");
  // Each length's forward keeps every block's cache for the head's query row; the examples are
  // generated a batch at a time. What grows with --count is the three gaps per example, key head
  // and length kept for the statistics (and one sorted copy), counted at every length.
  const double key_heads = o.heads.empty() ? 2.0 : static_cast<double>(o.heads.size());
  const double gap_bytes = 8.0 * static_cast<double>(o.count) *
                           (3.0 * key_heads * static_cast<double>(o.lengths.size()) + 1.0);
  std::vector<AttentionPath> paths;
  for (int len : o.lengths) {
    validate_model_length(c.task, len);
    for (int h : c.hops) validate_spec(c.task, h, len, o.variant);
    const std::int64_t batch = discrepancy_batch(len);
    auto bytes = [&](AttentionPath a) {
      return weight_bytes(c.model_config(), true) + hop_examples_bytes(batch, len) +
             forward_bytes(c.model_config(), batch, len, /*cached=*/true, {a}) + gap_bytes;
    };
    paths.push_back(plan_attention(bytes, o.attention, o.memory_budget_gb,
                                   "discrepancy at length " + std::to_string(len),
                                   "shorter --lengths"));
  }
  torch::NoGradGuard no_grad;
  m.model->eval();
  const std::vector<KeyHead> heads = choose_heads(m, o);
  std::vector<std::vector<std::vector<double>>> gaps(
      heads.size(), std::vector<std::vector<double>>(o.lengths.size())),
      on_chain = gaps, correct_only = gaps;
  TrainedDiscrepancyResult r;
  r.run = o.run;
  r.task = c.task;
  r.variant = o.variant;
  r.train_length = c.length;
  r.step = m.info.step;
  r.lengths = o.lengths;
  r.count = o.count;
  Progress progress("discrepancy", static_cast<std::int64_t>(o.lengths.size()));
  for (std::size_t li = 0; li < o.lengths.size(); ++li) {
    const int len = o.lengths[li];
    m.model->set_attention(paths[li]);
    std::int64_t correct = 0;
    const DatasetSpec spec{c.task, c.hops, len, o.count, o.seed, o.variant};
    for_each_batch(spec, discrepancy_batch(len), [&](const std::vector<Example>& examples) {
      const HopBatch b = encode_examples(examples, 0, examples.size());
      ForwardCache cache;
      m.model->forward_embeddings(m.model->embed(b.ids), &cache);
      const auto predicted = m.model->logits(cache.hidden.select(1, len - 1)).argmax(-1);
      const auto right = predicted.eq(b.answers).contiguous();
      correct += right.sum().item<std::int64_t>();
      const bool* is_right = right.data_ptr<bool>();
      for (std::size_t k = 0; k < heads.size(); ++k) {
        Block& block = m.model->layers[static_cast<std::size_t>(heads[k].layer)];
        const auto x = block->ln1(cache.blocks[static_cast<std::size_t>(heads[k].layer)].resid_pre);
        const auto row = block->attn->query_scores(x, cache.pos, len - 1).select(1, heads[k].head);
        const auto [top, where] = row.to(torch::kFloat64).topk(2, -1);
        const auto gap = (top.select(1, 0) - top.select(1, 1)).contiguous();
        const auto first = where.select(1, 0).contiguous();
        const double* g = gap.data_ptr<double>();
        const std::int64_t* w = first.data_ptr<std::int64_t>();
        gaps[k][li].insert(gaps[k][li].end(), g, g + gap.size(0));
        for (std::int64_t e = 0; e < gap.size(0); ++e) {
          if (is_right[e]) correct_only[k][li].push_back(g[e]);
          const std::vector<int>& chain = examples[static_cast<std::size_t>(e)].chain;
          if (std::find(chain.begin(), chain.end(), static_cast<int>(w[e])) != chain.end())
            on_chain[k][li].push_back(g[e]);
        }
      }
    });
    r.accuracy.push_back(static_cast<double>(correct) / static_cast<double>(o.count));
    progress.update(static_cast<std::int64_t>(li + 1));
  }
  progress.finish();

  for (std::size_t k = 0; k < heads.size(); ++k) {
    const KeyHead& h = heads[k];
    KeyHeadGaps out;
    out.layer = h.layer, out.head = h.head, out.kind = h.kind, out.label = h.label;
    out.positional = h.positional, out.symbolic = h.symbolic;
    std::vector<double> x, median, on_chain_median;
    for (std::size_t li = 0; li < o.lengths.size(); ++li) {
      out.points.push_back(gap_point(o.lengths[li], gaps[k][li]));
      out.on_chain_points.push_back(gap_point(o.lengths[li], on_chain[k][li]));
      out.correct_points.push_back(gap_point(o.lengths[li], correct_only[k][li]));
      out.top_key_on_chain.push_back(static_cast<double>(on_chain[k][li].size()) /
                                     static_cast<double>(gaps[k][li].size()));
      x.push_back(o.lengths[li]);
      median.push_back(out.points.back().median);
      on_chain_median.push_back(out.on_chain_points.back().median);
    }
    // Beyond training: from the first length above it.
    const double from = c.length + 1;
    out.exponent = fit_power_law(x, median, from);
    out.on_chain_exponent = fit_power_law(x, on_chain_median, from);
    r.heads.push_back(std::move(out));
  }
  return r;
}

Figure trained_discrepancy_figure(const TrainedDiscrepancyResult& r) {
  Panel p;
  p.title = std::string(task_name(r.task)) + " model (step " + std::to_string(r.step) + ", " +
            std::string(variant_name(r.variant)) + " inputs): key-head discrepancy and accuracy";
  p.xlabel = "input length (tokens, log scale)";
  p.ylabel = "top − second attention logit at the query (median, p10–p90)";
  p.log_x = true;
  p.log10_y = true;
  p.y2label = "accuracy";
  p.y2min = 0;
  p.y2max = 1.02;
  for (const KeyHeadGaps& h : r.heads) {
    Series s;
    s.title =
        head_name(h.layer, h.head) + " (" +
        (h.kind == KeyHeadKind::kChosen
             ? std::string(head_label_name(h.label))
             : fmt::format("most {}, {}", key_head_kind_name(h.kind), head_label_name(h.label))) +
        ")";
    if (std::isfinite(h.exponent.exponent)) {
      s.title += fmt::format(", exponent {:.2f}", h.exponent.exponent);
      if (std::isfinite(h.exponent.low))
        s.title += fmt::format(" [{:.2f}, {:.2f}]", h.exponent.low, h.exponent.high);
    }
    s.style = "linespoints";
    for (const GapPoint& pt : h.points) {
      s.x.push_back(pt.length);
      s.y.push_back(std::log10(pt.median));
      s.y_low.push_back(std::log10(std::max(pt.p10, 1e-12)));
      s.y_high.push_back(std::log10(std::max(pt.p90, 1e-12)));
    }
    p.series.push_back(std::move(s));
  }
  Series acc;
  acc.title = "accuracy (right axis)";
  acc.style = "linespoints";
  acc.right_axis = true;
  for (std::size_t i = 0; i < r.lengths.size() && i < r.accuracy.size(); ++i) {
    acc.x.push_back(r.lengths[i]);
    acc.y.push_back(r.accuracy[i]);
  }
  p.series.push_back(std::move(acc));
  Figure f;
  f.panels = {p};
  return f;
}

}  // namespace posbias
