// Stop 60: streaming reads of a buffer whose vectors straddle lines (a std::vector, 16-byte
// aligned, read with 64-byte loads): 151 GB/s from 32 KB, 78 from 200 KB and 1 MB, one core
// (Halide's aligned calibration kernel: 184 and 119-155). Build: g++ -O3 -march=native FILE.
#include <chrono>
#include <cstdio>
#include <vector>
#include <algorithm>
#include <immintrin.h>
// Streaming read of an L2-resident buffer of `bytes`, 8 independent accumulators, many passes.
static double gbps(size_t bytes, int passes) {
  std::vector<float> v(bytes / 4 + 16, 1.0f);
  const float* p = v.data(); const size_t n = bytes / 4;
  double best = 1e9; __m512 keep = _mm512_setzero_ps();
  for (int rep = 0; rep < 20; ++rep) {
    auto t0 = std::chrono::steady_clock::now();
    __m512 a[8]; for (auto& q : a) q = _mm512_setzero_ps();
    for (int ps = 0; ps < passes; ++ps)
      for (size_t i = 0; i + 128 <= n; i += 128)
        for (int k = 0; k < 8; ++k) a[k] = _mm512_add_ps(a[k], _mm512_loadu_ps(p + i + 16 * k));
    for (int k = 0; k < 8; ++k) keep = _mm512_add_ps(keep, a[k]);
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  volatile float s = _mm512_reduce_add_ps(keep); (void)s;
  return double(bytes) * passes / best * 1e-9;
}
int main() {
  for (size_t kb : {32, 200, 1024, 1536}) printf("%zu KB: %.1f GB/s\n", kb, gbps(kb << 10, int(400000 / kb)));
}
