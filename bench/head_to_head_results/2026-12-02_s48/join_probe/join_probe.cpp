// Build and run: g++ -O2 -std=c++17 -I/usr/include/halide14 join_probe.cpp -o join_probe -lHalide14 -lpthread -ldl && ./join_probe
// Join delay after a 100 us idle gap, with one task per core of chain length N (task ~ N * 2 ns).
#include <Halide.h>
#include <chrono>
#include <cstdio>
#include <algorithm>
#include <vector>
using namespace Halide;
using Clock = std::chrono::steady_clock;
int main() {
  Target target = get_host_target();
  for (int n : {25000, 50000, 100000, 200000}) {
    auto build = [&](bool par) {
      Func f, g; Var x, t; RDom r(0, n);
      g(x, t) = 0.f;
      g(x, t) = g(x, t) * 0.999f + cast<float>(r + x + t) * 0.5f;
      f(x, t) = g(x, t);
      g.compute_at(f, t).vectorize(x, 8);
      g.update().vectorize(x, 8);
      if (par) f.parallel(t);
      f.compile_jit(target);
      return f;
    };
    Func par = build(true), ser = build(false);
    Buffer<float> out(8, 2);
    auto gap = [&](Func& f) {
      std::vector<double> t;
      for (int i = 0; i < 60; ++i) {
        auto s = Clock::now();
        while (std::chrono::duration<double>(Clock::now() - s).count() < 100e-6) {}
        auto a = Clock::now(); f.realize(out, target);
        t.push_back(std::chrono::duration<double>(Clock::now() - a).count());
      }
      std::nth_element(t.begin(), t.begin() + t.size() / 2, t.end());
      return t[t.size() / 2];
    };
    gap(par);
    double p = gap(par), s = gap(ser);
    std::printf("chain %6d: serial (2 tasks) %7.1f us, parallel %7.1f us, p - s/2 = %6.1f us\n", n, s * 1e6, p * 1e6, (p - s / 2) * 1e6);
  }
}
