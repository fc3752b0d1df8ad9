#include "posbias/core/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>

namespace posbias {
namespace {

namespace fs = std::filesystem;

std::string quoted(const fs::path& path) { return "'" + path.string() + "'"; }

// The descriptor a path names by itself: 1 for - and /dev/stdout, 2 for /dev/stderr, N for
// /dev/fd/N and /proc/self/fd/N; -1 for every other path.
int named_descriptor(const std::string& path) {
  if (path == "-" || path == "/dev/stdout") return 1;
  if (path == "/dev/stderr") return 2;
  for (const std::string_view prefix :
       {std::string_view("/dev/fd/"), std::string_view("/proc/self/fd/")}) {
    if (path.size() <= prefix.size() || path.compare(0, prefix.size(), prefix) != 0) continue;
    const char* first = path.data() + prefix.size();
    const char* last = path.data() + path.size();
    int fd = -1;
    const auto [end, ec] = std::from_chars(first, last, fd);
    if (ec == std::errc() && end == last && fd >= 0) return fd;
  }
  return -1;
}

// What a non-regular file is, for a refusal.
std::string kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISBLK(mode)) return "a block device";
  return "neither a regular file, a character device nor a FIFO";
}

[[noreturn]] void refuse(const fs::path& path, const std::string& why) {
  throw std::runtime_error("refusing to write " + quoted(path) + ": " + why);
}

// Creates a new temporary file beside `target` (O_EXCL, never through a link) with `mode`
// (the umask applies to a new file's mode; a replaced file's bits are set exactly).
int create_temp(const fs::path& target, mode_t mode, bool exact_mode, fs::path& temp) {
  const fs::path parent = target.has_parent_path() ? target.parent_path() : fs::path(".");
  static constexpr char kLetters[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::random_device rd;
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string suffix(8, 'x');
    for (char& c : suffix) c = kLetters[rd() % (sizeof kLetters - 1)];
    temp = parent / ("." + target.filename().string() + ".tmp" + suffix);
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    if (fd >= 0) {
      if (exact_mode && ::fchmod(fd, mode) != 0) {
        const int saved = errno;
        ::close(fd);
        ::unlink(temp.c_str());
        errno = saved;
        return -1;
      }
      return fd;
    }
    if (errno != EEXIST) return -1;
  }
  return -1;
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

namespace {

// True when `dir` (absolute) is the working directory or below it, both resolved: symbolic links
// of the existing part followed, `.` and `..` applied.
bool inside_working_tree(const fs::path& dir) {
  std::error_code ec;
  const fs::path cwd = fs::canonical(fs::current_path(ec), ec);
  if (ec) return false;
  const fs::path resolved = fs::weakly_canonical(dir, ec);
  if (ec) return false;
  return std::mismatch(cwd.begin(), cwd.end(), resolved.begin(), resolved.end()).first == cwd.end();
}

}  // namespace

void check_output_folder(const std::filesystem::path& output) {
  if (output.empty() || named_descriptor(output.string()) >= 0) return;
  fs::path path = fs::absolute(output);
  if (!path.has_filename()) path = path.parent_path();  // "run/": the folder "run" is the output
  const fs::path folder = path.parent_path();
  // The nearest ancestor that exists must be a folder, wherever it is.
  fs::path up = folder;
  std::error_code ec;
  while (!fs::exists(fs::symlink_status(up, ec)) && up != up.parent_path()) up = up.parent_path();
  if (!fs::is_directory(up, ec)) {
    throw std::invalid_argument("'" + up.string() +
                                "' is not a folder, so nothing can be written below it");
  }
  if (up == folder || inside_working_tree(folder)) return;
  throw std::invalid_argument("the folder '" + folder.lexically_normal().string() +
                              "' does not exist; create it first (posbias creates missing "
                              "folders only inside the working directory)");
}

OutputFile::OutputFile(const std::filesystem::path& path) : path_(path), target_(path) {
  if (path.empty()) throw std::runtime_error("cannot write an output with an empty path");
  if (const int named = named_descriptor(path.string()); named >= 0) {
    if (named == 1) std::fflush(stdout);  // what stdio holds goes first
    if (named == 2) std::fflush(stderr);
    fd_ = ::fcntl(named, F_DUPFD_CLOEXEC, 3);
    if (fd_ < 0) refuse(path, "descriptor " + std::to_string(named) + " is not open");
    struct stat st {};
    if (::fstat(fd_, &st) == 0 && S_ISDIR(st.st_mode)) {
      ::close(fd_);
      fd_ = -1;
      refuse(path, "descriptor " + std::to_string(named) + " is a directory");
    }
    return;
  }
  struct stat st {};
  mode_t mode = 0644;
  bool exists = true;
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno != ENOENT) fail("cannot inspect");
    exists = false;
  } else if (S_ISLNK(st.st_mode)) {
    if (::stat(path.c_str(), &st) != 0) {
      if (errno != ENOENT) fail("cannot follow the symbolic link");
      std::error_code ec;
      const fs::path to = fs::read_symlink(path, ec);
      refuse(path, "it is a symbolic link to " + quoted(to) +
                       ", which does not exist; create that file or remove the link");
    }
    if (S_ISREG(st.st_mode)) {
      std::error_code ec;
      target_ = fs::canonical(path, ec);
      if (ec) refuse(path, "cannot resolve its symbolic link: " + ec.message());
    }
  }
  if (exists && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
    fd_ = ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd_ < 0) fail("cannot open for writing");
    return;
  }
  if (exists && !S_ISREG(st.st_mode)) refuse(path, "it is " + kind_of(st.st_mode));
  if (exists) mode = st.st_mode & 07777;
  if (!exists) ensure_directory(target_.has_parent_path() ? target_.parent_path() : ".");
  fd_ = create_temp(target_, mode, exists, temp_);
  if (fd_ < 0) fail("cannot create a temporary file beside");
}

OutputFile::~OutputFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!temp_.empty()) ::unlink(temp_.c_str());
}

void OutputFile::fail(const std::string& what) const {
  throw std::runtime_error(what + " " + quoted(path_) + ": " + std::strerror(errno));
}

void OutputFile::write(const void* data, std::size_t size) {
  if (fd_ < 0) throw std::logic_error("OutputFile::write after commit");
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::write(fd_, p, std::min<std::size_t>(size, std::size_t{1} << 30));
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("cannot write");
    }
    p += n;
    size -= static_cast<std::size_t>(n);
  }
}

void OutputFile::commit() {
  if (fd_ < 0) throw std::logic_error("OutputFile::commit twice");
  if (temp_.empty()) {  // written through: nothing to rename
    const int fd = std::exchange(fd_, -1);
    if (::close(fd) != 0 && errno != EINTR) fail("cannot write");
    return;
  }
  if (::fsync(fd_) != 0) fail("cannot flush");
  const int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0) fail("cannot flush");
  if (::rename(temp_.c_str(), target_.c_str()) != 0) fail("cannot rename a temporary file onto");
  temp_.clear();
  const fs::path parent = target_.has_parent_path() ? target_.parent_path() : fs::path(".");
  const int dfd = ::open(parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

bool writes_through(const std::filesystem::path& path) {
  if (named_descriptor(path.string()) >= 0) return true;
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode));
}

void write_file_atomic(const std::filesystem::path& path, std::string_view content) {
  OutputFile out(path);
  out.write(content);
  out.commit();
}

void write_output(const std::string& path, std::string_view content) {
  if (!path.empty()) return write_file_atomic(path, content);
  if (std::fwrite(content.data(), 1, content.size(), stdout) != content.size() ||
      std::fflush(stdout) != 0) {
    throw std::runtime_error(std::string("cannot write the result to stdout: ") +
                             std::strerror(errno));
  }
}

}  // namespace posbias
