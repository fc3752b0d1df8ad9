#include "experiments/seeds/seeds_record.h"

#include <cmath>

#include "posbias/theory/theory_codecs.h"

namespace posbias {

const std::vector<FieldRow<IntervalRowsRecord>>& interval_rows_record_fields();
const std::vector<FieldRow<SeedsGradientErrorsRecord>>& seeds_gradient_errors_record_fields();
const std::vector<FieldRow<SeedsGradientRecord>>& seeds_gradient_record_fields();
const std::vector<FieldRow<SeedsCheckpointRecord>>& seeds_checkpoint_record_fields();
const std::vector<FieldRow<SeedsGradientChangeRecord>>& seeds_gradient_change_record_fields();
const std::vector<FieldRow<SeedsChangeRecord>>& seeds_change_record_fields();
const std::vector<FieldRow<SeedsHeldoutRecord>>& seeds_heldout_record_fields();

template <>
struct FieldCodec<IntervalRowsRecord>
    : TableCodec<IntervalRowsRecord, &interval_rows_record_fields> {};
template <>
struct FieldCodec<SeedsGradientErrorsRecord>
    : TableCodec<SeedsGradientErrorsRecord, &seeds_gradient_errors_record_fields> {};
template <>
struct FieldCodec<SeedsGradientRecord>
    : TableCodec<SeedsGradientRecord, &seeds_gradient_record_fields> {};
template <>
struct FieldCodec<SeedsCheckpointRecord>
    : TableCodec<SeedsCheckpointRecord, &seeds_checkpoint_record_fields> {};
template <>
struct FieldCodec<std::vector<SeedsCheckpointRecord>> : ListCodec<SeedsCheckpointRecord> {};
template <>
struct FieldCodec<SeedsGradientChangeRecord>
    : TableCodec<SeedsGradientChangeRecord, &seeds_gradient_change_record_fields> {};
template <>
struct FieldCodec<SeedsChangeRecord> : TableCodec<SeedsChangeRecord, &seeds_change_record_fields> {
};
template <>
struct FieldCodec<SeedsHeldoutRecord>
    : TableCodec<SeedsHeldoutRecord, &seeds_heldout_record_fields> {};

const std::vector<FieldRow<IntervalRowsRecord>>& interval_rows_record_fields() {
  using I = IntervalRowsRecord;
  static const std::vector<FieldRow<I>> rows = {
      field<I, std::vector<double>, NanAsNullList>("mean", &I::mean, "the mean at each position"),
      field<I, std::vector<double>, NanAsNullList>("low", &I::low, "the 95% interval's low end"),
      field<I, std::vector<double>, NanAsNullList>("high", &I::high, "the 95% interval's high end"),
  };
  return rows;
}

const std::vector<FieldRow<SeedsGradientErrorsRecord>>& seeds_gradient_errors_record_fields() {
  using E = SeedsGradientErrorsRecord;
  static const std::vector<FieldRow<E>> rows = {
      field("column_sum", &E::column_sum, "the column-sum prediction's"),
      field("root_sum_square", &E::root_sum_square, "the root-sum-square prediction's"),
      field("flat", &E::flat, "the flat prediction's"),
  };
  return rows;
}

const std::vector<FieldRow<SeedsGradientRecord>>& seeds_gradient_record_fields() {
  using G = SeedsGradientRecord;
  static const std::vector<FieldRow<G>> rows = {
      field("log10_middle_to_first", &G::log10_middle_to_first,
            "log10 of the middle fifth's mean gradient over position 0's"),
      field("log10_last_to_first", &G::log10_last_to_first,
            "log10 of the last position's gradient over position 0's"),
      field("median_abs_log10_error", &G::median_abs_log10_error,
            "each prediction's median |log10 error|"),
  };
  return rows;
}

const std::vector<FieldRow<SeedsCheckpointRecord>>& seeds_checkpoint_record_fields() {
  using C = SeedsCheckpointRecord;
  static const std::vector<FieldRow<C>> rows = [] {
    std::vector<FieldRow<C>> r = {
        required(field("step", &C::step, "the checkpoint's step")),
        field("log10_middle_to_ends", &C::log10_middle_to_ends, "the middle against the ends"),
        field("log10_dead_zone_depth", &C::log10_dead_zone_depth, "the minimum against the ends"),
        field("argmin", &C::argmin, "each seed's minimum position"),
        field("attention_entropy_ratio", &C::attention_entropy_ratio,
              "attention entropy over a uniform attention's"),
        field("nofit_median_abs_log10_error", &C::nofit_median_abs_log10_error,
              "the no-fit prediction's median |log10 error|"),
        field("log10_share", &C::log10_share, "the log10 share of each position"),
        optional_field("gradient", &C::gradient,
                       "the gradient reaching the input embeddings (when every seed logged it)"),
    };
    for (auto& row : member_fields(&C::profile_shares, profile_shares_record_fields()))
      r.push_back(std::move(row));
    return r;
  }();
  return rows;
}

const std::vector<FieldRow<SeedsGradientChangeRecord>>& seeds_gradient_change_record_fields() {
  using G = SeedsGradientChangeRecord;
  static const std::vector<FieldRow<G>> rows = {
      field("from_step", &G::from_step, "the first step with a logged gradient"),
      field("to_step", &G::to_step, "the last"),
      field("log10_middle_to_first", &G::log10_middle_to_first, "its change"),
  };
  return rows;
}

const std::vector<FieldRow<SeedsChangeRecord>>& seeds_change_record_fields() {
  using C = SeedsChangeRecord;
  static const std::vector<FieldRow<C>> rows = {
      field("from_step", &C::from_step, "the first step"),
      field("to_step", &C::to_step, "the last step"),
      field("log10_middle_to_ends", &C::log10_middle_to_ends, "its change"),
      field("log10_dead_zone_depth", &C::log10_dead_zone_depth, "its change"),
      field("shares", &C::shares, "each region's log10 share change"),
      optional_field("gradient", &C::gradient, "the gradient's change"),
  };
  return rows;
}

const std::vector<FieldRow<SeedsHeldoutRecord>>& seeds_heldout_record_fields() {
  using H = SeedsHeldoutRecord;
  static const std::vector<FieldRow<H>> rows = {
      field("bits_per_byte", &H::bits_per_byte, "held-out bits per byte"),
      field("unigram_bits_per_byte", &H::unigram_bits_per_byte, "a unigram model's"),
      field("bigram_bits_per_byte", &H::bigram_bits_per_byte, "a bigram model's"),
      field("loss_first", &H::loss_first, "the loss at position 0"),
      field("loss_middle", &H::loss_middle, "the mean loss over the middle fifth"),
      field("loss_last", &H::loss_last, "the loss at position L"),
      field("loss_per_position", &H::loss_per_position, "the loss at each position"),
  };
  return rows;
}

const std::vector<FieldRow<TextSeedsRecord>>& text_seeds_record_fields() {
  using R = TextSeedsRecord;
  static const std::vector<FieldRow<R>> rows = {
      position_base_field(&R::position_base),
      field("files", &R::files, "each seed's birth --run result"),
      required(field("seeds", &R::seeds, "training seeds")),
      field("target", &R::target, "what the profiles measure"),
      field("length", &R::length, "the measurement's length"),
      field("query", &R::query, "its query's position"),
      field("interval", &R::interval, "what the intervals are"),
      required(field("checkpoints", &R::checkpoints, "each step every seed has")),
      field("change", &R::change, "the last step against the first"),
      optional_field("heldout", &R::heldout, "the evals' held-out loss (with --eval)"),
      optional_field("unchecked_configurations", &R::unchecked_configurations,
                     "files not checked to be of one configuration"),
  };
  return rows;
}

namespace {

IntervalRowsRecord interval_rows(const std::vector<SeedInterval>& rows) {
  IntervalRowsRecord r;
  for (const SeedInterval& i : rows) {
    r.mean.push_back(i.mean);
    r.low.push_back(i.low);
    r.high.push_back(i.high);
  }
  return r;
}

SeedsCheckpointRecord checkpoint_record(const SeedsCheckpoint& c) {
  SeedsCheckpointRecord r;
  r.step = c.step;
  r.log10_middle_to_ends = c.middle_to_ends;
  r.log10_dead_zone_depth = c.dead_zone_depth;
  r.argmin = c.argmin;
  r.attention_entropy_ratio = c.entropy_ratio;
  r.nofit_median_abs_log10_error = c.nofit_error;
  r.log10_share = interval_rows(c.log10_share);
  r.profile_shares = profile_shares_record(c.shares);
  if (c.has_gradient)
    r.gradient = SeedsGradientRecord{c.gradient_middle_to_first,
                                     c.gradient_last_to_first,
                                     {c.column_sum_error, c.root_sum_square_error, c.flat_error}};
  return r;
}

}  // namespace

TextSeedsRecord text_seeds_record(const SeedsResult& r) {
  const TrainingSeed& first = r.seeds.front();
  TextSeedsRecord out;
  for (const TrainingSeed& s : r.seeds) out.files.push_back(s.file);
  out.seeds = static_cast<std::int64_t>(r.seeds.size());
  out.target = first.target;
  out.length = first.length;
  out.query = first.query;
  out.interval = "95% Student t over seeds";
  for (const SeedsCheckpoint& c : r.checkpoints) out.checkpoints.push_back(checkpoint_record(c));
  const SeedsCheckpoint& a = r.checkpoints.front();
  const SeedsCheckpoint& b = r.checkpoints.back();
  out.change = {a.step,
                b.step,
                r.change_middle_to_ends,
                r.change_dead_zone_depth,
                share_change_record(a.shares, b.shares),
                std::nullopt};
  if (r.gradient_steps)
    out.change.gradient = SeedsGradientChangeRecord{
        r.gradient_steps->first, r.gradient_steps->second, r.change_gradient_middle_to_first};
  if (r.heldout) {
    const SeedsHeldout& h = *r.heldout;
    out.heldout = SeedsHeldoutRecord{h.bits_per_byte,
                                     h.unigram_bits_per_byte,
                                     h.bigram_bits_per_byte,
                                     h.loss_first,
                                     h.loss_middle,
                                     h.loss_last,
                                     interval_rows(h.loss_per_position)};
  }
  if (r.unchecked) out.unchecked_configurations = static_cast<std::int64_t>(r.unchecked);
  return out;
}

nlohmann::json to_json(const TextSeedsRecord& r) {
  return fields_to_json(text_seeds_record_fields(), r);
}

TextSeedsRecord text_seeds_record_from_json(const nlohmann::json& j) {
  auto [r, shift] = read_positioned(text_seeds_record_fields(), j, &TextSeedsRecord::position_base,
                                    "seeds field");
  r.query -= shift;
  for (SeedsCheckpointRecord& c : r.checkpoints) {
    for (std::int64_t& argmin : c.argmin)
      if (argmin > 0) argmin -= shift;
    if (c.profile_shares.shares) rebase_regions(*c.profile_shares.shares, shift);
  }
  return r;
}

}  // namespace posbias
