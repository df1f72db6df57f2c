// libautoschedule_candor.so: the autoscheduler plugin for stock Halide 14 generators.
//
//   GENERATOR -g NAME -o DIR -e static_library,c_header,schedule
//             -p build/lib/libautoschedule_candor.so -s Candor target=$(candor target) auto_schedule=true
//
// On load it registers the autoscheduler "Candor" with Halide. On a pipeline it describes the
// kernel (Halide's bounds inference on the estimates), searches the Halide CPU space with the
// analytic model (plugin_options.h: the CANDOR_* knobs), checks the model's best schedules
// on synthetic inputs until one matches the reference, applies it to the pipeline's Funcs,
// and returns the very same schedule as C++ source in AutoSchedulerResults::schedule_source
// (what `-e schedule` writes to NAME.schedule.h).
// Errors (missing estimates, a bad knob, no schedule found) are reported as Halide user
// errors: the generator prints the message and exits with a failure status.
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>

#include <Halide.h>
#include <fmt/format.h>

#include "child_checks.h"
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

// The first of the model's best schedules whose output, on synthetic inputs over the
// estimates, matches the reference schedule's: Halide 14 miscompiles a few of the space's
// schedules (bench/head_to_head_results/2026-11-27_s30/README.md). Each check runs in a
// child process, so a schedule that crashes or hangs costs only its place. `note` says how
// the pick was checked. Throws when none of them matches.
size_t verified_pick(const Halide::Pipeline& pipeline, const hb::KernelDescription& kd, const Halide::Target& target,
                     const ScheduleOutcome& outcome, std::string& note) {
  std::string why_not;
  const std::optional<Halide::Target> checked_target = verification_target(target, why_not);
  if (!checked_target) {
    note = "not verified: " + why_not;
    return 0;
  }
  const size_t count = std::min(outcome.candidates.size(), size_t(kCheckedSchedules));
  const hb::App app = hb::pipeline_app(pipeline, kd);
  hb::Outputs reference;
  hb::RunOptions run;
  run.warmup_runs = 0;
  run.timed_runs = 1;
  const ChildChecks checks = first_passing_in_child(
      count, [&] { reference = hb::reference_outputs(app, *checked_target); },
      [&](size_t i) {
        const hb::EvalResult r = hb::evaluate_schedule(app, outcome.candidates[i].schedule, kd, reference,
                                                       *checked_target, run);
        return r.ok ? std::string() : r.failed_step + ": " + r.error;
      },
      kCheckTimeoutSeconds);
  if (!checks.unchecked.empty()) {
    note = "not verified: the reference schedule did not run on synthetic inputs (" + checks.unchecked + ")";
    return 0;
  }
  std::string failures;
  for (size_t i = 0; i < checks.failures.size(); ++i) {
    const std::string line = fmt::format("schedule #{} of the model's best: {}", i + 1, checks.failures[i]);
    std::cerr << "[candor] " << line << "\n";
    failures += "\n  " + line;
  }
  if (!checks.passed) {
    throw std::runtime_error(fmt::format(
        "none of the model's {} best schedules matched the reference schedule's output on synthetic inputs "
        "(try another CANDOR_SEED, or CANDOR_VERIFY=0 to emit the first unchecked):{}",
        count, failures));
  }
  const size_t pick = *checks.passed;
  note = pick == 0 ? "verified on synthetic inputs"
                   : fmt::format("verified on synthetic inputs: schedule #{} of the model's best, the ones before it failed",
                                 pick + 1);
  return pick;
}

void run_candor(const Halide::Pipeline& pipeline, const Halide::Target& target,
                const Halide::MachineParams& params, Halide::AutoSchedulerResults* results) {
  const auto start = std::chrono::steady_clock::now();
  const PluginOptions options = read_plugin_options(plugin_directory());

  if (target.has_gpu_feature()) {
    std::cerr << "[candor] warning: target " << target.to_string()
              << " has a GPU feature, but the plugin schedules for the CPU only (the pipeline will run on the host)\n";
  }
  hb::KernelDescription kd = hb::describe_pipeline(pipeline, target);
  const models::halide::MachineDescription machine = models::halide::load_or_calibrate(options.machine_path);

  ScheduleRequest request;
  request.search = options.search;
  request.budget = options.budget;
  request.pins = options.pins;
  if (options.verify) request.budget.keep_top = std::max(request.budget.keep_top, kCheckedSchedules);
  ScheduleOutcome outcome = schedule_kernel(kd, machine, request);
  std::string checked = "not verified (CANDOR_VERIFY=0)";
  const size_t pick = options.verify ? verified_pick(pipeline, kd, target, outcome, checked) : 0;
  const ScheduledCandidate& best = outcome.candidates[pick];

  hb::apply_schedule(best.schedule, kd, pipeline.outputs());
  const std::string printed = hb::print_schedule(best.schedule, kd);

  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::string outputs;
  for (const std::string& o : kd.outputs) outputs += (outputs.empty() ? "" : ", ") + o;
  std::string how;
  if (outcome.optimal) how = ", optimal for the model";
  if (outcome.completed_past_time_limit) how = ", completed by a greedy dive past the time limit";
  const std::string summary = fmt::format(
      "{} in {:.1f} s ({} nodes expanded{}): predicted {:.4f} ms, lower bound {:.4f} ms; {}", options.search,
      outcome.stats.seconds, outcome.stats.expanded, how, best.predicted_seconds * 1e3, best.lower_bound_seconds * 1e3,
      checked);
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

struct RegisterCandor {
  RegisterCandor() { Halide::Pipeline::add_autoscheduler("Candor", CandorAutoscheduler()); }
} register_candor;

}  // namespace
}  // namespace candor::scheduler
