#include "posbias/core/bounded_read.h"

#include <fstream>
#include <stdexcept>

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

}  // namespace posbias
