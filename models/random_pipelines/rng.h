// The generators' random stream: splitmix64, the same numbers on every platform and standard
// library (unlike std::uniform_*_distribution), so a seed names one pipeline everywhere.
#pragma once

#include <cstdint>

namespace candor::models::random_pipelines {

class Rng {
 public:
  explicit Rng(uint64_t seed) : s_(seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull) {}
  uint64_t next() {
    uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  int below(int n) { return n <= 1 ? 0 : int(next() % uint64_t(n)); }
  bool chance(int percent) { return below(100) < percent; }
  float unit() { return float(next() >> 40) / float(1ull << 24); }

 private:
  uint64_t s_;
};

}  // namespace candor::models::random_pipelines
