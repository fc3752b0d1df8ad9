#include "experiments/mech/discrepancy_command_options.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "posbias/core/flag_rows.h"
#include "posbias/core/parse.h"
#include "posbias/mech/mech_codecs.h"
#include "posbias/runfiles/checkpoint_selection_codec.h"
#include "posbias/tasks/task_codecs.h"
#include "posbias/train/checkpoint.h"

namespace posbias {
namespace {

// A head by its name, "L2.h0".
struct HeadNameCodec {
  static constexpr const char* type = "NAME";
  static nlohmann::json write(const HeadRef& h) { return head_name(h.layer, h.head); }
  static HeadRef read(const nlohmann::json& j, const std::string& what) {
    return parse_head_name(FieldCodec<std::string>::read(j, what), what);
  }
};
using HeadListCodec = ListCodec<HeadRef, HeadNameCodec>;

// --search's rows, reaching DiscrepancyCommandOptions::head_search.
std::vector<FieldRow<DiscrepancyCommandOptions>> head_search_option_rows() {
  using O = DiscrepancyCommandOptions;
  using H = HeadSearchOptions;
  return member_fields(
      &O::head_search,
      std::vector<FieldRow<H>>{
          integer_field(
              "head_dim", &H::head_dim,
              "with --search: dims of the searched head, all rotary (F = dim/2 frequencies)"),
          named_field<SearchFrequenciesNames>(
              "frequencies", &H::frequencies,
              "with --search: free (every frequency optimised) or rope (the fixed schedule "
              "rope_theta^(-2f/dim))"),
          field("rope_theta", &H::rope_theta,
                "with --search --frequencies rope: the schedule's base"),
          integer_field("starts", &H::starts,
                        "with --search: random starts per length, beside the designs", 0),
          integer_field("steps", &H::steps, "with --search: Adam steps per start")});
}

std::vector<FieldRow<DiscrepancyCommandOptions>> discrepancy_option_rows() {
  using O = DiscrepancyCommandOptions;
  std::vector<FieldRow<O>> r = {
      named_field<ConstructionNames>(
          "function", &O::function, "index, retrieval or reflexive (--search: index or retrieval)"),
      parsed_flag(field("theta", &O::theta,
                        "RoPE angle per position (auto: pi/n for index and reflexive, 0 for "
                        "retrieval)",
                        "NUMBER|auto"),
                  [](const std::string& text, const std::string& flag) {
                    return text == "auto" ? nlohmann::json()
                                          : nlohmann::json(parse_number(text, flag));
                  }),
      field("omega", &O::omega, "retrieval: phase spacing of the 8 symbols (2pi/8)"),
      field("lengths", &O::lengths,
            "comma list of n (default " + join_integers(ConstructionSweep{}.lengths) +
                "; with --run " + join_integers(TrainedDiscrepancyOptions{}.lengths) + ")"),
      integer_field("count", &O::count,
                    "inputs per length (0: " + std::to_string(ConstructionSweep{}.count) +
                        "; with --run " + std::to_string(TrainedDiscrepancyOptions{}.count) + ")",
                    0),
      seed_field("seed", &O::seed, "seed of the inputs"),
      field("search", &O::search,
            "optimized: search whole RoPE heads for the best worst-case gap at each n (instead "
            "of the constructions)")};
  for (FieldRow<O>& row : head_search_option_rows()) r.push_back(std::move(row));
  r.push_back(field("run", &O::run, "trained run: measure its key heads", "PATH"));
  r.push_back(named_field<CheckpointSelectionNames>("checkpoints", &O::checkpoints,
                                                    "with --run: the checkpoint measured, " +
                                                        to_string(CheckpointSelection::last()) +
                                                        " or one step",
                                                    checkpoint_selection_type()));
  r.push_back(parsed_flag(
      field<O, std::vector<HeadRef>, HeadListCodec>(
          "heads", &O::heads,
          "with --run: auto (the most positional and most symbolic head) or head names, "
          "L2.h0,L3.h1 (0-based layer and head)",
          "auto|LIST"),
      [](const std::string& text, const std::string&) {
        return HeadListCodec::write(parse_head_list(text));
      }));
  r.push_back(named_field<VariantNames>(
      "variant", &O::variant,
      "with --run: the inputs, standard or a variant the task has (Number: seen_jumps, jump "
      "integers within those training showed; Letter: decoy)"));
  return r;
}

// The one checkpoint `selection` picks of `run`: discrepancy --run measures one model.
std::filesystem::path one_run_checkpoint(const std::string& run,
                                         const CheckpointSelection& selection) {
  const std::vector<RunCheckpoint> chosen = select_checkpoints(run, selection);
  if (chosen.size() > 1)
    throw std::invalid_argument("discrepancy --run measures one checkpoint, and --checkpoints " +
                                to_string(selection) + " selects " + std::to_string(chosen.size()) +
                                ": give " + to_string(CheckpointSelection::last()) +
                                " or one step");
  return chosen.front().path;
}

HeadSearchSweep search_mode(const DiscrepancyCommandOptions& o) {
  if (o.search != "optimized")
    throw std::invalid_argument("--search must be optimized, got '" + o.search + "'");
  HeadSearchSweep s;
  s.search = o.head_search;
  s.search.function = o.function;
  if (s.search.function == Construction::kReflexive)
    throw std::invalid_argument("--search covers the index and retrieval functions");
  s.search.omega = o.omega;
  s.search.seed = o.seed;
  s.memory_budget_gb = o.memory_budget_gb;
  if (!o.lengths.empty()) s.lengths = o.lengths;
  return s;
}

TrainedDiscrepancyOptions trained_mode(const DiscrepancyCommandOptions& o) {
  TrainedDiscrepancyOptions t;
  t.run = o.run;
  t.checkpoint = one_run_checkpoint(o.run, o.checkpoints).string();
  t.heads = o.heads;
  t.variant = o.variant;
  if (!o.lengths.empty()) t.lengths = o.lengths;
  if (o.count != 0) t.count = o.count;
  t.seed = o.seed;
  t.attention = o.attention;
  t.memory_budget_gb = o.memory_budget_gb;
  return t;
}

ConstructionSweep construction_mode(const DiscrepancyCommandOptions& o) {
  ConstructionSweep s;
  s.function = o.function;
  if (o.theta) s.theta = *o.theta;
  s.omega = o.omega;
  if (!o.lengths.empty()) s.lengths = o.lengths;
  if (o.count != 0) s.count = o.count;
  s.seed = o.seed;
  s.memory_budget_gb = o.memory_budget_gb;
  return s;
}

}  // namespace

const std::vector<FieldRow<DiscrepancyCommandOptions>>& discrepancy_option_fields() {
  static const std::vector<FieldRow<DiscrepancyCommandOptions>> table = discrepancy_option_rows();
  return table;
}

DiscrepancyMode discrepancy_mode(const DiscrepancyCommandOptions& o) {
  if (!o.search.empty()) return search_mode(o);
  if (!o.run.empty()) return trained_mode(o);
  return construction_mode(o);
}

}  // namespace posbias
