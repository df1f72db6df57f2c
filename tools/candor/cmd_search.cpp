// `candor search APP`: schedules an example app for this CPU by searching the Halide CPU
// space (model-only), or with --autotune N also benchmarks the N most promising schedules in
// child processes, then the neighbours of the fastest (a measured local search), and keeps
// the fastest; the result is verified against the reference. run_search (search_run.h) is
// the search and its measurements, which `candor report` shares.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "autotune.h"
#include "budget_text.h"
#include "commands.h"
#include "dataset.h"
#include "engines.h"
#include "halide_bridge/compile.h"
#include "halide_bridge/directives.h"
#include "halide_bridge/naming.h"
#include "halide_bridge/profile.h"
#include "halide_bridge/timing_lock.h"
#include "models/halide/machine.h"
#include "pipelines.h"
#include "sample.h"
#include "scheduler.h"
#include "search_plot.h"
#include "search_run.h"
#include "support/progress.h"

namespace candor::cli {
namespace {

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

// Per Func of the pick: the analytic model's time (its stages summed) next to the time
// Halide's profiler measured in that Func's loops (both ms per run); the Funcs the model
// prices but the profiler does not see are inlined or computed inside another's loops.
struct FuncTimes {
  std::string func;
  double predicted_ms = 0;
  double measured_ms = -1;  // -1: not in the profile
};

std::vector<FuncTimes> func_times(const models::halide::Prediction& p, const halide_bridge::FuncProfile& profile,
                                  const halide_bridge::AppInstance& inst, double& unmatched_ms) {
  std::vector<Halide::Internal::Function> outputs;
  for (const Halide::Func& f : inst.outputs) outputs.push_back(f.function());
  const halide_bridge::PipelineNames names = halide_bridge::pipeline_names(outputs);
  std::map<std::string, double> measured;  // by canonical name
  unmatched_ms = 0;
  for (const auto& [halide_name, ms] : profile.func_ms) {
    auto it = names.canonical.find(halide_name);
    if (it != names.canonical.end()) measured[it->second] += ms;
    else unmatched_ms += ms;  // allocation, wrappers the schedule made
  }
  std::vector<FuncTimes> rows;
  for (const models::halide::StageCost& c : p.stages) {
    if (rows.empty() || rows.back().func != c.func) rows.push_back({c.func, 0, -1});
    rows.back().predicted_ms += c.total_s * 1e3;
  }
  for (FuncTimes& r : rows)
    if (auto it = measured.find(r.func); it != measured.end()) r.measured_ms = it->second;
  return rows;
}

// The pick profiled (it verified when it was measured), or nothing when it cannot be.
std::optional<halide_bridge::FuncProfile> profile_pick(const SearchRun& run, halide_bridge::AppInstance& inst) {
  const Halide::Target target = halide_bridge::host_target();
  std::string step, error;
  if (!halide_bridge::scheduled_instance(run.app, run.pick().schedule, run.kd, target, inst, step, error)) {
    std::cerr << "candor search: cannot profile the pick: " << step << ": " << error << "\n";
    return std::nullopt;
  }
  halide_bridge::set_jit_threads(run.options.threads, target);
  try {
    return halide_bridge::profile_instance(inst, target, halide_bridge::profile_runs_for(run.tuned.runtime_ms));
  } catch (const std::exception& e) {
    std::cerr << "candor search: cannot profile the pick: " << e.what() << "\n";
    return std::nullopt;
  }
}

void print_func_times(const std::vector<FuncTimes>& rows, const halide_bridge::FuncProfile& profile,
                      double predicted_ms, double unmatched_ms) {
  std::cout << fmt::format("\n{:<28} {:>14} {:>14} {:>9}\n", "func (Halide's profiler)", "analytic ms", "measured ms",
                           "meas/pred");
  for (const FuncTimes& r : rows) {
    const std::string measured = r.measured_ms < 0 ? "inside others" : fmt::format("{:.3f}", r.measured_ms);
    const std::string ratio =
        r.measured_ms <= 0 || r.predicted_ms <= 0 ? "" : fmt::format("{:.2f}", r.measured_ms / r.predicted_ms);
    std::cout << fmt::format("{:<28} {:>14.3f} {:>14} {:>9}\n", r.func, r.predicted_ms, measured, ratio);
  }
  if (unmatched_ms > 0) std::cout << fmt::format("{:<28} {:>14} {:>14.3f}\n", "(allocation, other)", "", unmatched_ms);
  std::cout << fmt::format("{:<28} {:>14.3f} {:>14.3f} {:>9.2f}   ({} samples over {} runs)\n", "pipeline",
                           predicted_ms, profile.total_ms, predicted_ms > 0 ? profile.total_ms / predicted_ms : 0.0,
                           profile.samples, profile.runs);
}

// The search's state for its progress line.
std::string search_state(const SearchStats& stats, double best_cost) {
  const std::string best = best_cost < 1e300 ? fmt::format("{:.3f} ms", best_cost * 1e3) : "none yet";
  return fmt::format("expanded {}, pruned {}, best predicted {}", stats.expanded, stats.pruned_by_bound, best);
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

// The pick, and with --top the K best schedules, as --json or as text (with --explain, the
// analytic model's terms of the pick).
void print_result(const SearchRun& run, bool explain) {
  const SearchOptions& o = run.options;
  const scheduler::ScheduleOutcome& outcome = run.outcome;
  const scheduler::ScheduledCandidate& best = run.pick();
  const std::string source = halide_bridge::print_schedule(best.schedule, run.kd);
  if (o.json) {
    nlohmann::json out = {{"app", o.app},
                          {"space", o.space},
                          {"search", o.search},
                          {"cost_model", run.scheduler->cost_model_name()},
                          {"search_seconds", outcome.stats.seconds},
                          {"completed_past_time_limit", outcome.completed_past_time_limit},
                          {"predicted_ms", best.predicted_seconds * 1e3},
                          {"lower_bound_ms", best.lower_bound_seconds * 1e3},
                          {"root_lower_bound_ms", outcome.root_lower_bound_seconds * 1e3},
                          {"runtime_ms", run.measured ? nlohmann::json(run.tuned.runtime_ms) : nlohmann::json()},
                          {"verified", run.measured},
                          {"measured", run.measured},
                          {"nodes", outcome.stats.expanded},
                          {"created", outcome.stats.created},
                          {"pruned", outcome.stats.pruned_by_bound},
                          {"schedule", source},
                          {"schedule_json", best.schedule},
                          {"pins", run.scheduler->pins(best)}};
    if (run.measured) {
      out["autotuned"] = o.autotune > 0;
      out["candidates_measured"] = run.tuned.measured;
      out["neighbours_measured"] = run.tuned.proposed_measured;
      out["centre_moves"] = run.tuned.centre_moves;
      out["autotune_seconds"] = run.tuned.seconds;
      out["failures"] = failures_json(run);
    }
    if (explain && run.measured) {
      halide_bridge::AppInstance inst;
      if (const auto profile = profile_pick(run, inst)) {
        double unmatched = 0;
        nlohmann::json funcs = nlohmann::json::array();
        for (const FuncTimes& r : func_times(best.analytic, *profile, inst, unmatched))
          funcs.push_back({{"func", r.func},
                           {"analytic_ms", r.predicted_ms},
                           {"measured_ms", r.measured_ms < 0 ? nlohmann::json() : nlohmann::json(r.measured_ms)}});
        out["profile"] = {{"funcs", funcs},
                          {"analytic_ms", best.analytic.seconds * 1e3},
                          {"measured_ms", profile->total_ms},
                          {"other_ms", unmatched},
                          {"samples", profile->samples}};
      }
    }
    if (o.top > 0) {
      nlohmann::json top = nlohmann::json::array();
      for (size_t i = 0; i < run.top_count(); ++i) {
        const scheduler::ScheduledCandidate& c = outcome.candidates[i];
        const std::optional<scheduler::Measurement>& m = run.top_measurements[i];
        top.push_back({{"rank", i + 1},
                       {"predicted_ms", c.predicted_seconds * 1e3},
                       {"lower_bound_ms", c.lower_bound_seconds * 1e3},
                       {"runtime_ms", m && m->ok ? nlohmann::json(m->runtime_ms) : nlohmann::json()},
                       {"verified", m && m->ok},
                       {"measured", m.has_value()},
                       {"failure", m && !m->ok ? nlohmann::json(m->failure) : nlohmann::json()},
                       {"schedule", halide_bridge::print_schedule(c.schedule, run.kd)},
                       {"schedule_json", c.schedule},
                       {"pins", run.scheduler->pins(c)}});
      }
      out["top"] = std::move(top);
    }
    std::cout << out.dump() << "\n";
    return;
  }
  std::cout << fmt::format("{}: {} ranked by the {} model in {:.1f} s ({} nodes, {} pruned by the bound)\n",
                           o.app, o.search, run.scheduler->cost_model_name(), outcome.stats.seconds,
                           outcome.stats.expanded, outcome.stats.pruned_by_bound);
  std::cout << fmt::format("predicted {:.3f} ms, lower bound {:.3f} ms, {}\n", best.predicted_seconds * 1e3,
                           best.lower_bound_seconds * 1e3,
                           run.measured ? fmt::format("measured {:.3f} ms (verified)", run.tuned.runtime_ms)
                                        : std::string("not measured (--no-measure)"));
  std::cout << source;
  if (explain) {
    print_explanation(best.analytic);
    halide_bridge::AppInstance inst;
    const auto profile = run.measured ? profile_pick(run, inst) : std::nullopt;
    if (profile) {
      double unmatched = 0;
      const std::vector<FuncTimes> rows = func_times(best.analytic, *profile, inst, unmatched);
      print_func_times(rows, *profile, best.analytic.seconds * 1e3, unmatched);
    }
  }
  if (o.top > 0) {
    std::cout << fmt::format("\nthe {} best schedules by predicted cost:\n", run.top_count());
    for (size_t i = 0; i < run.top_count(); ++i) {
      const scheduler::ScheduledCandidate& c = outcome.candidates[i];
      const std::optional<scheduler::Measurement>& m = run.top_measurements[i];
      std::cout << fmt::format("\n#{}: predicted {:.3f} ms, lower bound {:.3f} ms, {}\n", i + 1,
                               c.predicted_seconds * 1e3, c.lower_bound_seconds * 1e3, measurement_text(m));
      std::cout << halide_bridge::print_schedule(c.schedule, run.kd);
    }
  }
}

}  // namespace

size_t SearchRun::top_count() const { return std::min(size_t(std::max(options.top, 0)), outcome.candidates.size()); }

std::string SearchRun::label(size_t i) const {
  if (i < searched) return fmt::format("candidate {}", i + 1);
  if (i < neighbours_end) return fmt::format("neighbour {}", i + 1 - searched);
  for (size_t r = 0; r < outcome.candidates.size(); ++r)
    if (outcome.candidates[r].schedule == tried.at(i).schedule) return fmt::format("#{} by predicted cost", r + 1);
  return fmt::format("schedule {}", i + 1);
}

nlohmann::json failures_json(const SearchRun& run) {
  // Each failure names the candidate's decisions, so that `--pin` reproduces it.
  nlohmann::json out = nlohmann::json::array();
  for (const auto& [i, failure] : run.tuned.failures)
    out.push_back({{"candidate", i}, {"failure", failure}, {"pins", run.scheduler->pins(run.tried.at(i))}});
  return out;
}

int run_reporting_errors(const std::string& name, const std::function<int()>& command) {
  try {
    return command();
  } catch (const std::invalid_argument& e) {
    std::cerr << "candor " << name << ": error: " << e.what() << "\n";
  } catch (const std::runtime_error& e) {
    std::cerr << "candor " << name << ": error: " << e.what() << "\n";
  }
  return 1;
}

std::string measurement_text(const std::optional<scheduler::Measurement>& m) {
  if (!m) return "not measured";
  return m->ok ? fmt::format("measured {:.3f} ms (verified)", m->runtime_ms) : "failed: " + m->failure;
}

void add_search_options(CLI::App& cmd, SearchOptions& o) {
  cmd.add_option("--space", o.space, "decision space: cpu")->capture_default_str();
  cmd.add_option("--search", o.search, "search engine, NAME or NAME:key=value,...\n" + search_help())
      ->capture_default_str();
  cmd.add_option("--budget", o.budget, "limits: time=30s,nodes=N,kept=N,seed=N")->capture_default_str();
  cmd.add_option("--autotune", o.autotune, "benchmark the N best schedules found and keep the fastest (0: model only)")
      ->capture_default_str()->check(CLI::NonNegativeNumber);
  cmd.add_option("--autotune-timeout", o.autotune_timeout, "seconds allowed to each measured candidate")
      ->capture_default_str();
  cmd.add_option("--autotune-step-timeout", o.autotune_step_timeout,
                 "seconds allowed to one step of a measuring process (a schedule's compile or verification); a "
                 "compile that overruns fails that schedule alone")
      ->capture_default_str()->check(CLI::PositiveNumber);
  cmd.add_option("--autotune-seconds", o.autotune_seconds,
                 "stop measuring candidates when the next one would not fit in this many seconds (0: measure all N)")
      ->capture_default_str()->check(CLI::NonNegativeNumber);
  cmd.add_option("--neighbour-share", o.neighbour_share,
                 "with --autotune-seconds: the share of them spent measuring neighbours of the fastest schedule "
                 "(one decision changed; a faster one becomes the next centre); 0: the N best only")
      ->capture_default_str()->check(CLI::Range(0.0, 1.0));
  cmd.add_option("--journal", o.journal, "append every measurement here (JSON lines) and reuse it on rerun");
  cmd.add_option("--samples", o.samples,
                 "append every schedule measured to this dataset file (docs/dataset.md), one batch per measuring "
                 "process: the schedules it timed side by side")
      ->needs("--autotune");
  cmd.add_option("--machine", o.machine, "machine description (default: build/machine.json, calibrated if missing)");
  cmd.add_option("--threads", o.threads, "worker threads for benchmarks (0: every core)")->capture_default_str();
  cmd.add_option("--model-threads", o.model_threads,
                 "threads the search's cost-model batches are spread over (0: every core); the search's result "
                 "does not depend on it, only how much it covers in a time budget")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd.add_option("--runs", o.runs, "timed runs per benchmark")->capture_default_str()->check(CLI::PositiveNumber);
  cmd.add_option("--top", o.top,
                 "also give the K best distinct schedules by predicted cost (predicted, bound, source; each "
                 "verified and timed alone unless --no-measure)")
      ->check(CLI::Range(1, 1000));
  cmd.add_option("--pin", o.pins, "fix a decision before searching, CHOICE=VALUE (e.g. 'tile(dot.x)=8'); repeatable")
      ->delimiter(',');
  cmd.add_option("--timing-lock", o.timing_lock,
                 "the machine's timing lock: the search holds it shared, measuring processes time under it "
                 "exclusively, so that searches and builds that hold it (`flock -s FILE make`) never run beside "
                 "a timing; 'none': no lock (halide_bridge/timing_lock.h)")
      ->capture_default_str();
  cmd.add_flag("--no-measure", o.no_measure,
               "print the model's pick without compiling, verifying or timing it (JSON: runtime_ms null, "
               "verified false): prices pinned variants without disturbing timings beside it")
      ->excludes("--autotune");  // autotuning measures
}

std::unique_ptr<SearchRun> run_search(const SearchOptions& o) {
  namespace hb = halide_bridge;
  const auto started = std::chrono::steady_clock::now();
  if (o.space != "cpu") throw std::invalid_argument("--space " + o.space + ": only the cpu space exists so far");
  const std::optional<hb::App> app = collect::find_pipeline(o.app);
  if (!app)
    throw std::invalid_argument("unknown app '" + o.app + "' (see `candor apps`, or random:SEED[@SIZE] or layers:SEED[@SIZE], SIZE a power of two from 16 to 4096)");
  if (!o.journal.empty()) {
    if (const std::string problem = scheduler::journal_problem(o.journal); !problem.empty())
      throw std::invalid_argument(problem);
  }
  std::vector<std::pair<std::string, std::string>> pins;
  for (const std::string& pin : o.pins) pins.push_back(parse_pin(pin, "--pin "));
  Budget budget = parse_budget(o.budget);
  auto run = std::make_unique<SearchRun>();
  run->options = o;
  run->app = *app;
  const Halide::Target target = hb::host_target();
  // A file named by --machine or $CANDOR_MACHINE is the user's: an unusable one is an error.
  const bool machine_named = !o.machine.empty() || std::getenv("CANDOR_MACHINE") != nullptr;
  run->machine = models::halide::load_or_calibrate(
      o.machine.empty() ? models::halide::default_machine_path() : o.machine, {},
      machine_named ? models::halide::IfUnusable::Fail : models::halide::IfUnusable::Recalibrate);
  run->kd = hb::describe_app(app->build(), target);
  const hb::KernelDescription& kd = run->kd;

  // Model only, the best few are kept too: a pick that fails to compile or to match the
  // reference (a Halide miscompile) gives way to the next in the model's order.
  constexpr int kModelOnlyFallbacks = 4;
  budget.keep_top = std::max(o.autotune > 0 ? o.autotune : kModelOnlyFallbacks, o.top);
  std::optional<support::ProgressLine> search_line;
  if (!o.json) {
    search_line.emplace("search", std::cerr);
    budget.progress = [&line = *search_line, limits = budget](const SearchStats& stats, double best_cost) {
      line.update(limits.share_spent(stats), search_state(stats, best_cost));
    };
  }
  const std::string timing_lock = halide_bridge::timing_lock_path(o.timing_lock);
  run->scheduler = std::make_unique<scheduler::KernelScheduler>(kd, run->machine, pins, o.model_threads);
  const scheduler::KernelScheduler& kernel_scheduler = *run->scheduler;
  std::optional<halide_bridge::TimingLock> busy;  // the search keeps the cores busy
  busy.emplace(timing_lock, halide_bridge::TimingLock::Mode::Shared);
  const auto search_started = std::chrono::steady_clock::now();
  run->outcome = kernel_scheduler.search(o.search, budget);
  busy.reset();  // before the measuring processes take it to time
  const scheduler::ScheduleOutcome& outcome = run->outcome;
  if (search_line) {
    const double best = outcome.candidates.empty() ? 1e300 : outcome.candidates.front().predicted_seconds;
    search_line->finish(search_state(outcome.stats, best));
  }
  if (outcome.completed_past_time_limit)
    std::cerr << "candor search: the time budget ran out before a complete schedule; one greedy dive completed "
                 "the search (" << outcome.stats.seconds << " s in all)\n";
  if (outcome.candidates.empty()) throw std::runtime_error("the search found no complete schedule");
  run->top_measurements.assign(run->top_count(), std::nullopt);
  auto finish = [&] {
    run->wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return std::move(run);
  };

  // --no-measure: the model's pick, priced but neither compiled nor timed.
  if (o.no_measure) {
    run->tried = outcome.candidates;
    run->searched = run->neighbours_end = run->tried.size();
    return finish();
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
  if ((o.autotune > 0 || o.top > 1) && mkdtemp(references)) tune.reference_cache = references;
  // Model only: the best candidate, measured once (the next ones only if it fails).
  // Autotuning: the N best (the best of each structure first), then the neighbours of the
  // fastest, and the finalists again in fresh processes.
  // (--top K keeps K: the measuring takes the N, or the fallbacks, it takes without it.)
  const std::vector<scheduler::ScheduledCandidate> given(
      outcome.candidates.begin(),
      outcome.candidates.begin() + std::min(outcome.candidates.size(), size_t(o.autotune > 0 ? o.autotune : kModelOnlyFallbacks)));
  std::vector<scheduler::ScheduledCandidate>& tried = run->tried;
  if (o.autotune == 0) {
    tried = given;
  } else {
    for (size_t i : kernel_scheduler.measuring_order(given)) tried.push_back(given[i]);
  }
  run->searched = tried.size();
  run->neighbours_end = std::numeric_limits<size_t>::max();  // while autotuning, all that comes next
  const size_t searched = run->searched;
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
        std::cerr << fmt::format("[measure] centre: {} ({} neighbours, {:.1f} s)\n", run->label(centre), around.size(),
                                 proposing);
      std::vector<hb::Schedule> proposed;
      for (scheduler::ScheduledCandidate& c : around) {
        proposed.push_back(c.schedule);
        tried.push_back(std::move(c));
      }
      return proposed;
    };
  }
  std::optional<SideBySideSamples> samples;
  if (!o.samples.empty()) samples.emplace(o.samples, o.app, *app, kernel_scheduler, run->machine);
  scheduler::AutotuneProcessLog processes;
  if (samples)
    processes = [&](const std::string& process, const std::vector<size_t>& indices,
                    const std::vector<scheduler::Measurement>& ms) { samples->add(process, indices, tried, ms); };
  const int finalists = 3, confirmations = o.autotune > 1 ? 2 : 0;
  // A line per measurement, with the share of the measuring done: of --autotune-seconds, or
  // of the candidates (neighbours and finalists come after those).
  support::ProgressLine measure_line("measure", std::cerr,
                                     o.json ? support::ProgressLine::Mode::Off : support::ProgressLine::Mode::Plain, 0);
  const scheduler::AutotuneProgress progress = [&](size_t i, int repeat, const scheduler::Measurement& m) {
    const double at = std::chrono::duration<double>(std::chrono::steady_clock::now() - search_started).count();
    run->measurements.push_back({at, i, repeat, m});
    if (o.json) return;
    const double share = o.autotune_seconds > 0 ? measure_line.elapsed_seconds() / o.autotune_seconds
                         : i < searched && repeat == 0 ? double(i + 1) / double(searched)
                                                       : -1;
    std::string result = m.ok ? fmt::format("measured {:.3f} ms{}", m.runtime_ms, m.from_journal ? " (journal)" : "")
                              : "failed: " + m.failure;
    if (m.ok && run->is_neighbour(i) && repeat == 0) result += fmt::format(", {:.3f}x its centre", m.ratio_to_first);
    const std::string which = i < searched ? fmt::format("candidate {}/{}", i + 1, searched) : run->label(i);
    if (repeat == 0) {
      measure_line.update(share, fmt::format("{}: predicted {:.3f} ms, {}", which, tried[i].predicted_seconds * 1e3, result));
    } else {
      measure_line.update(share, fmt::format("finalist {} again (process {}): {}", which, repeat + 1, result));
    }
  };
  run->tuned = o.autotune > 0 ? scheduler::autotune(o.app, schedules, tune, o.autotune_seconds, finalists,
                                                    confirmations, progress, local, processes)
                              : scheduler::first_verified(o.app, schedules, tune, progress);
  const scheduler::AutotuneResult& tuned = run->tuned;
  run->neighbours_end = tried.size();
  // --top K: each of the K best verified and timed; those the measuring above left out, alone.
  for (size_t k = 0; k < run->top_count(); ++k) {
    const hb::Schedule& s = outcome.candidates[k].schedule;
    for (const TimedMeasurement& t : run->measurements)
      if (t.repeat == 0 && tried[t.index].schedule == s && !run->top_measurements[k]) run->top_measurements[k] = t.measurement;
    if (run->top_measurements[k]) continue;
    tried.push_back(outcome.candidates[k]);
    progress(tried.size() - 1, 0, scheduler::measure_together(o.app, {s}, tune).front());
    run->top_measurements[k] = run->measurements.back().measurement;
  }
  if (!tune.reference_cache.empty()) std::filesystem::remove_all(tune.reference_cache);
  if (tuned.chosen < 0) {
    std::string message = "no measured schedule compiled and matched the reference";
    for (const auto& f : failures_json(*run)) message += "\n  " + f.dump();
    throw std::runtime_error(message);
  }
  run->chosen = size_t(tuned.chosen);
  run->measured = true;
  return finish();
}

namespace {

// `candor search`'s own options, beside those of every search.
struct SearchCommand {
  SearchOptions search;
  bool explain = false;
  std::string plot;
};

int search_command(const SearchCommand& c) {
  if (!c.plot.empty()) {
    if (const std::string problem = plot_problem(c.plot); !problem.empty()) throw std::invalid_argument(problem);
  }
  const std::unique_ptr<SearchRun> run = run_search(c.search);
  print_result(*run, c.explain);
  if (!c.plot.empty()) {
    write_plot(plot_data(*run), c.plot, PlotFormat::Png);
    if (!c.search.json) std::cerr << "candor search: wrote " << c.plot << "\n";
  }
  return 0;
}

}  // namespace

void register_search_command(CLI::App& app, int& exit_status) {
  auto o = std::make_shared<SearchCommand>();
  CLI::App* cmd = app.add_subcommand("search", "Schedule an example app (see `candor apps`) for this machine");
  cmd->add_option("app", o->search.app, "the app (see `candor apps`), or random:SEED[@SIZE] for a random image pipeline (SIZExSIZE; default 128) or layers:SEED[@SIZE] for a random DNN-layer pipeline (default 64)")->required();
  add_search_options(*cmd, o->search);
  cmd->add_flag("--json", o->search.json, "print one JSON object (app, search_seconds, predicted_ms, lower_bound_ms, "
                                          "runtime_ms, verified, schedule, ...; with --top, `top`: an array)");
  cmd->add_flag("--explain", o->explain,
                "after the schedule, print the analytic model's terms per stage (ms) and, when the schedule was "
                "measured, each Func's analytic time next to the time Halide's profiler measured in it (with --json: "
                "`profile`)");
  cmd->add_option("--plot", o->plot,
                  "write a PNG (gnuplot): the best predicted cost over the search's time, the measured runtimes, "
                  "and the lower bound");
  cmd->callback([o, &exit_status] { exit_status = run_reporting_errors("search", [&] { return search_command(*o); }); });
}

}  // namespace candor::cli
