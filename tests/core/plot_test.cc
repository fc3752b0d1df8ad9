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

}  // namespace
}  // namespace posbias
