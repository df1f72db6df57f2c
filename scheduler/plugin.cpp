// libautoschedule_candor.so: the autoscheduler plugin for stock Halide 14 generators.
//
//   GENERATOR -g NAME -o DIR -e static_library,c_header,schedule
//             -p build/lib/libautoschedule_candor.so -s Candor target=host auto_schedule=true
//
// On load it registers the autoscheduler "Candor" with Halide. On a pipeline it describes the
// kernel (Halide's bounds inference on the estimates), searches the Halide CPU space with the
// analytic model (plugin_options.h: the CANDOR_* knobs), applies the best schedule to the
// pipeline's Funcs, and returns the very same schedule as C++ source in
// AutoSchedulerResults::schedule_source (what `-e schedule` writes to NAME.schedule.h).
// Errors (missing estimates, a bad knob, no schedule found) are reported as Halide user
// errors: the generator prints the message and exits with a failure status.
#include <dlfcn.h>

#include <chrono>
#include <exception>
#include <filesystem>
#include <iostream>
#include <sstream>

#include <Halide.h>
#include <fmt/format.h>

#include "halide_bridge/directives.h"
#include "halide_bridge/kernel_description.h"
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
  ScheduleOutcome outcome = schedule_kernel(kd, machine, request);
  const ScheduledCandidate& best = outcome.candidates.front();

  hb::apply_schedule(best.schedule, kd, pipeline.outputs());
  const std::string printed = hb::print_schedule(best.schedule, kd);

  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::string outputs;
  for (const std::string& o : kd.outputs) outputs += (outputs.empty() ? "" : ", ") + o;
  std::string how;
  if (outcome.optimal) how = ", optimal for the model";
  if (outcome.completed_past_time_limit) how = ", completed by a greedy dive past the time limit";
  const std::string summary = fmt::format(
      "{} in {:.1f} s ({} nodes expanded{}): predicted {:.4f} ms, lower bound {:.4f} ms", options.search,
      outcome.stats.seconds, outcome.stats.expanded, how, best.predicted_seconds * 1e3, best.lower_bound_seconds * 1e3);
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
