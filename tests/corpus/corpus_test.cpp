// The held-out corpus (bench/corpus): every generator's hand-written schedule and the
// schedule candor emits for it compile and match the reference; collection refuses it.
#include <gtest/gtest.h>

#include "corpus.h"
#include "halide_bridge/compile.h"
#include "halide_bridge/directives.h"
#include "models/halide/machine.h"
#include "pipelines.h"
#include "scheduler.h"

namespace {

namespace hb = candor::halide_bridge;

const candor::models::halide::MachineDescription& machine() {
  static const auto m = candor::models::halide::load_or_calibrate(candor::models::halide::default_machine_path());
  return m;
}

TEST(Corpus, HoldsTwentyDescribedGeneratorsNoneAnExampleAppOrForTraining) {
  const auto& apps = candor::corpus::all_apps();
  EXPECT_GE(apps.size(), 20u);
  for (const hb::App& app : apps) {
    EXPECT_FALSE(app.description.empty()) << app.name;
    EXPECT_TRUE(candor::collect::find_pipeline(app.name).has_value()) << app.name;
    EXPECT_FALSE(candor::collect::find_training_pipeline(app.name).has_value()) << app.name;
  }
  EXPECT_TRUE(candor::collect::find_training_pipeline("unsharp_mask").has_value());
}

class CorpusApps : public ::testing::TestWithParam<std::string> {};

TEST_P(CorpusApps, HandAndCandorSchedulesMatchTheReference) {
  const hb::App* app = candor::corpus::find_app(GetParam());
  ASSERT_NE(app, nullptr);
  const Halide::Target target = hb::host_target();
  const hb::Outputs reference = hb::reference_outputs(*app, target);
  hb::RunOptions once;
  once.warmup_runs = 0;
  once.timed_runs = 1;

  hb::AppInstance hand = app->build();
  hand.apply_expert_schedule(target);
  const hb::EvalResult by_hand = hb::evaluate_instance(hand, reference, target, once);
  EXPECT_TRUE(by_hand.ok) << "hand-written: " << by_hand.failed_step << ": " << by_hand.error;

  const hb::KernelDescription kd = hb::describe_app(app->build(), target);
  candor::scheduler::ScheduleRequest request;
  // Enough nodes for the beam to complete a schedule of pyramid_blend's 40-odd Funcs.
  request.budget.seconds = 3;
  request.budget.max_expanded = 3000;
  const candor::scheduler::ScheduleOutcome outcome = candor::scheduler::schedule_kernel(kd, machine(), request);
  ASSERT_FALSE(outcome.candidates.empty());
  const hb::Schedule& best = outcome.candidates.front().schedule;
  const hb::EvalResult by_candor = hb::evaluate_schedule(*app, best, kd, reference, target, once);
  EXPECT_TRUE(by_candor.ok) << "candor: " << by_candor.failed_step << ": " << by_candor.error << "\n"
                            << hb::print_schedule(best, kd);
}

std::vector<std::string> corpus_names() {
  std::vector<std::string> names;
  for (const hb::App& app : candor::corpus::all_apps()) names.push_back(app.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusApps, ::testing::ValuesIn(corpus_names()),
                         [](const auto& info) { return info.param; });

}  // namespace
