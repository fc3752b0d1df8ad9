// Output files: every result, run file, checkpoint and figure posbias writes goes through
// OutputFile (or write_file_atomic, its one-call form), so one policy decides what a path may
// receive, by what is there now:
//   - nothing, or a regular file: the content goes to a temporary file beside it, which is
//     fsynced and renamed over it, then the directory is fsynced. A reader sees the old file or
//     the new one, never half. A replaced file keeps its permission bits;
//   - a character device or a FIFO (/dev/null, a terminal, a named pipe): written through,
//     opened for writing as it is, never created, truncated, renamed or replaced;
//   - /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N: written through to descriptor N
//     (at its offset, whatever it is: a pipe, a terminal, a file the shell opened); - is
//     stdout, as /dev/stdout (`--json -`);
//   - a symbolic link is followed deliberately, to its final target, and these rules apply
//     there: a link to a regular file keeps the link and replaces the file it points to; a link
//     to a device or FIFO writes through; a dangling link is refused;
//   - anything else (a directory, a socket, a block device) is refused, and nothing changes.
// Refusals and failures throw std::runtime_error: one line naming the path and the reason.
//
// The folder an output goes into: the one rule, check_output_folder, is applied to every output
// a user names (a file, a figure stem, a run or report folder to create) when the command line
// is parsed, before any work. An existing folder is used wherever it is; a missing one is
// created only inside the working directory's tree, and refused anywhere else. The folders a
// command then makes below an output it was given (a run's checkpoints/) are its own.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

namespace posbias {

// One output, written piece by piece and made visible by commit(). Destroyed uncommitted (an
// exception on the way), a replacement leaves the target untouched and removes its temporary
// file; a written-through device or pipe keeps what was already written.
class OutputFile {
 public:
  explicit OutputFile(const std::filesystem::path& path);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  void write(const void* data, std::size_t size);
  void write(std::string_view text) { write(text.data(), text.size()); }
  void commit();

  // True when the path is written through (a device, a FIFO, a descriptor), not replaced.
  bool writes_through() const { return temp_.empty(); }

 private:
  [[noreturn]] void fail(const std::string& what) const;

  std::filesystem::path path_;    // as the caller named it
  std::filesystem::path target_;  // the regular file to replace, symbolic links resolved
  std::filesystem::path temp_;    // the temporary file beside target_; empty when writing through
  int fd_ = -1;
};

// True when `path` is written through (a device, a FIFO, a named descriptor, or a link to one)
// rather than replaced: a command puts nothing beside such a path (no journal, no lock).
bool writes_through(const std::filesystem::path& path);

// Writes `content` to `path` under the policy above.
void write_file_atomic(const std::filesystem::path& path, std::string_view content);

// A command's result: to `path` as write_file_atomic does, or to stdout when `path` is empty;
// a failed write to stdout (a full disk, /dev/full, a closed pipe) throws std::runtime_error.
void write_output(const std::string& path, std::string_view content);

// Creates a directory (and parents); throws std::runtime_error if it cannot.
void ensure_directory(const std::filesystem::path& dir);

// Where an output may go. Its folder (the path's parent; for a path ending in /, the parent of
// the folder it names) must exist, or lie inside the working directory's tree, where the writer
// creates it. "Inside" is decided on the resolved path: made absolute against the working
// directory, symbolic links of the part that exists followed and `..` applied, it is the working
// directory or below it (so "out/a.json" is inside, "../a/b.json" and "link/a.json", through a
// link leading out, are not; with / as working directory everything is). An existing ancestor
// that is not a folder is refused anywhere. Throws std::invalid_argument, one line naming the
// folder and what to do: "the folder '/nonexistent' does not exist; create it first (posbias
// creates missing folders only inside the working directory)". Named descriptors (-,
// /dev/stdout) pass.
void check_output_folder(const std::filesystem::path& output);

}  // namespace posbias
