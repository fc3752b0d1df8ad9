// Retrieval accuracy by the answer's depth and the context length (docs/retrieval.md): the
// "needle in a haystack" heatmap, RULER's effective length and a U verdict that can say no.
// Task-free: a scorer returns the exact-match flags of one cell (length, depth) and its chance
// level; kv and needle runs supply their own scorer.
//
// cells[l][d]: length lengths[l] (tokens), depth depths[d] (percent, 0 = first, 100 = last).
// Regions of the U verdict: start = depths in [0, 10], middle = [30, 70], end = [90, 100].
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace posbias {

// RULER's threshold for the effective length (Hsieh et al. 2024).
inline constexpr double kRulerThreshold = 0.856;

// One cell's examples: exact match of each, and the accuracy of a uniform guess.
struct DepthScore {
  std::vector<bool> correct;
  double chance = 0;
};

// Accuracy of correct of n with its Wilson 95% interval [lo, hi] (NaN accuracy when n = 0).
struct DepthCell {
  std::int64_t correct = 0, n = 0;
  double accuracy = 0, lo = 0, hi = 1;
  double chance = 0;
};
DepthCell depth_cell(std::int64_t correct, std::int64_t n, double chance);

// A difference of two proportions p1 − p2 with Newcombe's hybrid score 95% interval (method 10
// of Newcombe 1998): [d − √((p1−l1)² + (u2−p2)²), d + √((u1−p1)² + (p2−l2)²)] from the Wilson
// intervals (l, u) of each.
struct Difference {
  double estimate = 0, lo = 0, hi = 0;
};
Difference newcombe_difference(std::int64_t correct1, std::int64_t n1, std::int64_t correct2,
                               std::int64_t n2);

// The depth regions of the U verdict, and which region a depth (percent) falls in.
enum class DepthRegion { kStart, kMiddle, kEnd, kNone };
DepthRegion depth_region(double depth);

// Middle against both ends, the examples of each region pooled. "U" when both differences'
// intervals lie below 0 (hi < 0); "no U" otherwise; "undetermined" when a region has no example.
struct UVerdict {
  DepthCell start, middle, end;                     // pooled over the region's depths
  Difference middle_minus_start, middle_minus_end;  // Newcombe intervals
  std::string verdict;                              // "U", "no U" or "undetermined"
};
UVerdict u_verdict(const DepthCell& start, const DepthCell& middle, const DepthCell& end);

struct DepthAccuracy {
  std::vector<int> lengths;                   // tokens, as measured (ascending)
  std::vector<double> depths;                 // percent
  std::vector<std::vector<DepthCell>> cells;  // [length][depth]
  double threshold = kRulerThreshold;
  std::vector<double> mean_accuracy;  // per length: the mean of its cells' accuracies
  std::optional<int> effective_length;
  std::vector<UVerdict> u_by_length;  // per length
  UVerdict u_pooled;                  // every length's regions pooled
};

// RULER's rule: the longest length L such that mean_accuracy >= threshold at every length <= L;
// nullopt when the shortest fails. `lengths` ascending, one mean per length.
std::optional<int> effective_length(const std::vector<int>& lengths,
                                    const std::vector<double>& mean_accuracy, double threshold);

// std::invalid_argument naming the bad value: lengths empty, not ascending or < 1; depths empty,
// repeated or outside 0..100; threshold outside (0, 1].
void check_depth_accuracy_inputs(const std::vector<int>& lengths, const std::vector<double>& depths,
                                 double threshold);
// Checks the inputs (check_depth_accuracy_inputs), then scores every cell, length-major, calling
// `after_cell` (may be empty) after each, and aggregates.
using DepthScorer = std::function<DepthScore(int length, double depth, std::size_t depth_index)>;
DepthAccuracy measure_depth_accuracy(const std::vector<int>& lengths,
                                     const std::vector<double>& depths, double threshold,
                                     const DepthScorer& score,
                                     const std::function<void()>& after_cell = {});
// The aggregates (mean_accuracy, effective_length, U verdicts) from lengths, depths, threshold and
// cells.
void summarize_depth_accuracy(DepthAccuracy& result);

// The U verdict's rule, as results state it.
inline constexpr const char* kUVerdictRule =
    "middle = depths in [30, 70], ends = [0, 10] and [90, 100], examples pooled per region; U when "
    "both middle - start and middle - end have a Newcombe 95% interval below 0";

// The key of a depth in a file or a label: "50" for 50, "12.5" for 12.5.
std::string depth_key(double depth);

}  // namespace posbias
