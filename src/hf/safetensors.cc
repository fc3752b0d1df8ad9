#include "posbias/hf/safetensors.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <unordered_set>
#include <utility>

#include "file_error.h"
#include "posbias/core/atomic_file.h"
#include "posbias/core/json_read.h"
#include "posbias/core/printable.h"
#include "posbias/core/sha256.h"
#include "posbias/core/strict_json.h"

namespace posbias {

static_assert(std::endian::native == std::endian::little,
              "safetensors data is little-endian; this reader assumes a little-endian host");
static_assert(sizeof(std::size_t) == sizeof(std::uint64_t), "needs a 64-bit size_t");

namespace {

using nlohmann::json;

constexpr std::string_view kMetadataKey = "__metadata__";

struct DTypeInfo {
  DType dtype;
  std::string_view name;
  std::size_t size;
};

constexpr std::array<DTypeInfo, 10> kDTypes = {{
    {DType::F64, "F64", 8},
    {DType::F32, "F32", 4},
    {DType::F16, "F16", 2},
    {DType::BF16, "BF16", 2},
    {DType::I64, "I64", 8},
    {DType::I32, "I32", 4},
    {DType::I16, "I16", 2},
    {DType::I8, "I8", 1},
    {DType::U8, "U8", 1},
    {DType::BOOL, "BOOL", 1},
}};

std::optional<DType> dtype_from_name(std::string_view name) {
  for (const auto& d : kDTypes) {
    if (d.name == name) return d.dtype;
  }
  return std::nullopt;
}

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

using hf_file::fail;

// Rejects hostile structure while nlohmann parses, before it allocates for it: containers
// nested deeper than a tensor entry's arrays, arrays longer than kMaxSafetensorsRank, unknown
// or duplicate keys, non-object entries and non-string metadata values. Depths as nlohmann
// reports them: the header object is 0, its keys and entry objects 1, entry fields 2, array
// elements 3.
class HeaderGuard {
 public:
  explicit HeaderGuard(const std::string& source) : source_(source) {}

  bool on_event(int depth, json::parse_event_t event, const json& parsed) {
    using E = json::parse_event_t;
    switch (event) {
      case E::object_start:
        if (depth == 0) return true;
        if (depth == 1) {
          entry_keys_.clear();
          return true;
        }
        reject_container(depth, "an object");
      case E::array_start:
        if (depth == 0) fail(source_, "header is not a JSON object (it is an array)");
        if (depth == 1) reject_scalar_entry("an array");
        if (depth == 2 && !in_metadata()) {
          array_length_ = 0;
          return true;
        }
        reject_container(depth, "an array");
      case E::key:
        if (depth == 1) {
          top_key_ = parsed.get<std::string>();
          if (!top_keys_.insert(top_key_).second)
            fail(source_, "duplicate key " + quoted_name(top_key_) + " in the header");
        } else if (depth == 2) {
          entry_key_ = parsed.get<std::string>();
          if (!entry_keys_.insert(entry_key_).second)
            fail(source_, where() + " has the field " + quoted_name(entry_key_) + " twice");
          if (!in_metadata() && entry_key_ != "dtype" && entry_key_ != "shape" &&
              entry_key_ != "data_offsets")
            fail(source_, where() + " has an unknown field " + quoted_name(entry_key_) +
                              " (expected dtype, shape, data_offsets)");
        }
        return true;
      case E::value:
        if (depth == 1) reject_scalar_entry(parsed.type_name());
        if (depth == 2 && in_metadata() && !parsed.is_string())
          fail(source_, "__metadata__ value for " + quoted_name(entry_key_) + " is " +
                            parsed.type_name() + " " + brief_json(parsed, 40) + ", not a string");
        if (depth == 3 && ++array_length_ > kMaxSafetensorsRank) {
          if (entry_key_ == "shape")
            fail(source_, where() + " has a shape of rank > " +
                              std::to_string(kMaxSafetensorsRank) + " (the limit)");
          fail(source_, where() + ": " + entry_key_ + " has more than " +
                            std::to_string(kMaxSafetensorsRank) + " entries");
        }
        return true;
      default:
        return true;
    }
  }

 private:
  bool in_metadata() const { return top_key_ == kMetadataKey; }
  std::string where() const {
    return in_metadata() ? std::string(kMetadataKey) : "tensor " + quoted_name(top_key_);
  }
  [[noreturn]] void reject_scalar_entry(const std::string& type) const {
    if (in_metadata()) fail(source_, "__metadata__ is " + type + ", not an object of strings");
    fail(source_, "entry " + quoted_name(top_key_) + " is " + type + ", not an object");
  }
  [[noreturn]] void reject_container(int depth, const std::string& type) const {
    if (in_metadata())
      fail(source_,
           "__metadata__ value for " + quoted_name(entry_key_) + " is " + type + ", not a string");
    if (depth == 2) fail(source_, where() + ": " + entry_key_ + " is " + type);
    fail(source_, where() + ": " + entry_key_ + " contains " + type + " (nesting too deep)");
  }

  const std::string& source_;
  std::string top_key_;
  std::string entry_key_;
  std::size_t array_length_ = 0;
  std::unordered_set<std::string> top_keys_;
  std::unordered_set<std::string> entry_keys_;
};

// A non-negative JSON integer, or nullopt (negative, fractional, bool, string, ...).
std::optional<std::uint64_t> as_u64(const json& v) {
  if (v.is_number_unsigned()) return v.get<std::uint64_t>();
  if (v.is_number_integer()) {
    const auto s = v.get<std::int64_t>();
    if (s >= 0) return static_cast<std::uint64_t>(s);
  }
  return std::nullopt;
}

struct Range {
  std::uint64_t begin;
  std::uint64_t end;
  const std::string* name;
};

TensorView parse_entry(const std::string& source, const std::string& name, const json& entry,
                       std::span<const std::byte> data, Range& range) {
  const std::string who = "tensor " + quoted_name(name);
  TensorView view;
  view.name = name;

  const auto dtype_it = entry.find("dtype");
  if (dtype_it == entry.end()) fail(source, who + " has no dtype");
  if (!dtype_it->is_string())
    fail(source, who + ": dtype " + brief_json(*dtype_it, 40) + " is not a string");
  const auto dtype = dtype_from_name(dtype_it->get<std::string>());
  if (!dtype)
    fail(source, who + " has unknown dtype " + quoted_name(dtype_it->get<std::string>()) +
                     " (supported: F64 F32 F16 BF16 I64 I32 I16 I8 U8 BOOL)");
  view.dtype = *dtype;

  const auto shape_it = entry.find("shape");
  if (shape_it == entry.end()) fail(source, who + " has no shape");
  if (!shape_it->is_array())
    fail(source, who + ": shape " + brief_json(*shape_it, 40) + " is not an array of integers");
  if (shape_it->size() > kMaxSafetensorsRank)
    fail(source, who + " has a shape of rank > " + std::to_string(kMaxSafetensorsRank));
  std::uint64_t numel = 1;
  for (std::size_t i = 0; i < shape_it->size(); ++i) {
    const json& d = (*shape_it)[i];
    const auto dim = as_u64(d);
    if (!dim)
      fail(source, who + ": shape[" + std::to_string(i) + "] = " + brief_json(d, 40) +
                       " is not a non-negative integer");
    if (*dim > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      fail(source, who + ": shape[" + std::to_string(i) + "] = " + std::to_string(*dim) +
                       " exceeds the int64 range");
    if (__builtin_mul_overflow(numel, *dim, &numel))
      fail(source,
           who + ": shape " + brief_json(*shape_it, 40) + " has an element count that overflows");
    view.shape.push_back(static_cast<std::int64_t>(*dim));
  }
  std::uint64_t nbytes = 0;
  if (__builtin_mul_overflow(numel, dtype_size(view.dtype), &nbytes))
    fail(source, who + ": shape " + shape_text(view.shape) + " of " +
                     std::string(dtype_name(view.dtype)) + " has a byte size that overflows");

  const auto offsets_it = entry.find("data_offsets");
  if (offsets_it == entry.end()) fail(source, who + " has no data_offsets");
  const json& offsets = *offsets_it;
  if (!offsets.is_array() || offsets.size() != 2)
    fail(source, who + ": data_offsets " + brief_json(offsets, 40) + " is not [begin, end]");
  const auto begin = as_u64(offsets[0]);
  const auto end = as_u64(offsets[1]);
  if (!begin || !end)
    fail(source,
         who + ": data_offsets " + brief_json(offsets, 40) + " are not non-negative integers");
  const std::string span_text = "[" + std::to_string(*begin) + ", " + std::to_string(*end) + "]";
  if (*begin > *end) fail(source, who + ": data_offsets " + span_text + " has begin > end");
  if (*end > data.size())
    fail(source, who + ": data_offsets " + span_text + " end past the data buffer (" +
                     std::to_string(data.size()) + " bytes)");
  if (*end - *begin != nbytes)
    fail(source, who + ": data_offsets " + span_text + " hold " + std::to_string(*end - *begin) +
                     " bytes but shape " + shape_text(view.shape) + " of " +
                     std::string(dtype_name(view.dtype)) + " needs " + std::to_string(nbytes));
  view.data = data.data() + *begin;
  view.bytes = nbytes;
  range = Range{*begin, *end, nullptr};
  return view;
}

constexpr std::size_t kChecksumDigits = 64;

// The checksum field as the writer spells it: "sha256":"<64 hex digits>".
std::string checksum_field(std::string_view digits) {
  std::string field = "\"";
  field.append(kChecksumKey).append("\":\"").append(digits).append("\"");
  return field;
}

// SHA-256 of `bytes` with the kChecksumDigits bytes at `digits_at` read as '0'.
std::string checksum_of(std::span<const std::byte> bytes, std::size_t digits_at) {
  Sha256 h;
  h.update(bytes.first(digits_at));
  h.update(std::string(kChecksumDigits, '0'));
  h.update(bytes.subspan(digits_at + kChecksumDigits));
  return h.hex();
}

}  // namespace

std::size_t dtype_size(DType dtype) {
  for (const auto& d : kDTypes) {
    if (d.dtype == dtype) return d.size;
  }
  throw std::invalid_argument("dtype_size: unknown DType value " +
                              std::to_string(static_cast<int>(dtype)));
}

std::string_view dtype_name(DType dtype) {
  for (const auto& d : kDTypes) {
    if (d.dtype == dtype) return d.name;
  }
  throw std::invalid_argument("dtype_name: unknown DType value " +
                              std::to_string(static_cast<int>(dtype)));
}

std::int64_t TensorView::numel() const {
  std::int64_t n = 1;
  for (const std::int64_t d : shape) n *= d;
  return n;
}

SafetensorsFile SafetensorsFile::parse(std::span<const std::byte> bytes,
                                       const std::string& source_name) {
  const std::string& src = source_name;
  if (bytes.size() < 8)
    fail(src, "file is " + std::to_string(bytes.size()) +
                  " bytes, shorter than the 8-byte header length; not a safetensors file");
  std::uint64_t header_bytes = 0;
  for (int i = 7; i >= 0; --i)
    header_bytes = (header_bytes << 8) | std::to_integer<std::uint64_t>(bytes[i]);
  if (header_bytes == 0) fail(src, "header length is 0; the header must hold at least '{}'");
  if (header_bytes > kMaxSafetensorsHeaderBytes)
    fail(src, "header length " + std::to_string(header_bytes) + " exceeds the limit of " +
                  std::to_string(kMaxSafetensorsHeaderBytes) + " bytes");
  if (header_bytes > bytes.size() - 8)
    fail(src, "header length " + std::to_string(header_bytes) + " runs past the end of the file (" +
                  std::to_string(bytes.size() - 8) + " bytes follow the length field)");
  const char* header_text = reinterpret_cast<const char*>(bytes.data() + 8);
  const std::span<const std::byte> data = bytes.subspan(8 + header_bytes);

  json header;
  {
    HeaderGuard guard(src);
    try {
      header = parse_json(std::string_view(header_text, header_bytes), src,
                          [&guard](int depth, json::parse_event_t event, json& parsed) {
                            return guard.on_event(depth, event, parsed);
                          });
    } catch (const json::exception& e) {
      std::string what = e.what();
      if (what.size() > 200) what = what.substr(0, 200) + "...";
      fail(src, "header is not valid JSON: " + what);
    }
  }
  if (!header.is_object())
    fail(src, std::string("header is not a JSON object (it is ") + header.type_name() + ")");

  SafetensorsFile file;
  file.source_name_ = src;
  file.bytes_ = bytes;
  file.header_bytes_ = header_bytes;
  std::vector<Range> ranges;
  for (const auto& [key, value] : header.items()) {
    if (key == kMetadataKey) {
      if (!value.is_object())
        fail(src, std::string("__metadata__ is ") + value.type_name() + ", not an object");
      for (const auto& [mkey, mvalue] : value.items()) {
        if (!mvalue.is_string())
          fail(src, "__metadata__ value for " + quoted_name(mkey) + " is not a string");
        file.metadata_.emplace(mkey, mvalue.get<std::string>());
      }
      continue;
    }
    if (!value.is_object())
      fail(src, "entry " + quoted_name(key) + " is " + value.type_name() + ", not an object");
    Range range{};
    TensorView view = parse_entry(src, key, value, data, range);
    const auto [it, inserted] = file.tensors_.emplace(key, std::move(view));
    if (!inserted) fail(src, "duplicate key " + quoted_name(key) + " in the header");
    range.name = &it->first;
    if (range.end > range.begin) ranges.push_back(range);
  }

  // Byte ranges must not overlap (zero-length tensors occupy no bytes and may sit anywhere).
  std::sort(ranges.begin(), ranges.end(),
            [](const Range& a, const Range& b) { return a.begin < b.begin; });
  for (std::size_t i = 1; i < ranges.size(); ++i) {
    const Range& prev = ranges[i - 1];
    const Range& cur = ranges[i];
    if (cur.begin < prev.end)
      fail(src, "tensors " + quoted_name(*prev.name) + " [" + std::to_string(prev.begin) + ", " +
                    std::to_string(prev.end) + ") and " + quoted_name(*cur.name) + " [" +
                    std::to_string(cur.begin) + ", " + std::to_string(cur.end) + ") overlap");
  }
  return file;
}

SafetensorsFile SafetensorsFile::open(const std::filesystem::path& path) {
  const std::string src = path.string();
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail(src, std::string("cannot open: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    fail(src, std::string("cannot stat: ") + std::strerror(err));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    fail(src, "is not a regular file");
  }
  const auto size = static_cast<std::size_t>(st.st_size);
  if (size < 8) {
    ::close(fd);
    fail(src, "file is " + std::to_string(size) +
                  " bytes, shorter than the 8-byte header length; not a safetensors file");
  }
  void* map = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  const int map_errno = errno;
  ::close(fd);
  if (map == MAP_FAILED) fail(src, std::string("cannot mmap: ") + std::strerror(map_errno));
  try {
    SafetensorsFile file = parse({static_cast<const std::byte*>(map), size}, src);
    file.mapping_ = map;
    file.mapping_bytes_ = size;
    return file;
  } catch (...) {
    ::munmap(map, size);
    throw;
  }
}

SafetensorsFile::SafetensorsFile(SafetensorsFile&& other) noexcept
    : source_name_(std::move(other.source_name_)),
      mapping_(std::exchange(other.mapping_, nullptr)),
      mapping_bytes_(std::exchange(other.mapping_bytes_, 0)),
      bytes_(std::exchange(other.bytes_, {})),
      header_bytes_(std::exchange(other.header_bytes_, 0)),
      tensors_(std::move(other.tensors_)),
      metadata_(std::move(other.metadata_)) {}

SafetensorsFile& SafetensorsFile::operator=(SafetensorsFile&& other) noexcept {
  if (this != &other) {
    release();
    source_name_ = std::move(other.source_name_);
    mapping_ = std::exchange(other.mapping_, nullptr);
    mapping_bytes_ = std::exchange(other.mapping_bytes_, 0);
    bytes_ = std::exchange(other.bytes_, {});
    header_bytes_ = std::exchange(other.header_bytes_, 0);
    tensors_ = std::move(other.tensors_);
    metadata_ = std::move(other.metadata_);
  }
  return *this;
}

SafetensorsFile::~SafetensorsFile() { release(); }

void SafetensorsFile::release() noexcept {
  tensors_.clear();
  if (mapping_ != nullptr) ::munmap(mapping_, mapping_bytes_);
  mapping_ = nullptr;
  mapping_bytes_ = 0;
  bytes_ = {};
  header_bytes_ = 0;
}

const TensorView* SafetensorsFile::find(const std::string& name) const {
  const auto it = tensors_.find(name);
  return it == tensors_.end() ? nullptr : &it->second;
}

const TensorView& SafetensorsFile::get(const std::string& name) const {
  if (const TensorView* t = find(name)) return *t;
  std::string hint = " (it has " + std::to_string(tensors_.size()) + " tensors";
  int shown = 0;
  for (const auto& [n, t] : tensors_) {
    if (shown == 3) {
      hint += ", ...";
      break;
    }
    hint += (shown++ ? ", " : ": ") + quoted_name(n);
  }
  throw std::runtime_error("tensor " + quoted_name(name) + " is missing from " + source_name_ +
                           hint + ")");
}

void SafetensorsFile::verify_checksum() const {
  const auto it = metadata_.find(std::string(kChecksumKey));
  if (it == metadata_.end())
    fail(source_name_, "has no checksum (metadata '" + std::string(kChecksumKey) + "')");
  const std::string& want = it->second;
  if (want.size() != kChecksumDigits || !std::all_of(want.begin(), want.end(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
      })) {
    fail(source_name_, "is damaged: its checksum is not " + std::to_string(kChecksumDigits) +
                           " lowercase hex digits");
  }
  const std::string_view header(reinterpret_cast<const char*>(bytes_.data() + 8), header_bytes_);
  const std::string field = checksum_field(want);
  const std::size_t at = header.find(field);
  if (at == std::string_view::npos || header.find(field, at + 1) != std::string_view::npos) {
    fail(source_name_, "is damaged: its checksum is not spelled as posbias writes it");
  }
  if (checksum_of(bytes_, 8 + at + field.size() - 1 - kChecksumDigits) != want) {
    fail(source_name_, "is damaged: its bytes no longer match the SHA-256 written with it");
  }
}

void SafetensorsFile::require_finite(const TensorView& tensor) const {
  const NonFinite bad = find_non_finite(tensor);
  if (bad.count == 0) return;
  char value[32] = "NaN";
  if (!std::isnan(bad.value)) std::snprintf(value, sizeof value, "%g", bad.value);
  fail(source_name_, "tensor " + quoted_name(tensor.name) + " holds " + std::to_string(bad.count) +
                         " non-finite value" + (bad.count == 1 ? "" : "s") + " (" + value +
                         " at element " + std::to_string(bad.first) + " of " +
                         std::to_string(tensor.numel()) +
                         "); weights must be finite, so this file is damaged or comes from a "
                         "diverged run: use an earlier checkpoint or retrain");
}

void SafetensorsFile::require_finite() const {
  for (const auto& [name, tensor] : tensors_) require_finite(tensor);
}

std::vector<std::string> SafetensorsFile::names() const {
  std::vector<std::string> out;
  out.reserve(tensors_.size());
  for (const auto& [n, t] : tensors_) out.push_back(n);
  return out;
}

float f16_to_float(std::uint16_t bits) {
  const std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000u) << 16;
  const std::uint32_t exponent = (bits >> 10) & 0x1fu;
  const std::uint32_t mantissa = bits & 0x3ffu;
  if (exponent == 0) {
    // Zero or subnormal: mantissa * 2^-24, exact in float32.
    const float magnitude = static_cast<float>(mantissa) * 0x1p-24f;
    return sign ? -magnitude : magnitude;
  }
  if (exponent == 0x1f) return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
  return std::bit_cast<float>(sign | ((exponent + 127 - 15) << 23) | (mantissa << 13));
}

float bf16_to_float(std::uint16_t bits) {
  return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16);
}

std::vector<float> to_float32(const TensorView& tensor) {
  const std::string who = "to_float32: tensor " + quoted_name(tensor.name);
  const std::size_t item = dtype_size(tensor.dtype);
  std::uint64_t numel = 1;
  for (const std::int64_t d : tensor.shape) {
    if (d < 0 || __builtin_mul_overflow(numel, static_cast<std::uint64_t>(d), &numel))
      throw std::invalid_argument(who + " has an invalid shape " + shape_text(tensor.shape));
  }
  std::uint64_t nbytes = 0;
  if (__builtin_mul_overflow(numel, item, &nbytes) || nbytes != tensor.bytes ||
      (nbytes > 0 && tensor.data == nullptr))
    throw std::invalid_argument(who + " has " + std::to_string(tensor.bytes) +
                                " bytes, inconsistent with its shape " + shape_text(tensor.shape));
  if (tensor.dtype != DType::F32 && tensor.dtype != DType::F16 && tensor.dtype != DType::BF16 &&
      tensor.dtype != DType::F64)
    throw std::runtime_error(who + " has dtype " + std::string(dtype_name(tensor.dtype)) +
                             "; only F64, F32, F16 and BF16 convert to float32");
  std::vector<float> out(numel);
  const std::byte* p = tensor.data;
  switch (tensor.dtype) {
    case DType::F32:
      if (nbytes > 0) std::memcpy(out.data(), p, nbytes);
      break;
    case DType::F16:
    case DType::BF16:
      for (std::size_t i = 0; i < numel; ++i) {
        std::uint16_t bits = 0;
        std::memcpy(&bits, p + 2 * i, 2);
        out[i] = tensor.dtype == DType::F16 ? f16_to_float(bits) : bf16_to_float(bits);
      }
      break;
    default:  // F64
      for (std::size_t i = 0; i < numel; ++i) {
        double v = 0;
        std::memcpy(&v, p + 8 * i, 8);
        out[i] = static_cast<float>(v);
      }
      break;
  }
  return out;
}

namespace {

// Elements of `Bits` whose exponent bits (`exponent`) are all set: NaN or +-inf.
template <typename Bits, typename ToDouble>
NonFinite scan_exponent(const TensorView& t, Bits exponent, ToDouble to_double) {
  NonFinite out;
  const std::int64_t n = static_cast<std::int64_t>(t.bytes / sizeof(Bits));
  for (std::int64_t i = 0; i < n; ++i) {
    Bits bits;
    std::memcpy(&bits, t.data + static_cast<std::size_t>(i) * sizeof(Bits), sizeof(Bits));
    if ((bits & exponent) != exponent) continue;
    if (out.count++ == 0) {
      out.first = i;
      out.value = to_double(bits);
    }
  }
  return out;
}

}  // namespace

NonFinite find_non_finite(const TensorView& tensor) {
  switch (tensor.dtype) {
    case DType::F32:
      return scan_exponent<std::uint32_t>(tensor, 0x7f800000u, [](std::uint32_t b) {
        return static_cast<double>(std::bit_cast<float>(b));
      });
    case DType::F16:
      return scan_exponent<std::uint16_t>(
          tensor, 0x7c00u, [](std::uint16_t b) { return static_cast<double>(f16_to_float(b)); });
    case DType::BF16:
      return scan_exponent<std::uint16_t>(
          tensor, 0x7f80u, [](std::uint16_t b) { return static_cast<double>(bf16_to_float(b)); });
    case DType::F64: {  // finite as float32: NaN, +-inf and values that round beyond FLT_MAX
      constexpr double kRoundsToInfinity = 0x1.ffffffp+127;  // FLT_MAX + half its last place
      NonFinite out;
      const std::int64_t n = static_cast<std::int64_t>(tensor.bytes / sizeof(double));
      for (std::int64_t i = 0; i < n; ++i) {
        double v = 0;
        std::memcpy(&v, tensor.data + static_cast<std::size_t>(i) * sizeof v, sizeof v);
        if (std::fabs(v) < kRoundsToInfinity) continue;  // false for NaN
        if (out.count++ == 0) {
          out.first = i;
          out.value = v;
        }
      }
      return out;
    }
    default:  // integers and BOOL
      return {};
  }
}

void write_safetensors(const std::filesystem::path& path, const std::vector<OwnedTensor>& tensors,
                       const std::map<std::string, std::string>& metadata, Checksum checksum) {
  const std::string who = "write_safetensors(" + path.string() + "): ";
  std::map<std::string, const OwnedTensor*> by_name;
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    const OwnedTensor& t = tensors[i];
    const std::string tname = "tensor #" + std::to_string(i) + " " + quoted_name(t.name);
    if (t.name.empty())
      throw std::invalid_argument(who + "tensor #" + std::to_string(i) + " has an empty name");
    if (t.name == kMetadataKey)
      throw std::invalid_argument(who + tname + ": that name is reserved for metadata");
    if (!by_name.emplace(t.name, &t).second)
      throw std::invalid_argument(who + tname + " appears twice; names must be unique");
    if (t.shape.size() > kMaxSafetensorsRank)
      throw std::invalid_argument(who + tname + " has rank " + std::to_string(t.shape.size()) +
                                  " > " + std::to_string(kMaxSafetensorsRank));
    std::uint64_t numel = 1;
    for (const std::int64_t d : t.shape) {
      if (d < 0)
        throw std::invalid_argument(who + tname + " has a negative dimension in shape " +
                                    shape_text(t.shape));
      if (__builtin_mul_overflow(numel, static_cast<std::uint64_t>(d), &numel))
        throw std::invalid_argument(who + tname + ": shape " + shape_text(t.shape) + " overflows");
    }
    if (numel != t.data.size())
      throw std::invalid_argument(who + tname + ": shape " + shape_text(t.shape) + " holds " +
                                  std::to_string(numel) + " values but data has " +
                                  std::to_string(t.data.size()));
  }

  if (metadata.count(std::string(kChecksumKey)))
    throw std::invalid_argument(who + "metadata key " + quoted_name(std::string(kChecksumKey)) +
                                " is reserved for the file's checksum");
  json header = json::object();
  if (!metadata.empty() || checksum == Checksum::kSha256) {
    json meta = json::object();
    for (const auto& [k, v] : metadata) meta[k] = v;
    if (checksum == Checksum::kSha256)
      meta[std::string(kChecksumKey)] = std::string(kChecksumDigits, '0');
    header[std::string(kMetadataKey)] = std::move(meta);
  }
  std::uint64_t offset = 0;
  for (const auto& [name, t] : by_name) {
    const std::uint64_t nbytes = t->data.size() * sizeof(float);
    header[name] = {{"dtype", "F32"},
                    {"shape", t->shape},
                    {"data_offsets", json::array({offset, offset + nbytes})}};
    offset += nbytes;
  }
  std::string text;
  try {
    text = header.dump();
  } catch (const json::type_error& e) {
    throw std::invalid_argument(who + "a tensor name or metadata string is not valid UTF-8 (" +
                                e.what() + ")");
  }
  text.append((8 - text.size() % 8) % 8, ' ');  // data buffer starts 8-byte aligned
  if (text.size() > kMaxSafetensorsHeaderBytes)
    throw std::invalid_argument(who + "header of " + std::to_string(text.size()) +
                                " bytes exceeds the reader's limit; use fewer tensors");

  std::array<unsigned char, 8> length{};
  for (std::size_t i = 0; i < 8; ++i)
    length[i] = static_cast<unsigned char>((text.size() >> (8 * i)) & 0xffu);
  if (checksum == Checksum::kSha256) {
    const std::string placeholder = checksum_field(std::string(kChecksumDigits, '0'));
    const std::size_t at = text.find(placeholder) + placeholder.size() - 1 - kChecksumDigits;
    Sha256 h;
    h.update(std::as_bytes(std::span(length)));
    h.update(text);
    for (const auto& [name, t] : by_name) h.update(std::as_bytes(std::span(t->data)));
    text.replace(at, kChecksumDigits, h.hex());
  }
  OutputFile out(path);  // a regular file replaced atomically, a device written through
  out.write(length.data(), length.size());
  out.write(text.data(), text.size());
  for (const auto& [name, t] : by_name) out.write(t->data.data(), t->data.size() * sizeof(float));
  out.commit();
}

}  // namespace posbias
