// `candor search APP`: schedules an example app for this CPU by searching the Halide CPU
// space (model-only), or with --autotune N also benchmarks the N most promising schedules in
// child processes, then the neighbours of the fastest (a measured local search), and keeps
// the fastest; the result is verified against the reference.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "autotune.h"
#include "budget.h"
#include "commands.h"
#include "dataset.h"
#include "engines.h"
#include "halide_bridge/compile.h"
#include "halide_bridge/directives.h"
#include "halide_bridge/timing_lock.h"
#include "models/halide/machine.h"
#include "pipelines.h"
#include "sample.h"
#include "scheduler.h"

namespace candor::cli {
namespace {

struct SearchOptions {
  std::string app;
  std::string space = "cpu";
  std::string search = "beam";
  std::string budget = "time=30s";
  int autotune = 0;
  double autotune_timeout = 120;
  double autotune_step_timeout = scheduler::AutotuneOptions{}.step_timeout_seconds;
  double autotune_seconds = 0;  // 0: no limit
  double neighbour_share = 0.5;
  std::string journal;
  std::string samples;
  std::string machine;
  int threads = 0;
  int model_threads = 0;
  int runs = 5;
  bool json = false;
  bool explain = false;
  bool no_measure = false;
  std::vector<std::string> pins;
  std::string timing_lock = halide_bridge::default_timing_lock_path();
};

// The analytic model's terms per stage of the chosen schedule, one line each, in ms: where
// the model thinks the time goes (compare with HL_JIT_TARGET=host-profile). "reg": a buffer
// the model keeps in vector registers.
void print_explanation(const models::halide::Prediction& p) {
  static const char* where[] = {"inline", "root", "tile", "subtile"};
  std::cout << fmt::format("{:<28} {:>11} {:>9} {:>7} {:>5} {:>6} {:>7} {:>8} {:>8} {:>8} {:>8}\n", "stage (analytic model)",
                           "where", "recompute", "tasks", "cores", "v.eff", "loads/p", "compute", "load", "store", "total");
  for (const models::halide::StageCost& c : p.stages) {
    const std::string name = c.stage == 0 ? c.func : fmt::format("{}.update({})", c.func, c.stage - 1);
    std::cout << fmt::format("{:<28} {:>11} {:>9.2f} {:>7.0f} {:>5.2f} {:>6.2f} {:>7.2f} {:>8.3f} {:>8.3f} {:>8.3f} {:>8.3f}\n", name,
                             fmt::format("{}{}", c.in_registers ? "reg " : "", where[int(c.where)]), c.recompute,
                             c.parallel_tasks, c.cores_used, c.vector_efficiency, c.loads_per_point,
                             c.compute_s * 1e3, c.load_s * 1e3, c.store_s * 1e3, c.total_s * 1e3);
    const auto& l = c.load_parts;
    std::cout << fmt::format("{:<28} levels {:.3f}, L1 {:.3f}, strided {:.3f}, gathers {:.3f}, column walks {:.3f} ({:.3g} lines); "
                             "stalled (load + store, not overlapped) {:.3f}\n",
                             "  load", l.levels_s * 1e3, l.l1_s * 1e3, l.strided_s * 1e3, l.gathers_s * 1e3,
                             l.column_walk_s * 1e3, c.column_walk_lines, c.stall_s * 1e3);
  }
  std::cout << fmt::format("{:<28} {:>96.3f}\n", "pipeline (ms)", p.seconds * 1e3);
}

void print_progress(const SearchStats& stats, double best_cost) {
  std::string best = best_cost < 1e300 ? fmt::format("{:.3f} ms", best_cost * 1e3) : "none yet";
  std::cerr << fmt::format("\r[search] {:6.1f} s  expanded {:8}  pruned {:8}  best predicted {}   ",
                           stats.seconds > 0 ? stats.seconds : 0.0, stats.expanded, stats.pruned_by_bound, best)
            << std::flush;
}

// Writes every autotuning process's measurements to a dataset file (docs/dataset.md) as
// samples of one batch: the schedules one process timed side by side, on one scale.
class SideBySideSamples {
 public:
  SideBySideSamples(std::string path, const std::string& spec, const halide_bridge::App& app,
                    const scheduler::KernelScheduler& scheduler, const models::halide::MachineDescription& machine)
      : path_(std::move(path)), scheduler_(scheduler), model_(machine) {
    context_.pipeline = app.name;
    context_.random = collect::parse_random_pipeline_spec(spec);
    context_.space = &scheduler.space();
    context_.model = &model_;
    collect::drop_torn_tail(path_);
    known_ = collect::read_keys(path_);
  }

  void add(const std::string& process, const std::vector<size_t>& indices,
           const std::vector<scheduler::ScheduledCandidate>& tried, const std::vector<scheduler::Measurement>& ms) {
    const std::string batch = collect::digest(process);
    for (size_t k = 0; k < indices.size() && k < ms.size(); ++k) {
      const scheduler::ScheduledCandidate& c = tried.at(indices[k]);
      const std::string key = collect::sample_key(context_.pipeline, c.schedule) + "@" + batch;
      if (!known_.insert(key).second) continue;
      collect::DrawnSchedule drawn{"autotune", 0, c.decisions, c.schedule, scheduler_.space().decisions(c.decisions, false)};
      nlohmann::json record = collect::describe_sample(context_, drawn);
      record["key"] = key;
      record["batch"] = batch;
      record["ok"] = ms[k].ok;
      record["failure"] = ms[k].failure;
      record["runtime_ms"] = ms[k].ok ? ms[k].runtime_ms : 0.0;
      record["ratio_to_first"] = ms[k].ratio_to_first;
      record["wall_s"] = ms[k].wall_seconds;
      collect::append_record(path_, record);
    }
  }

 private:
  std::string path_;
  const scheduler::KernelScheduler& scheduler_;
  models::halide::AnalyticModel model_;
  collect::SampleContext context_;
  std::set<std::string> known_;
};

// What a search found and, unless --no-measure, how its pick measured (no `measured`: not
// measured), printed as --json or as text.
struct Measured {
  double runtime_ms = 0, autotune_seconds = 0;
  size_t candidates = 0, neighbours = 0;
  int centre_moves = 0;
  nlohmann::json failures = nlohmann::json::array();
};
int print_result(const SearchOptions& o, const halide_bridge::KernelDescription& kd,
                 const scheduler::KernelScheduler& kernel_scheduler, const scheduler::ScheduleOutcome& outcome,
                 const scheduler::ScheduledCandidate& best, const std::optional<Measured>& measured) {
  const std::string source = halide_bridge::print_schedule(best.schedule, kd);
  if (o.json) {
    nlohmann::json out = {{"app", o.app},
                          {"space", o.space},
                          {"search", o.search},
                          {"cost_model", kernel_scheduler.cost_model_name()},
                          {"search_seconds", outcome.stats.seconds},
                          {"completed_past_time_limit", outcome.completed_past_time_limit},
                          {"predicted_ms", best.predicted_seconds * 1e3},
                          {"lower_bound_ms", best.lower_bound_seconds * 1e3},
                          {"root_lower_bound_ms", outcome.root_lower_bound_seconds * 1e3},
                          {"runtime_ms", measured ? nlohmann::json(measured->runtime_ms) : nlohmann::json()},
                          {"verified", measured.has_value()},
                          {"measured", measured.has_value()},
                          {"nodes", outcome.stats.expanded},
                          {"created", outcome.stats.created},
                          {"pruned", outcome.stats.pruned_by_bound},
                          {"schedule", source},
                          {"schedule_json", best.schedule},
                          {"pins", kernel_scheduler.pins(best)}};
    if (measured) {
      out["autotuned"] = o.autotune > 0;
      out["candidates_measured"] = measured->candidates;
      out["neighbours_measured"] = measured->neighbours;
      out["centre_moves"] = measured->centre_moves;
      out["autotune_seconds"] = measured->autotune_seconds;
      out["failures"] = measured->failures;
    }
    std::cout << out.dump() << "\n";
    return 0;
  }
  std::cout << fmt::format("{}: {} ranked by the {} model in {:.1f} s ({} nodes, {} pruned by the bound)\n",
                           o.app, o.search, kernel_scheduler.cost_model_name(), outcome.stats.seconds,
                           outcome.stats.expanded, outcome.stats.pruned_by_bound);
  std::cout << fmt::format("predicted {:.3f} ms, lower bound {:.3f} ms, {}\n", best.predicted_seconds * 1e3,
                           best.lower_bound_seconds * 1e3,
                           measured ? fmt::format("measured {:.3f} ms (verified)", measured->runtime_ms)
                                    : std::string("not measured (--no-measure)"));
  std::cout << source;
  if (o.explain) print_explanation(best.analytic);
  return 0;
}

int run_search(const SearchOptions& o) {
  namespace hb = halide_bridge;
  if (o.space != "cpu") {
    std::cerr << "candor search: error: --space " << o.space << ": only the cpu space exists so far\n";
    return 1;
  }
  const std::optional<hb::App> app = collect::find_pipeline(o.app);
  if (!app) {
    std::cerr << "candor search: error: unknown app '" << o.app << "' (see `candor apps`, or random:SEED[@SIZE] or layers:SEED[@SIZE], SIZE a power of two from 16 to 4096)\n";
    return 1;
  }
  if (!o.journal.empty()) {
    if (const std::string problem = scheduler::journal_problem(o.journal); !problem.empty()) {
      std::cerr << "candor search: error: " << problem << "\n";
      return 1;
    }
  }
  std::vector<std::pair<std::string, std::string>> pins;
  for (const std::string& pin : o.pins) pins.push_back(parse_pin(pin, "--pin "));
  Budget budget = parse_budget(o.budget);
  const Halide::Target target = hb::host_target();
  // A file named by --machine or $CANDOR_MACHINE is the user's: an unusable one is an error.
  const bool machine_named = !o.machine.empty() || std::getenv("CANDOR_MACHINE") != nullptr;
  models::halide::MachineDescription machine = models::halide::load_or_calibrate(
      o.machine.empty() ? models::halide::default_machine_path() : o.machine, {},
      machine_named ? models::halide::IfUnusable::Fail : models::halide::IfUnusable::Recalibrate);
  hb::KernelDescription kd = hb::describe_app(app->build(), target);

  // Model only, the best few are kept too: a pick that fails to compile or to match the
  // reference (a Halide miscompile) gives way to the next in the model's order.
  constexpr int kModelOnlyFallbacks = 4;
  budget.keep_top = o.autotune > 0 ? o.autotune : kModelOnlyFallbacks;
  if (!o.json) budget.progress = print_progress;
  const std::string timing_lock = halide_bridge::timing_lock_path(o.timing_lock);
  const scheduler::KernelScheduler kernel_scheduler(kd, machine, pins, o.model_threads);
  std::optional<halide_bridge::TimingLock> busy;  // the search keeps the cores busy
  busy.emplace(timing_lock, halide_bridge::TimingLock::Mode::Shared);
  scheduler::ScheduleOutcome outcome = kernel_scheduler.search(o.search, budget);
  busy.reset();  // before the measuring processes take it to time
  if (!o.json) std::cerr << "\n";
  if (outcome.completed_past_time_limit)
    std::cerr << "candor search: the time budget ran out before a complete schedule; one greedy dive completed "
                 "the search (" << outcome.stats.seconds << " s in all)\n";

  // --no-measure: the model's pick, priced but neither compiled nor timed.
  if (o.no_measure) {
    if (outcome.candidates.empty()) {
      std::cerr << "candor search: error: the search found no complete schedule\n";
      return 1;
    }
    return print_result(o, kd, kernel_scheduler, outcome, outcome.candidates.front(), std::nullopt);
  }

  scheduler::AutotuneOptions tune;
  tune.worker = "/proc/self/exe";
  tune.timeout_seconds = o.autotune_timeout;
  tune.step_timeout_seconds = o.autotune_step_timeout;
  tune.journal = o.journal;
  tune.threads = o.threads;
  tune.timed_runs = o.runs;
  tune.timing_lock = timing_lock;
  // The measuring processes share the reference outputs (computed by the first).
  char references[] = "/tmp/candor_references_XXXXXX";
  if (o.autotune > 0 && mkdtemp(references)) tune.reference_cache = references;
  // Model only: the best candidate, measured once (the next ones only if it fails).
  // Autotuning: the N best (the best of each structure first), then the neighbours of the
  // fastest, and the finalists again in fresh processes.
  std::vector<scheduler::ScheduledCandidate> tried;
  if (o.autotune == 0) {
    tried = outcome.candidates;
  } else {
    for (size_t i : kernel_scheduler.measuring_order(outcome.candidates)) tried.push_back(outcome.candidates[i]);
  }
  const size_t searched = tried.size();
  std::vector<hb::Schedule> schedules;
  for (const scheduler::ScheduledCandidate& c : tried) schedules.push_back(c.schedule);
  scheduler::LocalSearch local;
  local.share = o.neighbour_share;
  if (o.autotune > 0 && o.neighbour_share > 0) {
    local.propose = [&](size_t centre) {
      const auto t0 = std::chrono::steady_clock::now();
      std::vector<scheduler::ScheduledCandidate> around = kernel_scheduler.neighbours(tried[centre]);
      const double proposing = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (!o.json)
        std::cerr << fmt::format("[measure] centre: {} ({} neighbours, {:.1f} s)\n",
                                 centre < searched ? fmt::format("candidate {}", centre + 1)
                                                   : fmt::format("neighbour {}", centre + 1 - searched),
                                 around.size(), proposing);
      std::vector<hb::Schedule> proposed;
      for (scheduler::ScheduledCandidate& c : around) {
        proposed.push_back(c.schedule);
        tried.push_back(std::move(c));
      }
      return proposed;
    };
  }
  std::optional<SideBySideSamples> samples;
  if (!o.samples.empty()) samples.emplace(o.samples, o.app, *app, kernel_scheduler, machine);
  scheduler::AutotuneProcessLog processes;
  if (samples)
    processes = [&](const std::string& process, const std::vector<size_t>& indices,
                    const std::vector<scheduler::Measurement>& ms) { samples->add(process, indices, tried, ms); };
  const int finalists = 3, confirmations = o.autotune > 1 ? 2 : 0;
  const scheduler::AutotuneProgress progress = [&](size_t i, int repeat, const scheduler::Measurement& m) {
    if (o.json) return;
    std::string result = m.ok ? fmt::format("measured {:.3f} ms{}", m.runtime_ms, m.from_journal ? " (journal)" : "")
                              : "failed: " + m.failure;
    if (m.ok && i >= searched && repeat == 0) result += fmt::format(", {:.3f}x its centre", m.ratio_to_first);
    const std::string which = i < searched ? fmt::format("candidate {}/{}", i + 1, searched)
                                           : fmt::format("neighbour {}", i + 1 - searched);
    if (repeat == 0) {
      std::cerr << fmt::format("[measure] {}: predicted {:.3f} ms, {}\n", which, tried[i].predicted_seconds * 1e3,
                               result);
    } else {
      std::cerr << fmt::format("[measure] finalist {} again (process {}): {}\n", which, repeat + 1, result);
    }
  };
  scheduler::AutotuneResult tuned =
      o.autotune > 0 ? scheduler::autotune(o.app, schedules, tune, o.autotune_seconds, finalists, confirmations,
                                           progress, local, processes)
                     : scheduler::first_verified(o.app, schedules, tune, progress);
  if (!tune.reference_cache.empty()) std::filesystem::remove_all(tune.reference_cache);
  Measured measured;
  measured.candidates = tuned.measured;
  measured.neighbours = tuned.proposed_measured;
  measured.centre_moves = tuned.centre_moves;
  measured.runtime_ms = tuned.runtime_ms;
  measured.autotune_seconds = tuned.seconds;
  // Each failure names the candidate's decisions, so that `--pin` reproduces it.
  for (const auto& [i, failure] : tuned.failures)
    measured.failures.push_back({{"candidate", i}, {"failure", failure}, {"pins", kernel_scheduler.pins(tried[i])}});
  if (tuned.chosen < 0) {
    std::cerr << "candor search: error: no measured schedule compiled and matched the reference\n";
    for (const auto& f : measured.failures) std::cerr << "  " << f.dump() << "\n";
    return 1;
  }
  return print_result(o, kd, kernel_scheduler, outcome, tried[tuned.chosen], measured);
}

}  // namespace

void register_search_command(CLI::App& app, int& exit_status) {
  auto o = std::make_shared<SearchOptions>();
  CLI::App* cmd = app.add_subcommand("search", "Schedule an example app (see `candor apps`) for this machine");
  cmd->add_option("app", o->app, "the app (see `candor apps`), or random:SEED[@SIZE] for a random image pipeline (SIZExSIZE; default 128) or layers:SEED[@SIZE] for a random DNN-layer pipeline (default 64)")->required();
  cmd->add_option("--space", o->space, "decision space: cpu")->capture_default_str();
  cmd->add_option("--search", o->search, "search engine, NAME or NAME:key=value,...\n" + search_help())
      ->capture_default_str();
  cmd->add_option("--budget", o->budget, "limits: time=30s,nodes=N,kept=N,seed=N")->capture_default_str();
  cmd->add_option("--autotune", o->autotune, "benchmark the N best schedules found and keep the fastest (0: model only)")
      ->capture_default_str()->check(CLI::NonNegativeNumber);
  cmd->add_option("--autotune-timeout", o->autotune_timeout, "seconds allowed to each measured candidate")
      ->capture_default_str();
  cmd->add_option("--autotune-step-timeout", o->autotune_step_timeout,
                  "seconds allowed to one step of a measuring process (a schedule's compile or verification); a "
                  "compile that overruns fails that schedule alone")
      ->capture_default_str()->check(CLI::PositiveNumber);
  cmd->add_option("--autotune-seconds", o->autotune_seconds,
                  "stop measuring candidates when the next one would not fit in this many seconds (0: measure all N)")
      ->capture_default_str()->check(CLI::NonNegativeNumber);
  cmd->add_option("--neighbour-share", o->neighbour_share,
                  "with --autotune-seconds: the share of them spent measuring neighbours of the fastest schedule "
                  "(one decision changed; a faster one becomes the next centre); 0: the N best only")
      ->capture_default_str()->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--journal", o->journal, "append every measurement here (JSON lines) and reuse it on rerun");
  cmd->add_option("--samples", o->samples,
                  "append every schedule measured to this dataset file (docs/dataset.md), one batch per measuring "
                  "process: the schedules it timed side by side")
      ->needs("--autotune");
  cmd->add_option("--machine", o->machine, "machine description (default: build/machine.json, calibrated if missing)");
  cmd->add_option("--threads", o->threads, "worker threads for benchmarks (0: every core)")->capture_default_str();
  cmd->add_option("--model-threads", o->model_threads,
                  "threads the search's cost-model batches are spread over (0: every core); the search's result "
                  "does not depend on it, only how much it covers in a time budget")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--runs", o->runs, "timed runs per benchmark")->capture_default_str()->check(CLI::PositiveNumber);
  cmd->add_flag("--json", o->json, "print one JSON object (app, search_seconds, predicted_ms, lower_bound_ms, "
                                   "runtime_ms, verified, schedule, ...)");
  cmd->add_option("--pin", o->pins, "fix a decision before searching, CHOICE=VALUE (e.g. 'tile(dot.x)=8'); repeatable")
      ->delimiter(',');
  cmd->add_option("--timing-lock", o->timing_lock,
                  "the machine's timing lock: the search holds it shared, measuring processes time under it "
                  "exclusively, so that searches and builds that hold it (`flock -s FILE make`) never run beside "
                  "a timing; 'none': no lock (halide_bridge/timing_lock.h)")
      ->capture_default_str();
  cmd->add_flag("--explain", o->explain, "after the schedule, print the analytic model's terms per stage (ms)");
  cmd->add_flag("--no-measure", o->no_measure,
                "print the model's pick without compiling, verifying or timing it (JSON: runtime_ms null, "
                "verified false): prices pinned variants without disturbing timings beside it")
      ->excludes("--autotune");  // autotuning measures
  cmd->callback([o, &exit_status] {
    try {
      exit_status = run_search(*o);
    } catch (const std::invalid_argument& e) {
      std::cerr << "candor search: error: " << e.what() << "\n";
      exit_status = 1;
    } catch (const std::runtime_error& e) {
      std::cerr << "candor search: error: " << e.what() << "\n";
      exit_status = 1;
    }
  });
}

}  // namespace candor::cli
