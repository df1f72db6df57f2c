// corpus_try: one corpus generator's hand-written schedule checked and timed, with --naive
// next to Halide's default schedule (everything inline: hours where reductions feed
// reductions) and with --stock next to Halide 14's stock autoschedulers: the tool for
// writing a corpus generator (README.md). It runs the generators it is linked with, by the
// name each was registered as; not through the corpus list, so that a new generator can be
// tried by linking its file alone. Every schedule is verified against the reference (every
// Func at the root); prints one line per schedule (median of --runs timed runs on every
// core, or why it failed) and exits 1 when the hand schedule fails.
#include <Halide.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include "generator_app.h"
#include "halide_bridge/compile.h"
#include "halide_bridge/profile.h"
#include "stock_schedulers.h"

namespace {

namespace hb = candor::halide_bridge;

std::string line_of(const std::string& label, const hb::EvalResult& r) {
  if (!r.ok) return label + ": FAILED at " + r.failed_step + ": " + r.error;
  char text[200];
  std::snprintf(text, sizeof text, "%-14s %10.3f ms  (compile %.0f ms, max error %.3g)", label.c_str(), r.median_ms,
                r.compile_ms, r.max_abs_error);
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"Check and time a corpus generator's hand-written schedule (bench/corpus/README.md)"};
  std::string name;
  bool stock = false, naive = false, profile = false;
  int runs = 10;
  cli.add_option("generator", name, "the generator's registered name")->required();
  cli.add_flag("--naive", naive, "also time Halide's default schedule (everything inline)");
  cli.add_flag("--profile", profile, "also print where the hand schedule's time goes, Func by Func (Halide's profiler)");
  cli.add_flag("--stock", stock, "also time Mullapudi2016, Adams2019 and Li2018's schedules");
  cli.add_option("--runs", runs, "timed runs per schedule (the median is printed)")->check(CLI::PositiveNumber);
  CLI11_PARSE(cli, argc, argv);
  try {
    const hb::App app = candor::corpus::generator_app(name, "");
    const Halide::Target target = hb::host_target();
    hb::set_jit_threads(0, target);
    const hb::Outputs reference = hb::reference_outputs(app, target);
    hb::RunOptions run;
    run.timed_runs = runs;
    if (naive) std::printf("%s\n", line_of("naive", hb::evaluate_instance(app.build(), reference, target, run)).c_str());
    hb::AppInstance expert = app.build();
    expert.apply_expert_schedule(target);
    const hb::EvalResult hand = hb::evaluate_instance(expert, reference, target, run);
    std::printf("%s\n", line_of("hand-written", hand).c_str());
    if (profile && hand.ok) {
      hb::AppInstance profiled = app.build();
      profiled.apply_expert_schedule(target);
      const hb::FuncProfile p = hb::profile_instance(profiled, target, hb::profile_runs_for(hand.median_ms));
      for (const auto& [func, ms] : p.func_ms) std::printf("  %-24s %10.3f ms\n", func.c_str(), ms);
      std::printf("  %-24s %10.3f ms  (%d samples)\n", "(profiled run)", p.total_ms, p.samples);
    }
    for (const std::string& scheduler : stock ? candor::bench::stock_schedulers() : std::vector<std::string>{}) {
      hb::AppInstance inst = app.build();
      try {
        Halide::load_plugin(candor::bench::stock_plugin_path(scheduler));
        inst.pipeline().auto_schedule(scheduler, target, candor::bench::stock_machine_params(scheduler));
      } catch (const std::exception& e) {
        std::printf("%s: FAILED to schedule: %s\n", scheduler.c_str(), e.what());
        continue;
      }
      std::printf("%s\n", line_of(scheduler, hb::evaluate_instance(inst, reference, target, run)).c_str());
    }
    return hand.ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "corpus_try: error: %s\n", e.what());
    return 1;
  }
}
