// Per-app bridge checks, one ctest per app and check: the reference, the expert schedule
// and random schedules compile and match the reference (see AppBridge::budget_seconds);
// the printed source of twenty random schedules, compiled separately into this binary
// (printed_schedules.h), schedules a fresh instance exactly as applying the schedule does;
// a random GPU schedule compiles ahead of time for CUDA.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <chrono>
#include <filesystem>
#include <iostream>

#include "applied_schedule.h"
#include "bridge_test_apps.h"
#include "compile.h"
#include "directives.h"
#include "printed_schedules.h"
#include "random_schedule.h"

namespace candor::halide_bridge {
namespace {

using testing::bridge_test_app;

class AppBridge : public ::testing::TestWithParam<std::string> {
 protected:
  const App& app() const { return bridge_test_app(GetParam()); }
  // Verification only: one run, no timing (JIT compilation dominates this suite).
  RunOptions quick() const {
    RunOptions o;
    o.warmup_runs = 0;
    o.timed_runs = 0;
    return o;
  }
  // JIT compilation dominates this suite (seconds per schedule for the larger apps), so
  // the random schedules are verified in seed order until a wall-clock budget is spent,
  // but never fewer than a minimum. All twenty are still printed, compiled as C++ and
  // compared with the applied schedule (PrintedSourceSchedulesLikeTheAppliedOne).
  static int env_int(const char* name, int fallback) {
    const char* v = std::getenv(name);
    return v ? std::atoi(v) : fallback;
  }
  int max_random() const {
    return std::clamp(env_int("CANDOR_BRIDGE_RANDOM_SCHEDULES", testing::kRandomSchedulesPerApp), 0,
                      testing::kRandomSchedulesPerApp);
  }
  int min_random() const { return std::min(env_int("CANDOR_BRIDGE_MIN_RANDOM_SCHEDULES", 5), max_random()); }
  double budget_seconds() const { return env_int("CANDOR_BRIDGE_APP_BUDGET_S", 30); }
};

TEST_P(AppBridge, ReferenceExpertAndRandomSchedulesMatch) {
  const Halide::Target target = host_target();
  const Outputs ref = reference_outputs(app(), target);
  ASSERT_FALSE(ref.empty());
  AppInstance expert = app().build();
  expert.apply_expert_schedule(target);
  EvalResult e = evaluate_instance(expert, ref, target, quick());
  EXPECT_TRUE(e.ok) << "expert: " << e.failed_step << ": " << e.error;
  const KernelDescription kd = describe_app(app().build(), target);
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  int verified = 0;
  for (int i = 0; i < max_random() && (i < min_random() || elapsed() < budget_seconds()); ++i, ++verified) {
    const Schedule s = random_cpu_schedule(kd, testing::random_seed(i));
    EvalResult r = evaluate_schedule(app(), s, kd, ref, target, quick());
    EXPECT_TRUE(r.ok) << "seed " << testing::random_seed(i) << ": " << r.failed_step << ": " << r.error << "\n"
                      << print_schedule(s, kd);
  }
  RecordProperty("random_schedules_verified", verified);
  std::cout << app().name << ": verified " << verified << " of " << max_random() << " random schedules in "
            << elapsed() << " s\n";
}

TEST_P(AppBridge, PrintedSourceSchedulesLikeTheAppliedOne) {
  const Halide::Target target = host_target();
  const KernelDescription kd = describe_app(app().build(), target);
  int checked = 0;
  for (const testing::PrintedSchedule& p : testing::printed_schedules()) {
    if (p.app != app().name) continue;
    AppInstance applied = app().build(), printed = app().build();
    apply_schedule(random_cpu_schedule(kd, p.seed), kd, applied.outputs);
    auto funcs = pipeline_funcs(printed.outputs);
    p.apply(funcs);
    EXPECT_EQ(testing::applied_schedule_text(printed.outputs), testing::applied_schedule_text(applied.outputs))
        << "seed " << p.seed;
    // Running both costs two JIT compiles; one suffices to show equal schedules give equal bits.
    if (checked < 1) {
      Comparison c = compare_outputs(realize(printed, target), realize(applied, target), Tolerance{0, 0});
      EXPECT_TRUE(c.ok) << "seed " << p.seed << ": " << c.message;
    }
    ++checked;
  }
  EXPECT_EQ(checked, testing::kRandomSchedulesPerApp) << "printed schedules are stale: rebuild";
}

TEST_P(AppBridge, RandomGpuScheduleCompilesForCuda) {
  const KernelDescription kd = describe_app(app().build(), cuda_target());
  const Schedule s = random_gpu_schedule(kd, 1, cuda_target());
  const auto dir = std::filesystem::temp_directory_path() /
                   ("candor_bridge_aot_" + std::to_string(::getpid()) + "_" + GetParam());
  AotResult r = compile_schedule_aot(app(), s, kd, cuda_target(), dir.string());
  EXPECT_TRUE(r.ok) << r.error << "\n" << print_schedule(s, kd);
  std::filesystem::remove_all(dir);
}

std::vector<std::string> app_names() {
  std::vector<std::string> r;
  for (const App& a : testing::bridge_test_apps(true)) r.push_back(a.name);
  return r;
}

INSTANTIATE_TEST_SUITE_P(Apps, AppBridge, ::testing::ValuesIn(app_names()),
                         [](const ::testing::TestParamInfo<std::string>& i) {
                           std::string n;
                           for (char c : i.param) n += std::isalnum((unsigned char)c) ? c : '_';
                           return n;
                         });

}  // namespace
}  // namespace candor::halide_bridge
