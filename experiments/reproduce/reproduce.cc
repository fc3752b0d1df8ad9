#include "experiments/reproduce/reproduce.h"

#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "experiments/birth/birth_report.h"
#include "experiments/hops/ablation_report.h"
#include "experiments/hops/hops_report.h"
#include "experiments/hops/presets.h"
#include "experiments/llm/llm_report.h"
#include "experiments/llm/presets.h"
#include "experiments/mech/mech_report.h"
#include "experiments/mech/presets.h"
#include "experiments/mitigations/mitigations_report.h"
#include "experiments/mitigations/presets.h"
#include "experiments/reproduce/reproduce_record.h"
#include "experiments/retrieval/presets.h"
#include "experiments/retrieval/retrieval_report.h"
#include "experiments/text/presets.h"
#include "experiments/text/text_report.h"
#include "experiments/theory/theory_report.h"
#include "posbias/core/atomic_file.h"
#include "posbias/core/machine_record.h"
#include "posbias/core/report.h"

namespace posbias {

void run_reproduce(const ReproduceOptions& options) {
  const std::filesystem::path dir = options.out;
  ensure_directory(dir);
  const auto start = std::chrono::steady_clock::now();
  Report report("posbias: position bias in transformers, reproduced");
  // Each section's wall time goes to run.json, so a page can say what each part costs.
  ReproduceRunRecord run;
  run.config = options;
  run.machine = machine_record();
  const auto timed = [&](const char* name, auto&& make) {
    const auto t0 = std::chrono::steady_clock::now();
    auto made = make();
    run.section_seconds[name] =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return made;
  };
  report.add(timed("theory", [&] { return theory_report_section(dir); }));
  report.add(timed("birth", [&] {
    return birth_report_section(dir, options.full ? BirthPreset::full() : BirthPreset::quick());
  }));
  report.add(timed("text", [&] {
    return text_report_section(dir, options.full ? TextPreset::full() : TextPreset::quick());
  }));
  report.add(timed("retrieval", [&] {
    return retrieval_report_section(
        dir, options.full ? RetrievalPreset::full() : RetrievalPreset::quick());
  }));
  // The hops section's trained runs feed the mech and llm sections.
  const HopsPreset hops_preset = options.full ? HopsPreset::full() : HopsPreset::quick();
  const HopsSection hops = timed("hops", [&] { return hops_report_section(dir, hops_preset); });
  report.add(hops.section);
  report.add(timed("ablation", [&] { return ablation_report_section(dir, hops_preset, hops); }));
  report.add(timed("mech", [&] {
    return mech_report_section(dir, options.full ? MechPreset::full() : MechPreset::quick(), hops);
  }));
  report.add(timed("llm", [&] {
    return llm_report_section(dir, options.full ? LlmPreset::full() : LlmPreset::quick(), hops,
                              {options.endpoint, options.model, options.api, options.api_key_env});
  }));
  report.add(timed("mitigations", [&] {
    return mitigations_report_section(
        dir, options.full ? MitigationsPreset::full() : MitigationsPreset::quick());
  }));
  report.write(dir);
  const double total =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.seconds = total;
  write_file_atomic(dir / "run.json", to_json(run).dump(2) + "\n");
  std::fprintf(stderr, "reproduce: wrote %s in %.0f s (each section's time: %s)\n",
               (dir / "index.html").c_str(), total, (dir / "run.json").c_str());
}

}  // namespace posbias
