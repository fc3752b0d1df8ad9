// The one writer every output goes through: a regular file (or none) is replaced atomically;
// a character device, a FIFO or a named descriptor is written through; a symbolic link is
// followed to its target (a dangling one is refused); a directory or socket is refused and
// left as it was. Each case checks what is on disk afterwards, not only the return value.
#include "posbias/core/atomic_file.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <iterator>
#include <stdexcept>
#include <string>
#include <utility>

namespace {

namespace fs = std::filesystem;
using posbias::write_file_atomic;

fs::path scratch(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("posbias_atomic_file_" + std::to_string(::getpid())) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

struct stat lstat_of(const fs::path& p) {
  struct stat st {};
  EXPECT_EQ(::lstat(p.c_str(), &st), 0) << p;
  return st;
}

// The error a write gives (one line, naming the path), or "" when it succeeded.
std::string error_of(const fs::path& p, const std::string& content) {
  try {
    write_file_atomic(p, content);
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    EXPECT_NE(what.find(p.string()), std::string::npos) << what;
    return what;
  }
  return "";
}

// Only the named files: no temporary file left beside them.
void expect_only(const fs::path& dir, std::size_t count) {
  std::size_t n = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    ++n;
    EXPECT_EQ(e.path().filename().string().find(".tmp"), std::string::npos) << e.path();
  }
  EXPECT_EQ(n, count) << dir;
}

TEST(AtomicFile, RegularFileIsReplacedKeepingItsMode) {
  const fs::path dir = scratch("regular");
  write_file_atomic(dir / "sub" / "a.csv", "one\n");  // parents are created
  EXPECT_EQ(slurp(dir / "sub" / "a.csv"), "one\n");
  ASSERT_EQ(::chmod((dir / "sub" / "a.csv").c_str(), 0600), 0);
  const ino_t before = lstat_of(dir / "sub" / "a.csv").st_ino;
  write_file_atomic(dir / "sub" / "a.csv", "two\n");
  EXPECT_EQ(slurp(dir / "sub" / "a.csv"), "two\n");
  const struct stat after = lstat_of(dir / "sub" / "a.csv");
  EXPECT_NE(after.st_ino, before);  // renamed over, not rewritten in place
  EXPECT_EQ(after.st_mode & 07777, 0600u);
  expect_only(dir / "sub", 1);
}

TEST(AtomicFile, SymlinkIsFollowedAndSurvives) {
  const fs::path dir = scratch("symlink");
  write_file_atomic(dir / "real.json", "old");
  fs::create_symlink("real.json", dir / "link.json");
  EXPECT_EQ(error_of(dir / "link.json", "new"), "");
  EXPECT_TRUE(fs::is_symlink(dir / "link.json"));
  EXPECT_EQ(fs::read_symlink(dir / "link.json"), "real.json");
  EXPECT_EQ(slurp(dir / "real.json"), "new");
  expect_only(dir, 2);
  // A chain of links, through another folder, ends at the same file.
  fs::create_directories(dir / "other");
  fs::create_symlink(dir / "link.json", dir / "other" / "chain.json");
  EXPECT_EQ(error_of(dir / "other" / "chain.json", "newer"), "");
  EXPECT_TRUE(fs::is_symlink(dir / "other" / "chain.json"));
  EXPECT_EQ(slurp(dir / "real.json"), "newer");
  expect_only(dir, 3);
}

TEST(AtomicFile, DanglingSymlinkIsRefusedAndKept) {
  const fs::path dir = scratch("dangling");
  fs::create_symlink("missing.json", dir / "link.json");
  const std::string e = error_of(dir / "link.json", "x");
  EXPECT_NE(e.find("does not exist"), std::string::npos) << e;
  EXPECT_TRUE(fs::is_symlink(dir / "link.json"));
  EXPECT_FALSE(fs::exists(dir / "missing.json"));
  expect_only(dir, 1);
}

TEST(AtomicFile, DirectoryAndSocketAreRefusedAndKept) {
  const fs::path dir = scratch("refused");
  fs::create_directories(dir / "folder");
  std::string e = error_of(dir / "folder", "x");
  EXPECT_NE(e.find("directory"), std::string::npos) << e;
  EXPECT_TRUE(fs::is_directory(dir / "folder"));

  const int sock = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(sock, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  const std::string path = (dir / "sock").string();
  ASSERT_LT(path.size(), sizeof addr.sun_path);
  std::strcpy(addr.sun_path, path.c_str());
  ASSERT_EQ(::bind(sock, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  e = error_of(dir / "sock", "x");
  ::close(sock);
  EXPECT_NE(e.find("socket"), std::string::npos) << e;
  EXPECT_TRUE(fs::is_socket(dir / "sock"));
  // A link to the folder is refused as the folder is.
  fs::create_symlink("folder", dir / "to_folder");
  e = error_of(dir / "to_folder", "x");
  EXPECT_NE(e.find("directory"), std::string::npos) << e;
  EXPECT_TRUE(fs::is_symlink(dir / "to_folder"));
  expect_only(dir, 3);
}

TEST(AtomicFile, FifoIsWrittenThrough) {
  const fs::path dir = scratch("fifo");
  ASSERT_EQ(::mkfifo((dir / "pipe").c_str(), 0600), 0);
  auto reader = std::async(std::launch::async, [&] { return slurp(dir / "pipe"); });
  EXPECT_EQ(error_of(dir / "pipe", "through the pipe\n"), "");
  EXPECT_EQ(reader.get(), "through the pipe\n");
  EXPECT_TRUE(S_ISFIFO(lstat_of(dir / "pipe").st_mode));
  expect_only(dir, 1);
}

TEST(AtomicFile, CharacterDeviceIsWrittenThrough) {
  const fs::path dir = scratch("device");
  // Our own node for the null device (never the system's /dev/null): needs CAP_MKNOD.
  if (::mknod((dir / "null").c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0)
    GTEST_SKIP() << "cannot create a device node here: " << std::strerror(errno);
  EXPECT_EQ(error_of(dir / "null", "gone\n"), "");
  const struct stat st = lstat_of(dir / "null");
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  EXPECT_EQ(st.st_rdev, makedev(1, 3));
  // A link to the device writes through it too, and stays a link.
  fs::create_symlink("null", dir / "link");
  EXPECT_EQ(error_of(dir / "link", "gone\n"), "");
  EXPECT_TRUE(fs::is_symlink(dir / "link"));
  EXPECT_TRUE(S_ISCHR(lstat_of(dir / "null").st_mode));
  expect_only(dir, 2);
}

TEST(AtomicFile, NamedDescriptorIsWrittenAtItsOffset) {
  const fs::path dir = scratch("descriptor");
  const int fd = ::open((dir / "log.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::write(fd, "head\n", 5), 5);
  const ino_t before = lstat_of(dir / "log.txt").st_ino;
  EXPECT_EQ(error_of("/dev/fd/" + std::to_string(fd), "tail\n"), "");
  EXPECT_EQ(error_of("/proc/self/fd/" + std::to_string(fd), "more\n"), "");
  ::close(fd);
  EXPECT_EQ(slurp(dir / "log.txt"), "head\ntail\nmore\n");
  EXPECT_EQ(lstat_of(dir / "log.txt").st_ino, before);
  const std::string e = error_of("/dev/fd/987", "x");
  EXPECT_NE(e.find("not open"), std::string::npos) << e;
}

// What commands ask before putting a journal or a lock beside an output.
TEST(AtomicFile, WritesThroughNamesDevicesFifosAndDescriptors) {
  const fs::path dir = scratch("writes_through");
  ASSERT_EQ(::mkfifo((dir / "pipe").c_str(), 0600), 0);
  fs::create_symlink("pipe", dir / "to_pipe");
  write_file_atomic(dir / "file", "x");
  fs::create_symlink("file", dir / "to_file");
  for (const fs::path& p : {dir / "pipe", dir / "to_pipe", fs::path("/dev/null"),
                            fs::path("/dev/stdout"), fs::path("/dev/fd/2"), fs::path("-")})
    EXPECT_TRUE(posbias::writes_through(p)) << p;
  // - is stdout (`--json -`), not a file named -.
  testing::internal::CaptureStdout();
  write_file_atomic("-", "to stdout\n");
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "to stdout\n");
  EXPECT_FALSE(fs::exists("-"));
  for (const fs::path& p : {dir / "file", dir / "to_file", dir / "absent", dir})
    EXPECT_FALSE(posbias::writes_through(p)) << p;
}

TEST(AtomicFile, FailedWriteIsOneLineAndLeavesNothing) {
  const std::string e = error_of("/dev/full", "x");
  EXPECT_NE(e.find(std::strerror(ENOSPC)), std::string::npos) << e;
  const fs::path dir = scratch("uncommitted");
  write_file_atomic(dir / "keep.txt", "old");
  {
    posbias::OutputFile out(dir / "keep.txt");
    out.write("half");
    EXPECT_FALSE(out.writes_through());
  }  // destroyed without commit, as on an exception
  EXPECT_EQ(slurp(dir / "keep.txt"), "old");
  expect_only(dir, 1);
}

// The folder rule (check_output_folder): a missing folder is created only inside the working
// directory's tree, resolved (`..` applied, links followed); an existing folder is used wherever
// it is; a refusal is one line naming the folder, and creates nothing.
class OutputFolder : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = scratch("folders");
    fs::create_directories(root_ / "work");
    fs::create_directories(root_ / "outside");
    saved_ = fs::current_path();
    fs::current_path(root_ / "work");
  }
  void TearDown() override { fs::current_path(saved_); }

  // The refusal for `output` ("" when it is allowed).
  static std::string refusal(const fs::path& output) {
    try {
      posbias::check_output_folder(output);
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
      return what;
    }
    return "";
  }

  fs::path root_, saved_;
};

TEST_F(OutputFolder, MissingFolderInsideTheWorkingTreeIsCreated) {
  const fs::path work = fs::current_path();
  for (const fs::path& p : {fs::path("a/b/c.json"), work / "d" / "e.json", fs::path("f/../g/h.csv"),
                            fs::path("run/"), fs::path("x.json"), fs::path("-")}) {
    EXPECT_EQ(refusal(p), "") << p;
  }
  write_file_atomic("a/b/c.json", "{}\n");
  EXPECT_EQ(slurp(work / "a" / "b" / "c.json"), "{}\n");
}

TEST_F(OutputFolder, ExistingFolderOutsideIsUsed) {
  const fs::path outside = root_ / "outside";
  for (const fs::path& p : {outside / "x.json", outside / "new_run", outside / "new_run/",
                            fs::path("../outside/x.json"), fs::temp_directory_path() / "x.json"}) {
    EXPECT_EQ(refusal(p), "") << p;
  }
}

TEST_F(OutputFolder, MissingFolderOutsideIsRefusedAndNothingIsCreated) {
  const fs::path outside = root_ / "outside";
  fs::create_directory_symlink(outside, "link");  // a link inside that leads out
  const std::pair<fs::path, fs::path> cases[] = {
      {outside / "missing" / "deeper" / "x.json", outside / "missing" / "deeper"},
      {"../elsewhere/x.json", root_ / "elsewhere"},
      {"a/../../elsewhere/x.json", root_ / "elsewhere"},
      {"link/missing/x.json", fs::current_path() / "link" / "missing"},
      {outside / "missing" / "run/", outside / "missing"}};
  for (const auto& [output, folder] : cases) {
    const std::string e = refusal(output);
    EXPECT_NE(e.find("the folder '" + fs::absolute(folder).lexically_normal().string() +
                     "' does not exist; create it first (posbias creates missing folders only "
                     "inside the working directory)"),
              std::string::npos)
        << output << ": " << e;
  }
  EXPECT_FALSE(fs::exists(outside / "missing"));
  EXPECT_FALSE(fs::exists(root_ / "elsewhere"));
  expect_only(outside, 0);
}

TEST_F(OutputFolder, AFileWhereAFolderShouldBeIsRefusedAnywhere) {
  write_file_atomic("file.txt", "x");
  EXPECT_NE(refusal("file.txt/x.json").find("is not a folder"), std::string::npos);
  EXPECT_NE(refusal("file.txt/sub/x.json").find("is not a folder"), std::string::npos);
}

}  // namespace
