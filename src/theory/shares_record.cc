#include "posbias/theory/shares_record.h"

#include <utility>

namespace posbias {
namespace {

// One row per region (its name the key), each written only when the region holds a statistic.
template <class S>
std::vector<FieldRow<S>> region_fields(RegionStatistics S::*member, const std::string& help) {
  std::vector<FieldRow<S>> rows;
  for (ShareRegion region : kShareRegions) {
    const auto k = static_cast<std::size_t>(region);
    FieldRow<S> row = optional_field<S, SeedStatistic>(
        to_string(region), static_cast<std::optional<SeedStatistic> S::*>(nullptr), help);
    row.write = [member, k](const S& s) { return to_json(*(s.*member)[k]); };
    row.read = [member, k, key = row.name](const nlohmann::json& j, S& s, const std::string& what) {
      (s.*member)[k] = FieldCodec<SeedStatistic>::read(j, field_what(what, key));
    };
    row.present = [member, k](const S& s) { return (s.*member)[k].has_value(); };
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace

const std::vector<FieldRow<SharesRecord>>& shares_record_fields() {
  using R = SharesRecord;
  static const std::vector<FieldRow<R>> rows = [] {
    std::vector<FieldRow<R>> r = {
        required(field("regions", &R::regions, "each region's first and last position")),
        optional_field("unavailable", &R::unavailable,
                       "why the profile has no such region (too short)"),
    };
    for (auto& row : region_fields(&R::share, "the region's share of the influence"))
      r.push_back(std::move(row));
    return r;
  }();
  return rows;
}

const std::vector<FieldRow<UTestRecord>>& u_test_record_fields() {
  using U = UTestRecord;
  static const std::vector<FieldRow<U>> rows = {
      required(field("verdict", &U::verdict, "U, no U, or not testable")),
      field("basis", &U::basis, "how the verdict was reached"),
      field("reason", &U::reason, "why the verdict is what it is"),
      field("rule", &U::rule, "the test's rule"),
      optional_field("middle_vs_primacy", &U::middle_vs_primacy,
                     "log10 of the middle's per-position share over primacy's"),
      optional_field("middle_vs_recency", &U::middle_vs_recency,
                     "log10 of the middle's per-position share over recency's"),
  };
  return rows;
}

const std::vector<FieldRow<ShareChangeRecord>>& share_change_record_fields() {
  using C = ShareChangeRecord;
  static const std::vector<FieldRow<C>> rows = [] {
    std::vector<FieldRow<C>> r = {
        field("scale", &C::scale, "what each value is"),
        optional_field("from_step", &C::from_step, "the earlier checkpoint's step"),
        optional_field("to_step", &C::to_step, "the later checkpoint's step"),
    };
    for (auto& row : region_fields(&C::change, "the region's log10 share change per seed"))
      r.push_back(std::move(row));
    return r;
  }();
  return rows;
}

const std::vector<FieldRow<ProfileSharesRecord>>& profile_shares_record_fields() {
  using P = ProfileSharesRecord;
  static const std::vector<FieldRow<P>> rows = {
      optional_field("shares", &P::shares, "the profile's U by its parts"),
      optional_field("u_test", &P::u_test, "the U test over its seeds"),
  };
  return rows;
}

SharesRecord shares_record(const SharesOverSeeds& s) {
  SharesRecord r;
  for (ShareRegion region : kShareRegions) {
    const auto k = static_cast<std::size_t>(region);
    const RegionSpan& span = s.regions[k];
    if (!span.present()) {
      if (!r.unavailable) r.unavailable.emplace();
      (*r.unavailable)[to_string(region)] = span.absent;
      continue;
    }
    r.regions[to_string(region)] = {span.first, span.last};
    r.share[k] = s.share[k];
  }
  return r;
}

UTestRecord u_test_record(const UTest& t) {
  UTestRecord r{t.verdict,
                t.basis,
                t.reason,
                "U when both differences (log10 of the middle's per-position share over "
                "primacy's, and over recency's) have their 95% interval over seeds below 0",
                std::nullopt,
                std::nullopt};
  if (t.verdict != "not testable" || !t.middle_vs_primacy.values.empty()) {
    r.middle_vs_primacy = t.middle_vs_primacy;
    r.middle_vs_recency = t.middle_vs_recency;
  }
  return r;
}

ProfileSharesRecord profile_shares_record(const SharesOverSeeds& s) {
  return {shares_record(s), u_test_record(s.u)};
}

void rebase_regions(SharesRecord& record, std::int64_t shift) {
  for (auto& [name, span] : record.regions)
    for (std::int64_t& position : span) position -= shift;
}

ShareChangeRecord share_change_record(const SharesOverSeeds& first, const SharesOverSeeds& last) {
  const std::array<SeedStatistic, 4> change = share_change(first, last);
  ShareChangeRecord r;
  r.scale = "log10(share at the later step / share at the earlier), per seed";
  for (std::size_t k = 0; k < change.size(); ++k)
    if (first.regions[k].present()) r.change[k] = change[k];
  return r;
}

nlohmann::json to_json(const SharesRecord& r) { return fields_to_json(shares_record_fields(), r); }
nlohmann::json to_json(const UTestRecord& r) { return fields_to_json(u_test_record_fields(), r); }
nlohmann::json to_json(const ShareChangeRecord& r) {
  return fields_to_json(share_change_record_fields(), r);
}

}  // namespace posbias
