#include "posbias/core/memory.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace posbias {
namespace {

// The first number of a one-line file ("max" and unreadable files give nothing).
bool read_number(const char* path, std::uint64_t* value) {
  std::ifstream in(path);
  std::string text;
  if (!(in >> text) || text == "max") return false;
  try {
    *value = std::stoull(text);
  } catch (const std::exception&) {
    return false;
  }
  return true;
}

}  // namespace

std::uint64_t available_memory_bytes() {
  std::uint64_t available = 0;
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit) {
    if (key == "MemAvailable:") {
      available = kib * 1024;
      break;
    }
  }
  std::uint64_t limit = 0, current = 0;
  if (read_number("/sys/fs/cgroup/memory.max", &limit) &&
      read_number("/sys/fs/cgroup/memory.current", &current)) {
    const std::uint64_t headroom = limit > current ? limit - current : 0;
    if (available == 0 || headroom < available) available = headroom;
  }
  return available;
}

std::string format_bytes(double bytes) {
  if (bytes >= 1e9) return fmt::format("{:.1f} GB", bytes / 1e9);
  return fmt::format("{:.1f} MB", bytes / 1e6);
}

void require_memory(double bytes_needed, const std::string& what, const std::string& hint) {
  const std::uint64_t available = available_memory_bytes();
  if (available == 0 || bytes_needed <= static_cast<double>(available)) return;
  throw std::invalid_argument(what + " needs about " + format_bytes(bytes_needed) +
                              " of memory, this machine has " +
                              format_bytes(static_cast<double>(available)) + " available; " + hint);
}

std::uint64_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::uint64_t pages = 0, resident = 0;
  if (!(statm >> pages >> resident)) return 0;
  const long page = sysconf(_SC_PAGESIZE);
  return resident * static_cast<std::uint64_t>(page > 0 ? page : 4096);
}

double memory_budget_bytes(double budget_gb) {
  if (!(budget_gb >= 0))
    throw std::invalid_argument("--memory-budget must be >= 0 GB (0: what the machine has)");
  if (budget_gb > 0)  // at least a byte: 0 would mean "no limit" to the planners
    return std::max(1.0, budget_gb * 1e9 - static_cast<double>(resident_bytes()));
  return static_cast<double>(available_memory_bytes());
}

void require_memory(double bytes_needed, const std::string& what, const std::string& hint,
                    double budget_gb) {
  if (budget_gb <= 0) return require_memory(bytes_needed, what, hint);
  bytes_needed += static_cast<double>(resident_bytes());
  if (bytes_needed <= budget_gb * 1e9) return;
  throw std::invalid_argument(what + " needs about " + format_bytes(bytes_needed) +
                              " of memory, the memory budget is " + format_bytes(budget_gb * 1e9) +
                              " (--memory-budget); " + hint);
}

}  // namespace posbias
