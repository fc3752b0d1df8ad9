// Safetensors files, read without libtorch: a hardened reader for untrusted checkpoints and an
// atomic F32 writer for our own. Layout: u64 little-endian N, N bytes of JSON header
// {"name": {"dtype": "F32", "shape": [d0, d1, ...], "data_offsets": [begin, end]}, ...,
//  "__metadata__": {"key": "value"}}, then the data buffer; offsets are relative to its start.
// Every size, offset and shape is checked before any tensor byte is touched; errors are one
// line naming the file and the problem. Views point into the mapping (or the caller's buffer),
// are read-only, and may be unaligned: read them with memcpy or to_float32().
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace posbias {

enum class DType { F64, F32, F16, BF16, I64, I32, I16, I8, U8, BOOL };

// Bytes per element (BOOL is one byte) and the safetensors spelling ("F32", "BF16", ...).
std::size_t dtype_size(DType dtype);
std::string_view dtype_name(DType dtype);

constexpr std::size_t kMaxSafetensorsHeaderBytes = 100'000'000;  // same limit as the reference
constexpr std::size_t kMaxSafetensorsRank = 8;

// A file's own checksum, in its metadata under this key: 64 lowercase hex digits, the SHA-256
// of the whole file (length field, header, padding and data) with those 64 digits read as
// '0'. Every byte of the file is covered, so any flipped byte is detected.
inline constexpr std::string_view kChecksumKey = "sha256";
enum class Checksum { kNone, kSha256 };

struct TensorView {
  std::string name;
  DType dtype = DType::F32;
  std::vector<std::int64_t> shape;  // row-major; empty for a scalar
  const std::byte* data = nullptr;  // bytes == numel() * dtype_size(dtype); maybe unaligned
  std::size_t bytes = 0;
  std::int64_t numel() const;  // product of shape (1 for a scalar); cannot overflow
};

// A validated safetensors file. open() maps the file read-only (MAP_PRIVATE) and owns the
// mapping; parse() checks a caller-owned buffer and keeps no ownership, so the buffer must
// outlive the object. Movable, not copyable; views stay valid across moves.
//
// Accepted: tensors in any order, gaps and trailing bytes in the data buffer (the reference
// writer leaves none), zero-element tensors anywhere (even with an empty data buffer).
// Rejected: duplicate keys anywhere in the header (JSON parsers disagree on which one wins),
// unknown fields in a tensor entry, overlapping byte ranges, anything malformed.
class SafetensorsFile {
 public:
  static SafetensorsFile open(const std::filesystem::path& path);
  static SafetensorsFile parse(std::span<const std::byte> bytes, const std::string& source_name);

  SafetensorsFile(SafetensorsFile&& other) noexcept;
  SafetensorsFile& operator=(SafetensorsFile&& other) noexcept;
  SafetensorsFile(const SafetensorsFile&) = delete;
  SafetensorsFile& operator=(const SafetensorsFile&) = delete;
  ~SafetensorsFile();

  // Throws std::runtime_error "tensor 'x' is missing from FILE (...)".
  const TensorView& get(const std::string& name) const;
  // nullptr when absent.
  const TensorView* find(const std::string& name) const;
  std::vector<std::string> names() const;  // sorted
  const std::map<std::string, TensorView>& tensors() const { return tensors_; }
  const std::map<std::string, std::string>& metadata() const { return metadata_; }
  const std::string& source_name() const { return source_name_; }

  // Weights must be finite: every loader of weights passes the tensors it copies through one of
  // these. Each throws std::runtime_error naming the file, the tensor and the first bad element
  // when a tensor holds a value find_non_finite() counts; the first checks every tensor.
  void require_finite() const;
  void require_finite(const TensorView& tensor) const;

  bool has_checksum() const { return metadata_.count(std::string(kChecksumKey)) != 0; }
  // Hashes the whole file against its checksum (kChecksumKey). Throws std::runtime_error
  // naming the file when it has none, or when a byte changed since it was written.
  void verify_checksum() const;

 private:
  SafetensorsFile() = default;
  void release() noexcept;

  std::string source_name_;
  void* mapping_ = nullptr;  // non-null only when open() owns an mmap
  std::size_t mapping_bytes_ = 0;
  std::span<const std::byte> bytes_;  // the whole file (the mapping or the caller's buffer)
  std::size_t header_bytes_ = 0;
  std::map<std::string, TensorView> tensors_;
  std::map<std::string, std::string> metadata_;
};

// IEEE binary16 and bfloat16 bit patterns to float32; exact (subnormals, infinities, signed
// zeros and NaN payloads preserved).
float f16_to_float(std::uint16_t bits);
float bf16_to_float(std::uint16_t bits);

// Converts F32, F16, BF16 and F64 (rounded to nearest; beyond the float range becomes +-inf)
// to float32. Integer and BOOL tensors throw std::runtime_error naming the tensor and dtype.
std::vector<float> to_float32(const TensorView& tensor);

// The values of a tensor that are not finite float32 numbers: NaN, +-inf, and F64 values beyond
// the float32 range (to_float32 turns those into +-inf). Integer and BOOL tensors have none.
struct NonFinite {
  std::int64_t count = 0;
  std::int64_t first = -1;  // flat index of the first one; -1 when count == 0
  double value = 0;         // the first one's value as stored
};
NonFinite find_non_finite(const TensorView& tensor);

struct OwnedTensor {
  std::string name;
  std::vector<std::int64_t> shape;  // product must equal data.size()
  std::vector<float> data;          // row-major
};

// Writes F32 tensors (data laid out in name order, header padded with spaces to a multiple of
// 8 bytes) to a temporary file beside `path`, fsyncs it and renames it over `path`; with
// Checksum::kSha256 the metadata also gets the file's checksum (kChecksumKey). Throws
// std::invalid_argument for bad tensors (empty, duplicate or "__metadata__" names, negative
// dims, rank > 8, shape/data size mismatch) or a caller's own kChecksumKey metadata, and
// std::runtime_error for I/O failures.
void write_safetensors(const std::filesystem::path& path, const std::vector<OwnedTensor>& tensors,
                       const std::map<std::string, std::string>& metadata = {},
                       Checksum checksum = Checksum::kNone);

}  // namespace posbias
