// `posbias seeds` without birth files: a hop task (Number or Letter) trained with a few seeds,
// summarized over them. Each option takes one file per training seed, all in the same seed
// order and of one task:
//   summary      the run's summary.json (`posbias train`): crossing steps, final accuracy;
//   metrics      the run's metrics.jsonl (`posbias train`; with summary, which names the task):
//                held-out accuracy per hop at every logged step;
//   eval         `posbias eval --run` results: accuracy per length and hop, chance, control;
//   heads        `posbias heads --run` results: the scores and labels of every head per step;
//   discrepancy  `posbias discrepancy --run` results: the key heads' gaps against length.
// Every statistic S is each seed's value beside the mean and its 95% Student-t interval over
// the seeds that have a value (stats/seed_interval.h; a seed without one has null). Lengths,
// hops and steps are those every seed's file has; hops are "1", "2", ... and "all" (every hop).
//
// JSON: hop_seeds_record.h's HopSeedsRecord, a part per option given, and the files not checked
// to be of one configuration (when any).
// crossing_X: the first logged step at which held-out accuracy reached X ("values" null where
// a seed never did; the interval over the "crossed" seeds). chance: the mean over seeds of the
// eval's chance level (absent in files written before eval logged it, and then left out);
// above_chance: the interval's low end is above it (null without an interval). settled_step:
// the earliest step from which the head's label equals its label at last_step at every later
// step. threshold_sensitivity: at each seed's last checkpoint, which heads are pure when the
// label threshold is each one every seed's file lists (none in files written before it).
// Discrepancy roles: the head a seed's auto rule found most positional and most symbolic
// (a seed whose two picks are one head, which the file keeps once, counts it in both), or a
// head given with --heads.
// CSV: the eval table, one row per (length, hop): length,hop,mean,low,high,chance; without
// --eval the crossing steps. Figures: STEM_training (held-out accuracy per hop against step),
// STEM_eval, STEM_heads, STEM_discrepancy (each when its files are given).
#pragma once

#include <cmath>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "experiments/hops/hop_seed_files.h"
#include "posbias/runfiles/seed_runs.h"
#include "posbias/stats/seed_interval_record.h"

namespace posbias {

struct HopSeedsOptions {
  // One file per seed each, >= 2.
  std::vector<std::string> summary, metrics, eval, heads, discrepancy;
  std::string json, csv, plot;  // json empty = stdout
};

// The crossing steps and final accuracy of the summaries, per hop ("1", ..., "all").
struct HopTraining {
  std::vector<std::string> hops;
  std::vector<SeedStatistic> crossing_90, crossing_99;      // per hop; NaN where never reached
  std::vector<SeedStatistic> final_accuracy;                // per hop
  SeedStatistic train_seconds;                              // NaN for files without it
  std::vector<std::optional<std::int64_t>> training_seeds;  // config.seed per file
};

// Held-out accuracy per hop at the logged steps every seed has.
struct HopCurves {
  std::vector<std::int64_t> steps;
  std::vector<std::string> hops;
  std::vector<std::vector<SeedStatistic>> accuracy;  // [step][hop]
};

struct HopCell {
  SeedStatistic accuracy;
  double chance = NAN;  // mean over the seeds that logged one
  // The interval's low end above chance; none without an interval or a chance level.
  std::optional<bool> above_chance() const;
};

// Accuracy per (length, hop) over the lengths and hops every seed has.
struct HopTable {
  std::vector<std::int64_t> lengths;
  std::vector<std::string> hops;
  std::vector<std::vector<HopCell>> cells;  // [length][hop]
  // The "all" column (every hop at once); none when the files had none.
  std::optional<std::size_t> all_hops() const;
};

// A cell of a table by its indices: a CSV row.
struct HopCellAt {
  const HopTable* table = nullptr;
  std::size_t length = 0, hop = 0;
  const HopCell& cell() const { return table->cells[length][hop]; }
};
// Every cell of the table, length-major.
std::vector<HopCellAt> hop_cells(const HopTable& table);
// A cell's columns: length, hop, the accuracy's interval_columns and the chance level (csv_cell).
const std::vector<CsvColumn<HopCellAt>>& hop_cell_columns();

// The axes of every accuracy-against-input-length figure (eval, seeds, compare): log-scale
// length, accuracy 0..1.
Panel accuracy_length_panel(const std::string& title);
// The all-hops chance level at those of `lengths` the table has, as the eval and compare
// figures draw it (a thin dashed line); no points without an "all" column or chance levels.
Series chance_series(const HopTable& table, const std::vector<std::int64_t>& lengths);

struct HopEvalSummary {
  HopTable accuracy;
  std::optional<Variant> control;         // seen_jumps | decoy; none unless every eval has it
  HopTable control_accuracy;              // when control is set
  std::vector<SeedStatistic> decoy_rate;  // per control length (Letter), empty otherwise
};

struct HopHeadsSummary {
  std::vector<std::string> heads;   // "L0.h0", layer-major as the files list them
  std::vector<std::int64_t> steps;  // the checkpoint steps every seed has
  std::vector<std::vector<SeedStatistic>> positional, symbolic;  // [step][head]
  std::vector<std::vector<HeadLabel>> labels;                    // [head][seed] at steps.back()
  std::vector<SeedStatistic> settled_step;                       // [head]
  // Pure heads at each seed's last checkpoint under each threshold every seed's file has.
  struct Threshold {
    double threshold = 0;
    SeedStatistic positional_heads, symbolic_heads;  // how many heads are pure, per seed
    // [head][seed]: positional, symbolic or none (neither pure)
    std::vector<std::vector<std::optional<HeadLabel>>> labels;
  };
  std::vector<Threshold> thresholds;
};

// The earliest steps[i] from which every label equals labels.back() (steps and labels of one
// head, same length >= 1).
std::int64_t settled_step(const std::vector<std::int64_t>& steps,
                          const std::vector<HeadLabel>& labels);

struct HopRoleGaps {
  HopRole role;
  std::vector<std::string> heads;  // per seed: the head in this role, "" when it has none
  std::vector<SeedStatistic> median_gap, correct_median_gap;  // per length
  bool has_correct = false;                                   // some seed's file has correct_points
  SeedStatistic exponent, on_chain_exponent;
};

struct HopDiscrepancySummary {
  Variant variant = Variant::kStandard;  // the inputs measured
  std::int64_t train_length = 0;         // 0 when no file says
  std::vector<std::int64_t> lengths;
  std::vector<SeedStatistic> accuracy;  // per length
  std::vector<HopRoleGaps> roles;
};

struct HopSeedsResult {
  Task task = Task::kNumber;  // a hop task: number or letter
  std::size_t seeds = 0;
  HopSeedsOptions files;  // the inputs
  std::optional<HopTraining> training;
  std::optional<HopCurves> curves;
  std::optional<HopEvalSummary> eval;
  std::optional<HopHeadsSummary> heads;
  std::optional<HopDiscrepancySummary> discrepancy;
  // Files whose run's configuration is nowhere to be read, so not checked to be seeds of one
  // configuration (require_one_configuration), and the first of them.
  std::size_t unchecked = 0;
  std::string unchecked_file;
};

// Each eval --run result, in order; every file must be of `task` (set from the first file when
// none, which `task_file` then names), and the files seeds of one configuration
// (require_one_configuration). std::runtime_error naming a bad file.
std::vector<HopEvalFile> read_hop_evals(const std::vector<std::string>& files,
                                        std::optional<Task>& task, std::string& task_file);
// Accuracy per length and hop over the seeds' evals, against chance, with the control's.
HopEvalSummary summarize_hop_eval(const std::vector<HopEvalFile>& seeds);

// Checks the file counts (std::invalid_argument), reads every file (std::runtime_error naming
// the file and the field), checks that they are seeds of one configuration
// (require_one_configuration: runs that differ in anything but the seed are refused),
// summarizes.
HopSeedsResult summarize_hop_seeds(const HopSeedsOptions& options);
nlohmann::json to_json(const HopSeedsResult& result);
std::string hop_seeds_csv(const HopSeedsResult& result);
void render_hop_seeds_figures(const HopSeedsResult& result, const std::string& stem);
// summarize_hop_seeds, then the JSON (stdout when options.json is empty), CSV and figures.
// What a terminal shows instead of the JSON: one line with the crossing step and the accuracy at
// the shortest and longest lengths, each with its interval over seeds.
std::string hop_seeds_summary(const HopSeedsResult& result);
void run_hop_seeds(const HopSeedsOptions& options);

}  // namespace posbias
