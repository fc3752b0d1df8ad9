#include "posbias/core/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>

namespace posbias {
namespace {

[[noreturn]] void fail(const std::string& what, const std::filesystem::path& path) {
  throw std::runtime_error(what + " '" + path.string() + "': " + std::strerror(errno));
}

}  // namespace

void ensure_directory(const std::filesystem::path& dir) {
  if (dir.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir)) {
    throw std::runtime_error("cannot create directory '" + dir.string() + "': " + ec.message());
  }
}

void write_file_atomic(const std::filesystem::path& path, std::string_view content) {
  const std::filesystem::path parent = path.has_parent_path() ? path.parent_path() : ".";
  ensure_directory(parent);
  std::random_device rd;
  const std::filesystem::path tmp =
      parent / ("." + path.filename().string() + ".tmp" + std::to_string(rd() % 1000000));
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail("cannot create", tmp);
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      ::close(fd);
      ::unlink(tmp.c_str());
      fail("cannot write", tmp);
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    ::unlink(tmp.c_str());
    fail("cannot flush", tmp);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    ::unlink(tmp.c_str());
    fail("cannot rename into", path);
  }
  const int dfd = ::open(parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

void write_output(const std::string& path, std::string_view content) {
  if (path.empty()) {
    std::fwrite(content.data(), 1, content.size(), stdout);
  } else {
    write_file_atomic(path, content);
  }
}

}  // namespace posbias
