#include "posbias/core/report.h"

#include <sstream>
#include <stdexcept>

#include "posbias/core/atomic_file.h"

namespace posbias {

std::string html_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string Report::html() const {
  std::ostringstream h;
  h << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    << "<title>" << html_escape(title_) << "</title>\n"
    << "<style>body{font-family:sans-serif;max-width:1000px;margin:2em auto;padding:0 "
       "1em;color:#222}"
       "figure{margin:1.5em 0}figure img{max-width:100%;border:1px solid #ddd}"
       "figcaption{color:#555;font-size:.9em}table{border-collapse:collapse;margin:1em 0}"
       "caption{text-align:left;color:#555;font-size:.9em}pre{background:#f6f6f6;padding:.6em;"
       "overflow-x:auto}"
       "td,th{border:1px solid #ccc;padding:.25em .6em;text-align:left}"
       "nav a{margin-right:1em}#broken{color:#b00}</style>\n</head>\n<body>\n";
  h << "<h1>" << html_escape(title_) << "</h1>\n<nav>";
  for (const auto& s : sections_)
    h << "<a href=\"#" << html_escape(s.id) << "\">" << html_escape(s.title) << "</a>";
  h << "</nav>\n<p id=\"broken\"></p>\n";
  for (const auto& s : sections_) {
    h << "<section id=\"" << html_escape(s.id) << "\">\n<h2>" << html_escape(s.title) << "</h2>\n";
    for (const auto& p : s.paragraphs) h << "<p>" << html_escape(p) << "</p>\n";
    if (!s.numbers.empty()) {
      h << "<table>\n<tr><th>quantity</th><th>value</th></tr>\n";
      for (const auto& [k, v] : s.numbers)
        h << "<tr><td>" << html_escape(k) << "</td><td>" << html_escape(v) << "</td></tr>\n";
      h << "</table>\n";
    }
    for (const auto& t : s.tables) {
      h << "<table>\n<caption>" << html_escape(t.caption) << "</caption>\n<tr>";
      for (const auto& c : t.header) h << "<th>" << html_escape(c) << "</th>";
      h << "</tr>\n";
      for (const auto& row : t.rows) {
        h << "<tr>";
        for (const auto& c : row) h << "<td>" << html_escape(c) << "</td>";
        h << "</tr>\n";
      }
      h << "</table>\n";
    }
    for (const auto& c : s.code) h << "<pre><code>" << html_escape(c) << "</code></pre>\n";
    for (const auto& f : s.figures) {
      h << "<figure><a href=\"" << html_escape(f.stem) << ".svg\"><img src=\""
        << html_escape(f.stem) << ".png\" alt=\"" << html_escape(f.caption) << "\"></a><figcaption>"
        << html_escape(f.caption) << " (<a href=\"" << html_escape(f.stem)
        << ".svg\">SVG</a>, <a href=\"" << html_escape(f.stem)
        << ".gp\">gnuplot script</a>)</figcaption></figure>\n";
    }
    if (!s.data.empty()) {
      h << "<p>Data:</p><ul>\n";
      for (const auto& [file, what] : s.data) {
        h << "<li><a href=\"" << html_escape(file) << "\">" << html_escape(file)
          << "</a>: " << html_escape(what) << "</li>\n";
      }
      h << "</ul>\n";
    }
    h << "</section>\n";
  }
  // Marks the page with how many images failed to load; the report test reads this.
  h << "<script>window.addEventListener('load',function(){var bad=0;"
       "document.querySelectorAll('img').forEach(function(i){if(!i.complete||i.naturalWidth===0)"
       "bad++;});"
       "document.body.dataset.brokenImages=String(bad);"
       "document.body.dataset.images=String(document.images.length);"
       "if(bad)document.getElementById('broken').textContent=bad+' figure(s) failed to load.';});"
       "</script>\n</body>\n</html>\n";
  return h.str();
}

void Report::write(const std::filesystem::path& dir) const {
  for (const auto& s : sections_) {
    for (const auto& f : s.figures) {
      for (const char* ext : {".png", ".svg"}) {
        if (!std::filesystem::exists(dir / (f.stem + ext))) {
          throw std::runtime_error("report figure missing: " + (dir / (f.stem + ext)).string());
        }
      }
    }
    for (const auto& d : s.data) {
      if (!std::filesystem::exists(dir / d.first)) {
        throw std::runtime_error("report data file missing: " + (dir / d.first).string());
      }
    }
  }
  write_file_atomic(dir / "index.html", html());
}

}  // namespace posbias
