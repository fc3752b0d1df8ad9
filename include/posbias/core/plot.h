// Figures through gnuplot: one Figure (one or more panels of line/point series) becomes
// STEM.svg, STEM.png and the script STEM.gp that made them, so a user can restyle it.
// Panels hold line/point series (optionally on a right-hand axis) or one heatmap. The x axis
// fits the data unless a range is given; legends stand outside the axes.
// Log axes are drawn from log10 data (`log10_y`) so values below 1e-308 still plot.
#pragma once

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

namespace posbias {

struct Series {
  std::string title;
  std::vector<double> x, y;
  std::vector<double> y_low, y_high;  // optional band (same length as x)
  std::string style = "lines";        // gnuplot style: lines, points, linespoints
  int line_width = 2;
  bool right_axis = false;  // plot against the right-hand y axis (Panel::y2label)
  // A member of an ordered family (a training step, a layer, a length): drawn in the panel's
  // sequential colour map by its rank among the panel's ordered series, named on the colour
  // bar (Panel::order_label) by this value instead of in the legend. NaN: a named series.
  double order = NAN;
};

struct Label {
  double x = 0, y = 0;
  std::string text;
  bool arrow = false;      // draw a point marker at (x, y) and offset the text
  bool text_left = false;  // put the text to the left of the point (for marks near the right edge)
};

// A grid of values drawn as colored cells, each printed with its value when the grid is small.
struct Heatmap {
  std::vector<std::string> x_labels, y_labels;  // one per column / row
  std::vector<std::vector<double>> z;           // [rows][columns]; NaN cells stay blank
  double zmin = 0, zmax = 1;
  std::string z_label;
  std::string value_format = "%.2f";  // gnuplot sprintf format of the printed cell values
  std::size_t max_tics = 12;  // tick labels per axis at most (every k-th beyond); raise it for a
                              // figure tall enough to name every row
};

struct Panel {
  std::string title, xlabel, ylabel;
  bool log10_y = false;  // y holds log10 values: ticks print as 10^k
  bool log_x = false;
  // The legend, always outside the axes so that it covers no data: "auto" puts it below them
  // when the titles are long, the figure has several panels side by side or is narrower than
  // 700 pixels, or a colour bar or a right-hand axis stands right of the axes, and to their
  // right otherwise; or a gnuplot placement outside the axes
  // ("outside right", "below horizontal", ...), or "off". A placement inside the axes is
  // refused. Named series take distinct colours; past kNamedColours of them, each takes a colour
  // of the sequential map in the order drawn (a panel cannot then also hold ordered series).
  std::string key = "auto";
  std::string order_label;  // the colour bar's label, for series with an order
  std::vector<Series> series;
  std::vector<Label> labels;
  double xmin = NAN, xmax = NAN, ymin = NAN, ymax = NAN;
  std::string y2label;  // right-hand axis of series with right_axis
  double y2min = NAN, y2max = NAN;
  Heatmap heatmap;  // when z is non-empty the panel is this heatmap (series are ignored)
};

inline constexpr std::size_t kNamedColours = 10;

struct Figure {
  std::vector<Panel> panels;  // laid out side by side
  int width = 900, height = 540;
};

// Writes STEM.svg, STEM.png, STEM.gp. `stem` may carry a .svg/.png extension, which is
// replaced. Throws std::runtime_error if gnuplot is missing or fails.
void render_figure(const Figure& figure, std::filesystem::path stem);

// Text that gnuplot's enhanced mode prints as given: "seen_jumps" would otherwise subscript
// the j. Titles and labels may use the markup on purpose (‖∂y_q/∂x_j‖), so callers pass names
// of things, such as a variant's, through this.
std::string plain_text(const std::string& text);

// Indices (0-based) that keep a long curve's shape in at most ~max_points points: dense at
// both ends, spread evenly in between.
std::vector<std::size_t> thin_indices(std::size_t n, std::size_t max_points = 1500);

}  // namespace posbias
