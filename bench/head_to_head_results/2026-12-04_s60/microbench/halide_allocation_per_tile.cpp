// Stop 60: a producer computed per guarded 16-column tile, split and vectorized itself, still
// gets a constant-size (stack) buffer in the steady state (lowered: allocate f[int32 * 16]),
// unlike camera_pipe's color_corrected, whose run-time size sends it to the heap per block.
// Build: g++ -std=c++17 -O2 -I/usr/include/halide14 FILE -lHalide14 -lpthread -ldl.
#include "Halide.h"
#include <chrono>
#include <cstdio>
using namespace Halide;
// A producer computed per guarded 16-column tile of its consumer, split and vectorized by 16
// itself (as camera_pipe's color_corrected per block of curved), vs the same stored at the root.
int main(int argc, char** argv) {
  const int W = 4096 + 2, H = 512;
  for (int variant = 0; variant < 3; ++variant) {
    Func f("f"), g("g");
    Var x("x"), y("y"), xo("xo"), xi("xi"), fo("fo"), fi("fi");
    f(x, y) = x + y;
    g(x, y) = cast<int16_t>(f(x, y) * 3);
    g.split(x, xo, xi, 16, TailStrategy::GuardWithIf);
    f.compute_at(g, xo);
    if (variant >= 1) f.split(x, fo, fi, 16).vectorize(fi);
    if (variant == 2) f.store_root();
    g.compile_jit(get_jit_target_from_environment());
    Buffer<int16_t> out(W, H);
    double best = 1e9;
    for (int r = 0; r < 50; ++r) {
      auto a = std::chrono::steady_clock::now();
      g.realize(out);
      best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - a).count());
    }
    printf("variant %d: %.3f ms, %.2f ns per tile\n", variant, best * 1e3, best * 1e9 / (H * (W / 16.0)));
  }
}
