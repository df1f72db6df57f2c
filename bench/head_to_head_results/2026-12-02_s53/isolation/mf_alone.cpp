// max_filter (radius 6) alone, 1024x1024. vert_max_3 computed per 16x8 output tile (candor's greedy pick)
// MODE 0: as the pick; 1: vert_max_3 inlined; 2: vert_max_3 per strip (at yo)
// Build: g++ -O1 -std=c++17 -I/usr/include/halide14 mf_alone.cpp -o mf_alone -lHalide14 -lpthread -ldl
// Run: ./mf_alone MODE   ASM=out.s ./mf_alone MODE
#include <Halide.h>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <algorithm>
#include <vector>
#include <string>
using namespace Halide;
int main(int argc, char** argv) {
  int mode = argc > 1 ? atoi(argv[1]) : 0;
  const int W = 1024, H = 1024, R = 6;
  Buffer<float> in(W, H), out(W, H);
  for (int y = 0; y < H; y++) for (int x = 0; x < W; x++) in(x, y) = ((x * 7 + y * 13) % 101) * 0.01f;
  Var x("x"), y("y"), xo, xi, yo, yi, yio, yii;
  Func clamped = BoundaryConditions::repeat_edge(in);
  std::vector<Func> vm(4);
  vm[0] = clamped;
  for (int k = 1; k <= 3; k++) { vm[k] = Func("vm" + std::to_string(k)); vm[k](x, y) = max(vm[k-1](x, y), vm[k-1](x, y + (1 << (k-1)))); }
  Func o("o"); Expr res;
  for (int dx = -R; dx <= R; dx++) {
    int half = int(std::floor(std::sqrt(double(R*R - dx*dx)))), len = 2*half+1, k = 0;
    while ((2 << k) <= len) k++;
    Expr c = max(vm[k](x + dx, y - half), vm[k](x + dx, y + half - (1 << k) + 1));
    res = res.defined() ? max(res, c) : c;
  }
  o(x, y) = res;
  o.split(x, xo, xi, 16).split(y, yo, yi, 32).split(yi, yio, yii, 8).reorder(xi, yii, xo, yio, yo).vectorize(xi).unroll(yii).parallel(yo);
  Var vx, vy, vxo, vxi, vyo, vyi;
  vm[1].split(x, vxo, vxi, 16).split(y, vyo, vyi, 4).reorder(vxi, vyi, vxo, vyo).vectorize(vxi).unroll(vyi).compute_at(o, yo);
  vm[2].split(x, vxo, vxi, 16).reorder(vxi, vxo, y).vectorize(vxi).compute_at(o, yo);
  if (mode == 2) vm[3].split(x, vxo, vxi, 16).split(y, vyo, vyi, 8).reorder(vxi, vyi, vxo, vyo).vectorize(vxi).unroll(vyi).compute_at(o, yo);
  if (mode == 0) vm[3].split(x, vxo, vxi, 16).split(y, vyo, vyi, 8).reorder(vxi, vyi, vxo, vyo).vectorize(vxi).unroll(vyi).compute_at(o, xo);
  Target t = get_host_target();
  if (getenv("PROF")) t = t.with_feature(Target::Profile);
  if (getenv("ASM")) { o.compile_to_assembly(getenv("ASM"), {in}, "f", t); o.compile_to_lowered_stmt(std::string(getenv("ASM")) + ".stmt", {in}, Text, t); return 0; }
  o.compile_jit(t);
  std::vector<double> ts;
  for (int rep = 0; rep < 7; rep++) {
    int n = 0; auto t0 = std::chrono::steady_clock::now(); double el = 0;
    do { o.realize(out); n++; el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); } while (el < 0.3);
    ts.push_back(el / n * 1e3);
  }
  std::sort(ts.begin(), ts.end());
  printf("mode %d: %.4f ms\n", mode, ts[3]);
}
