#include "Halide.h"
#include <chrono>
#include <cstdio>
#include <algorithm>
using namespace Halide;
double bench(Func f, Buffer<uint16_t>& out, const Target& t) {
  f.compile_jit(t);
  std::vector<double> s;
  for (int r = 0; r < 50; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < 20; ++k) f.realize(out, t);
    s.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / 20);
  }
  std::sort(s.begin(), s.end());
  return s[25];
}
int main() {
  Target t = get_host_target();
  const int W = 1024, H = 8;  // 16 KB in + 16 KB out: L1
  Buffer<uint16_t> in(W + 2, H), out(W, H);
  in.fill(7);
  Var x, y;
  Expr wide = cast<uint32_t>(in(x, y)) + in(x + 1, y) + in(x + 2, y);
  Func a, b, c, d;
  a(x, y) = cast<uint16_t>(wide / 3);
  b(x, y) = cast<uint16_t>(wide);
  c(x, y) = cast<uint16_t>(wide >> 2);
  d(x, y) = in(x, y) + in(x + 1, y) + in(x + 2, y);
  for (Func* f : {&a, &b, &c, &d}) f->vectorize(x, 16);
  double pts = double(W) * H;
  printf("ns/point: u32 /3: %.3f  u32 no div: %.3f  u32 >>2: %.3f  u16 adds: %.3f\n", bench(a, out, t) / pts * 1e9,
         bench(b, out, t) / pts * 1e9, bench(c, out, t) / pts * 1e9, bench(d, out, t) / pts * 1e9);
  a.compile_to_assembly("constant_division.s", {}, "a", t);
}
