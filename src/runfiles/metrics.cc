#include "posbias/runfiles/metrics.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "posbias/core/json_read.h"
#include "posbias/core/plot.h"
#include "posbias/runfiles/hop_key.h"
#include "posbias/tasks/hop_task.h"

namespace posbias {

const std::vector<FieldRow<MetricsRow>>& metrics_row_fields() {
  using M = MetricsRow;
  static const std::vector<FieldRow<M>> rows = {
      required(field("step", &M::step, "the optimizer steps taken")),
      required(field<M, double, NanAsNull>("loss", &M::loss,
                                           "training loss over the steps since the last row")),
      required(field("lr", &M::lr, "learning rate at the step")),
      optional_field("acc", &M::acc, "held-out accuracy by hop count and over all ('all')"),
      optional_field<M, double, NanAsNull>("heldout_loss", &M::heldout_loss,
                                           "text: mean held-out loss over the logged windows"),
      optional_field<M, double, NanAsNull>("bits_per_byte", &M::bits_per_byte,
                                           "text: held-out bits per byte over the logged windows"),
      optional_field("loss_per_position", &M::loss_per_position,
                     "text: held-out loss at each position"),
      optional_field(
          "grad_per_position", &M::grad_per_position,
          "text: mean gradient norm at each position, at the embeddings and logged layers"),
      optional_field("passkey_exact_match", &M::passkey_exact_match,
                     "text with needles: held-out passkey exact match"),
      field("tokens_per_s", &M::tokens_per_s, "training tokens per second since the last row"),
      field("train_seconds", &M::train_seconds, "wall seconds of training, across resumes"),
  };
  return rows;
}

nlohmann::json metrics_row_to_json(const MetricsRow& row) {
  return fields_to_json(metrics_row_fields(), row);
}

MetricsRow metrics_row_from_json(const nlohmann::json& j) {
  return fields_from_json(metrics_row_fields(), j, MetricsRow{}, "metrics field");
}

MetricsRow parse_metrics_line(const std::string& line) {
  nlohmann::json j;
  try {
    j = parse_json(line, "a metrics.jsonl row");
  } catch (const std::exception& e) {  // not JSON, or nested too deep
    throw std::invalid_argument(std::string("not valid JSON (") + e.what() + ")");
  }
  return metrics_row_from_json(j);
}

std::vector<MetricsRow> read_metrics(const std::filesystem::path& path) {
  std::vector<MetricsRow> rows;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.size() > (1u << 22)) continue;
    try {
      rows.push_back(parse_metrics_line(line));
    } catch (const std::invalid_argument&) {
    }
  }
  return rows;
}

std::vector<MetricsRow> read_resumed_metrics(const std::filesystem::path& path,
                                             const std::vector<std::int64_t>& logged_steps) {
  auto refuse = [&](const std::string& what) {
    return std::runtime_error(path.string() + " is damaged (" + what +
                              "): the checkpoints cannot rebuild its rows, so the resume is "
                              "refused and nothing was changed: restore the file, or start a new "
                              "run in another --out");
  };
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw refuse("missing");
  std::ifstream in(path);
  if (!in) throw refuse("cannot be read");
  std::vector<MetricsRow> rows;
  std::size_t next = 0;  // index into logged_steps of the row expected next
  std::string line;
  for (std::int64_t number = 1; std::getline(in, line); ++number) {
    if (line.empty()) continue;
    MetricsRow r;
    try {
      if (line.size() > (1u << 22)) throw std::length_error("line too long");
      r = parse_metrics_line(line);
    } catch (const std::exception&) {
      throw refuse("line " + std::to_string(number) + " is not a metrics row");
    }
    if (next < logged_steps.size() && r.step == logged_steps[next]) {
      rows.push_back(std::move(r));
      ++next;
    } else if (next == logged_steps.size() && next > 0 && r.step > logged_steps.back()) {
      continue;  // logged after the checkpoint the run resumes from
    } else {
      throw refuse(
          "line " + std::to_string(number) + " has step " + std::to_string(r.step) +
          (next < logged_steps.size()
               ? ", the row for step " + std::to_string(logged_steps[next]) + " was expected"
               : ", after the row for the resumed step"));
    }
  }
  if (next < logged_steps.size()) {
    throw refuse("no row for step " + std::to_string(logged_steps[next]));
  }
  return rows;
}

std::optional<std::int64_t> first_crossing(const std::vector<MetricsRow>& rows,
                                           const std::string& key, double threshold) {
  for (const MetricsRow& r : rows) {
    if (!r.acc) continue;
    const auto it = r.acc->find(key);
    if (it != r.acc->end() && it->second >= threshold) return r.step;
  }
  return std::nullopt;
}

std::string metrics_status(const MetricsRow& row) {
  std::string out;
  const auto add = [&out](const std::string& part) { out += (out.empty() ? "" : ", ") + part; };
  if (std::isfinite(row.loss)) add(fmt::format("loss {:.3g}", row.loss));
  if (row.acc) {
    const auto all = row.acc->find(kAllHopsKey);
    if (all != row.acc->end()) add(fmt::format("held-out accuracy {:.3f}", all->second));
  }
  if (row.bits_per_byte) add(fmt::format("held-out {:.3f} bits/byte", *row.bits_per_byte));
  if (row.passkey_exact_match)
    add(fmt::format("passkey exact match {:.3f}", *row.passkey_exact_match));
  return out;
}

void render_training_figures(const std::vector<MetricsRow>& rows, const std::string& title,
                             std::int64_t eval_length, const std::filesystem::path& stem) {
  if (rows.empty()) return;
  Panel acc;
  acc.title = title + ": held-out accuracy";
  acc.xlabel = "training step";
  acc.ylabel = "accuracy at " + std::to_string(eval_length) + " tokens";
  acc.ymin = 0;
  acc.ymax = 1.02;
  const auto last = rows.back().acc.value_or(std::map<std::string, double>{});
  // Two or more hop counts are an ordered family: the sequential map, named on the colour bar
  // (keys that are not counts keep the legend).
  const auto is_count = [](const std::string& k) {
    return !k.empty() && k.size() < 10 &&
           std::all_of(k.begin(), k.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  const bool ordered = std::count_if(last.begin(), last.end(),
                                     [&](const auto& kv) { return is_count(kv.first); }) > 1 &&
                       std::all_of(last.begin(), last.end(), [&](const auto& kv) {
                         return kv.first == kAllHopsKey || is_count(kv.first);
                       });
  if (ordered) acc.order_label = kHopsOrderLabel;
  for (const auto& [key, v] : last) {
    Series s;
    s.title = hop_key_title(key);
    // All hops thick, as the other hop figures draw it: beside the map's dark purple 1-hop a
    // thin black line could not be told apart.
    if (key == kAllHopsKey) s.line_width = ordered ? 3 : 1;
    if (key != kAllHopsKey && ordered) s.order = std::stod(key);
    for (const MetricsRow& r : rows) {
      if (!r.acc || !r.acc->count(key)) continue;
      s.x.push_back(static_cast<double>(r.step));
      s.y.push_back(r.acc->at(key));
    }
    acc.series.push_back(std::move(s));
  }
  Figure fa;
  fa.panels = {acc};
  render_figure(fa, stem.string() + "_accuracy");

  Panel loss;
  loss.title = title + ": training loss (answer token)";
  loss.xlabel = "training step";
  loss.ylabel = "cross-entropy (nats), log scale";
  loss.log10_y = true;
  Series s;
  s.title = "loss";
  for (const MetricsRow& r : rows) {
    if (!std::isfinite(r.loss) || r.loss <= 0) continue;
    s.x.push_back(static_cast<double>(r.step));
    s.y.push_back(std::log10(r.loss));
  }
  loss.series.push_back(std::move(s));
  Figure fl;
  fl.panels = {loss};
  render_figure(fl, stem.string() + "_loss");
}

namespace {

// At most `n` logged rows, spread evenly in log(step) (step 0 first), for one curve each.
std::vector<const MetricsRow*> spread_rows(const std::vector<MetricsRow>& rows, std::size_t n,
                                           bool (*has)(const MetricsRow&)) {
  std::vector<const MetricsRow*> with;
  for (const MetricsRow& r : rows)
    if (has(r)) with.push_back(&r);
  if (with.size() <= n) return with;
  std::vector<const MetricsRow*> out{with.front()};
  const double last = std::log1p(static_cast<double>(with.back()->step));
  std::size_t i = 1;
  for (std::size_t k = 1; k < n; ++k) {
    const double target = last * static_cast<double>(k) / static_cast<double>(n - 1);
    while (i + 1 < with.size() && std::log1p(static_cast<double>(with[i]->step)) < target) ++i;
    if (with[i] != out.back()) out.push_back(with[i]);
  }
  return out;
}

// x: position + 1, for the log x axes of these panels.
Series position_curve(const MetricsRow& r, const std::vector<double>& v, bool log10_y) {
  Series s;
  s.title = "step " + std::to_string(r.step);
  s.order = static_cast<double>(r.step);  // a training step: on the colour bar
  s.line_width = 1;
  for (std::size_t j = 0; j < v.size(); ++j) {
    if (log10_y && !(v[j] > 0)) continue;
    s.x.push_back(static_cast<double>(j + 1));
    s.y.push_back(log10_y ? std::log10(v[j]) : v[j]);
  }
  return s;
}

}  // namespace

void render_text_training_figures(const std::vector<MetricsRow>& rows, const std::string& title,
                                  const std::filesystem::path& stem) {
  if (rows.empty()) return;
  Panel loss;
  loss.title = title + ": loss";
  loss.xlabel = "training step";
  loss.ylabel = "cross-entropy (nats per token)";
  loss.y2label = "held-out bits per byte";
  Series train, heldout, bpb;
  train.title = "training loss";
  heldout.title = "held-out loss (logged windows)";
  bpb.title = "bits per byte";
  bpb.right_axis = true;
  bpb.line_width = 1;
  for (const MetricsRow& r : rows) {
    if (std::isfinite(r.loss))
      train.x.push_back(static_cast<double>(r.step)), train.y.push_back(r.loss);
    if (r.heldout_loss && std::isfinite(*r.heldout_loss)) {
      heldout.x.push_back(static_cast<double>(r.step)), heldout.y.push_back(*r.heldout_loss);
      bpb.x.push_back(static_cast<double>(r.step)), bpb.y.push_back(r.bits_per_byte.value_or(NAN));
    }
  }
  loss.series = {train, heldout, bpb};
  Figure fl;
  fl.panels = {loss};
  render_figure(fl, stem.string() + "_loss");

  Panel per_position;
  per_position.title = title + ": held-out loss per position";
  // A log axis cannot show position 0: x is the position + 1, the tokens the position reads.
  per_position.xlabel = "position + 1 (tokens read; position t predicts token t + 1)";
  per_position.ylabel = "cross-entropy (nats)";
  per_position.log_x = true;
  per_position.order_label = "training step";
  const auto& last_losses = rows.back().loss_per_position;
  if (last_losses && last_losses->size() > 1) {
    per_position.xmin = 1;
    per_position.xmax = static_cast<double>(last_losses->size());
  }
  for (const MetricsRow* r :
       spread_rows(rows, 7, [](const MetricsRow& m) { return m.loss_per_position.has_value(); }))
    per_position.series.push_back(position_curve(*r, *r->loss_per_position, false));
  Figure fp;
  fp.panels = {per_position};
  render_figure(fp, stem.string() + "_loss_per_position");

  const auto with_grads = spread_rows(rows, 6, [](const MetricsRow& m) {
    return m.grad_per_position.has_value() && !m.grad_per_position->empty();
  });
  if (with_grads.empty()) return;
  Figure fg;
  fg.width = 1400;
  for (const auto& [name, unused] : *with_grads.back()->grad_per_position) {
    Panel p;
    std::string layer = name;  // "layer_3" → "layer 3" (gnuplot reads _ as a subscript)
    std::replace(layer.begin(), layer.end(), '_', ' ');
    p.title = name == "embed" ? "gradient at the embeddings" : "gradient at the input of " + layer;
    p.xlabel = "position + 1 (log scale)";
    p.ylabel = "mean ‖∂loss/∂h_j‖";
    p.log10_y = true;
    p.log_x = true;
    p.order_label = "training step";
    p.xmin = 1;
    p.xmax = static_cast<double>(with_grads.back()->grad_per_position->at(name).size());
    for (const MetricsRow* r : with_grads) {
      const auto it = r->grad_per_position->find(name);
      if (it != r->grad_per_position->end())
        p.series.push_back(position_curve(*r, it->second, true));
    }
    fg.panels.push_back(std::move(p));
  }
  render_figure(fg, stem.string() + "_gradients");
}

}  // namespace posbias
