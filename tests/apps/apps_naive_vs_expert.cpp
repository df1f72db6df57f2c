// Benchmark: each app's unscheduled (naive) pipeline vs its expert schedule on the host,
// median of a few runs, plus the output comparison. Usage: apps_naive_vs_expert [APP...]
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "app_check.h"
#include "apps.h"
#include "halide_bridge/compile.h"

using namespace Halide;
using candor::apps::check::compare;
using candor::apps::check::time_realize;

namespace {
double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> names(argv + 1, argv + argc);
  if (names.empty()) {
    for (const auto& app : candor::apps::all_apps()) names.push_back(app.name);
  }
  const Target target = candor::halide_bridge::host_target();
  std::printf("%-26s %10s %10s %9s %9s %9s %11s\n", "app", "naive_ms", "expert_ms", "speedup",
              "jit_n_s", "jit_e_s", "max_rel");
  int status = 0;
  for (const std::string& name : names) {
    const auto* app = candor::apps::find_app(name);
    if (!app) {
      std::fprintf(stderr, "unknown app %s\n", name.c_str());
      return 1;
    }
    auto t0 = std::chrono::steady_clock::now();
    auto naive = app->build();
    Pipeline naive_p = naive.pipeline();
    naive_p.compile_jit(target);
    double jit_naive = seconds_since(t0);
    double naive_s = time_realize(naive_p, naive, target, 3);
    auto reference = candor::apps::check::realize(naive_p, naive, target);

    t0 = std::chrono::steady_clock::now();
    auto expert = app->build();
    expert.apply_expert_schedule(target);
    Pipeline expert_p = expert.pipeline();
    expert_p.compile_jit(target);
    double jit_expert = seconds_since(t0);
    double expert_s = time_realize(expert_p, expert, target, 9);
    auto out = candor::apps::check::realize(expert_p, expert, target);
    double max_rel = 0;
    bool ok = true;
    for (size_t i = 0; i < out.size(); i++) {
      auto c = compare(reference[i], out[i], candor::apps::check::kFloatTolerance);
      ok = ok && c.same_shape && c.mismatches == 0;
      max_rel = std::max(max_rel, c.max_rel_diff);
      if (c.mismatches) std::fprintf(stderr, "%s: %ld mismatches, first %s\n", name.c_str(), c.mismatches, c.first_mismatch.c_str());
    }
    if (!ok) status = 1;
    std::printf("%-26s %10.2f %10.3f %8.1fx %9.2f %9.2f %11.2e%s\n", name.c_str(), naive_s * 1e3,
                expert_s * 1e3, naive_s / expert_s, jit_naive, jit_expert, max_rel,
                ok ? "" : "  MISMATCH");
    std::fflush(stdout);
  }
  return status;
}
