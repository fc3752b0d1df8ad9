// CSV columns from a table: the header is the table's names in its order, a field table's rows
// give columns of their own, and the rows read back through the project's CSV reader (csv.h).
#include "posbias/core/csv_table.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "posbias/core/csv.h"

namespace posbias {
namespace {

struct Cell {
  std::int64_t n = 0;
  double accuracy = 0;
  double chance = NAN;
};

const std::vector<FieldRow<Cell>>& cell_fields() {
  static const std::vector<FieldRow<Cell>> rows = {
      field("n", &Cell::n, "examples"),
      field("accuracy", &Cell::accuracy, "correct / n"),
      field<Cell, double, NanAsNull>("chance", &Cell::chance, "a guess's accuracy (null: none)"),
  };
  return rows;
}

struct Row {
  int length = 0;
  Cell cell;
};

std::vector<CsvColumn<Row>> row_columns() {
  const std::vector<CsvColumn<Row>> own = {
      {"length", [](const Row& r) { return std::to_string(r.length); }}};
  const auto general6 = [](double v) { return csv_general(v, 6); };
  return csv_concat(own, csv_mapped_columns<Row>(csv_field_columns(cell_fields(), general6),
                                                 [](const Row& r) { return r.cell; }));
}

TEST(CsvTable, HeaderIsTheTablesNamesInItsOrder) {
  EXPECT_EQ(csv_header(row_columns()), "length,n,accuracy,chance\n");
}

TEST(CsvTable, RowsReadBackThroughTheCsvReader) {
  const std::vector<Row> rows = {{17, {16, 0.1234567, 0.25}}, {24, {8, 1.0 / 3.0, 0.125}}};
  const CsvTable table = parse_numeric_csv(csv_text(row_columns(), rows), "rows");
  ASSERT_EQ(table.header, (std::vector<std::string>{"length", "n", "accuracy", "chance"}));
  ASSERT_EQ(table.rows.size(), rows.size());
  double worst = 0;  // %.6g keeps 6 significant digits: a relative error below 5e-6
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(table.rows[i][0], rows[i].length);
    EXPECT_EQ(table.rows[i][1], static_cast<double>(rows[i].cell.n));
    worst = std::max(worst, std::abs(table.rows[i][2] - rows[i].cell.accuracy) /
                                std::abs(rows[i].cell.accuracy));
    EXPECT_EQ(table.rows[i][3], rows[i].cell.chance);
  }
  EXPECT_LT(worst, 5e-6) << "worst relative error of accuracy";
}

TEST(CsvTable, CellsKeepEachFilesNumberText) {
  EXPECT_EQ(csv_general(0.123456789, 6), "0.123457");
  EXPECT_EQ(csv_general(1e-5, 6), "1e-05");
  EXPECT_EQ(csv_general(NAN, 6), "");
  EXPECT_EQ(csv_shortest_json(1.0), "1.0");
  EXPECT_EQ(csv_shortest_json(0.1), "0.1");
  EXPECT_EQ(csv_shortest_json(INFINITY), "");
  const CsvNumber general6 = [](double v) { return csv_general(v, 6); };
  EXPECT_EQ(csv_json_cell(nlohmann::json("a, \"b\""), general6), "\"a, \"\"b\"\"\"");
  EXPECT_EQ(csv_json_cell(nlohmann::json(), general6), "");
  EXPECT_EQ(csv_json_cell(nlohmann::json(std::int64_t{7}), general6), "7");
  EXPECT_EQ(csv_json_cell(nlohmann::json(2.0), general6), "2");
}

TEST(CsvTable, AnEmptyCellIsNoValue) {  // NaN written as null by its codec: an empty cell
  const std::vector<Row> rows = {{9, {4, 0.5, NAN}}};
  EXPECT_EQ(csv_text(row_columns(), rows), "length,n,accuracy,chance\n9,4,0.5,\n");
}

}  // namespace
}  // namespace posbias
