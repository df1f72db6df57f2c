// libautoschedule_candor.so: the autoscheduler plugin for stock Halide 14 generators.
//
//   GENERATOR -g NAME -o DIR -e static_library,c_header,schedule
//             -p build/lib/libautoschedule_candor.so -s Candor target=$(candor target) auto_schedule=true
//
// On load it registers the autoscheduler "Candor" (also as "autoschedule_candor") with
// Halide. On a pipeline it describes the kernel (Halide's bounds inference on the
// estimates), searches the Halide CPU space with the cost model (plugin_options.h: the
// CANDOR_* knobs), checks the model's best schedules on
// synthetic inputs until one matches the reference, applies it to the pipeline's Funcs, and
// returns the very same schedule as C++ source in AutoSchedulerResults::schedule_source
// (what `-e schedule` writes to NAME.schedule.h). A time budget is the plugin's wall time:
// describing, searching and verifying. When the search finds nothing in time, or none of the
// best schedules passes (a crash, a hang, a mismatch) or the time runs out first, the plugin
// warns and emits the reference schedule (hb::reference_schedule).
// Errors the user must fix (missing estimates, a bad knob) are reported as Halide user
// errors: the generator prints the message and exits with a failure status.
#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <filesystem>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>

#include <Halide.h>
#include <fmt/format.h>

#include "child_checks.h"
#include "child_process.h"
#include "groups.h"
#include "halide_bridge/compile.h"
#include "halide_bridge/cpu_features.h"
#include "halide_bridge/directives.h"
#include "halide_bridge/kernel_description.h"
#include "halide_bridge/pipeline_app.h"
#include "models/halide/machine.h"
#include "plugin_options.h"
#include "scheduler.h"

namespace candor::scheduler {
namespace {

namespace hb = halide_bridge;

// The directory holding this shared object (build/lib), found from one of its own symbols.
std::filesystem::path plugin_directory() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&plugin_directory), &info) == 0 || !info.dli_fname) return {};
  std::error_code ec;
  std::filesystem::path self = std::filesystem::canonical(info.dli_fname, ec);
  return ec ? std::filesystem::path() : self.parent_path();
}

// The body of `apply_schedule_NAME(Halide::Pipeline pipeline, Halide::Target target)` in the
// NAME.schedule.h a generator emits: it rebuilds the map of Funcs by name that the printed
// directives expect (Pipeline::get_func indexes the Funcs in the pipeline's topological
// order, which is the same for the same generator), then runs the printed directives.
std::string schedule_source(Halide::Pipeline pipeline, const std::string& printed, const std::string& comment) {
  std::map<std::string, Halide::Func> by_name = hb::pipeline_funcs(pipeline.outputs());
  std::map<std::string, size_t> index_of;  // Halide name -> topological index
  for (size_t i = 0; i < by_name.size(); ++i) index_of[pipeline.get_func(i).name()] = i;

  std::ostringstream out;
  out << comment;
  out << "(void)target;\n";
  out << "std::map<std::string, ::Halide::Func> funcs;\n";
  for (const auto& [name, func] : by_name) {
    auto it = index_of.find(func.name());
    if (it == index_of.end()) {
      throw std::runtime_error("Func '" + func.name() + "' is not among the pipeline's Funcs (Pipeline::get_func)");
    }
    out << "funcs[\"" << name << "\"] = pipeline.get_func(" << it->second << ");  // " << func.name() << "\n";
  }
  out << printed;  // one block; the generator indents the whole body
  return out.str();
}

// The target the plugin's checks run on: the generator's, less what only ahead-of-time
// code uses; none when this host cannot run its code (a cross-compiling generator, or an
// instruction set this CPU lacks).
std::optional<Halide::Target> verification_target(const Halide::Target& target, std::string& why_not) {
  using T = Halide::Target;
  const T host = hb::aot_host_target();
  if (target.os != host.os || target.arch != host.arch || target.bits != host.bits) {
    why_not = "target " + target.to_string() + " is not this host's kind";
    return std::nullopt;
  }
  for (const hb::X86FeatureRequirement& isa : hb::x86_feature_requirements()) {
    if (target.has_feature(isa.feature) && !host.has_feature(isa.feature)) {
      why_not = "this CPU cannot run target " + target.to_string();
      return std::nullopt;
    }
  }
  T checked = target;
  for (T::Feature aot_only : {T::NoRuntime, T::CPlusPlusMangling, T::UserContext, T::Matlab, T::NoBoundsQuery})
    checked = checked.without_feature(aot_only);
  return checked;
}

// The schedules the plugin may emit: the model's best few, in its order.
constexpr int kCheckedSchedules = 4;
// A check compiles the pipeline twice (reference, candidate): generous for large pipelines.
constexpr double kCheckTimeoutSeconds = 300;
// Of the time a budget leaves after describing the pipeline: the search's share, and where
// the greedy dive completing a search that found nothing in its share must stop. What is
// left after the search is verification's.
constexpr double kSearchShare = 2.0 / 3.0;
constexpr double kCompletionShare = 5.0 / 6.0;

// Pipelines of more Funcs are searched in groups of at most kGroupFuncs (groups.h): a
// greedy dive over 52 Funcs took 18 s on two cores, over 21 under a second.
constexpr size_t kWholeSearchFuncs = 24;
constexpr int kGroupFuncs = 16;

using Clock = std::chrono::steady_clock;

double seconds_until(Clock::time_point deadline) {
  return std::chrono::duration<double>(deadline - Clock::now()).count();
}

// Which schedule to emit: one of the model's best, or none (the reference schedule then).
struct Pick {
  std::optional<size_t> index;
  std::string note;  // how it was checked, or why there is none
};

// The reference outputs on synthetic inputs, computed in a child process while the plugin
// searches: Halide's bounds query sizes the inputs, the reference schedule runs, and the
// outputs go to a temporary file that the checking children read.
class BackgroundReference {
 public:
  BackgroundReference(const Halide::Pipeline& pipeline, const hb::KernelDescription& kd, const Halide::Target& target)
      : file_(std::filesystem::temp_directory_path() /
              fmt::format("candor_reference_{}_{}.outputs", getpid(), reinterpret_cast<uintptr_t>(this))),
        child_([&, file = file_.string()] {
          try {
            const hb::InputShapes shapes = hb::queried_input_shapes(pipeline, kd);
            for (const auto& [name, shape] : shapes) {
              std::cout << "shape " << name << " " << shape.size();
              for (const hb::Range& r : shape) std::cout << " " << r.min << " " << r.max;
              std::cout << "\n";
            }
            hb::save_outputs(hb::reference_outputs(hb::pipeline_app(pipeline, kd, shapes), target), file);
            std::cout << "ready" << std::endl;
          } catch (const std::exception& e) {
            std::string message = e.what();
            std::replace(message.begin(), message.end(), '\n', ' ');
            std::cout << "failed " << message << std::endl;
          }
          return 0;
        }) {}
  ~BackgroundReference() {
    std::error_code ec;
    std::filesystem::remove(file_, ec);
  }

  // Waits up to `seconds` for the child. "" when the outputs are ready (the input shapes
  // then set); otherwise what failed, with `out_of_time` set when the time ran out.
  std::string wait(double seconds, bool& out_of_time) {
    const ChildResult r = child_.wait(seconds);
    out_of_time = r.timed_out;
    if (r.timed_out) return "the reference outputs were not ready in time";
    std::istringstream lines(r.output);
    for (std::string line; std::getline(lines, line);) {
      std::istringstream words(line);
      std::string word, name;
      words >> word;
      if (word == "ready") return "";
      if (word == "failed") return line.substr(7);
      size_t dims = 0;
      if (word == "shape" && words >> name >> dims) {
        std::vector<hb::Range>& shape = shapes_[name];
        shape.resize(dims);
        for (hb::Range& range : shape) words >> range.min >> range.max;
      }
    }
    return r.crashed ? "computing them crashed (killed by a signal)"
                     : fmt::format("computing them ended with status {}", r.exit_status);
  }
  const std::filesystem::path& file() const { return file_; }
  const hb::InputShapes& shapes() const { return shapes_; }

 private:
  std::filesystem::path file_;
  hb::InputShapes shapes_;
  BackgroundChild child_;
};

// The first of the model's best schedules whose output, on synthetic inputs over the
// estimates, matches the reference schedule's: Halide 14 miscompiles a few of the space's
// schedules (bench/head_to_head_results/2026-11-27_s30/README.md). Each check runs in a
// child process, so a schedule that crashes or hangs costs only its place. No pick when
// every one failed or the time ran out before a verdict.
Pick verified_pick(const Halide::Pipeline& pipeline, const hb::KernelDescription& kd, const Halide::Target& target,
                   BackgroundReference& background, const std::vector<PricedSchedule>& schedules,
                   Clock::time_point deadline) {
  bool out_of_time = false;
  const std::string unready = background.wait(seconds_until(deadline), out_of_time);
  if (out_of_time) return {std::nullopt, "the budget ran out while computing the reference outputs"};
  if (!unready.empty()) return {0, "not verified: the reference schedule did not run on synthetic inputs (" + unready + ")"};
  const size_t count = std::min(schedules.size(), size_t(kCheckedSchedules));
  const hb::App app = hb::pipeline_app(pipeline, kd, background.shapes());
  hb::Outputs reference;
  hb::RunOptions run;
  run.warmup_runs = 0;
  run.timed_runs = 1;
  run.tolerance = hb::tolerance_for(kd);
  const ChildChecks checks = first_passing_in_child(
      count, [&] { reference = hb::load_outputs(background.file().string()); },
      [&](size_t i) {
        const hb::EvalResult r =
            hb::evaluate_schedule(app, schedules[i].schedule, kd, reference, target, run);
        if (!r.ok) return r.failed_step + ": " + r.error;
        std::cerr << fmt::format("[candor] schedule #{} of the model's best matches the reference (max error {:g})\n",
                                 i + 1, r.max_abs_error);
        return std::string();
      },
      kCheckTimeoutSeconds, seconds_until(deadline));
  std::string failures;
  for (size_t i = 0; i < checks.failures.size(); ++i) {
    const std::string line = fmt::format("schedule #{} of the model's best: {}", i + 1, checks.failures[i]);
    std::cerr << "[candor] " << line << "\n";
    failures += (failures.empty() ? "" : "; ") + line;
  }
  if (checks.passed) {
    const size_t pick = *checks.passed;
    return {pick, pick == 0 ? "verified on synthetic inputs"
                            : fmt::format("verified on synthetic inputs: schedule #{} of the model's best, the ones "
                                          "before it failed", pick + 1)};
  }
  if (checks.out_of_time)
    return {std::nullopt, fmt::format("the budget ran out while verifying the model's best schedules ({} failed "
                                      "before)", checks.failures.size())};
  if (!checks.unchecked.empty()) return {0, "not verified: the reference outputs could not be read (" + checks.unchecked + ")"};
  return {std::nullopt,
          fmt::format("none of the model's {} best schedules matched the reference on synthetic inputs ({})", count,
                      failures)};
}

void run_candor(const Halide::Pipeline& pipeline, const Halide::Target& target,
                const Halide::MachineParams& params, Halide::AutoSchedulerResults* results) {
  const auto start = Clock::now();
  const PluginOptions options = read_plugin_options(plugin_directory());

  if (target.has_gpu_feature()) {
    std::cerr << "[candor] warning: target " << target.to_string()
              << " has a GPU feature, but the plugin schedules for the CPU only (the pipeline will run on the host)\n";
  }
  hb::KernelDescription kd = hb::describe_pipeline(pipeline, target);
  const models::halide::MachineDescription machine = models::halide::load_or_calibrate(
      options.machine_path, {},
      options.machine_named ? models::halide::IfUnusable::Fail : models::halide::IfUnusable::Recalibrate);
  // Past kWholeSearchFuncs Funcs (and without pins, which name choices of the whole space),
  // the pipeline is searched in groups.
  std::optional<KernelScheduler> whole;
  if (kd.funcs.size() <= kWholeSearchFuncs || !options.pins.empty()) whole.emplace(kd, machine, options.pins);
  std::string not_verified = "not verified (CANDOR_VERIFY=0)";
  std::optional<Halide::Target> checked_target;
  if (options.verify) {
    std::string why_not;
    checked_target = verification_target(target, why_not);
    if (!checked_target) not_verified = "not verified: " + why_not;
  }
  // Forked before the search starts its threads.
  std::optional<BackgroundReference> background;
  if (checked_target) background.emplace(pipeline, kd, *checked_target);

  // The budget's time counts from the plugin's start: describing, searching and verifying.
  const bool timed = options.budget.seconds < std::numeric_limits<double>::infinity();
  constexpr double kYear = 3.2e7;  // beyond it, a time point would overflow: no deadline
  const auto deadline = timed && options.budget.seconds < kYear
                            ? start + std::chrono::duration_cast<Clock::duration>(
                                          std::chrono::duration<double>(options.budget.seconds))
                            : Clock::time_point::max();
  Budget budget = options.budget;
  double completion_seconds = std::numeric_limits<double>::infinity();
  if (timed) {
    const double left = std::max(0.0, seconds_until(deadline));
    budget.seconds = std::max(0.01, (background ? kSearchShare : 1.0) * left);
    completion_seconds = std::max(budget.seconds, (background ? kCompletionShare : 1.0) * left);
  }
  if (options.verify) budget.keep_top = std::max(budget.keep_top, kCheckedSchedules);
  std::string outputs;
  for (const std::string& o : kd.outputs) outputs += (outputs.empty() ? "" : ", ") + o;
  // Progress from the first second: what is scheduled and for how long; with CANDOR_VERBOSE,
  // the search's state every few seconds.
  std::cerr << fmt::format("[candor] {}: {} Funcs described in {:.1f} s; searching ({}) for {}{}\n", outputs,
                           kd.funcs.size(), std::chrono::duration<double>(Clock::now() - start).count(),
                           options.search, timed ? fmt::format("{:.1f} s", budget.seconds) : "its node limit",
                           background ? ", then verifying" : "");
  if (options.verbose) {
    auto next_line = std::make_shared<double>(0);
    budget.progress = [next_line](const SearchStats& stats, double best) {
      if (stats.seconds < *next_line) return;
      *next_line = stats.seconds + 2;
      std::cerr << fmt::format("[candor] search: {:.1f} s, {} nodes expanded, {}\n", stats.seconds, stats.expanded,
                               best < std::numeric_limits<double>::infinity()
                                   ? fmt::format("best predicted {:.4f} ms", best * 1e3)
                                   : std::string("no complete schedule yet"));
    };
  }

  // The model's best schedules, best first, and how the search found them.
  std::vector<PricedSchedule> choices;
  std::string searched;
  Pick pick;
  try {
    if (whole) {
      const ScheduleOutcome outcome = whole->search(options.search, budget, completion_seconds);
      for (const ScheduledCandidate& c : outcome.candidates)
        choices.push_back({c.schedule, c.predicted_seconds, c.lower_bound_seconds});
      std::string how;
      if (outcome.optimal) how = ", optimal for the model";
      if (outcome.completed_past_time_limit) how = ", completed by a greedy dive past the search's share of the time";
      searched = fmt::format("{} in {:.1f} s ({} nodes expanded{})", options.search, outcome.stats.seconds,
                             outcome.stats.expanded, how);
    } else {
      const GroupedOutcome outcome =
          schedule_in_groups(kd, machine, options.search, budget, completion_seconds, kGroupFuncs);
      choices = outcome.schedules;
      searched = fmt::format("{} in {} groups of at most {} Funcs, {:.1f} s ({} nodes expanded{})", options.search,
                             outcome.groups, kGroupFuncs, outcome.stats.seconds, outcome.stats.expanded,
                             outcome.groups_at_reference
                                 ? fmt::format("; {} found nothing in time and took the reference schedule",
                                               outcome.groups_at_reference)
                                 : "");
    }
  } catch (const std::runtime_error& e) {
    pick.note = e.what();
  }
  if (!choices.empty()) {
    pick = background ? verified_pick(pipeline, kd, *checked_target, *background, choices, deadline)
                      : Pick{0, not_verified};
  }

  // With no pick, the reference schedule: what the picks are checked against, so it needs
  // no check of its own.
  const hb::Schedule emitted = pick.index ? choices[*pick.index].schedule : hb::reference_schedule(kd);
  hb::apply_schedule(emitted, kd, pipeline.outputs());
  const std::string printed = hb::print_schedule(emitted, kd);

  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  std::string summary;
  if (pick.index) {
    const PricedSchedule& best = choices[*pick.index];
    summary = fmt::format("{}: predicted {:.4f} ms, lower bound {:.4f} ms; {}", searched,
                          best.predicted_seconds * 1e3, best.lower_bound_seconds * 1e3, pick.note);
  } else {
    summary = "the reference schedule (every Func at the root, outer loops parallel)";
    std::cerr << "[candor] warning: " << pick.note << "; emitting the reference schedule"
              << (timed ? " (a larger CANDOR_BUDGET leaves more time to search and verify)" : "") << "\n";
  }
  const std::string comment = fmt::format(
      "// candor schedule of {} ({} Funcs)\n// search {}\n// machine description {}\n", outputs,
      kd.funcs.size(), summary, options.machine_path);

  results->scheduler_name = "Candor";
  results->target = target;
  results->machine_params_string = params.to_string();
  results->schedule_source = schedule_source(pipeline, printed, comment);

  std::cerr << fmt::format("[candor] {}: {} (plugin total {:.1f} s)\n", outputs, summary, seconds);
  if (options.verbose) std::cerr << results->schedule_source;
}

// The function registered with Halide: every failure becomes a Halide user error (an
// exception the generator reports: "Error: Candor autoscheduler: ..."), never a crash.
struct CandorAutoscheduler {
  void operator()(const Halide::Pipeline& pipeline, const Halide::Target& target,
                  const Halide::MachineParams& params, Halide::AutoSchedulerResults* results) const {
    std::string failure;
    try {
      run_candor(pipeline, target, params, results);
      return;
    } catch (const Halide::Error& e) {
      failure = e.what();
    } catch (const std::exception& e) {
      failure = e.what();
    }
    // Halide's user_error (which Halide.h does not export by that name): reported through
    // the compile-time error reporter, then thrown as Halide::CompileError.
    Halide::Internal::ErrorReport(__FILE__, __LINE__, nullptr, Halide::Internal::ErrorReport::User)
        << "Candor autoscheduler: " << failure;
  }
};

// Also as "autoschedule_candor": Halide's add_halide_library(... AUTOSCHEDULER NS::NAME)
// passes `-s NAME`, and the installed package's target is Candor::autoschedule_candor.
struct RegisterCandor {
  RegisterCandor() {
    Halide::Pipeline::add_autoscheduler("Candor", CandorAutoscheduler());
    Halide::Pipeline::add_autoscheduler("autoschedule_candor", CandorAutoscheduler());
  }
} register_candor;

}  // namespace
}  // namespace candor::scheduler
