// What a parallel loop costs on this machine beyond its work, in a pipeline's setting (stop 33).
//
//   wake: a short serial stage, then `loops` parallel stages of 2 tasks each, none reading
//         another's output, against the same pipeline run serially: per loop, the parallel
//         time minus half the serial work (the wake-up of the sleeping worker and the wait
//         for it).
//   cross-core: a serial stage writes a buffer (the calling thread), then a parallel stage
//         reads it (half of it on the other core) or computes the same values from its
//         coordinates: the difference is what moving the lines between cores costs.
//
// Build and run (from the repository root):
//   g++ -O2 -std=c++17 bench/head_to_head_results/2026-11-27_s33/parallel_probe.cpp \
//       -I/usr/include/halide14 -lHalide14 -lpthread -ldl -o /tmp/parallel_probe
//   HL_NUM_THREADS=2 /tmp/parallel_probe
#include <Halide.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

using namespace Halide;

// Median microseconds of one realization of `p` into `outs`.
double median_us(Pipeline p, std::vector<Buffer<>> outs) {
  p.compile_jit();
  Realization r(outs);
  std::vector<double> t;
  for (int i = 0; i < 3000; ++i) {
    const auto a = std::chrono::steady_clock::now();
    p.realize(r);
    t.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - a).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// f0 serial (2048 floats), then `loops` independent stages of `floats` each, parallel or not.
double independent_stages(int loops, bool parallel, int floats) {
  Var x("x"), y("y");
  std::vector<Func> fs;
  std::vector<Buffer<>> outs;
  for (int s = 0; s <= loops; ++s) {
    Func f("f" + std::to_string(s));
    f(x, y) = sqrt(cast<float>(x + y * (s + 1))) * 1.5f + 1.0f;
    f.vectorize(x, 16);
    if (parallel && s > 0) f.parallel(y);
    fs.push_back(f);
    outs.push_back(s == 0 ? Buffer<float>(2048, 1) : Buffer<float>(floats / 2, 2));
  }
  return median_us(Pipeline(fs), outs);
}

// A serial producer of `floats` values, then a parallel consumer in 2 tasks that reads it
// (`reads`) or computes the same from its coordinates.
double producer_consumer(bool reads, int floats) {
  Var x("x"), y("y");
  Func f0("f0"), f1("f1");
  f0(x, y) = cast<float>(x + y);
  f1(x, y) = (reads ? f0(x, y) : cast<float>(x + y)) * 1.5f + 1.0f;
  f0.vectorize(x, 16);
  f1.vectorize(x, 16).parallel(y);
  return median_us(Pipeline({f0, f1}), {Buffer<float>(floats / 2, 2), Buffer<float>(floats / 2, 2)});
}

int main() {
  std::printf("wake: per parallel loop, parallel time minus half the serial work (us)\n");
  for (int floats : {8192, 32768, 131072})
    for (int loops : {1, 3}) {
      const double base = independent_stages(0, false, floats);
      const double serial = independent_stages(loops, false, floats) - base;
      const double parallel = independent_stages(loops, true, floats) - base;
      std::printf("  %6d floats a stage, %d loop(s): serial work %6.2f, parallel %6.2f -> %.2f a loop\n", floats,
                  loops, serial, parallel, (parallel - serial / 2) / loops);
    }
  std::printf("cross-core: a parallel consumer reading a serial producer's buffer (us)\n");
  for (int floats : {16384, 65536, 262144}) {
    const double reads = producer_consumer(true, floats), computes = producer_consumer(false, floats);
    const double moved = floats * 4.0 / 2;  // the half the other core reads
    std::printf("  %7d floats: reads %6.2f, computes %6.2f -> %.1f GB/s for the half read across\n", floats, reads,
                computes, moved / std::max(reads - computes, 1e-3) * 1e-3);
  }
}
