// gnuplot figures: both formats are written, are real SVG/PNG files, and carry the data.
#include "posbias/core/plot.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

namespace posbias {
namespace {

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

TEST(Plot, WritesSvgPngAndScript) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("posbias_plot_" + std::to_string(::getpid()));
  Figure f;
  Panel p;
  p.title = "test";
  p.log10_y = true;
  Series s;
  s.title = "curve \"quoted\"";
  for (int i = 1; i <= 50; ++i) {
    s.x.push_back(i);
    s.y.push_back(-0.1 * i);
    s.y_low.push_back(-0.1 * i - 0.2);
    s.y_high.push_back(-0.1 * i + 0.2);
  }
  p.series = {s};
  p.labels = {{10, -1, "mark", true}};
  f.panels = {p, p};
  render_figure(f, dir / "fig.svg");
  const std::string svg = slurp(dir / "fig.svg");
  const std::string png = slurp(dir / "fig.png");
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  EXPECT_NE(svg.find("mark"), std::string::npos);
  ASSERT_GT(png.size(), 1000u);
  EXPECT_EQ(png.substr(1, 3), "PNG");
  EXPECT_NE(slurp(dir / "fig.gp").find("fig.svg"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir / "fig.svg.tmp"));
  std::filesystem::remove_all(dir);
}

// A variant's name in a legend prints as typed: without plain_text, gnuplot's enhanced mode
// makes the j of seen_jumps a subscript and the SVG never holds the string.
TEST(Plot, PlainTextKeepsUnderscores) {
  EXPECT_EQ(plain_text("seen_jumps"), "seen\\_jumps");
  EXPECT_EQ(plain_text("a^b{c}"), "a\\^b\\{c\\}");
  const auto dir =
      std::filesystem::temp_directory_path() / ("posbias_plain_" + std::to_string(::getpid()));
  Figure f;
  Panel p;
  p.title = "control";
  Series s;
  s.title = "all hops, " + plain_text("seen_jumps") + " control";
  s.x = {1, 2, 3};
  s.y = {0.1, 0.2, 0.3};
  p.series = {s};
  f.panels = {p};
  render_figure(f, dir / "fig");
  EXPECT_NE(slurp(dir / "fig.svg").find("seen_jumps control"), std::string::npos);
  std::filesystem::remove_all(dir);
}

// A log x axis over a few measured lengths is labelled at them (the SVG shows "128"); over many
// points it keeps decade labels.
TEST(Plot, LogAxisOverFewPointsIsLabelledAtThem) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("posbias_logx_" + std::to_string(::getpid()));
  Figure f;
  Panel p;
  p.title = "lengths";
  p.log_x = true;
  Series s;
  s.title = "accuracy";
  s.x = {17, 64, 128, 256};
  s.y = {1, 0.9, 0.1, 0.05};
  p.series = {s};
  f.panels = {p};
  render_figure(f, dir / "few");
  EXPECT_NE(slurp(dir / "few.gp").find("set xtics (17, 64, 128, 256)"), std::string::npos);
  EXPECT_NE(slurp(dir / "few.svg").find(">128<"), std::string::npos);
  // Training steps crowd at the log axis's right end: only points at least 8% of its log span
  // apart are labelled, from the left (201 → 401 → 701), so no two labels print over each other.
  s.x = {1, 101, 201, 301, 401, 501, 601, 701};
  s.y = {1, 2, 3, 4, 5, 6, 7, 8};
  f.panels[0].series = {s};
  render_figure(f, dir / "steps");
  EXPECT_NE(slurp(dir / "steps.gp").find("set xtics (1, 101, 201, 401, 701)"), std::string::npos)
      << slurp(dir / "steps.gp");
  s.x.clear();
  s.y.clear();
  for (int i = 1; i <= 100; ++i) s.x.push_back(i), s.y.push_back(1.0 / i);
  f.panels[0].series = {s};
  render_figure(f, dir / "many");
  const std::string many = slurp(dir / "many.gp");
  EXPECT_EQ(many.find("set xtics ("), std::string::npos);
  EXPECT_NE(many.find("10^{%L}"), std::string::npos);
  std::filesystem::remove_all(dir);
}

// A y axis without a set range ends at the data with a margin, not at the next tick; an end
// that is set is left alone.
TEST(Plot, FreeYEndsFitTheData) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("posbias_yfit_" + std::to_string(::getpid()));
  Figure f;
  Panel p;
  p.title = "gap";
  Series s;
  s.title = "gap";
  s.x = {1, 2, 3};
  s.y = {5.6, 1.0, 0.4};
  p.series = {s};
  f.panels = {p};
  render_figure(f, dir / "free");
  const std::string free = slurp(dir / "free.gp");
  EXPECT_NE(free.find("set autoscale yfixmin"), std::string::npos);
  EXPECT_NE(free.find("set autoscale yfixmax"), std::string::npos);
  f.panels[0].ymin = 0;
  render_figure(f, dir / "floor");
  const std::string floor = slurp(dir / "floor.gp");
  EXPECT_EQ(floor.find("yfixmin"), std::string::npos);
  EXPECT_NE(floor.find("set autoscale yfixmax"), std::string::npos);
  f.panels[0].ymax = 6;
  render_figure(f, dir / "set");
  EXPECT_EQ(slurp(dir / "set.gp").find("autoscale y"), std::string::npos);
  std::filesystem::remove_all(dir);
}

// A log10 y axis over two decades or more is labelled at whole decades (not 10^{0.5}); over
// less it keeps gnuplot's finer ticks. A right-axis series does not widen the span.
TEST(Plot, Log10YAxisLabelsWholeDecades) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("posbias_log10y_" + std::to_string(::getpid()));
  Figure f;
  Panel p;
  p.title = "gap";
  p.log10_y = true;
  Series gap, accuracy;
  gap.title = "gap";
  gap.x = {9, 64, 4096};
  gap.y = {-1.2, -3.0, -6.5};
  accuracy.title = "accuracy";
  accuracy.right_axis = true;
  accuracy.x = gap.x;
  accuracy.y = {1, 1, 1};
  p.y2label = "accuracy";
  p.series = {gap, accuracy};
  f.panels = {p};
  render_figure(f, dir / "decades");
  EXPECT_NE(slurp(dir / "decades.gp").find("set ytics 1\n"), std::string::npos);
  f.panels[0].series[0].y = {-0.2, -0.5, -1.1};  // 0.9 decade; with the right axis's 1, 2.1
  render_figure(f, dir / "narrow");
  EXPECT_EQ(slurp(dir / "narrow.gp").find("set ytics 1\n"), std::string::npos);
  f.panels[0].ymin = -2;  // a set range counts: -2..0.3 spans 2.3 decades
  f.panels[0].ymax = 0.3;
  render_figure(f, dir / "set");
  EXPECT_NE(slurp(dir / "set.gp").find("set ytics 1\n"), std::string::npos);
  f.panels[0].ymin = -41;  // 41 decades: every fifth (9 labels), not 42 labels over one another
  render_figure(f, dir / "wide");
  EXPECT_NE(slurp(dir / "wide.gp").find("set ytics 5\n"), std::string::npos);
  f.panels[0].ymin = -10;  // 10.3 decades: every second
  render_figure(f, dir / "ten");
  EXPECT_NE(slurp(dir / "ten.gp").find("set ytics 2\n"), std::string::npos);
  std::filesystem::remove_all(dir);
}

// Under two decades a log axis is labelled with its values (1, 2, 5 of each decade, or even
// steps on a narrower one), never at fractional decades such as 10^{2.6}.
TEST(Plot, Log10YAxisUnderTwoDecadesLabelsValues) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("posbias_log10y_short_" + std::to_string(::getpid()));
  Figure f;
  Panel p;
  p.title = "peak RSS";
  p.log10_y = true;
  Series rss;
  rss.title = "rss";
  rss.x = {1024, 4096, 16384};
  rss.y = {std::log10(300.0), std::log10(1000.0), std::log10(12000.0)};  // 1.6 decades
  p.series = {rss};
  f.panels = {p};
  render_figure(f, dir / "rss");
  const std::string rss_gp = slurp(dir / "rss.gp");
  EXPECT_NE(rss_gp.find("set ytics (\"500\" 2.69"), std::string::npos) << rss_gp;
  EXPECT_NE(rss_gp.find("\"1000\" 3, \"2000\" 3.30"), std::string::npos);
  EXPECT_NE(rss_gp.find("\"10000\" 4)"), std::string::npos);
  EXPECT_EQ(rss_gp.find("set ytics 1\n"), std::string::npos);
  f.panels[0].series[0].y_low = {1.5, 2.4, 3.9};  // a band down to 10^1.5: 2.6 decades
  f.panels[0].series[0].y_high = f.panels[0].series[0].y;
  render_figure(f, dir / "band");
  EXPECT_NE(slurp(dir / "band.gp").find("set ytics 1\n"), std::string::npos);
  f.panels[0].series[0].y_low.clear();
  f.panels[0].series[0].y_high.clear();
  f.panels[0].series[0].y = {0, 0.05, std::log10(1.3)};  // 0.11 decade: steps of 0.1
  render_figure(f, dir / "narrow");
  EXPECT_NE(slurp(dir / "narrow.gp").find("set ytics (\"1\" 0, \"1.1\" 0.04"), std::string::npos);
  f.panels[0].series[0].y = {std::log10(2e-5), -4, std::log10(4e-4)};  // small: m×10^{k}
  render_figure(f, dir / "small");
  EXPECT_NE(slurp(dir / "small.gp").find("(\"2×10^{-5}\" -4.69"), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(Plot, RejectsEmptyFigures) {
  EXPECT_THROW(render_figure(Figure{}, "/tmp/x"), std::runtime_error);
  Figure f;
  f.panels = {Panel{}};
  EXPECT_THROW(render_figure(f, std::filesystem::temp_directory_path() / "posbias_empty"),
               std::runtime_error);
}

TEST(Plot, ThinIndicesKeepEndsAndOrder) {
  const auto idx = thin_indices(1000000, 1500);
  EXPECT_LE(idx.size(), 1600u);
  EXPECT_EQ(idx.front(), 0u);
  EXPECT_EQ(idx.back(), 999999u);
  for (std::size_t i = 1; i < idx.size(); ++i) EXPECT_LT(idx[i - 1], idx[i]);
  EXPECT_EQ(thin_indices(10).size(), 10u);
}

// A heatmap panel next to a series panel with a right-hand axis: both render, the grid's
// values and tick names reach the SVG, and labels that do not match the grid are refused.
TEST(Plot, HeatmapAndRightAxis) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("posbias_heat_" + std::to_string(::getpid()));
  Panel heat;
  heat.title = "scores";
  heat.heatmap.x_labels = {"100", "200", "300"};
  heat.heatmap.y_labels = {"L0", "L1"};
  heat.heatmap.z = {{0.25, 0.5, 0.75}, {1.0, NAN, 0.125}};
  Panel lines;
  lines.title = "two axes";
  lines.y2label = "accuracy";
  Series a, b;
  a.title = "left";
  b.title = "right";
  b.right_axis = true;
  a.x = b.x = {1, 2, 3};
  a.y = {1, 2, 3};
  b.y = {0.1, 0.5, 0.9};
  lines.series = {a, b};
  Figure f;
  f.panels = {heat, lines};
  render_figure(f, dir / "heat");
  const std::string svg = slurp(dir / "heat.svg"), gp = slurp(dir / "heat.gp");
  EXPECT_NE(svg.find("L1"), std::string::npos);
  EXPECT_NE(svg.find("0.75"), std::string::npos);  // cell values are printed on small grids
  EXPECT_NE(gp.find("with image pixels"), std::string::npos);  // rectangles: no SVG blur
  EXPECT_EQ(svg.find("NaN<"), std::string::npos);              // the NaN cell prints nothing
  EXPECT_NE(gp.find("axes x1y2"), std::string::npos);
  EXPECT_GT(std::filesystem::file_size(dir / "heat.png"), 1000u);
  f.panels[0].heatmap.y_labels = {"L0"};
  EXPECT_THROW(render_figure(f, dir / "bad"), std::runtime_error);
  // One column (one checkpoint): gnuplot draws no image under 2 × 2 cells, so the cells are
  // filled boxes, and their values are printed.
  Figure one;
  Panel column;
  column.heatmap.x_labels = {"3000"};
  column.heatmap.y_labels = {"L0", "L1", "L2"};
  column.heatmap.z = {{0.1}, {0.5}, {0.9}};
  one.panels = {column};
  render_figure(one, dir / "one");
  const std::string one_gp = slurp(dir / "one.gp");
  EXPECT_NE(one_gp.find("with boxxyerror"), std::string::npos);
  EXPECT_EQ(one_gp.find("with image"), std::string::npos);
  EXPECT_NE(slurp(dir / "one.svg").find("0.90"), std::string::npos);
  std::filesystem::remove_all(dir);
}

// Ordered series (steps) take the sequential map and are named on the colour bar by their
// values; named series take distinct colours, and past ten of them a map in the order drawn;
// the x axis ends at the data; a legend inside the axes is refused.
TEST(Plot, OrderedSeriesColoursAndLegendsOutside) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("posbias_order_" + std::to_string(::getpid()));
  auto line = [](double shift) {
    Series s;
    for (int i = 1; i <= 5; ++i) s.x.push_back(i), s.y.push_back(i * 0.1 + shift);
    return s;
  };
  Panel p;
  p.title = "ordered";
  p.order_label = "training step";
  for (double step : {3000.0, 0.0, 10.0}) {  // out of order: ranked by value
    Series s = line(step / 1000);
    s.title = "step " + std::to_string(static_cast<int>(step));
    s.order = step;
    p.series.push_back(s);
  }
  Series named = line(5);
  named.title = "the theory";
  p.series.push_back(named);
  Figure f;
  f.panels = {p};
  render_figure(f, dir / "ordered");
  const std::string gp = slurp(dir / "ordered.gp");
  EXPECT_NE(gp.find("set cbtics (\"0\" 0, \"10\" 1, \"3000\" 2)"), std::string::npos) << gp;
  EXPECT_NE(gp.find("set cblabel \"training step\""), std::string::npos);
  EXPECT_NE(gp.find("lc palette cb 2 notitle"), std::string::npos);  // step 3000, drawn first
  EXPECT_NE(gp.find("title \"the theory\""), std::string::npos);
  EXPECT_EQ(gp.find("title \"step"), std::string::npos);
  EXPECT_NE(gp.find("set key below"), std::string::npos);  // the colour bar takes the right
  EXPECT_NE(gp.find("set xrange [1:5]"), std::string::npos) << gp;

  // Ten named series: ten different colours. Twelve: the sequential map, legend kept.
  Panel many;
  many.title = "named";
  for (int k = 0; k < 10; ++k) {
    Series s = line(k);
    s.title = "s" + std::to_string(k);
    many.series.push_back(s);
  }
  f.panels = {many};
  render_figure(f, dir / "ten");
  const std::string ten = slurp(dir / "ten.gp");
  std::set<std::string> colours;
  for (std::size_t at = ten.find("lc rgb \""); at != std::string::npos;
       at = ten.find("lc rgb \"", at + 1))
    colours.insert(ten.substr(at + 8, 7));
  EXPECT_EQ(colours.size(), 10u);
  for (int k = 10; k < 12; ++k) {
    Series s = line(k);
    s.title = "s" + std::to_string(k);
    f.panels[0].series.push_back(s);
  }
  render_figure(f, dir / "twelve");
  const std::string twelve = slurp(dir / "twelve.gp");
  EXPECT_NE(twelve.find("lc palette cb 11 title \"s11\""), std::string::npos);
  EXPECT_NE(twelve.find("unset colorbox"), std::string::npos);
  // ... beside an ordered series they cannot share the map.
  f.panels[0].series.push_back(p.series[0]);
  EXPECT_THROW(render_figure(f, dir / "mixed"), std::runtime_error);

  f.panels = {p};
  f.panels[0].key = "top left";
  try {
    render_figure(f, dir / "inside");
    ADD_FAILURE() << "a legend inside the axes was drawn";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("inside the axes"), std::string::npos);
  }
  f.panels[0].key = "outside right";
  EXPECT_NO_THROW(render_figure(f, dir / "outside"));
  // A short legend beside one wide panel; below each of two panels side by side.
  Panel one_named;
  one_named.title = "named";
  one_named.series = {named};
  f.panels = {one_named};
  render_figure(f, dir / "beside");
  EXPECT_NE(slurp(dir / "beside.gp").find("set key outside right top box"), std::string::npos);
  f.panels = {one_named, one_named};
  f.width = 1600;
  render_figure(f, dir / "two");
  EXPECT_NE(slurp(dir / "two.gp").find("set key below nobox"), std::string::npos);
  std::filesystem::remove_all(dir);
}

// Named series beside ordered ones ("all hops", chance and controls beside 1-hop .. 4-hop) take
// colours no stop of the viridis map resembles: grey or black, or a hue outside viridis's span
// from yellow-green (about 75 degrees) round through teal and blue to purple (about 285). The
// old rule gave them the first named colours, purple, green and blue. A panel without ordered
// series keeps those.
TEST(Plot, NamedColoursBesideOrderedOnesAreFarFromTheMap) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("posbias_far_" + std::to_string(::getpid()));
  auto line = [](const std::string& title, double shift) {
    Series s;
    s.title = title;
    for (int i = 1; i <= 5; ++i) s.x.push_back(i), s.y.push_back(i * 0.1 + shift);
    return s;
  };
  auto named_colours = [](const std::string& gp) {
    std::vector<std::string> colours;
    for (std::size_t at = gp.find("lc rgb \""); at != std::string::npos;
         at = gp.find("lc rgb \"", at + 1))
      colours.push_back(gp.substr(at + 8, 7));
    return colours;
  };
  Panel p;
  p.title = "hops";
  p.order_label = "hops";
  for (int hop = 1; hop <= 4; ++hop) {
    Series s = line(std::to_string(hop) + "-hop", hop);
    s.order = hop;
    p.series.push_back(s);
  }
  for (const char* title : {"all hops", "chance", "control A", "control B", "control C", "D"})
    p.series.push_back(line(title, 0));
  Figure f;
  f.panels = {p};
  render_figure(f, dir / "mixed");
  const std::vector<std::string> colours = named_colours(slurp(dir / "mixed.gp"));
  ASSERT_EQ(colours.size(), 6u);
  EXPECT_EQ(std::set<std::string>(colours.begin(), colours.end()).size(), 6u);
  for (const std::string& c : colours) {
    const double r = std::stoi(c.substr(1, 2), nullptr, 16) / 255.0,
                 g = std::stoi(c.substr(3, 2), nullptr, 16) / 255.0,
                 b = std::stoi(c.substr(5, 2), nullptr, 16) / 255.0;
    const double hi = std::max({r, g, b}), lo = std::min({r, g, b});
    if (hi - lo < 0.15) continue;  // black or grey
    double hue = hi == r   ? 60 * (g - b) / (hi - lo)
                 : hi == g ? 120 + 60 * (b - r) / (hi - lo)
                           : 240 + 60 * (r - g) / (hi - lo);
    if (hue < 0) hue += 360;
    EXPECT_TRUE(hue < 70 || hue > 290) << c << " (hue " << hue << ") beside the viridis map";
  }
  // A seventh named series beside ordered ones would repeat a colour: refused.
  f.panels[0].series.push_back(line("E", 0));
  EXPECT_THROW(render_figure(f, dir / "seven"), std::runtime_error);
  // Without ordered series the named ones keep the first named colours.
  Panel named;
  named.title = "named";
  named.series = {line("all hops", 0), line("chance", 1)};
  f.panels = {named};
  render_figure(f, dir / "named");
  EXPECT_EQ(named_colours(slurp(dir / "named.gp")),
            (std::vector<std::string>{"#9400d3", "#009e73"}));
  std::filesystem::remove_all(dir);
}

// The colour bar's rotated label lies inside the image however wide its tick labels: the right
// panel of two, as theory's α sweep draws it ("0.75": the old offset put "residual weight α"
// past the edge), and 8-character ticks, which gnuplot's own margin has no room for (with the
// old offset it left the label out).
TEST(Plot, ColourBarLabelFitsInsideTheImage) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("posbias_cbfit_" + std::to_string(::getpid()));
  auto panel = [](const std::vector<double>& orders, const std::string& label) {
    Panel p;
    p.title = "sweep";
    p.order_label = label;
    for (double order : orders) {
      Series s;
      for (int i = 1; i <= 5; ++i) s.x.push_back(i), s.y.push_back(i * order);
      s.order = order;
      p.series.push_back(s);
    }
    return p;
  };
  for (const std::vector<double>& orders :
       {std::vector<double>{0.25, 0.5, 0.75, 1}, std::vector<double>{0.000125, 0.00025, 1}}) {
    Figure f;
    f.width = 1200;
    f.height = 520;
    f.panels = {panel({3, 6, 12, 24}, "layers H"), panel(orders, "residual weight α")};
    render_figure(f, dir / "fit");
    const std::string svg = slurp(dir / "fit.svg");
    // The label's anchor is its baseline, the text above it (towards the left) once rotated:
    // only its descenders, under a third of the 13-point font, reach right of it.
    const std::size_t text = svg.find("residual weight α");
    ASSERT_NE(text, std::string::npos);
    const std::size_t at = svg.rfind("translate(", text);
    ASSERT_NE(at, std::string::npos);
    const double x = std::stod(svg.substr(at + 10));
    EXPECT_LT(x + 13 * 0.3, f.width) << "ticks from " << orders.front();
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace posbias
