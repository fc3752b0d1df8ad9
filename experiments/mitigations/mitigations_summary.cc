#include "experiments/mitigations/mitigations_summary.h"

#include <nlohmann/json.hpp>

namespace posbias {

const std::vector<FieldRow<MitigationsSummary>>& mitigations_summary_fields() {
  using S = MitigationsSummary;
  using RowsCodec = ListCodec<RemedyRow, TableCodec<RemedyRow, &remedy_row_fields>>;
  static const std::vector<FieldRow<S>> rows = {
      field("preset", &S::preset, "the preset's name"),
      field("describe", &S::describe, "the preset in one line"),
      field("seeds", &S::seeds, "kv seeds, paired by seed"),
      field("scale", &S::scale, "how a row's effects are computed"),
      field<S, std::vector<RemedyRow>, RowsCodec>("rows", &S::rows,
                                                  "every remedy against its baseline"),
  };
  return rows;
}

nlohmann::json to_json(const MitigationsSummary& s) {
  return fields_to_json(mitigations_summary_fields(), s);
}

}  // namespace posbias
