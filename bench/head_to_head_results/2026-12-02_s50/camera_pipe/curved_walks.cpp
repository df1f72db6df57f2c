// camera_pipe's curved alone: a tone-curve LUT lookup of an int32 image (one production of
// the pick: 514 x 66 x 3), in the loop orders of two picks. Median of many runs, buffers hot.
#include <Halide.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>
using namespace Halide;
double run(int variant, const Target& t) {
  ImageParam corrected(Int(32), 3), curve(UInt(8), 1);
  Func curved("curved");
  Var x("x"), y("y"), c("c"), xo("xo"), xi("xi"), yo("yo"), yi("yi"), xio("xio"), xii("xii");
  curved(x, y, c) = cast<int16_t>(curve(clamp(corrected(x, y, c), 0, 1023)));
  switch (variant) {
    case 0: curved.split(x, xo, xi, 8).split(y, yo, yi, 2).reorder(xi, yi, c, xo, yo).unroll(xi); break;
    case 1: curved.split(x, xo, xi, 32).split(xi, xio, xii, 8).reorder(xii, xio, c, xo, y).unroll(xii); break;
    case 2: curved.split(x, xo, xi, 8).split(y, yo, yi, 2).reorder(xi, yi, c, xo, yo).unroll(xi).unroll(yi); break;
    case 3: curved.split(x, xo, xi, 8).reorder(xi, c, xo, y).unroll(xi); break;
    case 4: curved.split(x, xo, xi, 8).reorder(xi, xo, c, y).unroll(xi); break;
  }
  curved.compile_jit(t);
  Buffer<int32_t> in(514, 66, 3);
  Buffer<uint8_t> lut(1024);
  in.for_each_element([&](int x, int y, int c) { in(x, y, c) = (x * 7 + y * 13 + c * 101) % 1150 - 50; });
  lut.for_each_element([&](int i) { lut(i) = uint8_t(i / 4); });
  corrected.set(in);
  curve.set(lut);
  Buffer<int16_t> out(514, 66, 3);
  std::vector<double> ts;
  for (int i = 0; i < 3000; ++i) {
    auto a = std::chrono::steady_clock::now();
    curved.realize(out, t);
    ts.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - a).count());
  }
  std::sort(ts.begin(), ts.end());
  return ts[ts.size() / 2] * 1e6;
}
int main() {
  Target t = get_jit_target_from_environment();
  const char* names[] = {"x/8 y/2, x_i unrolled, order x_i y_i c x_o y_o (old pick)",
                         "x/32 x_i/8, unrolled, order x_i_i x_i_o c x_o y (new pick)",
                         "old with y_i unrolled too", "x/8, order x_i c x_o y", "x/8, order x_i x_o c y"};
  for (int rep = 0; rep < 2; ++rep)
    for (int v = 0; v < 5; ++v) printf("%-62s %8.1f us\n", names[v], run(v, t));
}
