// The HTML report of `posbias reproduce`: sections of text, key numbers, figures (SVG with
// PNG fallback) and links to the data behind them. Each experiment adds one section.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace posbias {

struct ReportFigure {
  std::string stem;  // path relative to the report folder, without extension
  std::string caption;
};

// A table with its own columns, after the section's (quantity, value) table.
struct ReportTable {
  std::string caption;
  std::vector<std::string> header;             // column titles
  std::vector<std::vector<std::string>> rows;  // one cell per column
};

struct ReportSection {
  std::string id, title;
  std::vector<std::string> paragraphs;                       // plain text, escaped on output
  std::vector<std::pair<std::string, std::string>> numbers;  // (quantity, value) table
  std::vector<ReportTable> tables;
  std::vector<std::string> code;  // preformatted blocks (commands to run), after the tables
  std::vector<ReportFigure> figures;
  std::vector<std::pair<std::string, std::string>> data;  // (relative file, description)
};

class Report {
 public:
  explicit Report(std::string title) : title_(std::move(title)) {}
  void add(ReportSection section) { sections_.push_back(std::move(section)); }
  // Writes DIR/index.html atomically. Every figure and data file must already exist.
  void write(const std::filesystem::path& dir) const;
  std::string html() const;

 private:
  std::string title_;
  std::vector<ReportSection> sections_;
};

std::string html_escape(const std::string& text);

}  // namespace posbias
