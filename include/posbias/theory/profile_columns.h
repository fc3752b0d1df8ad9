// The columns of an influence-profile CSV (a line per key position), named once for the commands
// that write such files and the one that reads them back:
//   theory (csv)              position, influence, log10_influence
//   theory --exact (csv)      position, fraction, influence, log10_influence
//   birth --csv               position, influence (the mean over seeds), seed0, seed1, ...
//   reproduce's theory_profiles.csv and theory_operators.csv: their series columns, then as theory
//   theory fit --profile      reads position, and influence or else the seed columns' mean
// theory --format json and theory --exact --format json name their arrays by these columns.
// Each writer keeps its own number text (the shortest round-trip, or %.10g in birth).
#pragma once

#include <cstddef>
#include <string>

namespace posbias::profile_csv {

// The key's position, from 0 (position_base.h).
inline constexpr const char* kPosition = "position";
inline constexpr const char* kInfluence = "influence";  // its influence on the query
inline constexpr const char* kLog10Influence = "log10_influence";
inline constexpr const char* kFraction = "fraction";  // the exact influence as a fraction p/q
inline constexpr const char* kSeedPrefix = "seed";    // seed0, seed1, ...: one seed's profile

// The column of seed s's profile: "seed0", "seed1", ...
inline std::string seed_column(std::size_t s) { return kSeedPrefix + std::to_string(s); }
// Whether a column holds one seed's profile (its name starts with "seed").
inline bool is_seed_column(const std::string& name) { return name.starts_with(kSeedPrefix); }

}  // namespace posbias::profile_csv
