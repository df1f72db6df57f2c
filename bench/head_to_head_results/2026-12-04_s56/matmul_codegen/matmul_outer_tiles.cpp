// matmul 512^3 in the shape of candor's pick (dot, an RX x RY register tile, computed per x_i_o of an outer tile TX x TY), several outer tiles compiled once each and timed interleaved (60 rounds).
// Build: g++ -O1 -std=c++17 -I/usr/include/halide14 matmul_outer_tiles.cpp -o mm -lHalide14 -lpthread -ldl
// Run:   ./mm TX,TY[,RY[,RX]] ...   register tile RX x RY (default 16 x 8); BOUND=1: the output bound to 512x512, so every extent is a constant
#include <Halide.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
using namespace Halide;
const int N = 512;
Func make(int tx, int ty, int ry, int rx, ImageParam a, ImageParam b) {
  Var x("x"), y("y"), xo("x_o"), xi("x_i"), xio("x_i_o"), xii("x_i_i"), yo("y_o"), yi("y_i"), yio("y_i_o"), yii("y_i_i");
  RDom k(0, N, "k");
  Func dot("dot"), out("matmul");
  dot(x, y) = 0.0f;
  dot(x, y) += a(k, y) * b(x, k);
  out(x, y) = dot(x, y);
  if (getenv("BOUND")) out.bound(x, 0, N).bound(y, 0, N);
  out.split(x, xo, xi, tx).split(xi, xio, xii, rx).split(y, yo, yi, ty).split(yi, yio, yii, ry)
     .reorder(xii, yii, xio, yio, xo, yo).vectorize(xii, 16).unroll(yii).parallel(yo);
  dot.compute_at(out, xio);
  Var dxo("dxo"), dxi("dxi"), dyo("dyo"), dyi("dyi");
  dot.split(x, dxo, dxi, rx).split(y, dyo, dyi, ry).reorder(dxi, dyi, dxo, dyo).vectorize(dxi, 16).unroll(dyi);
  dot.update().split(x, dxo, dxi, rx, TailStrategy::GuardWithIf).split(y, dyo, dyi, ry, TailStrategy::GuardWithIf)
     .reorder(dxi, dyi, k, dxo, dyo).vectorize(dxi, 16).unroll(dxi).unroll(dyi);
  out.compile_jit(get_host_target());
  return out;
}
int main(int argc, char** argv) {
  ImageParam a(Float(32), 2, "a"), b(Float(32), 2, "b");
  Buffer<float> A(N, N), B(N, N), C(N, N);
  for (int j = 0; j < N; j++) for (int i = 0; i < N; i++) { A(i, j) = (i * 7 + j) % 13 * 0.1f; B(i, j) = (i + 3 * j) % 11 * 0.1f; }
  a.set(A); b.set(B);
  std::vector<Func> fs; std::vector<std::vector<double>> ts(argc - 1);
  for (int i = 1; i < argc; i++) { int tx, ty, ry = 8, rx = 16; sscanf(argv[i], "%d,%d,%d,%d", &tx, &ty, &ry, &rx); fs.push_back(make(tx, ty, ry, rx, a, b)); }
  for (int r = 0; r < 60; r++)
    for (size_t i = 0; i < fs.size(); i++) { auto t0 = std::chrono::steady_clock::now(); fs[i].realize(C); ts[i].push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()); }
  for (size_t i = 0; i < fs.size(); i++) { auto& v = ts[i]; std::sort(v.begin(), v.end()); printf("%-8s min %.3f median %.3f ms\n", argv[i + 1], v[0] * 1e3, v[v.size() / 2] * 1e3); }
}
