#include <Halide.h>
#include <chrono>
#include <cstdio>
#include <algorithm>
#include <vector>
using namespace Halide;
double run(int variant, const Target& t, int threads) {
  ImageParam in(Float(32), 3);
  Func c = BoundaryConditions::repeat_edge(in, {{0, 256}, {0, 256}});
  Func ic; Var x, y, ch, xo, xi, yo, yi;
  ic(x, y, ch) = c(x, y, ch);
  if (variant == 0) ic.split(x, xo, xi, 16).split(y, yo, yi, 8).reorder(xi, yi, yo, xo, ch).vectorize(xi).unroll(yi).parallel(ch);
  else if (variant == 1) ic.split(x, xo, xi, 16).split(y, yo, yi, 8).reorder(xi, yi, xo, yo, ch).vectorize(xi).unroll(yi).parallel(ch);
  else if (variant == 2) ic.split(x, xo, xi, 16).split(y, yo, yi, 2).reorder(xi, xo, yi, yo, ch).vectorize(xi).unroll(yi).parallel(ch);
  else ic.split(x, xo, xi, 16).reorder(xi, y, xo, ch).vectorize(xi).parallel(ch);
  ic.compile_jit(t);
  Buffer<float> data(256, 256, 3), out(264, 264, 3);
  out.set_min(-4, -4, 0);
  data.fill(1.0f); in.set(data);
  std::vector<double> ts;
  std::vector<float> junk(getenv("FLUSH") ? atoi(getenv("FLUSH")) : 0, 1.f);
  for (int i = 0; i < 2000; ++i) {
    for (size_t j = 0; j < junk.size(); j += 16) junk[j] += 1.f;
    auto a = std::chrono::steady_clock::now();
    ic.realize(out, t);
    ts.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - a).count());
  }
  std::sort(ts.begin(), ts.end());
  return ts[ts.size() / 2] * 1e3;
}
int main(int argc, char** argv) {
  Target t = get_jit_target_from_environment();
  const char* names[] = {"kick column strips 16x264 (yi unrolled 8)", "tiles 16x8 across", "rows (base801)", "column strips, no unroll"};
  for (int rep = 0; rep < 2; ++rep)
  for (int v = 0; v < 4; ++v) printf("%-45s %.4f ms\n", names[v], run(v, t, 0));
}
