// The machine description the Halide models reason with: cores, SIMD width, caches,
// arithmetic throughput and memory bandwidth. Every number is measured on the machine by
// the calibration micro-benchmark (tools/calibrate, `candor_calibrate`) with Halide JIT
// kernels, or read from the operating system (/sys); nothing is invented. Stored as JSON.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace candor::models::halide {

// Arithmetic throughput of one core, in operations per second, where one operation is one
// Halide IR arithmetic node (Add, Mul, Min, Select, bitwise ops...) evaluated for one
// point (one SIMD lane). A fused multiply-add counts as two (a Mul and an Add).
struct Throughput {
  double float32 = 0;  // float32 (and float64, optimistically) values
  double int32 = 0;    // 32-bit integers
  double int16 = 0;    // 16-bit integers
  double int8 = 0;     // 8-bit integers and bools
  // The rate for a Halide element type name as in OpCounts::by_type ("float32", "uint8").
  double for_type(const std::string& type) const;
  double max() const;
};

// Read bandwidth of all cores together streaming a working set of `bytes` (and of one core
// alone), in bytes per second. One entry per memory level.
struct Bandwidth {
  std::string level;  // "L1", "L2", "L3", "DRAM"
  int64_t bytes = 0;  // the working set measured (all cores together)
  double all_cores = 0;
  double one_core = 0;
  // Bandwidth with `cores` cores active, interpolating linearly between the measurements.
  double with_cores(double cores, int total_cores) const;
};

// Associativity of a cache (cache_info.h reads it): which lines can share it decides how much of it a
// footprint of rows a power of two apart can use.
struct CacheGeometry {
  int ways = 0, sets = 0, line_bytes = 64;  // ways 0: unknown (fully associative assumed)
  // Lines of `rows` runs of `run_lines` lines each, `row_stride_bytes` apart, the cache can
  // hold at once (its whole capacity when the rows spread over every set).
  double capacity_lines(double rows, double run_lines, double row_stride_bytes) const;
  // Share of a working set of `bytes`, reused pass after pass, that set conflicts evict
  // before its next use (0 when the geometry is unknown or one page spans every set).
  double conflict_miss_share(double bytes, double page_bytes = 4096) const;
};

// Lines per second a column walk fetches (see calibration.cpp): every access a new line, no
// prefetching, from L3.
struct LineRate {
  double all_cores = 0, one_core = 0;
  double with_cores(double cores, int total_cores) const;
};

// Float throughput of one core in a register-tiled reduction (calibration.cpp) keeping
// `accumulators` vectors in registers, in operations per second (an FMA counts as two).
struct RegisterTileRate {
  int accumulators = 1;
  double float32 = 0;
};

// DRAM copy bandwidth (bytes read + written per second, all cores) of a walk over `rows`
// rows at once, one line of each per visit (calibration.cpp): each row is a stream.
struct RowStreamRate {
  int rows = 1;
  double bytes_per_s = 0;
};

struct MachineDescription;

// Lines/s of a column walk over a buffer of `bytes` on `cores` cores: the calibrated rates,
// interpolated in log(size) between their buffer sizes.
double column_walk_rate(const MachineDescription& m, double bytes, double cores);

// Operations of one step of a register tile's reduction, as the model counts them: an FMA
// per accumulator, its loads, and two for the loop.
inline double register_tile_step_ops(double vectors, double loads_per_step) { return vectors + loads_per_step + 2; }

struct MachineDescription {
  std::string cpu;            // model name (from /proc/cpuinfo)
  std::string halide_target;  // the JIT target the kernels were compiled for
  int cores = 1;              // cores the Halide runtime uses
  int vector_bytes = 16;      // natural SIMD register width in bytes
  int lanes_f32 = 4, lanes_i32 = 4, lanes_u16 = 8, lanes_u8 = 16;
  int64_t l1d_bytes = 0;  // per core
  int64_t l2_bytes = 0;   // per core
  int64_t l3_bytes = 0;   // in total (shared)
  CacheGeometry l1d_geometry, l2_geometry;
  Throughput scalar;        // per core, truly scalar code (one point per loop iteration)
  Throughput unvectorized;  // per core, loops Halide did not vectorize (LLVM auto-vectorizes
                            // simple ones: close to `vector` on this kind of kernel)
  Throughput vector;        // per core, natural-width SIMD code
  std::vector<RegisterTileRate> register_tile;  // ascending accumulators, one vector wide
  // The same two vectors wide (2 x accumulators/2): per step 2 vector loads and
  // accumulators/2 broadcasts instead of 1 and `accumulators`. Empty in machine files
  // calibrated before it was measured.
  std::vector<RegisterTileRate> register_tile_wide;
  // How far past a register tile's reduction the core runs ahead into the next tile's, which
  // updates other accumulators: the reorder window, in operations of the tile's reduction
  // steps (register_tile_step_ops). The calibration's tiles reduce over 256 steps; a short
  // reduction lets the next tile's chains run beside the last one's, as though the tile had
  // more accumulators (register_tile_overlap). 0: not measured (machine files before it).
  double reorder_window_ops = 0;
  double gather_lanes_per_s = 0;  // per core: lanes a vectorized table lookup (L1) loads
  double variable_division_lanes_per_s = 0;  // per core: int32 lanes divided by a runtime value
  // Per core, vectorized: lanes divided by a constant (not a power of two), per integer
  // width; zero in machine files calibrated before it was measured (then a division costs
  // one operation, as any other).
  Throughput constant_division_lanes_per_s;
  double recurrence_step_s = 0;  // one step of a float recurrence through memory (its latency)
  std::vector<Bandwidth> bandwidth;  // ascending working set: L1, L2, L3, DRAM
  double copy_bandwidth_dram = 0;    // all cores, bytes/s read + written, DRAM-sized copy
  std::vector<RowStreamRate> row_streams;  // ascending rows
  // The same walks over a copy the last cache holds (in and out a quarter of its share each):
  // prefetchers serve L3 too. Empty in machine files calibrated before it was measured (L3
  // then streams at its full rate).
  std::vector<RowStreamRate> row_streams_l3;
  // Lines/s of walks down columns of 4 KiB rows (calibration.cpp) over a buffer of half of
  // L3 (`column_walk`) and over one of twice the cores' L2 (`column_walk_near`): the rows
  // alias in L2 either way, and L3 answers the small buffer's misses 3-4x faster.
  LineRate column_walk, column_walk_near;
  int64_t column_walk_bytes = 0, column_walk_near_bytes = 0;
  double parallel_launch_s = 0;      // per parallel loop launched (fixed part)
  double parallel_task_s = 0;        // per task (iteration of a parallel loop)
  // Delay before the other cores join a parallel loop that follows serial work (the pool's
  // workers asleep); zero in machine files calibrated before it was measured.
  double parallel_join_s = 0;
  double allocation_s = 0;           // per heap allocation of an intermediate buffer
  std::string measured_at;           // ISO date-time of the calibration
  double calibration_seconds = 0;

  // Operations of the vector rate of `type` that one lane of its division by a constant
  // takes (at least 1).
  double constant_division_ops(const std::string& type) const;
  // Lanes of one natural vector of elements of `bits` bits.
  int lanes_for_bits(int bits) const;
  // The bandwidth of the smallest level whose capacity holds `bytes` (all cores).
  const Bandwidth& level_for(double bytes) const;
  // Float ops/s per core of a register tile of `vectors` accumulators: the calibrated rates,
  // interpolated linearly between their tile sizes (the nearest one beyond them). A tile
  // shaped as the outer product of its vector loads and its broadcasts makes
  // `loads_per_step` loads per step of its reduction (0: as calibrated one vector wide,
  // 1 + vectors): between the one- and the two-vector-wide calibrations' loads per step,
  // the rate is interpolated linearly in loads (fewer loads leave the FMA pipes busier).
  double register_tile_rate(double vectors, double loads_per_step = 0) const;
  // Accumulator chains in flight per chain of a register tile whose reduction runs `steps`
  // steps of `step_ops` operations: 1 + reorder_window_ops / (steps x step_ops).
  double register_tile_overlap(double steps, double step_ops) const;
  // Share of DRAM's full streaming rate (its median over walks of up to 16 rows) left when a
  // loop nest walks `streams` rows of buffers at once (reads and writes together; the
  // calibrated rates, interpolated); with `last_cache`, of L3's (1 where it was not measured).
  double row_stream_share(double streams, bool last_cache = false) const;
  // Capacity of a level for the whole machine (private caches times cores).
  int64_t capacity(const std::string& level) const;
  // CacheGeometry::conflict_miss_share of one core's L2 (l2_bytes, with l2_geometry's ways and
  // line) for `bytes` of it.
  double l2_conflict_miss_share(double bytes) const;
  // Fastest bandwidth at which `bytes` could be streamed (all cores).
  double best_bandwidth_for(double bytes) const;
};

// The rate of a register tile of 4 accumulators over one of 8, one vector wide, both reducing
// over `steps` steps, on `m` (its reorder window included).
double four_to_eight_tile_rate(const MachineDescription& m, double steps);
// The reorder window that makes four_to_eight_tile_rate equal `measured` (0 when the window
// cannot explain it; 4096 operations at most).
double reorder_window_for(const MachineDescription& m, double measured, double steps);

void to_json(nlohmann::json& j, const Throughput& t);
void from_json(const nlohmann::json& j, Throughput& t);
void to_json(nlohmann::json& j, const Bandwidth& b);
void from_json(const nlohmann::json& j, Bandwidth& b);
void to_json(nlohmann::json& j, const CacheGeometry& g);
void from_json(const nlohmann::json& j, CacheGeometry& g);
void to_json(nlohmann::json& j, const RegisterTileRate& r);
void from_json(const nlohmann::json& j, RegisterTileRate& r);
void to_json(nlohmann::json& j, const RowStreamRate& r);
void from_json(const nlohmann::json& j, RowStreamRate& r);
void to_json(nlohmann::json& j, const LineRate& r);
void from_json(const nlohmann::json& j, LineRate& r);
void to_json(nlohmann::json& j, const MachineDescription& m);
void from_json(const nlohmann::json& j, MachineDescription& m);

// Throws std::runtime_error on a missing or malformed file.
MachineDescription load_machine(const std::string& path);
void save_machine(const MachineDescription& m, const std::string& path);

// The best of several calibrations of one machine, field by field: the highest rate and the
// shortest overhead (another process only ever slows a measurement down on a shared machine);
// calibration_seconds adds up. Throws std::invalid_argument when `runs` is empty.
MachineDescription best_of(const std::vector<MachineDescription>& runs);

// Checks that every measured number is present and plausible; returns the problems found
// (empty when the description is usable).
std::vector<std::string> check_machine(const MachineDescription& m);

struct CalibrationOptions {
  int repeats = 5;         // timed runs per kernel; the median is kept
  double target_ms = 30;   // rough duration of one timed run
  // Working sets sized by the nominal L3 alone (4x it for DRAM, sweeps up to half of it), with
  // no cap: on a virtual machine whose CPUID reports the host's whole L3, gigabytes.
  bool thorough = false;
  bool verbose = false;    // print each measurement to stderr as it is taken
  bool progress = true;    // print a line per measurement group (time taken, time left)
};

// Measures the machine with Halide JIT kernels (calibration.cpp): about 15-30 s on an idle
// 2-core machine by default.
MachineDescription calibrate(const CalibrationOptions& options = {});

// Options of a thorough calibration: more and longer timed runs, uncapped working sets.
CalibrationOptions thorough_calibration();

// The last cache as this machine gets it (calibration.cpp): `read(bytes)` measures reads over a
// working set of `bytes` (all cores together); working sets double from twice the cores' L2 up
// to half the nominal L3, and the level is the largest that reads at least 1.5x `m`'s DRAM
// (m.bandwidth.back(), measured first), or the smallest when none does. On a shared virtual
// machine other tenants hold most of a large L3.
Bandwidth last_cache_share(const MachineDescription& m, const std::function<Bandwidth(int64_t bytes)>& read);

struct HostCaches;
// Fills the L1d and L2 geometry `m` lacks (ways 0) from `host`'s level of the same size;
// returns what it filled ("L2 from cpuid").
std::vector<std::string> complete_cache_geometry(MachineDescription& m, const HostCaches& host);

// Loads `path` if it holds a usable description (completing its cache geometry from this
// host's caches when it lacks it, and saving it), else calibrates and saves it there. An
// existing file that is not usable either is an error naming the bad value (Fail: a file the
// user named) or is renamed PATH.unusable before calibrating (Recalibrate: the default file,
// a cache of this host's measurements).
enum class IfUnusable { Recalibrate, Fail };
MachineDescription load_or_calibrate(const std::string& path, const CalibrationOptions& options = {},
                                     IfUnusable if_unusable = IfUnusable::Recalibrate);

// The default location of the description: $CANDOR_MACHINE if set, else "machine.json" in
// the running program's data directory (support/install_dirs.h: build/bin/.. = build/, or
// P/share/candor/ for a program installed in P/bin).
std::string default_machine_path();

}  // namespace candor::models::halide
