// A CSV file's columns written once: a table of (name, cell) rows, from which the header line and
// every row's line come, so a column's name sits beside how its value is written. A struct with a
// field table (field_table.h) gives its columns from its rows (csv_field_columns): each row's name,
// its JSON value written by csv_json_cell. A part of a row (a cell inside a result) lends its
// columns through csv_mapped_columns, as mapped_fields does for JSON.
//
//   const std::vector<CsvColumn<Cell>> columns = {
//       {"length", [](const Cell& c) { return std::to_string(c.length); }},
//       {"accuracy", [](const Cell& c) { return csv_general(c.accuracy, 6); }}};
//   csv_text(columns, cells)   // "length,accuracy\n17,0.5\n24,0.25\n"
//
// Numbers keep each file's own text: csv_general is printf's %.{digits}g, csv_shortest_json the
// shortest text that reads back (as JSON writes it); csv_quoted (csv.h) writes free text.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "posbias/core/field_table.h"

namespace posbias {

template <class R>
struct CsvColumn {
  std::string name;  // the header's text for it, as written (free text: csv_quoted)
  std::function<std::string(const R&)> cell;
};

// How a floating-point value is written in a cell.
using CsvNumber = std::function<std::string(double)>;

// printf's %.{digits}g; an empty cell for NaN or infinity (no value).
std::string csv_general(double v, int digits);
// The shortest text that reads back to v, as JSON writes it ("1.0", "0.25"); empty when not
// finite.
std::string csv_shortest_json(double v);
// A field's JSON value as a cell: a string csv_quoted, null empty, a floating-point number by
// `number`, anything else (an integer, a bool) as JSON writes it.
std::string csv_json_cell(const nlohmann::json& value, const CsvNumber& number);

// The columns of a field table, in its order: each row's name and its value by csv_json_cell.
template <class R>
std::vector<CsvColumn<R>> csv_field_columns(const std::vector<FieldRow<R>>& rows,
                                            CsvNumber number) {
  std::vector<CsvColumn<R>> out;
  for (const FieldRow<R>& row : rows)
    out.push_back({row.name, [write = row.write, number](const R& r) {
                     return csv_json_cell(write(r), number);
                   }});
  return out;
}

// The columns of B as columns of D, reaching D's B through `get` (a callable taking const D&
// and returning the B inside it, or a B).
template <class D, class B, class Get>
std::vector<CsvColumn<D>> csv_mapped_columns(const std::vector<CsvColumn<B>>& columns, Get get) {
  std::vector<CsvColumn<D>> out;
  for (const CsvColumn<B>& c : columns)
    out.push_back({c.name, [cell = c.cell, get](const D& d) { return cell(get(d)); }});
  return out;
}

// `columns` followed by `more`: a table of a row's own columns and a part's.
template <class R>
std::vector<CsvColumn<R>> csv_concat(std::vector<CsvColumn<R>> columns,
                                     const std::vector<CsvColumn<R>>& more) {
  columns.insert(columns.end(), more.begin(), more.end());
  return columns;
}

// The rows 0, 1, ..., n - 1: for a table whose row is an index (a position, a run).
std::vector<std::size_t> csv_indices(std::size_t n);

// The header line: the names, comma-separated, with the newline.
template <class R>
std::string csv_header(const std::vector<CsvColumn<R>>& columns) {
  std::string out;
  for (std::size_t c = 0; c < columns.size(); ++c) out += (c ? "," : "") + columns[c].name;
  return out + '\n';
}

// One row's line: its cells, comma-separated, with the newline.
template <class R>
std::string csv_line(const std::vector<CsvColumn<R>>& columns, const R& row) {
  std::string out;
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (c) out += ',';
    out += columns[c].cell(row);
  }
  return out + '\n';
}

// The header and a line per row.
template <class R, class Rows>
std::string csv_text(const std::vector<CsvColumn<R>>& columns, const Rows& rows) {
  std::string out = csv_header(columns);
  for (const R& row : rows) out += csv_line(columns, row);
  return out;
}

}  // namespace posbias
