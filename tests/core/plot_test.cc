// gnuplot figures: both formats are written, are real SVG/PNG files, and carry the data.
#include "posbias/core/plot.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

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
  EXPECT_NE(gp.find("with image"), std::string::npos);
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

}  // namespace
}  // namespace posbias
