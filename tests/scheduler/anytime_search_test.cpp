// The default search of schedule_kernel (anytime beam) on example apps: it spends its time
// budget, and the candidates it hands to autotuning are alternatives (pairwise different
// under candor::alike, tested in tests/search; here: distinct schedules) that all compile
// and match the reference output.
#include <gtest/gtest.h>

#include "apps.h"
#include "halide_bridge/compile.h"
#include "halide_bridge/directives.h"
#include "models/halide/machine.h"
#include "scheduler.h"

namespace {

namespace hb = candor::halide_bridge;

const candor::models::halide::MachineDescription& machine() {
  static const auto m = candor::models::halide::load_or_calibrate(candor::models::halide::default_machine_path());
  return m;
}

class AnytimeSearch : public ::testing::TestWithParam<std::string> {};

TEST_P(AnytimeSearch, SpendsItsBudgetAndOffersDifferentSchedulesThatVerify) {
  const hb::App* app = candor::apps::find_app(GetParam());
  ASSERT_NE(app, nullptr);
  const Halide::Target target = hb::host_target();
  hb::KernelDescription kd = hb::describe_app(app->build(), target);

  candor::scheduler::ScheduleRequest request;  // the default search
  // A greedy dive on harris takes 0.8 s on a 2-core Zen 4: 3 s left room for 2 of the 4.
  request.budget.seconds = 6;
  request.budget.keep_top = 4;
  candor::scheduler::ScheduleOutcome outcome = candor::scheduler::schedule_kernel(kd, machine(), request);
  if (!outcome.optimal) {
    EXPECT_GE(outcome.stats.seconds, 0.8 * request.budget.seconds);
  }
  EXPECT_LT(outcome.stats.seconds, request.budget.seconds + 1.0);
  ASSERT_EQ(outcome.candidates.size(), 4u);

  hb::Outputs reference = hb::reference_outputs(*app, target);
  hb::RunOptions options;
  options.warmup_runs = 0;
  options.timed_runs = 1;
  for (size_t i = 0; i < outcome.candidates.size(); ++i) {
    const auto& c = outcome.candidates[i];
    if (i > 0) {
      EXPECT_LE(outcome.candidates[i - 1].predicted_seconds, c.predicted_seconds);
    }
    for (size_t j = 0; j < i; ++j) {
      // Different candidates (candor::alike) may still print alike: not the same schedule.
      EXPECT_FALSE(outcome.candidates[j].schedule == c.schedule)
          << j << " and " << i << "\n" << hb::print_schedule(c.schedule, kd);
    }
    hb::EvalResult result = hb::evaluate_schedule(*app, c.schedule, kd, reference, target, options);
    EXPECT_TRUE(result.ok) << i << ": " << result.failed_step << ": " << result.error << "\n"
                           << hb::print_schedule(c.schedule, kd);
  }
}

INSTANTIATE_TEST_SUITE_P(Apps, AnytimeSearch, ::testing::Values("unsharp_mask", "harris", "box_blur"),
                         [](const auto& info) { return info.param; });

}  // namespace
