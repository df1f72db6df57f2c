// max_filter (radius 6, 1024x1024, as examples/apps/max_filter) under three hand-written schedules.
// MODE 0: stop 52's pick (strips of 64 rows: input_clamped, vert_max_2 per strip, vert_max_1
//         inlined, vert_max_3 per 16x8 pixels); 1: Adams2019's (head-to-head s52);
//         2: column tiles TXx64 in parallel, every stage computed per band of 8 rows of the tile
//         and stored per tile (sliding down the tile), vert_max_1 inlined (env TX, default 128).
// Build: g++ -O1 -std=c++17 -I/usr/include/halide14 mf_struct.cpp -o mf_struct -lHalide14 -lpthread -ldl
// Run:   ./mf_struct MODE   (median of 7 timings of >= 0.3 s, every core; checked against a reference)
//        BOUNDS=1 ./mf_struct MODE   the output's bounds constant (1024 x 1024), as no app sets them
//        STMT=out ./mf_struct MODE   lowered statement (out) and assembly (out.s) instead
// The input is clamped at its run-time bounds (likely(), as examples/apps/app_util's repeat_edge_xy).
#include <Halide.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>
using namespace Halide;
int main(int argc, char** argv) {
  const int mode = argc > 1 ? atoi(argv[1]) : 0, TX = getenv("TX") ? atoi(getenv("TX")) : 128;
  const int W = 1024, H = 1024, R = 6;
  Buffer<float> in(W, H), out(W, H);
  for (int y = 0; y < H; y++) for (int x = 0; x < W; x++) in(x, y) = ((x * 7 + y * 13) % 101) * 0.01f;
  ImageParam input(Float(32), 2, "input");
  Var x("x"), y("y");
  Func clamped("input_clamped");
  clamped(x, y) = input(clamp(likely(x), input.dim(0).min(), input.dim(0).max()), clamp(likely(y), input.dim(1).min(), input.dim(1).max()));
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
  if (getenv("BOUNDS")) o.output_buffer().dim(0).set_bounds(0, W).dim(1).set_bounds(0, H);
  Var xo("xo"), xi("xi"), yo("yo"), yi("yi"), yio("yio"), yii("yii"), a("a"), b("b"), ai("ai"), bi("bi");
  if (mode == 0) {
    o.split(x, xo, xi, 16).split(y, yo, yi, 64).split(yi, yio, yii, 8).reorder(xi, yii, xo, yio, yo).vectorize(xi).unroll(yii).parallel(yo);
    clamped.split(x, a, ai, 16).split(y, b, bi, 4).reorder(ai, bi, a, b).vectorize(ai).unroll(bi).compute_at(o, yo);
    vm[2].split(x, a, ai, 16).split(y, b, bi, 4).reorder(ai, bi, a, b).vectorize(ai).unroll(bi).compute_at(o, yo);
    vm[3].split(x, a, ai, 16).split(y, b, bi, 8).reorder(ai, bi, a, b).vectorize(ai).unroll(bi).compute_at(o, xo);
  } else if (mode == 1) {
    Var xii("xii"), xiii("xiii"), yiii("yiii");
    o.split(y, y, yi, 64, TailStrategy::ShiftInwards).split(x, x, xi, 96, TailStrategy::ShiftInwards)
        .split(yi, yi, yii, 32, TailStrategy::ShiftInwards).split(yii, yii, yiii, 16, TailStrategy::ShiftInwards)
        .split(xi, xi, xii, 48, TailStrategy::ShiftInwards).split(xii, xii, xiii, 16, TailStrategy::ShiftInwards)
        .vectorize(xiii).reorder({xiii, xii, yiii, xi, yii, x, yi, y}).parallel(y);
    vm[3].store_in(MemoryType::Stack).split(x, x, a, 16, TailStrategy::RoundUp).vectorize(a).compute_at(o, xi).reorder({a, x, y});
    vm[2].store_in(MemoryType::Stack).split(x, x, a, 32, TailStrategy::RoundUp).split(y, y, b, 4, TailStrategy::RoundUp)
        .split(a, a, ai, 16, TailStrategy::RoundUp).unroll(a).unroll(b).vectorize(ai).compute_at(o, xi).store_at(o, yii).reorder({ai, a, b, x, y});
    vm[1].store_in(MemoryType::Stack).split(x, x, a, 16, TailStrategy::RoundUp).unroll(x).unroll(y).vectorize(a).compute_at(vm[2], x).reorder({a, x, y});
    clamped.store_in(MemoryType::Stack).split(x, x, a, 16, TailStrategy::ShiftInwards).vectorize(a).compute_at(o, yii).store_at(o, x).reorder({a, x, y});
  } else {
    o.split(x, xo, xi, TX).split(y, yo, yi, 64).split(yi, yio, yii, 8).split(xi, a, ai, 16)
        .reorder(ai, yii, a, yio, xo, yo).vectorize(ai).unroll(yii).parallel(yo);
    for (Func f : {clamped, vm[2], vm[3]})
      f.split(x, a, ai, 16).vectorize(ai).compute_at(o, yio).store_at(o, xo);
  }
  Target t = get_host_target();
  if (getenv("STMT")) { o.compile_to_lowered_stmt(getenv("STMT"), {input}, Text, t); o.compile_to_assembly(std::string(getenv("STMT")) + ".s", {input}, "f", t); return 0; }
  o.compile_jit(t);
  input.set(in);
  o.realize(out);
  Buffer<float> ref(W, H);
  { // reference: everything at the root
    Func r("r"); Expr e;
    for (int dx = -R; dx <= R; dx++) {
      int half = int(std::floor(std::sqrt(double(R*R - dx*dx))));
      RDom d(-half, 2 * half + 1);
      Expr col = maximum(in(clamp(x + dx, 0, W - 1), clamp(y + d, 0, H - 1)));
      e = e.defined() ? max(e, col) : col;
    }
    r(x, y) = e; r.realize(ref);
  }
  for (int yy = 0; yy < H; yy++) for (int xx = 0; xx < W; xx++)
    if (ref(xx, yy) != out(xx, yy)) { printf("mode %d: mismatch at %d,%d\n", mode, xx, yy); return 1; }
  std::vector<double> ts;
  for (int rep = 0; rep < 7; rep++) {
    int n = 0; auto t0 = std::chrono::steady_clock::now(); double el = 0;
    do { o.realize(out); n++; el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); } while (el < 0.3);
    ts.push_back(el / n * 1e3);
  }
  std::sort(ts.begin(), ts.end());
  printf("mode %d TX %d: %.4f ms\n", mode, TX, ts[3]);
}
