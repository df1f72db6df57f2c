// depthwise_separable_conv's pointwise alone: out(c,x,y) = max(bias(c) + sum_ci w(c,ci)*in(ci,x,y), 0),
// 64x64 pixels, CI (env, default 32) -> 64 channels. f computed per SXxSY subtile of 16x16 tiles.
// Build: g++ -O1 -std=c++17 -I/usr/include/halide14 pointwise_alone.cpp -o pointwise_alone -lHalide14 -lpthread -ldl
// Run:   HL_NUM_THREADS=1 ./pointwise_alone SX SY MODE   (prints the median of 7 timings of >= 0.3 s)
//        ASM=out.s ./pointwise_alone SX SY MODE        (assembly and lowered statement instead)
// mode: 0 = as candor's pick, 1 = f's update not register-tiled over x (1 pixel),
//       2 = f stored at tile, computed at subtile.
#include <Halide.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <vector>
#include <string>
using namespace Halide;
int main(int argc, char** argv) {
  int SX = atoi(argv[1]), SY = atoi(argv[2]), mode = argc > 3 ? atoi(argv[3]) : 0;
  const int CI = getenv("CI") ? atoi(getenv("CI")) : 32, CO = 64, W = 64, H = 64;
  Buffer<float> in(CI, W, H), w(CO, CI), b(CO), out(CO, W, H);
  for (int y = 0; y < H; y++) for (int x = 0; x < W; x++) for (int c = 0; c < CI; c++) in(c, x, y) = (c * 7 + x * 3 + y) % 13 * 0.1f;
  for (int i = 0; i < CI; i++) for (int c = 0; c < CO; c++) w(c, i) = ((c + i) % 5) * 0.1f - 0.2f;
  for (int c = 0; c < CO; c++) b(c) = c * 0.01f;
  Var c("c"), x("x"), y("y"), co, ci_, xo, xi, yo, yi, xio, xii, yio, yii, cio, cii;
  RDom r(0, CI, "r");
  Func f("f"), o("o");
  f(c, x, y) = b(c);
  f(c, x, y) += w(c, r) * in(r, x, y);
  o(c, x, y) = max(f(c, x, y), 0.f);
  o.bound(c, 0, CO);
  o.split(x, xo, xi, 16).split(y, yo, yi, 16).split(xi, xio, xii, SX).split(yi, yio, yii, SY)
   .split(c, cio, cii, 16).reorder(cii, cio, xii, yii, xio, yio, xo, yo).vectorize(cii).unroll(cio).unroll(xii).unroll(yii);
  Var fcio, fcii, fxo, fxi;
  f.split(c, fcio, fcii, 16).reorder(fcii, fcio, x, y).vectorize(fcii).unroll(fcio).unroll(x).unroll(y);
  if (mode == 1) {
    f.update().split(c, fcio, fcii, 16).reorder(fcii, fcio, r.x, x, y).vectorize(fcii).unroll(fcio);
  } else {
    f.update().split(c, fcio, fcii, 16).split(x, fxo, fxi, 2).reorder(fcii, fcio, fxi, r.x, fxo, y).vectorize(fcii).unroll(fcio).unroll(fxi);
  }
  if (mode == 2) f.store_at(o, xo).compute_at(o, xio); else f.compute_at(o, xio);
  Target t = get_host_target();
  if (getenv("ASM")) { o.compile_to_assembly(getenv("ASM"), {in, w, b}, "f", t); o.compile_to_lowered_stmt(std::string(getenv("ASM")) + ".stmt", {in, w, b}, Text, t); return 0; }
  o.compile_jit(t);
  std::vector<double> times;
  for (int rep = 0; rep < 7; rep++) {
    auto t0 = std::chrono::steady_clock::now();
    int n = 0;
    do { o.realize(out); n++; } while (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < 0.3);
    times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / n * 1e3);
  }
  std::sort(times.begin(), times.end());
  printf("%dx%d mode %d: %.4f ms\n", SX, SY, mode, times[3]);
}
