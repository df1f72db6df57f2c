// candor_calibrate: measures this machine with Halide JIT kernels and writes the machine
// description the Halide models use (build/machine.json by default).
#include <cstdio>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "machine.h"
#include "tools/strict_numbers.h"

namespace mh = candor::models::halide;

int main(int argc, char** argv) {
  CLI::App app{"Measure the machine (cores, SIMD, caches, arithmetic peaks, bandwidths, overheads) "
               "with Halide JIT kernels and write the machine description as JSON."};
  std::string out = mh::default_machine_path();
  const mh::CalibrationOptions defaults, thorough_defaults = mh::thorough_calibration();
  int repeats = defaults.repeats;
  double target_ms = defaults.target_ms;
  bool quiet = false, thorough = false;
  int best_of = 1;
  app.add_option("--out,-o", out, "Where to write the description")->capture_default_str();
  app.add_flag("--thorough", thorough,
               "Measure longer (" + std::to_string(thorough_defaults.repeats) + " runs of about " +
                   std::to_string(int(thorough_defaults.target_ms)) +
                   " ms per kernel, DRAM and L3 working sets sized by the nominal L3 with no cap): "
                   "2-3x the default's time where a virtual machine reports its host's L3");
  app.add_option("--repeats", repeats, "Timed runs per kernel (median kept)")->capture_default_str()
      ->check(CLI::Range(1, 101));
  app.add_option("--target-ms", target_ms, "Rough duration of one timed arithmetic run")
      ->capture_default_str()->check(CLI::Range(1.0, 1000.0));
  app.add_option("--best-of", best_of,
                 "Calibrate this many times and keep each rate's best and each overhead's shortest "
                 "(for a machine other processes share)")
      ->capture_default_str()->check(CLI::Range(1, 20));
  app.add_flag("--quiet,-q", quiet, "Print only the output path");
  candor::cli::require_decimal_numbers(app);
  CLI11_PARSE(app, argc, argv);

  try {
    mh::CalibrationOptions o = thorough ? thorough_defaults : defaults;
    if (app.count("--repeats")) o.repeats = repeats;
    if (app.count("--target-ms")) o.target_ms = target_ms;
    o.verbose = !quiet;
    o.progress = !quiet;
    if (!quiet)
      std::cerr << "calibrating with Halide JIT kernels (" << o.repeats << " timed runs each"
                << (o.thorough ? ", thorough" : "") << "; usually 15-30 s on 2 idle cores"
                << (o.thorough ? ", 2-3x that when thorough" : "") << (best_of > 1 ? ", per run" : "") << ")"
                << std::endl;
    std::vector<mh::MachineDescription> runs;
    for (int i = 0; i < best_of; ++i) runs.push_back(mh::calibrate(o));
    const mh::MachineDescription m = mh::best_of(runs);
    const auto problems = mh::check_machine(m);
    for (const std::string& p : problems) std::cerr << "warning: " << p << "\n";
    mh::save_machine(m, out);
    if (!quiet) {
      std::printf("cpu: %s, %d cores, %d-byte vectors (f32 x%d, u8 x%d)\n", m.cpu.c_str(), m.cores,
                  m.vector_bytes, m.lanes_f32, m.lanes_u8);
      std::printf("caches: L1d %lld KiB/core, L2 %lld KiB/core, L3 %lld KiB\n", (long long)(m.l1d_bytes >> 10),
                  (long long)(m.l2_bytes >> 10), (long long)(m.l3_bytes >> 10));
      std::printf("scalar Gops/s/core: f32 %.2f, i32 %.2f, i16 %.2f, i8 %.2f\n", m.scalar.float32 * 1e-9,
                  m.scalar.int32 * 1e-9, m.scalar.int16 * 1e-9, m.scalar.int8 * 1e-9);
      std::printf("unvectorized (LLVM auto-vectorized) Gops/s/core: f32 %.2f, i32 %.2f, i16 %.2f, i8 %.2f\n",
                  m.unvectorized.float32 * 1e-9, m.unvectorized.int32 * 1e-9, m.unvectorized.int16 * 1e-9,
                  m.unvectorized.int8 * 1e-9);
      std::printf("vector Gops/s/core: f32 %.2f, i32 %.2f, i16 %.2f, i8 %.2f\n", m.vector.float32 * 1e-9,
                  m.vector.int32 * 1e-9, m.vector.int16 * 1e-9, m.vector.int8 * 1e-9);
      for (const mh::Bandwidth& b : m.bandwidth)
        std::printf("read %-4s (%8lld KiB): %7.2f GB/s all cores, %7.2f GB/s one core\n", b.level.c_str(),
                    (long long)(b.bytes >> 10), b.all_cores * 1e-9, b.one_core * 1e-9);
      std::printf("DRAM copy (read + write): %.2f GB/s\n", m.copy_bandwidth_dram * 1e-9);
      std::printf("column walk (L3, no prefetch) over %lld MiB: %.0f Mlines/s all cores, %.0f Mlines/s one core\n",
                  (long long)(m.column_walk_bytes >> 20), m.column_walk.all_cores * 1e-6, m.column_walk.one_core * 1e-6);
      std::printf("column walk over %lld KiB: %.0f Mlines/s all cores, %.0f Mlines/s one core\n",
                  (long long)(m.column_walk_near_bytes >> 10), m.column_walk_near.all_cores * 1e-6,
                  m.column_walk_near.one_core * 1e-6);
      std::printf("recurrence step (float, through memory) %.2f ns\n", m.recurrence_step_s * 1e9);
      std::printf("parallel loop launch %.2f us, per task %.3f us, join after idle %.1f us; allocation %.3f us\n",
                  m.parallel_launch_s * 1e6, m.parallel_task_s * 1e6, m.parallel_join_s * 1e6, m.allocation_s * 1e6);
      std::printf("calibration took %.1f s\n", m.calibration_seconds);
    }
    std::printf("%s\n", out.c_str());
    return problems.empty() ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "candor_calibrate: " << e.what() << "\n";
    return 1;
  }
}
