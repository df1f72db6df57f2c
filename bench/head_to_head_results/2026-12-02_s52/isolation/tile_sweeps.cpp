// Register tiles of ACC accumulators reducing over DEPTH steps, TILES tiles a row one after the
// other (calibration.cpp's tile_sweeps, standalone), on every core.
// Build: g++ -O1 -std=c++17 -I/usr/include/halide14 tile_sweeps.cpp -o tile_sweeps -lHalide14 -lpthread -ldl
// Run:   ./tile_sweeps ACC DEPTH TILES
#include <Halide.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
using namespace Halide;
int main(int argc, char** argv) {
  int accumulators = atoi(argv[1]), depth = atoi(argv[2]), tiles = atoi(argv[3]);
  Target target = get_host_target();
  const int lanes = target.natural_vector_size(Float(32)), columns = accumulators;
  Var c("c"), x("x"), y("y"), k("k"), t("t");
  Func a("a"), b("b"), sum("sum"), f("f");
  RDom r(0, depth);
  a(c, k) = cast<float>(c + k) * 1e-3f;
  b(x, k) = cast<float>(x - k) * 1e-3f;
  sum(c, x, t, y) = cast<float>(y + t);
  sum(c, x, t, y) += a(c, r) * b(x, r);
  f(c, x, t, y) = sum(c, x, t, y);
  f.bound(c, 0, lanes).bound(x, 0, columns).bound(t, 0, tiles);
  a.compute_root().vectorize(c, lanes);
  b.compute_root();
  f.vectorize(c, lanes).unroll(x).parallel(y, 8);
  sum.compute_at(f, y).vectorize(c, lanes).unroll(x);
  sum.update().reorder(c, x, r, t, y).vectorize(c, lanes).unroll(x);
  if (getenv("ASM")) { f.compile_to_assembly(getenv("ASM"), {}, "f", target); return 0; }
  f.compile_jit(target);
  int rows = 256; int reps = (1 << 24) / (depth * tiles * rows) + 1;
  Buffer<float> out(lanes, columns, tiles, rows);
  double best = 1e9;
  for (int i = 0; i < 5; i++) { auto t0 = std::chrono::steady_clock::now(); for (int q = 0; q < reps; q++) f.realize(out); best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()); }
  printf("acc %d depth %d tiles %d: %.1f Gops/s/core\n", accumulators, depth, tiles, double(lanes) * accumulators * tiles * rows * double(reps) * depth * 2 / best / 2 * 1e-9);
}
