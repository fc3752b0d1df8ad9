// Memory is planned, not discovered: a command estimates its peak before allocating and
// refuses in one line (std::invalid_argument → exit 2) naming the bytes it needs, the bytes
// this machine has and the option that would help.
#pragma once

#include <cstdint>
#include <string>

namespace posbias {

// Bytes a new allocation can get: MemAvailable from /proc/meminfo, lowered to the cgroup's
// memory.max headroom when one is set. 0 when neither can be read (then nothing is refused).
std::uint64_t available_memory_bytes();

// "1.5 GB", "512.0 MB".
std::string format_bytes(double bytes);

// Throws std::invalid_argument "<what> needs about N GB of memory, this machine has M GB
// available; <hint>" when `bytes_needed` is more than available_memory_bytes().
void require_memory(double bytes_needed, const std::string& what, const std::string& hint);

// This process's resident bytes now (/proc/self/statm): libraries, and whatever it loaded
// before planning. 0 when unreadable.
std::uint64_t resident_bytes();

// What a command may plan for: `budget_gb` (its --memory-budget, a bound on the whole
// process's peak RSS) less what the process already holds (resident_bytes) when positive, else
// the bytes this machine has available; 0 when neither is known (nothing is refused).
// std::invalid_argument for a negative or NaN budget.
double memory_budget_bytes(double budget_gb);
// The same refusal against a budget: "... needs about N GB of memory, the memory budget is M GB
// (--memory-budget); <hint>" when given, N counting what the process already holds; the
// machine's wording otherwise (its available bytes already exclude this process).
void require_memory(double bytes_needed, const std::string& what, const std::string& hint,
                    double budget_gb);

}  // namespace posbias
