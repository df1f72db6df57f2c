#include "compile.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <thread>

#include "runtime/statistics.h"

#include "cpu_features.h"
#include "directives.h"
#include "timing_lock.h"
#include "validate.h"

namespace candor::halide_bridge {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

std::string coords(const int* pos, int dims) {
  std::string s = "(";
  for (int d = 0; d < dims; ++d) s += (d ? ", " : "") + std::to_string(pos[d]);
  return s + ")";
}

// Calls f(pos) for every coordinate of `b` (an odometer; Buffer::for_each_element trips
// -Wmaybe-uninitialized in Halide's header).
template <typename F>
void for_each_coord(const Halide::Buffer<>& b, F&& f) {
  const int dims = b.dimensions();
  std::vector<int> pos(std::max(dims, 1), 0);
  for (int d = 0; d < dims; ++d) {
    if (b.dim(d).extent() <= 0) return;
    pos[d] = b.dim(d).min();
  }
  while (true) {
    f(pos.data());
    int d = 0;
    for (; d < dims; ++d) {
      if (++pos[d] <= b.dim(d).max()) break;
      pos[d] = b.dim(d).min();
    }
    if (d == dims) return;
  }
}

template <typename T>
Comparison compare_typed(const Halide::Buffer<>& got_v, const Halide::Buffer<>& ref_v, const Tolerance& tol,
                         const std::string& label) {
  Halide::Buffer<T> got = got_v.as<T>(), ref = ref_v.as<T>();
  Comparison c;
  double scale = 0;
  if constexpr (std::is_floating_point_v<T>)
    for_each_coord(ref_v, [&](const int* pos) {
      const double v = double(ref(pos));
      if (std::isfinite(v)) scale = std::max(scale, std::fabs(v));
    });
  const double abs_tol = tol.abs_scaled * scale;
  for_each_coord(ref_v, [&](const int* pos) {
    if (!c.ok) return;
    const T g = got(pos), r = ref(pos);
    bool same;
    if constexpr (std::is_floating_point_v<T>) {
      const double err = std::fabs(double(g) - double(r));
      if (std::isnan(double(g)) || std::isnan(double(r)))
        same = std::isnan(double(g)) && std::isnan(double(r));
      else if (std::isinf(double(g)) || std::isinf(double(r)))
        same = g == r;
      else
        same = err <= abs_tol + tol.rel * std::fabs(double(r));
      if (same && std::isfinite(err)) c.max_abs_error = std::max(c.max_abs_error, err);
    } else {
      const double err = std::fabs(double(g) - double(r));
      same = err <= double(tol.integer_slack);
      if (same) c.max_abs_error = std::max(c.max_abs_error, err);
    }
    if (!same) {
      std::ostringstream os;
      os << label << " differs at " << coords(pos, ref.dimensions()) << ": got " << +g << ", reference " << +r;
      if constexpr (std::is_floating_point_v<T>)
        os << " (tolerance " << abs_tol << " + " << tol.rel << " * |reference|)";
      else if (tol.integer_slack > 0)
        os << " (tolerance " << tol.integer_slack << ")";
      c.ok = false;
      c.message = os.str();
    }
  });
  return c;
}

Comparison compare_buffer(const Halide::Buffer<>& got, const Halide::Buffer<>& ref, const Tolerance& tol,
                          const std::string& label) {
  if (got.type() != ref.type())
    return {false, label + " has type " + type_name(got.type()) + ", reference " + type_name(ref.type()), 0};
  if (got.dimensions() != ref.dimensions())
    return {false, label + " has a different number of dimensions than the reference", 0};
  for (int d = 0; d < ref.dimensions(); ++d)
    if (got.dim(d).min() != ref.dim(d).min() || got.dim(d).extent() != ref.dim(d).extent())
      return {false, label + " has a different shape than the reference in dimension " + std::to_string(d), 0};
  const Halide::Type t = ref.type();
  if (t.is_float() && t.bits() == 32) return compare_typed<float>(got, ref, tol, label);
  if (t.is_float() && t.bits() == 64) return compare_typed<double>(got, ref, tol, label);
  if (t.is_bool() || (t.is_uint() && t.bits() == 8)) return compare_typed<uint8_t>(got, ref, tol, label);
  if (t.is_uint() && t.bits() == 16) return compare_typed<uint16_t>(got, ref, tol, label);
  if (t.is_uint() && t.bits() == 32) return compare_typed<uint32_t>(got, ref, tol, label);
  if (t.is_uint() && t.bits() == 64) return compare_typed<uint64_t>(got, ref, tol, label);
  if (t.is_int() && t.bits() == 8) return compare_typed<int8_t>(got, ref, tol, label);
  if (t.is_int() && t.bits() == 16) return compare_typed<int16_t>(got, ref, tol, label);
  if (t.is_int() && t.bits() == 32) return compare_typed<int32_t>(got, ref, tol, label);
  if (t.is_int() && t.bits() == 64) return compare_typed<int64_t>(got, ref, tol, label);
  return {false, label + " has an unsupported type " + type_name(t), 0};
}


void run_into(Halide::Pipeline& p, Outputs& out, const Halide::Target& target) {
  Halide::Realization r(out);
  p.realize(r, target);
}

std::string halide_message(const std::exception& e) {
  std::string m = e.what();
  while (!m.empty() && (m.back() == '\n' || m.back() == ' ')) m.pop_back();
  return m;
}

// Whether the environment variable names a target the user chose: set, and not "host" (alone
// or with features added, which Halide reads as the host's own features plus those).
bool names_target(const char* variable) {
  const char* v = std::getenv(variable);
  if (!v || !*v) return false;
  const std::string s = v;
  return s != "host" && s.rfind("host-", 0) != 0;
}

}  // namespace

Outputs make_outputs(const AppInstance& inst) {
  if (inst.output_sizes.size() != inst.outputs.size())
    throw BridgeError("app instance gives " + std::to_string(inst.output_sizes.size()) + " output sizes for " +
                      std::to_string(inst.outputs.size()) + " outputs");
  if (!inst.output_mins.empty() && inst.output_mins.size() != inst.outputs.size())
    throw BridgeError("app instance gives " + std::to_string(inst.output_mins.size()) + " output mins for " +
                      std::to_string(inst.outputs.size()) + " outputs");
  Outputs out;
  for (size_t i = 0; i < inst.outputs.size(); ++i)
    for (const Halide::Type& t : inst.outputs[i].output_types()) {
      out.emplace_back(t, inst.output_sizes[i]);
      if (!inst.output_mins.empty()) out.back().set_min(inst.output_mins[i]);
      // A fresh buffer can be the memory of the last one freed, still holding a right answer:
      // Halide 14 lowered some schedules to a pipeline that writes nothing (random_39's beam
      // picks), and these verified after another schedule of the same pipeline. Poisoned,
      // an output nothing wrote fails verification.
      std::memset(out.back().data(), 0xA5, out.back().size_in_bytes());
    }
  return out;
}

Halide::Target host_target() {
  const Halide::Target t = Halide::get_jit_target_from_environment();
  return names_target("HL_JIT_TARGET") ? t : target_for(host_cpu_features(), t);
}

Halide::Target aot_host_target() {
  const Halide::Target t = Halide::get_target_from_environment();
  return names_target("HL_TARGET") ? t : target_for(host_cpu_features(), t);
}

Halide::Target cuda_target() { return Halide::Target("host-cuda-cuda_capability_80"); }

void set_jit_threads(int threads, const Halide::Target& target) {
  if (threads <= 0) threads = int(std::max(1u, std::thread::hardware_concurrency()));
  // The JIT runtime exists once something was compiled; before that, the runtime reads
  // HL_NUM_THREADS when its thread pool starts.
  for (const auto& m : Halide::Internal::JITSharedRuntime::get(nullptr, target, false)) {
    auto sym = m.find_symbol_by_name("halide_set_num_threads");
    if (sym.address) {
      reinterpret_cast<int (*)(int)>(sym.address)(threads);
      return;
    }
  }
  setenv("HL_NUM_THREADS", std::to_string(threads).c_str(), 1);
}

Outputs realize(const AppInstance& inst, const Halide::Target& target) {
  Outputs out = make_outputs(inst);
  Halide::Pipeline p = inst.pipeline();
  try {
    run_into(p, out, target);
  } catch (const Halide::Error& e) {
    throw BridgeError("Halide failed to compile or run the pipeline: " + halide_message(e));
  }
  return out;
}

Outputs reference_outputs(const App& app, const Halide::Target& target) {
  AppInstance inst = app.build();
  const KernelDescription kd = describe_app(inst, target);
  apply_schedule(reference_schedule(kd), kd, inst.outputs);
  return realize(inst, target);
}

std::vector<Outputs> reference_outputs_at_sizes(const App& app, size_t count,
                                                const std::function<void(size_t, AppInstance&)>& resize,
                                                const Halide::Target& target, std::vector<std::string>& errors) {
  AppInstance inst = app.build();
  const KernelDescription kd = describe_app(inst, target);
  apply_schedule(reference_schedule(kd), kd, inst.outputs);
  Halide::Pipeline p = inst.pipeline();
  std::vector<Outputs> all(count);
  errors.assign(count, "");
  for (size_t k = 0; k < count; ++k) {
    try {
      if (k > 0) resize(k, inst);
      Outputs out = make_outputs(inst);
      run_into(p, out, target);
      all[k] = std::move(out);
    } catch (const Halide::Error& e) {
      if (k == 0) throw BridgeError("Halide failed to compile or run the pipeline: " + halide_message(e));
      errors[k] = halide_message(e);
    } catch (const BridgeError& e) {
      if (k == 0) throw;
      errors[k] = e.what();
    }
  }
  return all;
}

namespace {
constexpr const char* kOutputsMagic = "candor-outputs 1";
}  // namespace

void save_outputs(const Outputs& outputs, const std::string& path) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << kOutputsMagic << "\n" << outputs.size() << "\n";
  for (const Halide::Buffer<>& b : outputs) {
    const Halide::Type t = b.type();
    out << int(t.code()) << " " << t.bits() << " " << t.lanes() << " " << b.dimensions();
    for (int d = 0; d < b.dimensions(); ++d) out << " " << b.dim(d).min() << " " << b.dim(d).extent();
    out << "\n";
    out.write(static_cast<const char*>(b.data()), std::streamsize(b.size_in_bytes()));
    out << "\n";
  }
  if (!out.flush()) throw BridgeError("cannot write the outputs to " + path);
}

Outputs load_outputs(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string magic;
  size_t count = 0;
  if (!std::getline(in, magic) || magic != kOutputsMagic || !(in >> count))
    throw BridgeError(path + " is not a file of outputs (save_outputs)");
  Outputs outputs;
  for (size_t i = 0; i < count; ++i) {
    int code = 0, bits = 0, lanes = 0, dims = 0;
    if (!(in >> code >> bits >> lanes >> dims) || dims < 0 || dims > 16)
      throw BridgeError(path + ": output " + std::to_string(i) + " has a malformed header");
    std::vector<int> mins(dims), extents(dims);
    for (int d = 0; d < dims; ++d)
      if (!(in >> mins[d] >> extents[d]) || extents[d] < 0)
        throw BridgeError(path + ": output " + std::to_string(i) + " has a malformed shape");
    in.get();  // the header's newline
    Halide::Buffer<> b(Halide::Type(halide_type_code_t(code), bits, lanes), extents);
    b.set_min(mins);
    if (!in.read(static_cast<char*>(b.data()), std::streamsize(b.size_in_bytes())))
      throw BridgeError(path + ": output " + std::to_string(i) + " is cut short");
    outputs.push_back(std::move(b));
  }
  return outputs;
}

bool computed_through_floats(const KernelDescription& kd) {
  auto is_float = [](const std::string& type) { return type.rfind("float", 0) == 0; };
  for (const FuncInfo& f : kd.funcs) {
    for (const Halide::Type& t : f.types)
      if (t.is_float()) return true;
    for (const StageInfo& st : f.stages)
      for (const auto& [type, count] : st.ops.by_type)
        if (count > 0 && is_float(type)) return true;
  }
  return false;
}

Tolerance tolerance_for(const KernelDescription& kd) {
  Tolerance t;
  if (computed_through_floats(kd)) t.integer_slack = 1;
  return t;
}

Comparison compare_outputs(const Outputs& got, const Outputs& reference, const Tolerance& tol) {
  if (got.size() != reference.size())
    return {false, std::to_string(got.size()) + " outputs, reference has " + std::to_string(reference.size()), 0};
  Comparison all;
  for (size_t i = 0; i < got.size(); ++i) {
    Comparison c = compare_buffer(got[i], reference[i], tol, "output " + std::to_string(i));
    if (!c.ok) return c;
    all.max_abs_error = std::max(all.max_abs_error, c.max_abs_error);
  }
  return all;
}

namespace {

// A compiled pipeline whose output matched the reference, ready to be timed.
struct Prepared {
  Halide::Pipeline pipeline;
  Outputs out;
};

// Compiles; fills r's compile time, or its failed step and error.
bool compile_prepared(const AppInstance& inst, const Halide::Target& target, Prepared& prepared, EvalResult& r) {
  prepared.pipeline = inst.pipeline();
  try {
    prepared.out = make_outputs(inst);
  } catch (const BridgeError& e) {
    r.failed_step = "run";
    r.error = e.what();
    return false;
  }
  try {
    const auto t0 = Clock::now();
    prepared.pipeline.compile_jit(target);
    r.compile_ms = ms_since(t0);
  } catch (const Halide::Error& e) {
    r.failed_step = "compile";
    r.error = halide_message(e);
    return false;
  }
  return true;
}

// Runs the compiled pipeline once to verify it, then the untimed warm-up runs.
bool verify_prepared(const Outputs& reference, const Halide::Target& target, const RunOptions& options,
                     Prepared& prepared, EvalResult& r) {
  try {
    set_jit_threads(options.threads, target);
    run_into(prepared.pipeline, prepared.out, target);
    Comparison c = compare_outputs(prepared.out, reference, options.tolerance);
    if (!c.ok) {
      r.failed_step = "verify";
      r.error = c.message;
      return false;
    }
    r.max_abs_error = c.max_abs_error;
    for (int i = 0; i < options.warmup_runs; ++i) run_into(prepared.pipeline, prepared.out, target);
  } catch (const Halide::Error& e) {
    r.failed_step = "run";
    r.error = halide_message(e);
    return false;
  }
  return true;
}

// The timing lock (null when there is none to take), or false with the failed step "lock" in
// r when it cannot be taken.
bool take_timing_lock(const RunOptions& options, TimingLock::Mode mode, std::unique_ptr<TimingLock>& lock,
                      EvalResult& r) {
  if (options.timing_lock.empty()) return true;
  try {
    lock = std::make_unique<TimingLock>(options.timing_lock, mode);
    return true;
  } catch (const BridgeError& e) {
    r.failed_step = "lock";
    r.error = e.what();
    return false;
  }
}

void step_ended(const RunOptions& options, const char* step, size_t index) {
  if (options.on_step) options.on_step(step, index);
}

// One timed run; false (with r's failed step) when Halide fails.
bool timed_run(Prepared& prepared, const Halide::Target& target, EvalResult& r) {
  try {
    const auto t0 = Clock::now();
    run_into(prepared.pipeline, prepared.out, target);
    r.run_ms.push_back(ms_since(t0));
  } catch (const Halide::Error& e) {
    r.failed_step = "run";
    r.error = halide_message(e);
    return false;
  }
  return true;
}

}  // namespace

EvalResult evaluate_instance(const AppInstance& inst, const Outputs& reference, const Halide::Target& target,
                             const RunOptions& options) {
  EvalResult r;
  Prepared prepared;
  std::unique_ptr<TimingLock> lock;
  if (!take_timing_lock(options, TimingLock::Mode::Shared, lock, r)) return r;
  const bool compiled = compile_prepared(inst, target, prepared, r);
  step_ended(options, "compiled", 0);
  if (!compiled) return r;
  lock.reset();  // before taking it exclusively, which would wait for this process itself
  if (!take_timing_lock(options, TimingLock::Mode::Exclusive, lock, r)) return r;
  const bool verified = verify_prepared(reference, target, options, prepared, r);
  step_ended(options, "verified", 0);
  if (!verified) return r;
  const auto start = Clock::now();
  for (int i = 0; i < options.timed_runs || ms_since(start) < 1e3 * options.min_timed_seconds; ++i)
    if (!timed_run(prepared, target, r)) return r;
  r.median_ms = median(r.run_ms);
  r.ok = true;
  return r;
}

bool scheduled_instance(const App& app, const Schedule& schedule, const KernelDescription& kd,
                        const Halide::Target& target, AppInstance& inst, std::string& step, std::string& error) {
  try {
    validate_schedule(schedule, kd, target);
  } catch (const BridgeError& e) {
    step = "validate";
    error = e.what();
    return false;
  }
  try {
    inst = app.build();
    apply_schedule(schedule, kd, inst.outputs);
  } catch (const std::exception& e) {  // BridgeError, or Halide::Error from build()
    step = "apply";
    error = e.what();
    return false;
  }
  return true;
}

EvalResult evaluate_schedule(const App& app, const Schedule& schedule, const KernelDescription& kd,
                             const Outputs& reference, const Halide::Target& target, const RunOptions& options) {
  AppInstance inst;
  EvalResult r;
  if (!scheduled_instance(app, schedule, kd, target, inst, r.failed_step, r.error)) return r;
  return evaluate_instance(inst, reference, target, options);
}

EvalResult verify_at_sizes(AppInstance& inst, const std::vector<Outputs>& references,
                           const std::function<void(size_t, AppInstance&)>& resize, const Halide::Target& target,
                           const RunOptions& options) {
  EvalResult r;
  Prepared prepared;
  if (!compile_prepared(inst, target, prepared, r)) return r;
  RunOptions once = options;
  once.warmup_runs = 0;
  double max_error = 0;
  for (size_t k = 0; k < references.size(); ++k) {
    if (k > 0) {
      try {
        resize(k, inst);
        prepared.out = make_outputs(inst);
      } catch (const BridgeError& e) {
        r.failed_step = "run";
        r.error = "at size " + std::to_string(k) + ": " + e.what();
        return r;
      }
    }
    if (!verify_prepared(references[k], target, k == 0 ? options : once, prepared, r)) {
      r.error = "at size " + std::to_string(k) + ": " + r.error;
      return r;
    }
    max_error = std::max(max_error, r.max_abs_error);
    for (int i = 0; k == 0 && i < options.timed_runs; ++i)
      if (!timed_run(prepared, target, r)) {
        r.error = "at size 0: " + r.error;
        return r;
      }
  }
  if (!r.run_ms.empty()) r.median_ms = median(r.run_ms);
  r.max_abs_error = max_error;
  r.ok = true;
  return r;
}

std::vector<EvalResult> evaluate_interleaved(const App& app, const std::vector<Schedule>& schedules,
                                             const KernelDescription& kd, const Outputs& reference,
                                             const Halide::Target& target, const RunOptions& options) {
  std::vector<AppInstance> instances(schedules.size());
  std::vector<EvalResult> failed(schedules.size());
  std::vector<const AppInstance*> built;
  std::vector<size_t> built_index;  // of each built instance, in `schedules`
  for (size_t i = 0; i < schedules.size(); ++i) {
    if (scheduled_instance(app, schedules[i], kd, target, instances[i], failed[i].failed_step, failed[i].error)) {
      built.push_back(&instances[i]);
      built_index.push_back(i);
    } else {
      step_ended(options, "compiled", i);  // its compile step is over: it has none
    }
  }
  RunOptions built_options = options;
  if (options.on_step)
    built_options.on_step = [&](const char* step, size_t k) {
      options.on_step(step, std::strcmp(step, "timed") == 0 ? k : built_index.at(k));
    };
  std::vector<EvalResult> timed = evaluate_instances_interleaved(built, reference, target, built_options);
  std::vector<EvalResult> results;
  for (size_t i = 0, k = 0; i < schedules.size(); ++i)
    results.push_back(failed[i].failed_step.empty() ? timed[k++] : failed[i]);
  // A schedule that failed before timing is not a first to compare with.
  if (!results.empty() && !results[0].failed_step.empty())
    for (EvalResult& r : results) r.ratio_to_first = 0;
  return results;
}

std::vector<EvalResult> evaluate_instances_interleaved(const std::vector<const AppInstance*>& instances,
                                                       const Outputs& reference, const Halide::Target& target,
                                                       const RunOptions& options) {
  std::vector<EvalResult> results(instances.size());
  std::vector<Prepared> prepared(instances.size());
  std::vector<size_t> compiled, ready;
  std::unique_ptr<TimingLock> lock;
  EvalResult lock_failure;
  if (!take_timing_lock(options, TimingLock::Mode::Shared, lock, lock_failure))
    return std::vector<EvalResult>(instances.size(), lock_failure);
  for (size_t i = 0; i < instances.size(); ++i) {
    if (compile_prepared(*instances[i], target, prepared[i], results[i])) compiled.push_back(i);
    step_ended(options, "compiled", i);
  }
  lock.reset();
  if (!take_timing_lock(options, TimingLock::Mode::Exclusive, lock, lock_failure))
    return std::vector<EvalResult>(instances.size(), lock_failure);
  for (size_t i : compiled) {
    if (verify_prepared(reference, target, options, prepared[i], results[i])) ready.push_back(i);
    step_ended(options, "verified", i);
  }
  // Odd rounds run in reverse order, so that no schedule always runs after the same one.
  const auto start = Clock::now();
  for (int round = 0; !ready.empty() && (round < options.timed_runs || ms_since(start) < 1e3 * options.min_timed_seconds);
       ++round) {
    if (round % 2) std::reverse(ready.begin(), ready.end());
    std::vector<size_t> still;
    for (size_t i : ready) {
      EvalResult warm;
      if (options.rewarm && !timed_run(prepared[i], target, warm)) {
        results[i].failed_step = warm.failed_step;
        results[i].error = warm.error;
        continue;
      }
      if (timed_run(prepared[i], target, results[i])) still.push_back(i);
    }
    if (round % 2) std::reverse(still.begin(), still.end());
    ready = std::move(still);
    step_ended(options, "timed", round);
  }
  for (size_t i : ready) {
    results[i].median_ms = median(results[i].run_ms);
    results[i].ok = true;
  }
  if (!results.empty() && results[0].ok) {
    for (size_t i : ready) {
      std::vector<double> ratios;
      for (size_t k = 0; k < results[i].run_ms.size(); ++k) ratios.push_back(results[i].run_ms[k] / results[0].run_ms[k]);
      results[i].ratio_to_first = median(ratios);
    }
  }
  return results;
}

AotResult compile_instance_aot(const AppInstance& inst, const Halide::Target& target, const std::string& dir,
                               AotOutput output) {
  AotResult r;
  try {
    std::filesystem::create_directories(dir);
    Halide::Pipeline p = inst.pipeline();
    const std::string name = "candor_aot_" + inst.outputs.at(0).name();
    std::string fn;
    for (char c : name) fn += std::isalnum((unsigned char)c) ? c : '_';
    const bool assembly = output == AotOutput::Assembly;
    r.object_file = (std::filesystem::path(dir) / (fn + (assembly ? ".s" : ".o"))).string();
    if (assembly)
      p.compile_to_assembly(r.object_file, p.infer_arguments(), fn, target);
    else
      p.compile_to_object(r.object_file, p.infer_arguments(), fn, target);
    r.ok = std::filesystem::exists(r.object_file) && std::filesystem::file_size(r.object_file) > 0;
    if (!r.ok) r.error = std::string("Halide produced no ") + (assembly ? "assembly" : "object file") + " at " + r.object_file;
  } catch (const Halide::Error& e) {
    r.error = halide_message(e);
  } catch (const std::exception& e) {
    r.error = e.what();
  }
  return r;
}

AotResult compile_schedule_aot(const App& app, const Schedule& schedule, const KernelDescription& kd,
                               const Halide::Target& target, const std::string& dir, AotOutput output) {
  AppInstance inst;
  AotResult r;
  std::string step;
  if (!scheduled_instance(app, schedule, kd, target, inst, step, r.error)) {
    r.error = step + ": " + r.error;
    return r;
  }
  return compile_instance_aot(inst, target, dir, output);
}

}  // namespace candor::halide_bridge
