// `candor measure APP --schedule FILE`: compiles a schedule (halide_bridge JSON) on a fresh
// instance of an app, verifies it against the reference, and benchmarks it. Autotuning runs
// it as a child process, so a candidate that crashes or hangs takes only this process down.
#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "apps.h"
#include "commands.h"
#include "halide_bridge/compile.h"

namespace candor::cli {
namespace {

struct MeasureOptions {
  std::string app;
  std::string schedule_file;
  int threads = 0;
  int runs = 5;
  bool json = false;
};

int run_measure(const MeasureOptions& o) {
  namespace hb = halide_bridge;
  const hb::App* app = apps::find_app(o.app);
  if (!app) {
    std::cerr << "candor measure: error: unknown app '" << o.app << "' (see `candor apps`)\n";
    return 1;
  }
  std::ifstream in(o.schedule_file);
  if (!in) {
    std::cerr << "candor measure: error: cannot read " << o.schedule_file << "\n";
    return 1;
  }
  nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (j.is_discarded()) {
    std::cerr << "candor measure: error: " << o.schedule_file << " is not JSON\n";
    return 1;
  }
  hb::Schedule schedule;
  try {
    schedule = j.get<hb::Schedule>();
  } catch (const std::exception& e) {
    std::cerr << "candor measure: error: " << o.schedule_file << ": not a schedule: " << e.what() << "\n";
    return 1;
  }
  const Halide::Target target = hb::host_target();
  hb::set_jit_threads(o.threads, target);
  hb::KernelDescription kd = hb::describe_app(app->build(), target);
  hb::Outputs reference = hb::reference_outputs(*app, target);
  hb::RunOptions options;
  options.threads = o.threads;
  options.timed_runs = o.runs;
  hb::EvalResult r = hb::evaluate_schedule(*app, schedule, kd, reference, target, options);
  if (o.json) {
    nlohmann::json out = {{"app", o.app},          {"verified", r.ok},          {"runtime_ms", r.median_ms},
                          {"compile_ms", r.compile_ms}, {"failed_step", r.failed_step}, {"error", r.error},
                          {"run_ms", r.run_ms}};
    std::cout << out.dump() << std::endl;
  } else if (r.ok) {
    std::cout << fmt::format("{}: verified, {:.3f} ms (median of {}), compiled in {:.0f} ms\n", o.app,
                             r.median_ms, o.runs, r.compile_ms);
  } else {
    std::cout << fmt::format("{}: failed at {}: {}\n", o.app, r.failed_step, r.error);
  }
  return r.ok ? 0 : 1;
}

}  // namespace

void register_measure_command(CLI::App& app, int& exit_status) {
  auto o = std::make_shared<MeasureOptions>();
  CLI::App* cmd = app.add_subcommand(
      "measure", "Compile, verify and benchmark a schedule (JSON, as `candor search --json` writes) on an app");
  cmd->add_option("app", o->app, "the app (see `candor apps`)")->required();
  cmd->add_option("--schedule", o->schedule_file, "the schedule, as JSON")->required();
  cmd->add_option("--threads", o->threads, "worker threads (0: every core)")->capture_default_str();
  cmd->add_option("--runs", o->runs, "timed runs; the median is reported")->capture_default_str()->check(CLI::PositiveNumber);
  cmd->add_flag("--json", o->json, "print one JSON object");
  cmd->callback([o, &exit_status] { exit_status = run_measure(*o); });
}

}  // namespace candor::cli
