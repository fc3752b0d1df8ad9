#include "posbias/core/plot.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <span>
#include <sstream>
#include <stdexcept>

#include "posbias/core/atomic_file.h"
#include "posbias/core/bounded_read.h"

extern char** environ;

namespace posbias {
namespace {

std::string quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

std::string plain_text(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '_' || c == '^' || c == '{' || c == '}' || c == '@' || c == '&' || c == '~')
      out += '\\';
    out += c;
  }
  return out;
}

namespace {

// "[lo:hi]" with "*" for an open end.
std::string range(double lo, double hi) {
  auto end = [](double v) {
    if (std::isnan(v)) return std::string("*");
    std::ostringstream t;  // every digit: a log axis may start at 1e-7
    t.precision(17);
    t << v;
    return t.str();
  };
  std::ostringstream r;  // streamed, not concatenated: GCC 12 warns (-Wrestrict) on the latter
  r << "[" << end(lo) << ":" << end(hi) << "]";
  return r.str();
}

// Cells at integer coordinates (column, row), tick labels from the heatmap's names; small
// grids print each cell's value.
void write_heatmap(std::ostringstream& gp, const Heatmap& h, const std::string& block) {
  const std::size_t rows = h.z.size(), cols = h.z[0].size();
  if (h.y_labels.size() != rows || h.x_labels.size() != cols) {
    throw std::runtime_error("heatmap labels do not match its grid");
  }
  // At most max_tics tick labels per axis (every k-th beyond that).
  auto tics = [&](const char* axis, const std::vector<std::string>& names) {
    const std::size_t most = std::max<std::size_t>(1, h.max_tics);
    const std::size_t every = (names.size() + most - 1) / most;
    gp << "set " << axis << "tics (";
    bool first = true;
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (i % every != 0) continue;
      gp << (first ? "" : ", ") << quote(names[i]) << " " << i;
      first = false;
    }
    gp << ")\n";
  };
  tics("x", h.x_labels);
  if (cols > 6) gp << "set xtics rotate by 30 right\n";  // long labels would overlap
  tics("y", h.y_labels);
  gp << "set xrange [-0.5:" << static_cast<double>(cols) - 0.5
     << "]\nset yrange [-0.5:" << static_cast<double>(rows) - 0.5 << "]\n";
  gp << "set cbrange [" << h.zmin << ":" << h.zmax << "]\nset cblabel " << quote(h.z_label)
     << "\nset palette defined (0 '#f7fbff', 0.5 '#6baed6', 1 '#08306b')\nunset grid\nunset key\n";
  gp << block << " << EOD\n";
  for (std::size_t r = 0; r < rows; ++r) {
    if (h.z[r].size() != cols) throw std::runtime_error("heatmap rows differ in length");
    for (std::size_t c = 0; c < cols; ++c) {
      gp << c << " " << r << " " << (std::isfinite(h.z[r][c]) ? std::to_string(h.z[r][c]) : "NaN")
         << "\n";
    }
  }
  gp << "EOD\n";
  // gnuplot draws no image narrower than 2 × 2 cells: a single row or column is drawn as
  // filled boxes of the same size and colour instead.
  if (rows >= 2 && cols >= 2) {  // `pixels`: each cell a rectangle, which SVG viewers do not blur
    gp << "plot " << block << " using 1:2:3 with image pixels";
  } else {
    gp << "plot " << block
       << " using 1:2:(0.5):(0.5):3 with boxxyerror fillstyle solid noborder lc palette";
  }
  if (cols <= 12 && rows <= 24) {  // cells wide enough to print their values
    const double mid = (h.zmin + h.zmax) / 2;
    gp << ", \\\n     " << block << " using 1:2:(valid(3) ? sprintf(" << quote(h.value_format)
       << ", $3) : \"\"):($3 > " << mid
       << " ? 0xffffff : 0x000000) with labels tc rgb variable font ',8'";  // NaN: blank
  }
  gp << "\n";
}

// The named series' colours: distinct, and dark enough to read on white (no yellow).
constexpr const char* kColours[kNamedColours] = {"#9400d3", "#009e73", "#56b4e9", "#e69f00",
                                                 "#0072b2", "#e51e10", "#000000", "#a0522d",
                                                 "#ff69b4", "#808080"};
// The named series' colours in a panel that also holds ordered series: none of kColours's
// purples, blues, teals and greens, which read as a stop of the sequential map below.
constexpr const char* kBesideOrderedColours[] = {"#000000", "#e51e10", "#e69f00",
                                                 "#a0522d", "#ff69b4", "#808080"};
// The ordered series' sequential map (viridis, stopped before its palest yellow).
constexpr const char* kSequentialPalette =
    "set palette defined (0 '#440154', 0.25 '#3b528b', 0.5 '#21918c', 0.75 '#5ec962', "
    "1 '#b5de2b')\n";

// A colour-bar label for an order value: integers without a decimal point.
std::string order_text(double v) {
  std::ostringstream t;
  if (std::abs(v) < 1e15 && v == std::round(v)) {
    t << static_cast<long long>(v);
  } else {
    t << v;
  }
  return t.str();
}

// The gnuplot key placement: outside the axes (Panel::key).
std::string key_placement(const Panel& p, int panel_width, bool several_panels, bool colour_bar) {
  if (p.key == "auto") {
    std::size_t longest = 0;
    for (const Series& s : p.series)
      if (std::isnan(s.order)) longest = std::max(longest, s.title.size());
    const bool crowded_right = colour_bar || !p.y2label.empty();  // a colour bar or right axis
    // A legend beside a narrow panel, or beside each of several, leaves the axes little room.
    const bool narrow = panel_width < 700 || several_panels;
    return narrow || crowded_right || longest > 30 ? "below" : "outside right top";
  }
  for (const char* outside : {"outside", "below", "above", "off"})
    if (p.key.find(outside) != std::string::npos) return p.key;
  throw std::runtime_error("plot panel '" + p.title + "': a legend at '" + p.key +
                           "' stands inside the axes and covers data; place it outside them");
}

// Each ordered series' rank among the panel's ordered series (by order value), -1 for a named
// one; writes the colour bar that names the ranks.
std::vector<int> write_order_colours(std::ostringstream& gp, const Panel& p) {
  std::vector<std::size_t> ordered;
  for (std::size_t s = 0; s < p.series.size(); ++s)
    if (!std::isnan(p.series[s].order)) ordered.push_back(s);
  std::stable_sort(ordered.begin(), ordered.end(), [&](std::size_t a, std::size_t b) {
    return p.series[a].order < p.series[b].order;
  });
  std::vector<int> rank(p.series.size(), -1);
  if (ordered.empty()) return rank;
  const std::size_t n = ordered.size(), every = (n + 11) / 12;  // at most 12 tick labels
  gp << kSequentialPalette << "set cbrange [-0.5:" << static_cast<double>(n) - 0.5 << "]\n";
  gp << "set colorbox\nset cbtics (";
  std::size_t longest = 0;
  for (std::size_t r = 0; r < n; ++r) {
    rank[ordered[r]] = static_cast<int>(r);
    if (r % every != 0 && r + 1 != n) continue;
    const std::string tick = order_text(p.series[ordered[r]].order);
    longest = std::max(longest, tick.size());
    gp << (r ? ", " : "") << quote(tick) << " " << r;
  }
  // gnuplot centres the bar's rotated label 1.5 characters past the widest tick label, where
  // half its line height reaches back over the ticks (it printed over "12" and "117"): one
  // character further right clears them. gnuplot's own right margin keeps room for three
  // characters of tick labels and no label, so a wider tick or the moved label ran off the
  // image (the offset was half a character per tick character; "residual weight α" lost its
  // last column beside "0.75"). The margin is set here to the widest tick label plus two
  // characters: with gnuplot's three and the colour bar's share of the panel that leaves about
  // three characters between the label and the image's right edge, for 1 to 8 characters of
  // tick label (measured in the SVG and the PNG; plot_test checks the SVG). A panel with a right
  // axis keeps gnuplot's margin, which makes room for that axis's labels.
  gp << ")\nset cblabel " << quote(p.order_label) << " offset 1,0\n";
  if (p.y2label.empty()) gp << "set rmargin " << longest + 2 << "\n";
  return rank;
}

// A log x axis over a few measured points (lengths 17, 64, 128, 256) is labelled at those
// points, written out: decade labels alone would leave one label (10^2), or none, under them.
// Points that crowd together on the log scale (steps 301, 401, ..., 701 after 1) would print
// their labels over one another: from the left, a point is labelled only when it lies at least
// kMinTickGap of the axis's log span past the last labelled one.
void write_measured_log_ticks(std::ostringstream& gp, const Panel& p) {
  constexpr std::size_t kMaxTicks = 12;
  constexpr double kMinTickGap = 0.08;
  std::set<double> xs;
  for (const Series& ser : p.series)
    for (double x : ser.x)
      if (std::isfinite(x) && x > 0 && (std::isnan(p.xmin) || x >= p.xmin) &&
          (std::isnan(p.xmax) || x <= p.xmax))
        xs.insert(x);
  if (xs.size() < 2 || xs.size() > kMaxTicks) return;
  const double min_gap = kMinTickGap * std::log10(*xs.rbegin() / *xs.begin());
  gp << "set format x \"%g\"\nset xtics (";
  const char* sep = "";
  double last = NAN;
  for (double x : xs) {
    if (!std::isnan(last) && std::log10(x / last) < min_gap) continue;
    last = x;
    std::ostringstream t;  // every digit, without changing gp's own precision
    t.precision(17);
    t << x;
    gp << sep << t.str();
    sep = ", ";
  }
  gp << ")\n";
}

// A tick's value as people read it: digits from 0.001 to 10^6, else m×10^{k}.
std::string log_tick_text(double v) {
  std::ostringstream t;
  if (v >= 1e-3 && v < 1e6) {
    t << v;
    return t.str();
  }
  const int k = static_cast<int>(std::floor(std::log10(v) + 1e-9));
  const double m = v / std::pow(10.0, k);
  if (std::abs(m - 1) > 1e-6) t << m << "×";
  t << "10^{" << k << "}";
  return t.str();
}

// Values to label on a log axis from 10^lo to 10^hi spanning under two decades: 1, 2 and 5 of
// each decade when at least three of them fall on it, else evenly spaced values (a step of 1, 2
// or 5 times a power of ten, 2 to 6 ticks). Empty for a span of nothing.
std::vector<double> short_log_ticks(double lo, double hi) {
  std::vector<double> ticks;
  if (!(hi - lo > 1e-9)) return ticks;
  for (int k = static_cast<int>(std::floor(lo)); k <= static_cast<int>(std::ceil(hi)); ++k)
    for (double m : {1.0, 2.0, 5.0}) {
      const double l = std::log10(m) + k;
      if (l >= lo - 1e-9 && l <= hi + 1e-9) ticks.push_back(m * std::pow(10.0, k));
    }
  if (ticks.size() >= 3) return ticks;
  ticks.clear();
  const double a = std::pow(10.0, lo), b = std::pow(10.0, hi);
  const double wanted = (b - a) / 5, decade = std::pow(10.0, std::floor(std::log10(wanted)));
  double step = 10 * decade;
  for (double m : {1.0, 2.0, 5.0})
    if (m * decade >= wanted) {
      step = m * decade;
      break;
    }
  for (double k = std::ceil(a / step - 1e-9); k * step <= b * (1 + 1e-12); ++k)
    ticks.push_back(k * step);
  return ticks;
}

// A log10 y axis (Panel::log10_y) over two decades or more is labelled at whole decades only:
// gnuplot's own step of half a decade printed 10^{0.5} and 10^{-1.5}, which nobody reads at a
// glance; every decade up to ten labels, beyond that every 2, 5, 10, 20, ... decades (a 41-decade
// axis labelled at each one printed its labels over one another). Under two decades whole decades
// leave one label or none, and gnuplot's step printed 10^{2.6}, 10^{2.8}: such an axis is labelled
// with the values themselves (200, 500, 1000; see short_log_ticks, over the 4% margin a free end
// leaves past the data). The span is the panel's y range where set, else its left-axis data's,
// bands included.
void write_log10_y_ticks(std::ostringstream& gp, const Panel& p) {
  double lo = p.ymin, hi = p.ymax;
  if (std::isnan(lo) || std::isnan(hi)) {
    double data_lo = INFINITY, data_hi = -INFINITY;
    for (const Series& ser : p.series)
      if (!ser.right_axis)
        for (const std::vector<double>* ys : {&ser.y, &ser.y_low, &ser.y_high})
          for (double y : *ys)
            if (std::isfinite(y)) data_lo = std::min(data_lo, y), data_hi = std::max(data_hi, y);
    if (std::isnan(lo)) lo = data_lo;
    if (std::isnan(hi)) hi = data_hi;
  }
  if (!std::isfinite(lo) || !std::isfinite(hi)) return;
  if (hi - lo >= 2) {  // every decade up to 10 labels, else every 2, 5, 10, 20, ... decades
    double step = 1;
    for (int k = 0; (hi - lo) / step > 10; ++k) step = (k % 3 == 1 ? 2.5 : 2) * step;
    gp << "set ytics " << step << "\n";
    return;
  }
  const double margin = 0.04 * (hi - lo);
  const std::vector<double> ticks =
      short_log_ticks(std::isnan(p.ymin) ? lo - margin : lo, std::isnan(p.ymax) ? hi + margin : hi);
  if (ticks.size() < 2) return;
  gp << "set ytics (";
  for (std::size_t i = 0; i < ticks.size(); ++i) {
    std::ostringstream at;  // every digit, without changing gp's own precision
    at.precision(17);
    at << std::log10(ticks[i]);
    gp << (i ? ", " : "") << quote(log_tick_text(ticks[i])) << " " << at.str();
  }
  gp << ")\n";
}

void write_panel(std::ostringstream& gp, const Panel& p, std::size_t panel_index, const Figure& f) {
  gp << "reset session\n";
  gp << "set title " << quote(p.title) << "\n";
  gp << "set xlabel " << quote(p.xlabel) << "\nset ylabel " << quote(p.ylabel) << "\n";
  if (p.log10_y) gp << "set format y \"10^{%g}\"\n";
  if (p.log_x) gp << "set logscale x\nset format x \"10^{%L}\"\n";
  if (!p.heatmap.z.empty()) {  // no legend: the colour bar names the values
    write_heatmap(gp, p.heatmap, "$p" + std::to_string(panel_index) + "h");
    return;
  }
  gp << "set grid\n";
  if (!std::isnan(p.xmin) || !std::isnan(p.xmax)) {
    gp << "set xrange " << range(p.xmin, p.xmax) << "\n";
  } else {  // the x axis ends where the data do (set here: gnuplot's `autoscale xfix` lets a
            // band that touches the edge fill outside the axes)
    double lo = INFINITY, hi = -INFINITY;
    for (const Series& ser : p.series)
      for (double x : ser.x)
        if (std::isfinite(x) && (!p.log_x || x > 0)) lo = std::min(lo, x), hi = std::max(hi, x);
    if (lo < hi) gp << "set xrange " << range(lo, hi) << "\n";
  }
  if (p.log_x) write_measured_log_ticks(gp, p);
  if (!std::isnan(p.ymin) || !std::isnan(p.ymax))
    gp << "set yrange " << range(p.ymin, p.ymax) << "\n";
  // A free end of the y axis ends at the data with a 4% margin, not at the next tick past them.
  if (std::isnan(p.ymin)) gp << "set autoscale yfixmin\n";
  if (std::isnan(p.ymax)) gp << "set autoscale yfixmax\n";
  if (std::isnan(p.ymin) || std::isnan(p.ymax)) gp << "set offsets 0, 0, graph 0.04, graph 0.04\n";
  if (p.log10_y) write_log10_y_ticks(gp, p);
  if (!p.y2label.empty()) {
    gp << "set ytics nomirror\nset y2tics\nset y2label " << quote(p.y2label) << "\n";
    if (!std::isnan(p.y2min) || !std::isnan(p.y2max))
      gp << "set y2range " << range(p.y2min, p.y2max) << "\n";
  }
  int label_id = 1;
  for (const Label& l : p.labels) {
    if (l.arrow) {
      gp << "set label " << label_id++ << " " << quote(l.text) << " at " << l.x << "," << l.y
         << (l.text_left ? " right" : "") << " point pt 7 ps 1.2 offset "
         << (l.text_left ? "-1" : "1") << ",1 front\n";
    } else {
      gp << "set label " << label_id++ << " " << quote(l.text) << " at " << l.x << "," << l.y
         << " front\n";
    }
  }
  std::vector<int> rank = write_order_colours(gp, p);
  std::size_t named = 0;
  for (int r : rank) named += r < 0 ? 1 : 0;
  // Beside ordered series the named ones take colours the sequential map has none like.
  const bool beside_ordered = named < p.series.size();
  const std::span<const char* const> colours =
      beside_ordered ? std::span<const char* const>(kBesideOrderedColours)
                     : std::span<const char* const>(kColours);
  if (beside_ordered && named > colours.size()) {
    throw std::runtime_error("plot panel '" + p.title + "' has " + std::to_string(named) +
                             " named series beside ordered ones; past " +
                             std::to_string(colours.size()) +
                             " their colours would repeat: order them too or split the panel");
  }
  // More named series than distinct colours: every one takes a colour of the sequential map in
  // the order drawn, keeping its legend entry, so that no colour repeats.
  const bool spread = named > kNamedColours;
  // The legend names the named series; with none (every series on the colour bar) there is none.
  const int panel_width = f.width / static_cast<int>(f.panels.size());
  const std::string key =
      key_placement(p, panel_width, f.panels.size() > 1, named < p.series.size());
  // A box beside the axes; none below them, where its top edge would cross the x label.
  const bool below = key.find("below") != std::string::npos;
  gp << (named == 0 ? std::string("set key off")
                    : "set key " + key + (below ? " nobox" : " box opaque"))
     << "\n";
  if (spread) {
    gp << kSequentialPalette << "set cbrange [-0.5:" << static_cast<double>(named) - 0.5
       << "]\nunset colorbox\n";
    for (std::size_t s = 0; s < rank.size(); ++s) rank[s] = static_cast<int>(s);
  }
  gp.precision(10);
  std::vector<std::string> parts;
  std::size_t next_colour = 0;
  for (std::size_t s = 0; s < p.series.size(); ++s) {
    const Series& ser = p.series[s];
    if (ser.x.size() != ser.y.size())
      throw std::runtime_error("plot series '" + ser.title + "' has x/y of different lengths");
    const bool band =
        !ser.y_low.empty() && ser.y_low.size() == ser.x.size() && ser.y_high.size() == ser.x.size();
    const std::string block = "$p" + std::to_string(panel_index) + "s" + std::to_string(s);
    // A band is cut to the y range here: gnuplot's own clipping of a filled band that leaves
    // the range can fill outside the axes.
    const double lo = ser.right_axis ? p.y2min : p.ymin, hi = ser.right_axis ? p.y2max : p.ymax;
    auto clamp = [&](double v) {
      if (!std::isnan(lo) && v < lo) return lo;
      return !std::isnan(hi) && v > hi ? hi : v;
    };
    gp << block << " << EOD\n";
    for (std::size_t i = 0; i < ser.x.size(); ++i) {
      if (!std::isfinite(ser.x[i]) || !std::isfinite(ser.y[i])) continue;
      gp << ser.x[i] << " " << ser.y[i];
      if (band) gp << " " << clamp(ser.y_low[i]) << " " << clamp(ser.y_high[i]);
      gp << "\n";
    }
    gp << "EOD\n";
    const std::string colour = rank[s] >= 0 ? "palette cb " + std::to_string(rank[s])
                                            : std::string("rgb ") + quote(colours[next_colour++]);
    if (band) {
      parts.push_back(block + " using 1:3:4 with filledcurves fs transparent solid " +
                      (rank[s] >= 0 ? "0.1" : "0.2") + " lc " + colour + " notitle");
    }
    const bool on_colour_bar = rank[s] >= 0 && !spread;
    parts.push_back(block + " using 1:2" + (ser.right_axis ? " axes x1y2" : "") + " with " +
                    ser.style + " lw " + std::to_string(ser.line_width) + " lc " + colour +
                    (on_colour_bar ? std::string(" notitle") : " title " + quote(ser.title)));
  }
  if (parts.empty()) throw std::runtime_error("plot panel '" + p.title + "' has no series");
  gp << "plot ";
  for (std::size_t i = 0; i < parts.size(); ++i) gp << (i ? ", \\\n     " : "") << parts[i];
  gp << "\n";
}

std::string script_for(const Figure& f, const std::string& terminal, const std::string& out) {
  std::ostringstream gp;
  gp << "set terminal " << terminal << " size " << f.width << "," << f.height << "\n";
  gp << "set output " << quote(out) << "\n";
  if (f.panels.size() > 1) gp << "set multiplot layout 1," << f.panels.size() << "\n";
  for (std::size_t i = 0; i < f.panels.size(); ++i) {
    std::ostringstream panel;
    write_panel(panel, f.panels[i], i, f);
    std::string text = panel.str();
    // `reset session` would drop the terminal; reset only plot settings inside multiplot.
    if (const auto pos = text.find("reset session\n"); pos != std::string::npos)
      text.replace(pos, 14, "reset\n");
    gp << text;
  }
  if (f.panels.size() > 1) gp << "unset multiplot\n";
  gp << "unset output\n";
  return gp.str();
}

void run_gnuplot(const std::filesystem::path& script) {
  const std::filesystem::path log = script.string() + ".log";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 2, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  std::string prog = "gnuplot", arg = script.string();
  char* argv[] = {prog.data(), arg.data(), nullptr};
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, "gnuplot", &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    throw std::runtime_error("cannot run gnuplot (install gnuplot-nox, e.g. `make deps`)");
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  std::ifstream err(log);
  std::string message, line;  // gnuplot's message: its last non-empty line
  while (std::getline(err, line))
    if (line.find_first_not_of(" \t^") != std::string::npos) message = line;
  std::error_code ec;
  std::filesystem::remove(log, ec);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw std::runtime_error("gnuplot failed on '" + script.string() + "': " + message);
  }
}

// A folder made with mkdtemp (nobody else's, never a link), removed with what it holds.
class PrivateDir {
 public:
  explicit PrivateDir(const std::filesystem::path& pattern) {
    std::string name = pattern.string();
    if (::mkdtemp(name.data()) == nullptr) {
      throw std::runtime_error("cannot create a folder beside '" + pattern.parent_path().string() +
                               "': " + std::strerror(errno));
    }
    path_ = name;
  }
  PrivateDir(const PrivateDir&) = delete;
  PrivateDir& operator=(const PrivateDir&) = delete;
  ~PrivateDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

constexpr std::uintmax_t kMaxFigureBytes = std::uintmax_t{1} << 30;

}  // namespace

void render_figure(const Figure& figure, std::filesystem::path stem) {
  if (figure.panels.empty()) throw std::runtime_error("a figure needs at least one panel");
  if (stem.extension() == ".svg" || stem.extension() == ".png") stem.replace_extension();
  const std::filesystem::path parent = stem.has_parent_path() ? stem.parent_path() : ".";
  ensure_directory(parent);
  // gnuplot writes into a fresh private folder beside the figure; the files then reach their
  // names through write_file_atomic, like every other output.
  std::string pattern = ".";  // appended, not `"." + name`: GCC 12 warns (-Wrestrict) on that
  pattern += stem.filename().string();
  pattern += ".plotXXXXXX";
  const PrivateDir work(parent / pattern);
  const std::filesystem::path svg = work.path() / "figure.svg", png = work.path() / "figure.png",
                              gp = work.path() / "figure.gp";
  write_file_atomic(
      gp,
      script_for(figure, "svg enhanced font 'Helvetica,13' background rgb 'white'", svg.string()) +
          script_for(figure, "pngcairo enhanced font 'Helvetica,11'", png.string()));
  run_gnuplot(gp);
  const std::string base = stem.string();
  write_file_atomic(base + ".svg", read_bounded_file(svg, kMaxFigureBytes, "1 GiB figure"));
  write_file_atomic(base + ".png", read_bounded_file(png, kMaxFigureBytes, "1 GiB figure"));
  // Keep a script that writes the final names, for users who restyle the figure.
  write_file_atomic(base + ".gp",
                    script_for(figure, "svg enhanced font 'Helvetica,13' background rgb 'white'",
                               stem.filename().string() + ".svg"));
}

std::vector<std::size_t> thin_indices(std::size_t n, std::size_t max_points) {
  if (n <= max_points) {
    std::vector<std::size_t> all(n);
    for (std::size_t i = 0; i < n; ++i) all[i] = i;
    return all;
  }
  std::set<std::size_t> keep;
  const std::size_t ends = max_points / 6;
  for (std::size_t i = 0; i < ends; ++i) {
    keep.insert(i);
    keep.insert(n - 1 - i);
  }
  // Geometric spacing from both ends, then linear in the bulk.
  for (std::size_t k = 0; k < max_points / 3; ++k) {
    const double f = std::pow(static_cast<double>(n) / 2.0,
                              static_cast<double>(k) / static_cast<double>(max_points / 3));
    const auto off = static_cast<std::size_t>(f);
    if (off < n) {
      keep.insert(off);
      keep.insert(n - 1 - off);
    }
  }
  for (std::size_t k = 0; k < max_points / 3; ++k) keep.insert(k * (n - 1) / (max_points / 3));
  return {keep.begin(), keep.end()};
}

}  // namespace posbias
