// When does the pool's worker join a parallel loop? A loop of `tasks` tasks (a dependent
// float chain of `work` steps each, 8 lanes) is timed after a busy gap of 0-2000 us on the
// calling thread, against the same loop run serially. Each process prints one line; run it in
// several fresh processes to see the per-process regimes.
//   g++ -O2 -std=c++17 -I/usr/include/halide14 parallel_join_probe.cpp -o probe -lHalide14 -lpthread -ldl
//   for i in $(seq 8); do ./probe 2 10000; done
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "Halide.h"

using namespace Halide;
using Clock = std::chrono::steady_clock;

static double us(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::micro>(b - a).count();
}

static Func chain(const char* name, int work, bool parallel) {
  Func f(name), g(std::string(name) + "_acc");
  Var x("x"), t("t");
  RDom r(0, work);
  g(x, t) = 0.f;
  g(x, t) = g(x, t) * 0.999f + cast<float>(r + x + t) * 0.5f;
  f(x, t) = g(x, t);
  g.compute_at(f, t).vectorize(x, 8);
  g.update().vectorize(x, 8);
  if (parallel) f.parallel(t);
  f.compile_jit(get_jit_target_from_environment());
  return f;
}

static double median_after_gap(Func& f, Buffer<float>& out, int gap_us, int runs) {
  std::vector<double> v;
  for (int i = 0; i < runs; ++i) {
    const auto s = Clock::now();
    while (us(s, Clock::now()) < gap_us) {
    }
    const auto a = Clock::now();
    f.realize(out);
    v.push_back(us(a, Clock::now()));
  }
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

int main(int argc, char** argv) {
  const int tasks = argc > 1 ? std::atoi(argv[1]) : 2;
  const int work = argc > 2 ? std::atoi(argv[2]) : 10000;
  Func par = chain("par", work, true), ser = chain("ser", work, false);
  Buffer<float> out(8, tasks);
  for (int i = 0; i < 50; ++i) par.realize(out);
  for (int gap : {0, 20, 100, 500, 2000}) {
    const double s = median_after_gap(ser, out, gap, 100), p = median_after_gap(par, out, gap, 300);
    std::printf("gap %4d us: serial %6.1f parallel %6.1f |", gap, s, p);
  }
  std::printf("\n");
}
