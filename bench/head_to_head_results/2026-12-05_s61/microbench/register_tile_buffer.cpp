// Stop 61: what a register tile's buffer costs when it holds several tiles. The pointwise half
// of depthwise_separable_conv (1x1 conv, 32 -> 64 channels, 64 x 64 pixels, + ReLU; the
// depthwise output is an input here) with the update's register tile of its picks (64
// channels = 4 vectors x 2 x 2 pixels, the reduction inside). The pointwise buffer is
// computed per S x S pixels of the output: S = 2 holds one tile (LLVM keeps it in registers),
// S = 4, 8, 16 hold 4, 16, 64 tiles (4, 16, 64 KiB). CI = 0: no update (bias and ReLU only).
// Build: g++ -std=c++17 -O2 -I/usr/include/halide14 FILE -lHalide14 -lpthread -ldl
// Run: HL_NUM_THREADS=1 ./a.out   (one thread; prints the median of 400 runs per case)
#include "Halide.h"
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
using namespace Halide;

double median_us(int S, int CI) {
  ImageParam dr(Float(32), 3, "dr"), w(Float(32), 2, "w"), b(Float(32), 1, "b");
  Var c("c"), x("x"), y("y"), co("co"), ci("ci"), cio("cio"), cii("cii"), xo("xo"), xi("xi"), yo("yo"), yi("yi"),
      xio("xio"), xii("xii"), yio("yio"), yii("yii");
  RDom r(0, std::max(CI, 1), "r");
  Func pw("pw"), out("out");
  pw(c, x, y) = b(c);
  if (CI > 0) pw(c, x, y) += w(c, r) * dr(r, x, y);
  out(c, x, y) = max(pw(c, x, y), 0.0f);
  out.bound(c, 0, 64).bound(x, 0, 64).bound(y, 0, 64);
  out.split(c, co, ci, 64).split(ci, cio, cii, 16).split(x, xo, xi, S).split(y, yo, yi, S)
      .split(xi, xio, xii, 2).split(yi, yio, yii, 2)
      .reorder(cii, cio, xii, yii, xio, yio, co, xo, yo).vectorize(cii).unroll(cio).unroll(xii).unroll(yii);
  pw.compute_at(out, co).vectorize(c, 16).unroll(x);
  if (CI > 0) {
    Var uco("uco"), uci("uci"), ucio("ucio"), ucii("ucii"), uxo("uxo"), uxi("uxi"), uyo("uyo"), uyi("uyi");
    pw.update().split(c, uco, uci, 64).split(uci, ucio, ucii, 16).split(x, uxo, uxi, 2).split(y, uyo, uyi, 2)
        .reorder(ucii, ucio, uxi, uyi, r, uco, uxo, uyo).vectorize(ucii).unroll(ucio).unroll(uxi).unroll(uyi);
  }
  out.compile_jit(get_jit_target_from_environment());
  Buffer<float> drb(std::max(CI, 1), 64, 64), wb(64, std::max(CI, 1)), bb(64), o(64, 64, 64);
  drb.for_each_value([](float& v) { v = (rand() % 100) / 100.f; });
  wb.for_each_value([](float& v) { v = (rand() % 100) / 100.f - 0.5f; });
  bb.fill(0.1f);
  dr.set(drb);
  w.set(wb);
  b.set(bb);
  std::vector<double> times;
  for (int rep = 0; rep < 400; ++rep) {
    const auto start = std::chrono::steady_clock::now();
    out.realize(o);
    times.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

int main() {
  std::printf("CI   S=2 (us)  S=4 - S=2  S=8 - S=2  S=16 - S=2  (extra ns per accumulator vector at S=8)\n");
  for (int CI : {0, 1, 4, 32, 64}) {
    const double base = median_us(2, CI), s4 = median_us(4, CI), s8 = median_us(8, CI), s16 = median_us(16, CI);
    std::printf("%-4d %8.1f  %9.1f  %9.1f  %10.1f  (%.2f)\n", CI, base, s4 - base, s8 - base, s16 - base,
                (s8 - base) * 1e3 / (64 * 64 * 64 / 16));
  }
}
