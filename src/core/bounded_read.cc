#include "posbias/core/bounded_read.h"

#include <fstream>
#include <stdexcept>

#include "posbias/core/memory.h"

namespace posbias {

std::string read_bounded_file(const std::filesystem::path& path, std::uintmax_t max_bytes,
                              const std::string& limit_name) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw std::runtime_error("cannot read '" + path.string() + "': not a regular file");
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) throw std::runtime_error("cannot stat '" + path.string() + "': " + ec.message());
  if (size > max_bytes) {
    throw std::runtime_error("'" + path.string() + "' is " + std::to_string(size) +
                             " bytes, over the " + limit_name + " limit");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open '" + path.string() + "'");
  std::string text(size, '\0');
  in.read(text.data(), static_cast<std::streamsize>(size));
  if (!in) throw std::runtime_error("cannot read '" + path.string() + "'");
  return text;
}

bool read_bounded_line(std::istream& in, std::string& line, std::size_t max_bytes,
                       const std::string& where, std::int64_t line_number) {
  line.clear();
  std::streambuf* buf = in.rdbuf();
  if (buf == nullptr || !in.good()) return false;
  for (;;) {
    const int c = buf->sbumpc();
    if (c == std::char_traits<char>::eof()) {
      in.setstate(std::ios::eofbit);
      return !line.empty();
    }
    if (c == '\n') return true;
    if (line.size() == max_bytes) {
      throw std::runtime_error(where + " line " + std::to_string(line_number) + " is longer than " +
                               format_bytes(static_cast<double>(max_bytes)));
    }
    line.push_back(static_cast<char>(c));
  }
}

}  // namespace posbias
