#include "experiments/text/text_report.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "experiments/birth/birth_run.h"
#include "posbias/stats/seed_interval_record.h"
#include "posbias/theory/shares_summary.h"
#include "posbias/train/trainer.h"

namespace posbias {

namespace {

// The U by its parts at the first and last checkpoint, over the held-out sequences, with the
// paired change of each region's log10 share.
void add_share_numbers(ReportSection& sec, const BirthRunResult& run) {
  const BirthCheckpoint& first = run.checkpoints.front();
  const BirthCheckpoint& last = run.checkpoints.back();
  const SharesOverSeeds a = shares_over_seeds(first.result.profile_seeds);
  const SharesOverSeeds b = shares_over_seeds(last.result.profile_seeds);
  const std::string over = fmt::format(", mean [95% t interval over {} held-out sequences]",
                                       first.result.profile_seeds.size());
  for (const auto* cp : {&first, &last}) {
    const SharesOverSeeds& s = cp == &first ? a : b;
    sec.numbers.push_back(
        {fmt::format("shares of the influence at step {}{}", cp->step, over), shares_text(s)});
    sec.numbers.push_back({fmt::format("U test at step {}", cp->step), u_test_text(s.u)});
  }
  if (run.checkpoints.size() < 2) return;
  const auto change = share_change(a, b);
  std::string text;
  for (ShareRegion region : kShareRegions) {
    const auto k = static_cast<std::size_t>(region);
    if (!a.regions[k].present()) continue;
    text += fmt::format("{}{} {}", text.empty() ? "" : ", ", to_string(region),
                        format_interval(change[k].interval));
  }
  sec.numbers.push_back({fmt::format("change of each log10 share, step {} to {}, paired per "
                                     "sequence",
                                     first.step, last.step),
                         text});
}

}  // namespace

ReportSection text_report_section(const std::filesystem::path& dir, const TextPreset& preset) {
  ReportSection sec;
  sec.id = "text";
  sec.title = "After birth: a language model trained on real text";
  const TrainConfig& c = preset.config;
  sec.paragraphs = {
      fmt::format(
          "A {} language model ({} layers, d = {}, {} heads, {} positions) is trained from "
          "scratch on the Brown corpus (459 files train, 41 held out: every file numbered 10, "
          "20, ... in its genre) with next-token loss at every position and a SentencePiece BPE "
          "tokenizer of {} pieces trained on the training split. Held-out loss per position and "
          "the gradient norm reaching each position (at the embeddings and a few layers' inputs) "
          "are logged every {} steps; checkpoints are kept at log-spaced steps from step 0.",
          to_string(c.arch), c.layers, c.d_model, c.heads, c.length, c.vocab_size, c.eval_every),
      "Every checkpoint's influence profile ‖∂y_q/∂x_j‖ is then measured on held-out text "
      "(`posbias birth --run`): the profile at step 0 is the theory's, and the figures show what "
      "training does to it.",
      "The U by its parts, at the first and the last checkpoint: each region's share of the "
      "influence (primacy: positions 0..7; middle: the middle fifth of 0..L-2; recency: the 8 "
      "positions before the query; the query) over the held-out sequences, the U test (U only "
      "when the middle's per-position share is below both end windows', each 95% t interval "
      "below 0), and the paired change of each region's log10 share.",
      preset.name == TextPreset::full().name
          ? "This report ran the full preset (reproduce --full): " + preset.describe() + "."
          : "This report ran the " + preset.name + " preset (" + preset.describe() +
                ") to stay fast; `posbias reproduce --full` runs the full preset (" +
                TextPreset::full().describe() + ")."};
  TrainOptions o;
  o.config = c;
  o.run_dir = dir / "text" / "gpt2";
  o.resume = std::filesystem::exists(o.run_dir / "train.json");
  const TrainResult r = run_training(o);
  const HeldoutSplit& h = r.summary.heldout.value();
  sec.numbers.push_back(
      {"training steps, wall time",
       fmt::format("{} steps, {:.0f} s", r.summary.steps, r.summary.train_seconds)});
  sec.numbers.push_back({"held-out bits per byte: model / bigram / unigram",
                         fmt::format("{:.3f} / {:.3f} / {:.3f}", h.bits_per_byte,
                                     h.bigram_bits_per_byte, h.unigram_bits_per_byte)});

  BirthOptions b;
  b.run = o.run_dir.string();
  b.checkpoints = CheckpointSelection::all();
  b.seeds = preset.birth_seeds;
  b.length = std::min<std::int64_t>(preset.birth_length, c.length);
  b.bootstrap = 50;
  b.json = (dir / "text" / "birth_run.json").string();
  b.plot = (dir / "text" / "birth_run").string();
  const BirthRunResult run = run_birth_run(b);
  const ProfileSummary first = profile_shape(run.checkpoints.front().result.profile);
  const ProfileSummary last = profile_shape(run.checkpoints.back().result.profile);
  sec.numbers.push_back(
      {"log10 middle / ends of the influence profile: step 0 / final",
       fmt::format("{:.2f} / {:.2f}", first.log10_middle_to_ends, last.log10_middle_to_ends)});
  sec.numbers.push_back(
      {"influence argmin (dead zone position): step 0 / final",
       fmt::format("{} / {}", first.dead_zone_position, last.dead_zone_position)});
  add_share_numbers(sec, run);
  sec.figures.push_back(
      {"text/gpt2/training_loss", "Training and held-out loss, and held-out bits per byte."});
  sec.figures.push_back({"text/gpt2/training_loss_per_position",
                         "Held-out loss at each position, at log-spaced steps."});
  sec.figures.push_back({"text/gpt2/training_gradients",
                         "Mean gradient norm reaching each position, at the embeddings and "
                         "three layers' inputs, through training."});
  sec.figures.push_back({"text/birth_run_profiles",
                         "Influence profile of each checkpoint on held-out text (unit sum)."});
  sec.figures.push_back(
      {"text/birth_run_shape", "Middle-to-ends ratio and dead-zone depth against training step."});
  sec.figures.push_back({"text/birth_run_shares",
                         "Each region's share of the influence (primacy, middle fifth, recency, "
                         "query) against training step, as a whole and per position."});
  sec.data.push_back({"text/gpt2/metrics.jsonl", "metrics per evaluation"});
  sec.data.push_back({"text/gpt2/summary.json", "run summary, held-out bits per byte"});
  sec.data.push_back({"text/birth_run.json", "influence profile per checkpoint"});
  return sec;
}

}  // namespace posbias
