// `candor measure APP --schedule FILE`: compiles a schedule (halide_bridge JSON) on a fresh
// instance of an app (or of a generated pipeline, "random:SEED" or "layers:SEED"), verifies it against the
// reference, and benchmarks it. Autotuning and sample collection run it as a child process,
// so a candidate that crashes or hangs takes only this process down; with
// --reference-cache, the reference outputs are computed once per pipeline, not per schedule;
// with --interleave, several schedules are timed side by side, run by run; with --timing-lock,
// processes that share the lock never time while another one compiles.
#include <fmt/format.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "commands.h"
#include "halide_bridge/compile.h"
#include "halide_bridge/timing_lock.h"
#include "halide_bridge/validate.h"
#include "pipelines.h"
#include "reference_cache.h"

namespace candor::cli {
namespace {

struct MeasureOptions {
  std::string app;
  std::string schedule_file;
  std::string schedules_file;
  std::string reference_cache;
  std::string timing_lock;
  std::string assembly_dir;
  int threads = 0;
  int runs = 5;
  bool json = false;
  bool interleave = false;
  bool progress_lines = false;
  double min_seconds = 0.5;
  bool min_seconds_given = false;  // without --interleave, --min-seconds applies only when given
};

// The schedules to measure: one JSON document (--schedule) or one per line (--schedules).
// Prints the problem and returns false when a file cannot be read or holds no schedule.
bool read_schedules(const MeasureOptions& o, std::vector<halide_bridge::Schedule>& schedules) {
  const bool one = !o.schedule_file.empty();
  const std::string& file = one ? o.schedule_file : o.schedules_file;
  std::ifstream in(file);
  if (!in) {
    std::cerr << "candor measure: error: cannot read " << file << "\n";
    return false;
  }
  std::vector<std::string> texts;
  if (one) {
    texts.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  } else {
    for (std::string line; std::getline(in, line);)
      if (line.find_first_not_of(" \t\r") != std::string::npos) texts.push_back(line);
  }
  for (size_t i = 0; i < texts.size(); ++i) {
    const std::string where = one ? file : file + ":" + std::to_string(i + 1);
    nlohmann::json j = nlohmann::json::parse(texts[i], nullptr, false);
    if (j.is_discarded()) {
      std::cerr << "candor measure: error: " << where << " is not JSON\n";
      return false;
    }
    try {
      schedules.push_back(j.get<halide_bridge::Schedule>());
    } catch (const std::exception& e) {
      std::cerr << "candor measure: error: " << where << ": not a schedule: " << e.what() << "\n";
      return false;
    }
  }
  return true;
}

// Every schedule to measure writes out every decision: one that leaves Funcs or stages to
// Halide's defaults would be measured as something other than what its file says.
bool complete_schedules(const MeasureOptions& o, const std::vector<halide_bridge::Schedule>& schedules,
                        const halide_bridge::KernelDescription& kd) {
  const bool one = !o.schedule_file.empty();
  for (size_t i = 0; i < schedules.size(); ++i) {
    const std::vector<std::string> missing = halide_bridge::missing_decisions(schedules[i], kd);
    if (missing.empty()) continue;
    std::cerr << "candor measure: error: " << (one ? o.schedule_file : o.schedules_file + ":" + std::to_string(i + 1))
              << ": incomplete schedule for " << o.app << ":\n";
    for (const std::string& m : missing) std::cerr << "  " << m << "\n";
    return false;
  }
  return true;
}

int run_measure(const MeasureOptions& o) {
  namespace hb = halide_bridge;
  const std::optional<hb::App> app = collect::find_pipeline(o.app);
  if (!app) {
    std::cerr << "candor measure: error: unknown app '" << o.app << "' (see `candor apps`, or random:SEED[@SIZE] or layers:SEED[@SIZE], SIZE a power of two from 16 to 4096)\n";
    return 1;
  }
  if (o.schedule_file.empty() && o.schedules_file.empty()) {
    std::cerr << "candor measure: error: give the schedule to measure (--schedule FILE or --schedules FILE)\n";
    return 1;
  }
  std::vector<hb::Schedule> schedules;
  if (!read_schedules(o, schedules)) return 1;
  const Halide::Target target = hb::host_target();
  hb::set_jit_threads(o.threads, target);
  hb::KernelDescription kd;
  hb::Outputs reference;
  const std::string timing_lock = hb::timing_lock_path(o.timing_lock);
  try {
    // Released before the measurements, which take it again (shared, then exclusive).
    const hb::TimingLock shared(timing_lock, hb::TimingLock::Mode::Shared);
    kd = hb::describe_app(app->build(), target);
    reference = collect::cached_reference_outputs(*app, target, o.reference_cache);
    if (!o.assembly_dir.empty()) {
      const hb::AotResult r = hb::compile_schedule_aot(*app, schedules.at(0), kd, hb::aot_host_target(),
                                                       o.assembly_dir, hb::AotOutput::Assembly);
      if (!r.ok) {
        std::cerr << "candor measure: error: " << o.app << ": no assembly: " << r.error << "\n";
        return 1;
      }
      std::cerr << "assembly: " << r.object_file << "\n";
    }
  } catch (const hb::BridgeError& e) {
    std::cerr << "candor measure: error: " << o.app << ": " << e.what() << "\n";
    return 1;
  }
  if (!complete_schedules(o, schedules, kd)) return 1;
  if (o.progress_lines) std::cout << nlohmann::json{{"step", "reference"}}.dump() << std::endl;
  hb::RunOptions options;
  options.threads = o.threads;
  options.timed_runs = o.runs;
  options.min_timed_seconds = o.interleave || o.min_seconds_given ? o.min_seconds : 0;
  options.timing_lock = timing_lock;
  if (o.progress_lines) {
    // Rounds of a fast pipeline's timed runs come thousands a second: one line a second says
    // as much to a watchdog.
    auto last_line = std::chrono::steady_clock::now();
    options.on_step = [last_line](const char* step, size_t index) mutable {
      const auto now = std::chrono::steady_clock::now();
      if (std::strcmp(step, "timed") == 0 && now - last_line < std::chrono::seconds(1)) return;
      last_line = now;
      std::cout << nlohmann::json{{"step", step}, {"index", index}}.dump() << std::endl;
    };
  }
  auto print = [&](const hb::EvalResult& r) {
    if (o.json || !o.schedules_file.empty()) {
      // One line per schedule, flushed at once: a caller reading a batch sees every result
      // that was complete before a crash.
      nlohmann::json out = {{"app", o.app},          {"verified", r.ok},          {"runtime_ms", r.median_ms},
                            {"compile_ms", r.compile_ms}, {"failed_step", r.failed_step}, {"error", r.error},
                            {"run_ms", r.run_ms}};
      if (o.interleave) out["ratio_to_first"] = r.ratio_to_first;
      std::cout << out.dump() << std::endl;
    } else if (r.ok) {
      std::cout << fmt::format("{}: verified, {:.3f} ms (median of {}), compiled in {:.0f} ms\n", o.app,
                               r.median_ms, o.runs, r.compile_ms);
    } else {
      std::cout << fmt::format("{}: failed at {}: {}\n", o.app, r.failed_step, r.error);
    }
  };
  bool all_ok = true;
  if (o.interleave) {
    for (const hb::EvalResult& r : hb::evaluate_interleaved(*app, schedules, kd, reference, target, options)) {
      all_ok = all_ok && r.ok;
      print(r);
    }
  } else {
    for (size_t i = 0; i < schedules.size(); ++i) {
      hb::RunOptions one = options;  // steps numbered by the schedule's place in the file
      if (options.on_step) one.on_step = [&](const char* step, size_t) { options.on_step(step, i); };
      const hb::EvalResult r = hb::evaluate_schedule(*app, schedules[i], kd, reference, target, one);
      all_ok = all_ok && r.ok;
      print(r);
    }
  }
  return all_ok ? 0 : 1;
}

}  // namespace

void register_measure_command(CLI::App& app, int& exit_status) {
  auto o = std::make_shared<MeasureOptions>();
  CLI::App* cmd = app.add_subcommand(
      "measure", "Compile, verify and benchmark a schedule (JSON, as `candor search --json` writes) on an app or a random pipeline");
  cmd->add_option("app", o->app, "the app (see `candor apps`), or random:SEED[@SIZE] for a random image pipeline (SIZExSIZE; default 128) or layers:SEED[@SIZE] for a random DNN-layer pipeline (default 64)")->required();
  CLI::Option* one = cmd->add_option("--schedule", o->schedule_file, "the schedule, as JSON");
  CLI::Option* many = cmd->add_option("--schedules", o->schedules_file,
                                      "several schedules, one JSON a line, measured in turn in this process "
                                      "(one JSON result a line, as each is done)");
  one->excludes(many);
  cmd->add_option("--assembly", o->assembly_dir,
                  "with --schedule: also compile it ahead of time for this machine and write the assembly "
                  "into this folder (its path is printed on standard error)")
      ->needs(one);
  cmd->add_flag("--interleave", o->interleave,
                "with --schedules: compile and verify them all, then time them in rounds (one run of each "
                "per round) so that the machine's drift hits them alike; each line adds ratio_to_first, "
                "the median over rounds of its time over the first schedule's")
      ->needs(many);
  CLI::Option* min_seconds =
      cmd->add_option("--min-seconds", o->min_seconds,
                      "further timed runs (with --interleave: rounds) until they took this long in all "
                      "(default: 0.5 with --interleave, else 0)")
          ->check(CLI::NonNegativeNumber);
  cmd->add_option("--threads", o->threads, "worker threads (0: every core)")->capture_default_str();
  cmd->add_option("--runs", o->runs, "timed runs; the median is reported")->capture_default_str()->check(CLI::PositiveNumber);
  cmd->add_flag("--json", o->json, "print one JSON object");
  cmd->add_option("--reference-cache", o->reference_cache,
                  "folder caching the reference outputs per pipeline (computed by the first measurement)");
  cmd->add_option("--timing-lock", o->timing_lock,
                  "a machine-wide lock file: compile while holding it shared, verify and time while holding it "
                  "exclusively; 'none' or none given: no lock (halide_bridge/timing_lock.h)");
  cmd->add_flag("--progress-lines", o->progress_lines,
                "also print a JSON line {\"step\": ..., \"index\": ...} as each step ends (\"reference\" once the "
                "reference outputs are ready; \"compiled\" and \"verified\" with the schedule's index; \"timed\" with "
                "the round's): a caller's watchdog can tell which schedule's step hangs");
  cmd->callback([o, min_seconds, &exit_status] {
    o->min_seconds_given = min_seconds->count() > 0;
    exit_status = run_measure(*o);
  });
}

}  // namespace candor::cli
