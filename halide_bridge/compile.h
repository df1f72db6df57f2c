// Compile (JIT for the host, ahead of time for CUDA), verify against the reference
// schedule, and benchmark. Every Halide failure is caught and reported, never a crash.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <Halide.h>

#include "app.h"
#include "error.h"
#include "kernel_description.h"
#include "schedule.h"

namespace candor::halide_bridge {

// Float outputs match when |got - ref| <= abs + rel * |ref| at every point, where abs is
// `abs_scaled` times the largest |ref| of that output (so the bound follows the data's
// scale). Schedules legitimately change float results: vectorized code and fused
// multiply-adds round differently, and Halide lets LLVM contract and reassociate float
// math. Integer outputs match within `integer_slack`: 0 (exactly) unless they are computed
// through float arithmetic, whose different rounding moves a float-to-int conversion by one.
struct Tolerance {
  double rel = 1e-4;
  double abs_scaled = 1e-5;
  int64_t integer_slack = 0;
};

// The tolerance for a pipeline's outputs: integers within 1 where some stage computes in
// floating point (computed_through_floats), exact otherwise.
Tolerance tolerance_for(const KernelDescription& kd);
// Some stage of the pipeline does float arithmetic or produces a float value.
bool computed_through_floats(const KernelDescription& kd);

struct RunOptions {
  int threads = 0;      // 0: every core
  int warmup_runs = 1;  // untimed
  int timed_runs = 5;   // the reported time is their median
  // Further timed runs (evaluate_interleaved: rounds) until they took this long in all: a
  // 0.15 ms pipeline's ratio over 5 rounds varied by 10% between processes, and 3 runs of a
  // 0.01 ms one read anywhere from 1x to 10x its time.
  double min_timed_seconds = 0;
  // evaluate_interleaved: each timed run follows an untimed run of the same pipeline, so it
  // finds its own data in the caches and the thread pool warm, as in a loop of runs, rather
  // than what the pipeline before it left (a 0.013 ms hist_eq's ratio to another schedule
  // read 0.7 in one process and 1.3 in another without it).
  bool rewarm = true;
  Tolerance tolerance;
  // A machine-wide TimingLock ("": none): compiles hold it shared, and verification and timing
  // hold it exclusively, so that processes sharing it never time while another one works.
  std::string timing_lock;
  // Called as each step of a measurement ends: ("compiled", i) once schedule i is compiled or
  // has failed to (in the order given), ("verified", i), ("timed", round) after each round of
  // evaluate_interleaved's runs. A caller watching for a step that hangs can tell which
  // schedule it was (camera_pipe has a schedule that compiles in 192 s, where others take 10).
  std::function<void(const char* step, size_t index)> on_step;
};

using Outputs = std::vector<Halide::Buffer<>>;

// The host JIT target. HL_JIT_TARGET as given where it names a target; otherwise (unset, or
// "host" alone or with features added) Halide's JIT host target with its x86 features chosen
// from this CPU's CPUID (target_for, cpu_features.h), any non-x86 features added kept.
Halide::Target host_target();
// The host's target for ahead-of-time compilation (a generator's `target=`): likewise from
// HL_TARGET and Halide's host target.
Halide::Target aot_host_target();
// The CUDA target used to check GPU schedules ahead of time on a machine without a GPU.
Halide::Target cuda_target();

// Sets the JIT runtime's worker thread count (0: every core). Process wide.
void set_jit_threads(int threads, const Halide::Target& target);

// Output buffers at the instance's sizes, one per output and Tuple element, filled with a
// poison pattern (an output a pipeline fails to write fails verification). Throws
// BridgeError when the instance's sizes do not match its outputs.
Outputs make_outputs(const AppInstance& inst);

// JIT-compiles and runs the instance at its output sizes. Throws BridgeError.
Outputs realize(const AppInstance& inst, const Halide::Target& target);

// Runs a fresh instance of `app` under the reference schedule (reference_schedule).
Outputs reference_outputs(const App& app, const Halide::Target& target);

// The reference schedule's outputs of a fresh instance of `app` at several sizes, compiled
// once: size 0 as built, size k > 0 after `resize(k, inst)` (pipeline_app.h's
// resize_instance). A size k > 0 that fails to run gets no outputs and its error in
// errors[k] ("" for the others); size 0 failing throws BridgeError.
std::vector<Outputs> reference_outputs_at_sizes(const App& app, size_t count,
                                                const std::function<void(size_t, AppInstance&)>& resize,
                                                const Halide::Target& target, std::vector<std::string>& errors);

// Outputs as a file, to hand them from one process to another (the plugin's reference,
// computed in one child and read by the next). Throws BridgeError when the file cannot be
// written or read, or is not such a file.
void save_outputs(const Outputs& outputs, const std::string& path);
Outputs load_outputs(const std::string& path);

struct Comparison {
  bool ok = true;
  std::string message;  // the first mismatch, with its coordinates
  double max_abs_error = 0;  // over every output and point compared
};
Comparison compare_outputs(const Outputs& got, const Outputs& reference, const Tolerance& tol = {});

struct EvalResult {
  bool ok = false;          // validated, compiled, ran, and matched the reference
  std::string failed_step;  // "validate", "apply", "compile", "run", "verify" when !ok
  std::string error;
  double max_abs_error = 0;  // of the verified output against the reference
  double compile_ms = 0;
  double median_ms = 0;
  std::vector<double> run_ms;
  // evaluate_interleaved: the median over rounds of this run's time over the first
  // schedule's in the same round (0 when the first failed).
  double ratio_to_first = 0;
};

// Validates `schedule` and applies it to a fresh instance of `app` (into `inst`); on failure
// returns false with the step ("validate" or "apply") and the error.
bool scheduled_instance(const App& app, const Schedule& schedule, const KernelDescription& kd,
                        const Halide::Target& target, AppInstance& inst, std::string& step, std::string& error);

// Validates and applies `schedule` to a fresh instance of `app`, JIT-compiles it, checks
// the result against `reference`, then benchmarks it (warm-up, median of timed runs).
EvalResult evaluate_schedule(const App& app, const Schedule& schedule, const KernelDescription& kd,
                             const Outputs& reference, const Halide::Target& target,
                             const RunOptions& options = {});

// Checks a scheduled instance against a reference at each of several sizes, compiling it
// once: size 0 is the instance as it is, and before size k > 0 `resize(k, inst)` rebinds its
// inputs and outputs (pipeline_app.h's resize_instance). It fails at the first size that
// fails, the error naming it ("at size k: ..."), and max_abs_error is over every size.
// At size 0, after its verification and options.warmup_runs, options.timed_runs runs are
// timed (median_ms); the other sizes are run once.
EvalResult verify_at_sizes(AppInstance& inst, const std::vector<Outputs>& references,
                           const std::function<void(size_t, AppInstance&)>& resize, const Halide::Target& target,
                           const RunOptions& options = {});

// Several schedules of one app benchmarked side by side: each is validated, compiled and
// verified first, then all are timed in rounds, one run of each per round, so that a drift of
// a shared machine (a neighbour's load comes and goes within a second) hits them alike. A
// schedule that fails is left out of the rounds.
std::vector<EvalResult> evaluate_interleaved(const App& app, const std::vector<Schedule>& schedules,
                                             const KernelDescription& kd, const Outputs& reference,
                                             const Halide::Target& target, const RunOptions& options = {});

// Same, for instances that are already scheduled (by apply_expert_schedule, a stock
// autoscheduler, apply_schedule): ratio_to_first compares with instances[0].
std::vector<EvalResult> evaluate_instances_interleaved(const std::vector<const AppInstance*>& instances,
                                                       const Outputs& reference, const Halide::Target& target,
                                                       const RunOptions& options = {});

// Same, for an instance that is already scheduled (e.g. by apply_expert_schedule).
EvalResult evaluate_instance(const AppInstance& inst, const Outputs& reference, const Halide::Target& target,
                             const RunOptions& options = {});

struct AotResult {
  bool ok = false;
  std::string error;
  std::string object_file;  // or the assembly file (AotOutput::Assembly)
};

// What an ahead-of-time compilation writes: an object file, or the assembly LLVM generates
// (to read what a schedule became: which accumulators stay in registers, which loads gather).
enum class AotOutput { Object, Assembly };

// Validates and applies `schedule` to a fresh instance, then compiles it ahead of time for
// `target` (e.g. cuda_target()) into `dir`: the GPU code generator runs, nothing executes.
AotResult compile_schedule_aot(const App& app, const Schedule& schedule, const KernelDescription& kd,
                               const Halide::Target& target, const std::string& dir,
                               AotOutput output = AotOutput::Object);
// Compiles an already scheduled instance ahead of time.
AotResult compile_instance_aot(const AppInstance& inst, const Halide::Target& target, const std::string& dir,
                               AotOutput output = AotOutput::Object);

}  // namespace candor::halide_bridge
