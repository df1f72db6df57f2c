// How much of the shorter of compute and memory time does an out-of-order core not hide
// behind the longer? Each core sums rows of 64 floats, k multiply-adds per element, read
// from a buffer of `chunk` per core (L2, L3, DRAM): memory alone (k = 0), compute alone
// (the same kernel reading 16 rows that stay in L1) and both; unhidden share =
// (both - max) / min, most telling where compute/memory is near 1.
//   g++ -O2 -std=c++17 -I/usr/include/halide14 overlap.cpp -o overlap -lHalide14 -lpthread -ldl && ./overlap
#include <Halide.h>
#include <chrono>
#include <cstdio>
#include <algorithm>
#include <vector>
using namespace Halide;
using Clock = std::chrono::steady_clock;

struct Kernel {
  ImageParam in{Float(32), 2, "in"};
  Param<int> rows_per_core{"rows_per_core"}, passes{"passes"};
  Param<float> a{"a", 1.0001f}, b{"b", 0.5f};
  Func sum{"sum"};
  Kernel(int k, bool small, const Target& t) {
    Var x("x"), c("c"), xo("xo"), xi("xi");
    RDom r(0, rows_per_core, 0, passes);
    Expr row = c * rows_per_core + r.x;
    Expr v = in(x, small ? row % 16 : row);
    for (int i = 0; i < k; ++i) v = v * a + b;
    sum(x, c) = 0.0f;
    sum(x, c) += v;
    sum.bound(x, 0, 64);
    sum.update().split(x, xo, xi, 8).vectorize(xi).unroll(xo).reorder(xi, xo, r.x, r.y, c).parallel(c);
    sum.compile_jit(t);
  }
  // seconds for `cores` cores each reading `rows` rows of 256 B `passes` times;
  // small: rows wrap into an L1-sized set.
  double run(Buffer<float>& data, int rows, int p, int cores, const Target& t) {
    in.set(data); rows_per_core.set(rows); passes.set(p);
    Buffer<float> out(64, cores);
    sum.realize(out, t);
    double best = 1e300;
    for (int i = 0; i < 7; ++i) {
      auto t0 = Clock::now(); sum.realize(out, t);
      best = std::min(best, std::chrono::duration<double>(Clock::now() - t0).count());
    }
    return best;
  }
};

int main(int argc, char** argv) {
  Target t = get_jit_target_from_environment();
  int cores = 2;
  for (int64_t chunk : {int64_t(256) << 10, int64_t(4) << 20, int64_t(64) << 20}) {
    int rows = int(chunk / 256);
    int p = std::max(1, int((int64_t(256) << 20) / (chunk * cores)));
    Buffer<float> data(64, rows * cores);
    data.fill(1.0f);
    Kernel k0(0, false, t);
    double M = k0.run(data, rows, p, cores, t);
    std::printf("chunk %lld KiB/core: memory-only %.3f ms\n", (long long)(chunk >> 10), M * 1e3);
    for (int k : {1, 2, 4, 8, 12, 16, 24, 32, 48}) {
      Kernel kc(k, true, t), kt(k, false, t);
      double C = kc.run(data, rows, p, cores, t);
      double T = kt.run(data, rows, p, cores, t);
      double share = (T - std::max(C, M)) / std::min(C, M);
      std::printf("  k=%2d compute %.3f ms, both %.3f ms, C/M %.2f, unhidden share %.3f\n", k, C * 1e3, T * 1e3, C / M, share);
    }
  }
}
