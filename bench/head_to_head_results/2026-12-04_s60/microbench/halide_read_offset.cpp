// Stop 60: the calibration's read kernel with every row read from one float past a line
// (offset 1) against aligned (offset 0), 16 lanes, one core: 24 KB 207 -> 148 GB/s, 200 KB
// 141 -> 76, 1 MB 142 -> 75. Build: g++ -std=c++17 -O2 -I/usr/include/halide14 FILE -lHalide14 -lpthread -ldl.
#include "Halide.h"
#include <chrono>
#include <cstdio>
using namespace Halide;
// The calibration's streaming-read kernel (rows of 64 floats, 8 vectors of 8 lanes unrolled)
// against the same with 16-lane vectors, one core, a chunk of `kb` KB read `passes` times.
int main() {
  for (int lanes : {16}) for (int OFF : {0, 1}) {
    ImageParam in(Float(32), 2, "in");
    Param<int> rows_p("rows"), passes_p("passes");
    Func sum("sum");
    Var x("x"), c("c"), xo("xo"), xi("xi");
    RDom r(0, rows_p, 0, passes_p);
    sum(x, c) = 0.0f;
    sum(x, c) += in(x + OFF, c * rows_p + r.x);
    sum.bound(x, 0, 64);
    sum.update().split(x, xo, xi, lanes).vectorize(xi).unroll(xo).reorder(xi, xo, r.x, r.y, c);
    Target t = get_jit_target_from_environment();
    sum.compile_jit(t);
    for (int kb : {24, 200, 1024}) {
      const int rows = kb * 1024 / 256, passes = 400000 / kb;
      Buffer<float> data(80, rows); data.fill(1.0f); in.set(data);
      rows_p.set(rows); passes_p.set(passes);
      Buffer<float> out(64, 1);
      double best = 1e9;
      for (int rep = 0; rep < 10; ++rep) {
        auto a = std::chrono::steady_clock::now();
        sum.realize(out);
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - a).count());
      }
      printf("offset %d, %d lanes, %d KB: %.1f GB/s (%s)\n", OFF, lanes, kb, double(rows) * 256 * passes / best * 1e-9, t.to_string().c_str());
    }
  }
}
