// unsharp_mask (the app's algorithm) in the shape of candor's pick, rows unrolled N (ratio and the
// output), at image width W: do the rows' strides decide what unrolling more rows costs?
// Build: g++ -O1 -std=c++17 -I/usr/include/halide14 um_width.cpp -o um_width -lHalide14 -lpthread -ldl
// Run:   ./um_width W,N W,N ...   (height 1536, or W with SQUARE=1; CH=1: one output channel;
//        RATIO_ROLLED=1: ratio's rows a loop; 40 interleaved rounds; median ms)
#include <Halide.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
using namespace Halide;
struct Case { Func f; Buffer<float> in, out; };
Case make(int W, int n) {
  const int H = getenv("SQUARE") ? W : 1536, R = 3;
  Buffer<float> in(W, H, 3);
  for (int c = 0; c < 3; c++) for (int y = 0; y < H; y++) for (int x = 0; x < W; x++) in(x, y, c) = float((x * 7 + y * 13 + c * 5) % 97) / 97.f;
  float taps[2 * R + 1], total = 0;
  for (int i = -R; i <= R; i++) total += taps[i + R] = std::exp(-i * i / (2 * 1.5f * 1.5f));
  for (float& t : taps) t /= total;
  Var x("x"), y("y"), c("c");
  Func clamped = BoundaryConditions::repeat_edge(in, {{0, W}, {0, H}});
  Func gray("gray"), blur_y("blur_y"), blur_x("blur_x"), sharpen("sharpen"), ratio("ratio"), out("out");
  gray(x, y) = 0.299f * clamped(x, y, 0) + 0.587f * clamped(x, y, 1) + 0.114f * clamped(x, y, 2);
  Expr sy = 0.0f, sx = 0.0f;
  for (int i = -R; i <= R; i++) sy += taps[i + R] * gray(x, y + i);
  blur_y(x, y) = sy;
  for (int i = -R; i <= R; i++) sx += taps[i + R] * blur_y(x + i, y);
  blur_x(x, y) = sx;
  sharpen(x, y) = gray(x, y) + 1.5f * (gray(x, y) - blur_x(x, y));
  ratio(x, y) = sharpen(x, y) / max(gray(x, y), 1e-3f);
  out(x, y, c) = clamp(ratio(x, y) * clamped(x, y, c), 0.0f, 1.0f);
  Var xo("xo"), xi("xi"), yo("yo"), yi("yi"), yio("yio"), yii("yii");
  out.split(x, xo, xi, 16).split(y, yo, yi, 16).split(yi, yio, yii, n).reorder(xi, yii, c, xo, yio, yo)
      .vectorize(xi).unroll(yii).parallel(yo);
  ratio.compute_at(out, xo).split(x, xo, xi, 16).split(y, yo, yi, n).reorder(xi, yi, xo, yo).vectorize(xi);
  if (!getenv("RATIO_ROLLED")) ratio.unroll(yi);
  blur_y.compute_at(out, yo).split(x, xo, xi, 16).split(y, yo, yi, 16).split(yi, yio, yii, 8)
      .reorder(xi, yii, yio, xo, yo).vectorize(xi).unroll(yii);
  gray.compute_at(out, yo).split(x, xo, xi, 16, TailStrategy::GuardWithIf).split(y, yo, yi, 2, TailStrategy::GuardWithIf)
      .reorder(xi, yi, xo, yo).vectorize(xi).unroll(yi);
  out.compile_jit(get_host_target());
  return {out, in, Buffer<float>(W, H, getenv("CH") ? atoi(getenv("CH")) : 3)};
}
int main(int argc, char** argv) {
  std::vector<Case> cs; std::vector<std::vector<double>> ts(argc - 1);
  for (int i = 1; i < argc; i++) { int w, n; sscanf(argv[i], "%d,%d", &w, &n); cs.push_back(make(w, n)); }
  for (int r = 0; r < 40; r++)
    for (size_t i = 0; i < cs.size(); i++) {
      auto t0 = std::chrono::steady_clock::now(); cs[i].f.realize(cs[i].out);
      ts[i].push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
  for (size_t i = 0; i < cs.size(); i++) { auto& v = ts[i]; std::sort(v.begin(), v.end()); printf("%-10s median %.3f ms\n", argv[i + 1], v[v.size() / 2] * 1e3); }
}
