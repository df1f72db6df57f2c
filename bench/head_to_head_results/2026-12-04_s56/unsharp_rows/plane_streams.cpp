// A copy walked like a multi-channel output: per 16-lane step, N rows of each of P planes read
// and written (2 x P x N streams), rows of W floats (env W, default 1536), planes of PLANE_MB MiB
// (default 9: 1536x1536 floats); ROLLED=1: the rows a loop, not unrolled; both cores.
// Build: g++ -O1 -std=c++17 -I/usr/include/halide14 plane_streams.cpp -o plane_streams -lHalide14 -lpthread -ldl
// Run:   ./plane_streams P,N P,N ...   (40 interleaved rounds; median GB/s moved, read + written)
#include <Halide.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
using namespace Halide;
struct Case { Func f; Buffer<float> in, out; double bytes; };
Case make(int planes, int n) {
  const int W = getenv("W") ? atoi(getenv("W")) : 1536, H = (getenv("PLANE_MB") ? atoi(getenv("PLANE_MB")) : 9) * 262144 / W;
  Buffer<float> in(W, H, planes);
  in.fill(1.0f);
  Var x("x"), y("y"), c("c"), xo("xo"), xi("xi"), yo("yo"), yi("yi"), yio("yio"), yii("yii");
  Func out("out");
  out(x, y, c) = in(x, y, c) * 1.0001f;
  out.bound(c, 0, planes).split(x, xo, xi, 16).split(y, yo, yi, 16).split(yi, yio, yii, n)
      .reorder(xi, yii, c, xo, yio, yo).vectorize(xi).parallel(yo);
  if (!getenv("ROLLED")) out.unroll(yii).unroll(c);
  out.compile_jit(get_host_target());
  return {out, in, Buffer<float>(W, H, planes), 2.0 * W * H * planes * 4};
}
int main(int argc, char** argv) {
  std::vector<Case> cs; std::vector<std::vector<double>> ts(argc - 1);
  for (int i = 1; i < argc; i++) { int p, n; sscanf(argv[i], "%d,%d", &p, &n); cs.push_back(make(p, n)); }
  for (int r = 0; r < 40; r++)
    for (size_t i = 0; i < cs.size(); i++) {
      auto t0 = std::chrono::steady_clock::now(); cs[i].f.realize(cs[i].out);
      ts[i].push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
  for (size_t i = 0; i < cs.size(); i++) {
    auto& v = ts[i]; std::sort(v.begin(), v.end());
    { int p, n; sscanf(argv[i + 1], "%d,%d", &p, &n); printf("%-6s streams %3d  %.1f GB/s\n", argv[i + 1], 2 * p * n, cs[i].bytes / v[v.size() / 2] * 1e-9); }
  }
}
