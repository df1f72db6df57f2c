// The calibration micro-benchmark: Halide JIT kernels measure what Halide-generated code
// achieves on this machine (arithmetic throughput, streaming bandwidth per cache level,
// parallel-loop and allocation overheads). Medians of several timed runs.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <time.h>
#include <fstream>
#include <functional>
#include <iostream>
#include <stdexcept>
#include <string>
#include <thread>

#include <Halide.h>
#include <fmt/format.h>

#include "cache_info.h"
#include "halide_bridge/compile.h"
#include "machine.h"
#include "runtime/statistics.h"
#include "support/progress.h"

namespace candor::models::halide {

namespace {

using Clock = std::chrono::steady_clock;
using namespace Halide;

double seconds_of(const std::function<void()>& f) {
  const auto t0 = Clock::now();
  f();
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Median time of `repeats` runs after one untimed warm-up.
double time_median(const std::function<void()>& f, int repeats) {
  f();
  std::vector<double> t;
  for (int i = 0; i < repeats; ++i) t.push_back(seconds_of(f));
  return median(t);
}

double cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

// The time `f` would take with `active` cores to itself: the wall time, or the process's
// CPU time shared over the active cores when that is less (the machine may be shared with
// other processes, which only ever take cores away from the kernel). Fastest of `repeats`
// runs after one untimed warm-up: peaks keep the best run (see arith_rate).
double time_best(const std::function<void()>& f, int repeats, int active) {
  f();
  double best = 1e300;
  for (int i = 0; i < repeats; ++i) {
    const double c0 = cpu_seconds();
    const double wall = seconds_of(f);
    const double cpu = (cpu_seconds() - c0) / std::max(1, active);
    best = std::min(best, cpu > 0 ? std::min(wall, cpu) : wall);
  }
  return best;
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      auto p = line.find(':');
      if (p != std::string::npos) return line.substr(p + 2);
    }
  }
  return "unknown";
}

std::string now_iso() {
  std::time_t t = std::time(nullptr);
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", std::localtime(&t));
  return buf;
}

// A kernel that computes `rows` rows of 1024 points, each point evaluating `chains`
// independent dependency chains of `steps` steps (so the core's pipelines, not latencies,
// bound it). Returns the Halide IR operations evaluated per point.
struct ArithKernel {
  Func f;
  int ops_per_point = 0;
};

// Floating point: eight chains of fused multiply-adds (a Mul and an Add each) whose values
// are summed in pairs into four accumulators, so both the FMA and the add pipes work and
// everything fits in 16 SIMD registers (no spills).
ArithKernel float_kernel(int steps) {
  Var x("x"), y("y");
  Expr yf = cast<float>(y);
  Expr m = yf * 1e-9f + 0.99990f, c = yf * 1e-9f + 1e-4f;
  const int chains = 8, accumulators = 4;
  std::vector<Expr> a, s;
  ArithKernel k;
  for (int i = 0; i < chains; ++i) a.push_back(cast<float>(x + i) * 1e-3f);
  for (int i = 0; i < accumulators; ++i) s.push_back(cast<float>(x - i) * 1e-3f);
  for (int st = 0; st < steps; ++st) {
    for (int i = 0; i < chains; ++i) a[i] = a[i] * m + c;
    for (int i = 0; i < accumulators; ++i) s[i] = s[i] + (a[2 * i] + a[2 * i + 1]);
  }
  k.ops_per_point = steps * (chains * 2 + accumulators * 2);
  Expr sum = s[0];
  for (int i = 1; i < accumulators; ++i) sum = sum + s[i];
  k.f = Func("calib_float");
  k.f(x, y) = sum;
  return k;
}

// Integers of type `t`: each step is an add then an xor (neither can be folded across
// steps), one instruction each on every SIMD width.
ArithKernel int_kernel(Type t, int steps) {
  const int chains = 8;
  Var x("x"), y("y");
  Expr c = cast(t, y * 7 + 3), d = cast(t, y * 13 + 5);
  std::vector<Expr> a;
  ArithKernel k;
  for (int i = 0; i < chains; ++i) a.push_back(cast(t, x * (i + 1)));
  for (int st = 0; st < steps; ++st)
    for (int i = 0; i < chains; ++i) a[i] = (a[i] + c) ^ d;
  k.ops_per_point = chains * steps * 2;
  Expr sum = a[0];
  for (int i = 1; i < chains; ++i) sum = sum ^ a[i];
  k.f = Func("calib_int" + std::to_string(t.bits()));
  k.f(x, y) = sum;
  return k;
}

// The row count (a multiple of `granule`, at most `max_rows`) at which one run of `run(rows)`,
// starting from `rows`, lasts about `target_s`: doubled at least, up to 8 times.
int rows_lasting(double target_s, int rows, int granule, int max_rows, const std::function<void(int)>& run) {
  for (int iter = 0; iter < 8; ++iter) {
    const double elapsed = seconds_of([&] { run(rows); });
    if (elapsed >= target_s * 0.5) break;
    rows = int(std::min<double>(rows * std::max(2.0, target_s / std::max(elapsed, 1e-6)), max_rows));
    rows = std::max(granule, rows - rows % granule);
  }
  return rows;
}

// Operations per second per core of `k`, vectorized by `lanes` (0: not vectorized by
// Halide), in parallel over rows on every core. Unvectorized kernels compute rows one point
// wide: LLVM auto-vectorizes Halide's unvectorized loops over x when it can, and a
// one-iteration loop measures truly scalar code. The row count grows until one run lasts
// about `target_s`. Peak rates keep the fastest run: interference from other processes
// only ever slows a kernel down.
double arith_rate(ArithKernel k, Type t, int lanes, bool scalar_rows, int cores, const Target& target,
                  const CalibrationOptions& o) {
  Var x = k.f.args()[0];
  Var y = k.f.args()[1];
  if (lanes > 0) k.f.vectorize(x, lanes);
  k.f.parallel(y, 8);
  k.f.compile_jit(target);
  const int width = scalar_rows ? 1 : 1024;
  const int rows = rows_lasting(o.target_ms * 1e-3, cores * 4, cores, 1 << 20, [&](int n) {
    Buffer<> out(t, width, n);
    k.f.realize(out, target);
  });
  Buffer<> out(t, width, rows);
  const double s = time_best([&] { k.f.realize(out, target); }, o.repeats, cores);
  return double(width) * rows * k.ops_per_point / s / cores;
}

// Register-tiled reductions, the shape the space gives an update with a register tile:
// `wide` vectors of outputs times `accumulators / wide` unrolled columns summed over a long
// RDom, operands in L1 (per step `wide` vector loads and a broadcast per column, each
// feeding `wide` fused multiply-adds). Few accumulators leave the FMA latency exposed; enough
// of them keep both FMA pipes busy, which is far above what `float_kernel` (adds in the mix)
// reaches; the loads compete for issue slots too, so a tile two vectors wide (fewer loads per
// FMA) runs faster than one vector wide with as many accumulators.
// Returns float32 operations (a Mul and an Add per FMA) per second per core.
double register_tile_rate(int accumulators, int wide, int cores, const Target& target, const CalibrationOptions& o) {
  const int lanes = target.natural_vector_size(Float(32)), depth = 256, columns = accumulators / wide;
  Var c("c"), x("x"), y("y"), k("k");
  Func a("calib_tile_a"), b("calib_tile_b"), sum("calib_tile_sum"), f("calib_tile");
  RDom r(0, depth);
  a(c, k) = cast<float>(c + k) * 1e-3f;
  b(x, k) = cast<float>(x - k) * 1e-3f;
  sum(c, x, y) = cast<float>(y);
  sum(c, x, y) += a(c, r) * b(x, r);
  f(c, x, y) = sum(c, x, y);
  f.bound(c, 0, lanes * wide).bound(x, 0, columns);
  a.compute_root().vectorize(c, lanes);
  b.compute_root();
  // vectorize(c, lanes) splits c: the vector loop inside, the `wide` vectors outside, unrolled.
  f.vectorize(c, lanes).unroll(c).unroll(x).parallel(y, 8);
  // Computed per output row, as the space computes an update inside its consumer's tile.
  sum.compute_at(f, y).vectorize(c, lanes).unroll(c).unroll(x);
  sum.update().reorder(c, x, r, y).vectorize(c, lanes).unroll(c).unroll(x);
  f.compile_jit(target);
  // Whole parallel tasks: updates round their splits up.
  const int rows = rows_lasting(o.target_ms * 1e-3, cores * 64, 8 * cores, 1 << 22, [&](int n) {
    Buffer<float> out(lanes * wide, columns, n);
    f.realize(out, target);
  });
  Buffer<float> out(lanes * wide, columns, rows);
  const double s = time_best([&] { f.realize(out, target); }, o.repeats, cores);
  return double(lanes) * accumulators * rows * depth * 2 / s / cores;
}

// `tiles` register tiles of `accumulators` vectors a row, one after the other, each reducing
// over `steps` steps: the shape of an update computed per subtile, whose next tile's
// reduction may start while the last one's chains finish. The rows' output stays in L2, so
// the time is the tiles'. run() realizes it `runs` times, long enough to time.
struct TileSweeps {
  Func f;
  Buffer<float> out;
  int runs = 1;
  double ops_per_run = 0;  // float ops (a Mul and an Add per FMA) per core
  void run(const Target& target) {
    for (int i = 0; i < runs; ++i) f.realize(out, target);
  }
};

TileSweeps tile_sweeps(int accumulators, int steps, int cores, const Target& target, const CalibrationOptions& o) {
  const int lanes = target.natural_vector_size(Float(32)), tiles = 16, rows = 32 * cores;
  Var c("c"), x("x"), y("y"), k("k"), t("t");
  Func a("calib_sweep_a"), b("calib_sweep_b"), sum("calib_sweep_sum");
  TileSweeps w;
  w.f = Func("calib_sweep");
  RDom r(0, steps);
  a(c, k) = cast<float>(c + k) * 1e-3f;
  b(x, k) = cast<float>(x - k) * 1e-3f;
  sum(c, x, t, y) = cast<float>(y + t);
  sum(c, x, t, y) += a(c, r) * b(x, r);
  w.f(c, x, t, y) = sum(c, x, t, y);
  w.f.bound(c, 0, lanes).bound(x, 0, accumulators).bound(t, 0, tiles);
  a.compute_root().vectorize(c, lanes);
  b.compute_root();
  w.f.vectorize(c, lanes).unroll(x).parallel(y, 8);
  sum.compute_at(w.f, y).vectorize(c, lanes).unroll(x);
  sum.update().reorder(c, x, r, t, y).vectorize(c, lanes).unroll(x);
  w.f.compile_jit(target);
  w.out = Buffer<float>(lanes, accumulators, tiles, rows);
  for (int iter = 0; iter < 12 && seconds_of([&] { w.run(target); }) < o.target_ms * 1e-3 * 0.5; ++iter) w.runs *= 2;
  w.ops_per_run = double(lanes) * accumulators * tiles * rows * double(w.runs) * steps * 2 / cores;
  return w;
}

// The rate of tiles of 4 accumulators over tiles of 8, both over `steps` steps: the median
// over rounds that time each once, in turn (the two rates drift together on a shared machine).
double four_to_eight_measured(int steps, int cores, const Target& target, const CalibrationOptions& o) {
  TileSweeps four = tile_sweeps(4, steps, cores, target, o), eight = tile_sweeps(8, steps, cores, target, o);
  four.run(target);
  eight.run(target);
  std::vector<double> ratios;
  for (int round = 0; round < std::max(7, 2 * o.repeats); ++round) {
    const double t4 = time_best([&] { four.run(target); }, 1, cores);
    const double t8 = time_best([&] { eight.run(target); }, 1, cores);
    ratios.push_back((four.ops_per_run / t4) / (eight.ops_per_run / t8));
  }
  return median(ratios);
}

// Rows of 1024 points of f(x, y), of type `t`, vectorized at the natural width over x and
// parallel over y: points per second per core.
double points_per_second(Func f, Type t, int cores, const Target& target, const CalibrationOptions& o) {
  Var x = f.args()[0], y = f.args()[1];
  f.vectorize(x, target.natural_vector_size(t)).parallel(y, 8);
  f.compile_jit(target);
  const int rows = rows_lasting(o.target_ms * 1e-3, cores * 64, 8 * cores, 1 << 20, [&](int n) {
    Buffer<> out(t, 1024, n);
    f.realize(out, target);
  });
  Buffer<> out(t, 1024, rows);
  const double s = time_best([&] { f.realize(out, target); }, o.repeats, cores);
  return 1024.0 * rows / s / cores;
}

// An int32 kernel doing `per_point` of the operation measured: its lanes per second per core.
double lanes_per_second(Func f, int per_point, int cores, const Target& target, const CalibrationOptions& o) {
  return points_per_second(std::move(f), Int(32), cores, target, o) * per_point;
}

// Gathers: a vectorized lookup in a table held in L1 at data-dependent indices (a tone
// curve, a histogram's LUT). SIMD loads at arbitrary indices issue one load per lane (AVX2's
// gather is microcoded), so they run far below the contiguous load rate. Returns lanes
// gathered per second per core.
double gather_rate(int cores, const Target& target, const CalibrationOptions& o) {
  const int table = 1024, lookups = 8;
  Var x("x"), y("y"), i("i");
  Func lut("calib_lut"), f("calib_gather");
  lut(i) = i * 7 + 3;
  Expr v = 0;
  for (int k = 0; k < lookups; ++k)  // independent lookups, as a tone curve per channel
    v = v ^ lut(unsafe_promise_clamped((x * 37 + y * 11 + k * 97) & (table - 1), 0, table - 1));
  f(x, y) = v;
  lut.compute_root();
  return lanes_per_second(f, lookups, cores, target, o);
}

// Integer division by a value known only at run time (a pixel count, a parameter), in
// vectorized code: x86 has no SIMD integer division, so LLVM divides lane by lane. Returns
// lanes divided per second per core.
double variable_division_rate(int cores, const Target& target, const CalibrationOptions& o) {
  const int divisions = 8;
  Param<int> divisor("calib_divisor");
  divisor.set(7919);
  Var x("x"), y("y");
  Func f("calib_division");
  Expr v = 0;
  for (int k = 0; k < divisions; ++k)  // independent quotients
    v = v ^ ((x * 37 + y * 11 + k * 97) / divisor);
  f(x, y) = v;
  return lanes_per_second(f, divisions, cores, target, o);
}

// Integer division by a constant that is not a power of two, vectorized, of `t`: Halide
// multiplies by a magic number and keeps the high half, in a type twice as wide (for
// 32-bit lanes on AVX2, 64-bit products and shuffles). Timed against the same kernel with
// an add in place of each division; returns lanes divided per second per core (the
// difference's), or 0 when the division is not measurably slower than an add.
double constant_division_rate(Type t, int cores, const Target& target, const CalibrationOptions& o) {
  const int divisions = 8;
  Var x("x"), y("y");
  auto seconds_per_point = [&](bool divide) {
    Func f(std::string("calib_constant_") + (divide ? "division" : "add") + std::to_string(t.bits()));
    Expr v = cast(t, 0);
    for (int k = 0; k < divisions; ++k) {  // independent quotients
      const Expr a = cast(t, x * 37 + y * 11 + k * 97);
      v = v ^ (divide ? a / cast(t, 7) : a + cast(t, 7));
    }
    f(x, y) = v;
    return 1 / points_per_second(f, t, cores, target, o);
  };
  const double with = seconds_per_point(true), without = seconds_per_point(false);
  if (with <= without) return 0;
  return divisions / (with - without);
}

// A float recurrence through memory, each step reading what the last one stored (an IIR
// filter's scan): seconds per step on one core, the latency no throughput figure shows.
double recurrence_step_seconds(const Target& target, int repeats) {
  const int steps = 1 << 16;
  Func f("calib_recurrence");
  Var x("x");
  RDom r(1, steps - 1, "r");
  f(x) = cast<float>(x);
  f(r) = f(r - 1) * 0.999f + 0.5f;
  f.vectorize(x, target.natural_vector_size(Float(32)));
  f.update().unscheduled();  // the scan is serial by nature
  f.compile_jit(target);
  Buffer<float> out(steps);
  return time_median([&] { f.realize(out, target); }, repeats) / steps;
}

// Streaming reads: each core sums its own chunk of `chunk_bytes` (rows of 64 floats),
// `passes` times. Returns bytes read per second over the active cores.
struct ReadKernel {
  ImageParam in{Float(32), 2, "calib_in"};
  Param<int> rows_per_core{"rows_per_core"}, passes{"passes"};
  Func sum{"calib_sum"};
  ReadKernel(const Target& target) {
    Var x("x"), c("c"), xo("xo"), xi("xi");
    RDom r(0, rows_per_core, 0, passes);
    sum(x, c) = 0.0f;
    sum(x, c) += in(x, c * rows_per_core + r.x);
    sum.bound(x, 0, 64);
    sum.update().split(x, xo, xi, 8).vectorize(xi).unroll(xo).reorder(xi, xo, r.x, r.y, c).parallel(c);
    sum.compile_jit(target);
  }
  double bandwidth(int64_t chunk_bytes, int active_cores, int64_t target_bytes, const Target& target, int repeats) {
    const int rows = int(std::max<int64_t>(1, chunk_bytes / 256));
    const int64_t per_pass = int64_t(rows) * 256 * active_cores;
    const int p = int(std::max<int64_t>(1, target_bytes / per_pass));
    Buffer<float> data(64, rows * active_cores);
    data.fill(1.0f);
    in.set(data);
    rows_per_core.set(rows);
    passes.set(p);
    Buffer<float> out(64, active_cores);
    const double s = time_best([&] { sum.realize(out, target); }, repeats, active_cores);
    return double(per_pass) * p / s;
  }
};

// Column walks: vectors of 8 floats read down `rows` rows of 4 KiB (1024 floats) before
// moving to the next 8 columns, as a schedule does whose loop over rows sits inside its loop
// over columns. Every vector is a new line; the rows alias in a few cache sets, so the other
// half of each line is gone from L1 and L2 when the walk comes back for it, and the hardware
// prefetchers, which follow streams within a page, do not help. `rows` is chosen so the
// buffer sits in L3. Returns the lines fetched per second on `cores` cores.
double column_walk_lines_per_s(int64_t rows, int cores, const Target& target, int repeats) {
  ImageParam in(Float(32), 2, "calib_walk_in");
  Func sum("calib_walk");
  Var x("x"), xo("xo"), xi("xi");
  RDom r(0, int(rows));
  sum(x) = 0.0f;
  sum(x) += in(x, r);
  sum.bound(x, 0, 1024);
  sum.update().split(x, xo, xi, 8).vectorize(xi).reorder(xi, r, xo);
  if (cores > 1) sum.update().parallel(xo);
  sum.compile_jit(target);
  Buffer<float> data(1024, int(rows)), out(1024);
  data.fill(1.0f);
  in.set(data);
  const double s = time_best([&] { sum.realize(out, target); }, repeats, cores);
  return double(1024 / 8) * double(rows) / s;
}

// The source and destination of the copies: rows of 4096 floats, `bytes` each, filled once
// (first touches fault pages in, which a copy of gigabytes would otherwise repeat each time).
struct CopyBuffers {
  static constexpr int kWidth = 4096;
  Buffer<float> in, out;
  explicit CopyBuffers(int64_t bytes) {
    const int rows = int(std::max<int64_t>(1, bytes / (kWidth * 4)));
    in = Buffer<float>(kWidth, rows);
    out = Buffer<float>(kWidth, rows);
    in.fill(1.0f);
    out.fill(0.0f);
  }
};

// Bytes read + written per second (all cores) of copying `in` into `cp`'s output over the
// buffers' rows (a multiple of `granule` of them, at least one granule).
double copy_rate(Func cp, ImageParam in, CopyBuffers& buffers, int granule, int cores, const Target& target,
                 int repeats) {
  cp.compile_jit(target);
  const int rows = std::max(granule, buffers.in.height() / granule * granule);
  if (rows > buffers.in.height()) buffers = CopyBuffers(int64_t(rows) * CopyBuffers::kWidth * 4);
  // Views of the first rows, sharing the buffers' memory.
  Buffer<float> out(buffers.out.get()->cropped(1, 0, rows));
  in.set(Buffer<float>(buffers.in.get()->cropped(1, 0, rows)));
  const double s = time_best([&] { cp.realize(out, target); }, repeats, cores);
  return 2.0 * double(CopyBuffers::kWidth) * rows * 4 / s;
}

double copy_bandwidth(CopyBuffers& buffers, int cores, const Target& target, int repeats) {
  ImageParam in(Float(32), 2, "calib_copy_in");
  Func cp("calib_copy");
  Var x("x"), y("y");
  cp(x, y) = in(x, y) + 1.0f;
  cp.vectorize(x, 16).parallel(y, 16);
  return copy_rate(cp, in, buffers, 1, cores, target, repeats);
}

// Copy bandwidth (bytes read + written per second, all cores) of a DRAM-sized copy that
// walks `rows` rows at once, one line of each per visit: the loop order of a stage tiled
// `rows` high with its vector loop innermost. Each row is a stream the prefetchers must
// follow; past what they track, lines come at memory latency.
double interleaved_copy_bandwidth(int rows, CopyBuffers& buffers, int cores, const Target& target, int repeats) {
  ImageParam in(Float(32), 2, "calib_rows_in");
  Func cp("calib_rows");
  Var x("x"), y("y"), xo("xo"), xi("xi"), yo("yo"), yi("yi");
  cp(x, y) = in(x, y) + 1.0f;
  cp.split(x, xo, xi, 16).split(y, yo, yi, rows).reorder(xi, yi, xo, yo).vectorize(xi, 8).parallel(yo);
  return copy_rate(cp, in, buffers, rows * cores, cores, target, repeats);
}

// Per parallel loop and per task overheads: a tiny body in `tasks` parallel iterations vs
// the same loop run serially, each realized many times.
void parallel_overheads(int cores, const Target& target, int repeats, double& launch_s, double& task_s) {
  auto build = [&](bool par) {
    Func f(par ? "calib_par" : "calib_ser");
    Var x("x"), t("t");
    f(x, t) = cast<float>(x + t) * 0.5f;
    f.vectorize(x, 8);
    if (par) f.parallel(t);
    f.compile_jit(target);
    return f;
  };
  Func par = build(true), ser = build(false);
  const int reps = 400;
  auto per_call = [&](Func& f, int tasks) {
    Buffer<float> out(16, tasks);
    return time_median([&] {
             for (int i = 0; i < reps; ++i) f.realize(out, target);
           }, repeats) / reps;
  };
  const int n1 = cores, n2 = 256 * cores;
  const double p1 = per_call(par, n1), s1 = per_call(ser, n1);
  const double p2 = per_call(par, n2), s2 = per_call(ser, n2);
  launch_s = std::max(0.0, p1 - s1);
  // Extra time of the many-task loop beyond the few-task one, minus the useful work
  // (which the cores share), spread over the tasks each core runs.
  const double extra = (p2 - p1) - (s2 - s1) / cores;
  task_s = std::max(0.0, extra * cores / double(n2 - n1));
}

// How long after a parallel loop starts the other cores begin to help, when the loop follows
// serial work long enough for the thread pool's workers to have gone to sleep: one task per
// core of ~50 us each, launched after a busy 100 us on the calling thread. The calling thread
// starts its task at once; a worker that joins late stretches the loop by its delay (on a
// 2-vCPU VM: ~15 us, against the ~0.3 us of back-to-back launches of tiny loops).
double parallel_join_delay(int cores, const Target& target, int repeats) {
  if (cores < 2) return 0;
  auto build = [&](bool par) {
    Func f(par ? "calib_join_par" : "calib_join_ser"), g(par ? "calib_join_par_acc" : "calib_join_ser_acc");
    Var x("x"), t("t");
    RDom r(0, 25000);
    g(x, t) = 0.f;
    g(x, t) = g(x, t) * 0.999f + cast<float>(r + x + t) * 0.5f;  // a dependent chain: pure latency
    f(x, t) = g(x, t);
    g.compute_at(f, t).vectorize(x, 8);
    g.update().vectorize(x, 8);
    if (par) f.parallel(t);
    f.compile_jit(target);
    return f;
  };
  Func par = build(true), ser = build(false);
  Buffer<float> out(8, cores);
  auto after_idle_gap = [&](Func& f) {
    std::vector<double> t;
    for (int i = 0; i < 20 * std::max(1, repeats); ++i) {
      const auto gap_start = Clock::now();
      while (std::chrono::duration<double>(Clock::now() - gap_start).count() < 100e-6) {
      }
      t.push_back(seconds_of([&] { f.realize(out, target); }));
    }
    return median(t);
  };
  after_idle_gap(par);  // the pool's threads exist from here on
  const double p = after_idle_gap(par), s = after_idle_gap(ser);
  return std::max(0.0, p - s / cores);
}

// Per heap allocation: a producer stored per row of its consumer (one allocation per row)
// vs stored once at the root, same computation.
double allocation_overhead(const Target& target, int repeats) {
  auto build = [&](bool per_row) {
    Func f("calib_alloc_f"), g("calib_alloc_g");
    Var x("x"), y("y");
    f(x, y) = cast<float>(x + y);
    g(x, y) = f(x, y) + f(x + 1, y);
    f.compute_at(g, y);
    if (!per_row) f.store_root();
    g.compile_jit(target);
    return g;
  };
  const int width = 4096, rows = 4096;  // 16 KiB per allocation: the heap, not the stack
  Func a = build(true), b = build(false);
  Buffer<float> out(width, rows);
  const double ta = time_median([&] { a.realize(out, target); }, repeats);
  const double tb = time_median([&] { b.realize(out, target); }, repeats);
  return std::max(0.0, (ta - tb) / rows);
}

}  // namespace

// One line per measurement group on stderr: what was measured, the time so far and the time
// left, estimated from each group's usual share of a calibration (weights: seconds on an idle
// 2-core machine with a 32 MiB L3) scaled by how long the groups done so far took.
class Progress {
 public:
  struct Group {
    const char* name;
    double weight;
  };
  Progress(std::vector<Group> groups, bool enabled)
      : groups_(std::move(groups)),
        line_("calibration", std::cerr, enabled ? support::ProgressLine::Mode::Plain : support::ProgressLine::Mode::Off,
              0) {}
  // The next group, in the constructor's order, is measured.
  void done() {
    double done_weight = 0, total = 0;
    for (size_t i = 0; i < groups_.size(); ++i) {
      total += groups_[i].weight;
      if (i <= next_) done_weight += groups_[i].weight;
    }
    const char* name = groups_[next_].name;
    ++next_;
    line_.update(total > 0 ? done_weight / total : -1, fmt::format("{}/{} {}", next_, groups_.size(), name));
  }

 private:
  std::vector<Group> groups_;
  size_t next_ = 0;
  support::ProgressLine line_;
};

// Bytes of a working set no cache holds: four times the nominal L3, at least 256 MiB, and
// unless thorough at most 1 GiB. A virtual machine's CPUID may report the host's whole L3
// (hundreds of MiB, of which its cores get a slice); four times that is gigabytes to fill
// and stream for every DRAM measurement, while 1 GiB is already twice such an L3.
int64_t dram_working_set(int64_t l3_bytes, bool thorough) {
  const int64_t mib = int64_t(1) << 20;
  const int64_t bytes = std::max<int64_t>(256 * mib, 4 * l3_bytes);
  return thorough ? bytes : std::min<int64_t>(bytes, 1024 * mib);
}

// A 2-core slice of a 480 MiB L3 read 23.7 GB/s at half that size, below its DRAM's 31, and
// every buffer past L2 was priced at that rate; up to 16 MiB it read 58.
Bandwidth last_cache_share(const MachineDescription& m, const std::function<Bandwidth(int64_t bytes)>& read) {
  constexpr double kFasterThanDram = 1.5;
  const double dram = m.bandwidth.empty() ? 0.0 : m.bandwidth.back().all_cores;
  const int64_t smallest = m.l2_bytes * 2 * m.cores, largest = std::max(smallest, m.l3_bytes / 2);
  Bandwidth kept = read(smallest);
  for (int64_t bytes = smallest; bytes < largest;) {
    bytes = std::min(bytes * 2, largest);
    const Bandwidth b = read(bytes);
    if (b.all_cores < kFasterThanDram * dram) break;
    kept = b;
  }
  return kept;
}

CalibrationOptions thorough_calibration() {
  CalibrationOptions o;
  o.repeats = 9;
  o.target_ms = 60;
  o.thorough = true;
  return o;
}

MachineDescription calibrate(const CalibrationOptions& o) {
  const auto t_start = Clock::now();
  Progress progress({{"arithmetic peaks", 6.0},
                     {"register tiles", 2.8},
                     {"reorder window", 1.3},
                     {"gathers and divisions", 2.5},
                     {"cache and DRAM reads", 0.4},
                     {"copies and row streams", 2.7},
                     {"column walks", 0.3},
                     {"parallel and allocation overheads", 0.5}},
                    o.progress);
  MachineDescription m;
  const Target target = halide_bridge::host_target();
  m.halide_target = target.to_string();
  m.cpu = cpu_model();
  m.cores = int(std::max(1u, std::thread::hardware_concurrency()));
  if (const char* env = std::getenv("HL_NUM_THREADS"); env && std::atoi(env) > 0) m.cores = std::atoi(env);
  m.lanes_f32 = target.natural_vector_size(Float(32));
  m.lanes_i32 = target.natural_vector_size(Int(32));
  m.lanes_u16 = target.natural_vector_size(UInt(16));
  m.lanes_u8 = target.natural_vector_size(UInt(8));
  m.vector_bytes = m.lanes_u8;
  auto log = [&](const std::string& s) {
    if (o.verbose) std::cerr << "  " << s << std::endl;
  };
  const HostCaches caches = host_caches();
  m.l1d_bytes = caches.l1d.bytes;
  m.l1d_geometry = caches.l1d.geometry;
  m.l2_bytes = caches.l2.bytes;
  m.l2_geometry = caches.l2.geometry;
  m.l3_bytes = caches.l3.bytes;
  if (m.l1d_bytes <= 0 || m.l2_bytes <= 0)
    throw std::runtime_error("no source (sysfs, CPUID, sysconf, a latency sweep) shows this machine's L1d and L2 sizes");
  if (m.l3_bytes <= 0) m.l3_bytes = m.l2_bytes * m.cores;  // no L3: the model treats L2 as last level
  for (const auto& [name, level] : {std::pair{"L1d", &caches.l1d}, std::pair{"L2", &caches.l2}, std::pair{"L3", &caches.l3}})
    log(std::string(name) + " " + std::to_string(level->bytes >> 10) + " KiB, " + std::to_string(level->geometry.ways) +
        " ways (from " + (level->source.empty() ? std::string("no source") : level->source) + ")");
  const int steps = 24;
  for (int kind = 0; kind < 3; ++kind) {  // scalar, unvectorized, vector
    const bool vec = kind == 2, rows1 = kind == 0;
    Throughput& tp = kind == 0 ? m.scalar : kind == 1 ? m.unvectorized : m.vector;
    auto lanes = [&](Type t) { return vec ? target.natural_vector_size(t) : 0; };
    tp.float32 = arith_rate(float_kernel(steps), Float(32), lanes(Float(32)), rows1, m.cores, target, o);
    tp.int32 = arith_rate(int_kernel(Int(32), steps), Int(32), lanes(Int(32)), rows1, m.cores, target, o);
    tp.int16 = arith_rate(int_kernel(UInt(16), steps), UInt(16), lanes(UInt(16)), rows1, m.cores, target, o);
    tp.int8 = arith_rate(int_kernel(UInt(8), steps), UInt(8), lanes(UInt(8)), rows1, m.cores, target, o);
    log(std::string(kind == 0 ? "scalar" : kind == 1 ? "unvectorized" : "vector") + " Gops/s/core: f32 " + std::to_string(tp.float32 * 1e-9) +
        " i32 " + std::to_string(tp.int32 * 1e-9) + " i16 " + std::to_string(tp.int16 * 1e-9) + " i8 " +
        std::to_string(tp.int8 * 1e-9));
  }
  progress.done();

  for (int acc : {1, 2, 4, 8, 12}) {
    m.register_tile.push_back({acc, register_tile_rate(acc, 1, m.cores, target, o)});
    log("register tile of " + std::to_string(acc) + " vectors Gops/s/core: f32 " +
        std::to_string(m.register_tile.back().float32 * 1e-9));
  }
  for (int acc : {4, 8, 12}) {
    m.register_tile_wide.push_back({acc, register_tile_rate(acc, 2, m.cores, target, o)});
    log("register tile of 2 x " + std::to_string(acc / 2) + " vectors Gops/s/core: f32 " +
        std::to_string(m.register_tile_wide.back().float32 * 1e-9));
  }
  progress.done();

  // The reorder window: tiles of 4 and of 8 accumulators over 64 steps, 16 tiles a row; the
  // window that makes register_tile_overlap give the ratio of their rates (timed in turn).
  {
    const int steps = 64;
    const double ratio = four_to_eight_measured(steps, m.cores, target, o);
    m.reorder_window_ops = reorder_window_for(m, ratio, steps);
    log("register tiles of 4 / 8 vectors over 64 steps, 16 tiles a row: " + std::to_string(ratio) +
        " of the rate; reorder window " + std::to_string(m.reorder_window_ops) + " operations");
  }
  progress.done();

  m.gather_lanes_per_s = gather_rate(m.cores, target, o);
  log("gathered lanes G/s/core: " + std::to_string(m.gather_lanes_per_s * 1e-9));
  m.variable_division_lanes_per_s = variable_division_rate(m.cores, target, o);
  log("lanes divided by a variable G/s/core: " + std::to_string(m.variable_division_lanes_per_s * 1e-9));
  m.constant_division_lanes_per_s.int32 = constant_division_rate(UInt(32), m.cores, target, o);
  m.constant_division_lanes_per_s.int16 = constant_division_rate(UInt(16), m.cores, target, o);
  m.constant_division_lanes_per_s.int8 = constant_division_rate(UInt(8), m.cores, target, o);
  log("lanes divided by a constant G/s/core: u32 " + std::to_string(m.constant_division_lanes_per_s.int32 * 1e-9) +
      " u16 " + std::to_string(m.constant_division_lanes_per_s.int16 * 1e-9) + " u8 " +
      std::to_string(m.constant_division_lanes_per_s.int8 * 1e-9));
  m.recurrence_step_s = recurrence_step_seconds(target, o.repeats);
  log("recurrence step ns: " + std::to_string(m.recurrence_step_s * 1e9));
  progress.done();

  const int64_t dram_bytes = dram_working_set(m.l3_bytes, o.thorough);
  ReadKernel rk(target);
  struct Level {
    const char* name;
    int64_t chunk;  // per core
  };
  const std::vector<Level> levels = {
      {"L1", m.l1d_bytes / 2},
      {"L2", m.l2_bytes / 2},
      {"DRAM", dram_bytes / m.cores},
  };
  auto measure = [&](const char* name, int64_t chunk) {
    Bandwidth b;
    b.level = name;
    b.bytes = chunk * m.cores;
    const int64_t target_bytes = std::max<int64_t>(b.bytes * 2, int64_t(200) << 20);
    b.one_core = rk.bandwidth(chunk, 1, target_bytes / m.cores, target, o.repeats);
    b.all_cores = rk.bandwidth(chunk, m.cores, target_bytes, target, o.repeats);
    // A core's own caches serve it alone: all cores together read them at least half again
    // as fast as one. Less means another process held a core during the measurement (on a
    // shared 2-core machine, L2 read 65 GB/s on all cores and 125 GB/s on one, and the
    // model's picks changed with it): measure again, keeping the best.
    for (int retry = 0; retry < 3 && m.cores > 1 && b.bytes <= (m.l2_bytes * m.cores) &&
                        b.all_cores < 1.5 * b.one_core;
         ++retry)
      b.all_cores = std::max(b.all_cores, rk.bandwidth(chunk, m.cores, target_bytes, target, o.repeats));
    // Still contended: every rate measured on all cores is suspect (a contended calibration
    // can read the 8-accumulator register tile at half its idle rate).
    if (m.cores > 1 && b.bytes <= m.l2_bytes * m.cores && b.all_cores < 1.5 * b.one_core)
      std::cerr << "calibration: warning: " << name << " reads no faster on " << m.cores
                << " cores than on one: another process is using the cores, and the machine description will "
                   "be pessimistic; calibrate again on an idle machine\n";
    log(std::string(name) + " read GB/s: all cores " + std::to_string(b.all_cores * 1e-9) + ", one core " +
        std::to_string(b.one_core * 1e-9) + " (working set " + std::to_string(b.bytes >> 10) + " KiB)");
    return b;
  };
  for (const Level& l : levels) m.bandwidth.push_back(measure(l.name, l.chunk));
  m.bandwidth.insert(m.bandwidth.end() - 1,
                     last_cache_share(m, [&](int64_t bytes) { return measure("L3", bytes / m.cores); }));
  progress.done();
  {
    // A copy reads one buffer and writes another: half the DRAM working set each.
    CopyBuffers dram_copy(dram_bytes / 2);
    m.copy_bandwidth_dram = copy_bandwidth(dram_copy, m.cores, target, std::max(3, o.repeats / 2));
    log("DRAM copy GB/s (read + write): " + std::to_string(m.copy_bandwidth_dram * 1e-9));
    for (int rows : {1, 2, 4, 8, 16, 32, 64}) {
      m.row_streams.push_back({rows, interleaved_copy_bandwidth(rows, dram_copy, m.cores, target, std::max(3, o.repeats / 2))});
      log("DRAM copy GB/s, " + std::to_string(rows) + " rows at once: " + std::to_string(m.row_streams.back().bytes_per_s * 1e-9));
    }
  }
  {
    CopyBuffers l3_copy(m.bandwidth.end()[-2].bytes / 4);  // in and out: half the last cache's share
    for (int rows : {1, 2, 4, 8, 16, 32, 64, 128}) {
      m.row_streams_l3.push_back({rows, interleaved_copy_bandwidth(rows, l3_copy, m.cores, target, o.repeats)});
      log("L3 copy GB/s, " + std::to_string(rows) + " rows at once: " + std::to_string(m.row_streams_l3.back().bytes_per_s * 1e-9));
    }
  }
  progress.done();
  // Half of L3 (all cores), at least twice what L2's sets could hold if they did not alias;
  // at most the share of L3 that read faster than DRAM, which a VM's nominal L3 overstates.
  const int64_t l3_share = o.thorough ? m.l3_bytes : m.bandwidth.end()[-2].bytes;
  const int64_t walk_rows = std::max<int64_t>(m.l2_bytes * 2, std::min(m.l3_bytes / 2, l3_share)) / 4096;
  m.column_walk.all_cores = column_walk_lines_per_s(walk_rows, m.cores, target, o.repeats);
  m.column_walk.one_core = column_walk_lines_per_s(walk_rows, 1, target, o.repeats);
  m.column_walk_bytes = walk_rows * 4096;
  // Twice the cores' L2: out of L2, well inside L3.
  const int64_t near_rows = std::max<int64_t>(64, m.l2_bytes * 2 * m.cores / 4096);
  m.column_walk_near.all_cores = column_walk_lines_per_s(near_rows, m.cores, target, o.repeats);
  m.column_walk_near.one_core = column_walk_lines_per_s(near_rows, 1, target, o.repeats);
  m.column_walk_near_bytes = near_rows * 4096;
  log("column walk Mlines/s: all cores " + std::to_string(m.column_walk.all_cores * 1e-6) + ", one core " +
      std::to_string(m.column_walk.one_core * 1e-6) + " (" + std::to_string(m.column_walk_bytes >> 20) +
      " MiB); all cores " + std::to_string(m.column_walk_near.all_cores * 1e-6) + ", one core " +
      std::to_string(m.column_walk_near.one_core * 1e-6) + " (" + std::to_string(m.column_walk_near_bytes >> 10) +
      " KiB)");
  progress.done();

  parallel_overheads(m.cores, target, o.repeats, m.parallel_launch_s, m.parallel_task_s);
  log("parallel loop launch us: " + std::to_string(m.parallel_launch_s * 1e6) +
      ", per task us: " + std::to_string(m.parallel_task_s * 1e6));
  m.parallel_join_s = parallel_join_delay(m.cores, target, o.repeats);
  log("parallel loop join delay after idle us: " + std::to_string(m.parallel_join_s * 1e6));
  m.allocation_s = allocation_overhead(target, o.repeats);
  log("allocation us: " + std::to_string(m.allocation_s * 1e6));
  progress.done();

  m.measured_at = now_iso();
  m.calibration_seconds = std::chrono::duration<double>(Clock::now() - t_start).count();
  return m;
}

}  // namespace candor::models::halide
