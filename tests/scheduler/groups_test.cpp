// A large pipeline searched group by group: the groups cut the topological order, each
// group is a pipeline of its own (earlier groups' Funcs as inputs, what later groups read as
// outputs), and the joined schedule is valid, compiles and matches the reference.
#include <gtest/gtest.h>

#include <limits>
#include <set>

#include "apps.h"
#include "groups.h"
#include "halide_bridge/compile.h"
#include "halide_bridge/validate.h"
#include "machines/recorded_machines.h"

namespace candor::scheduler {
namespace {

namespace hb = halide_bridge;

TEST(Groups, CutTheTopologicalOrderAndKeepInputAliasesWithTheirReaders) {
  const hb::App* app = apps::find_app("local_laplacian");
  ASSERT_NE(app, nullptr);
  const hb::KernelDescription kd = hb::describe_app(app->build(), hb::host_target());
  const auto groups = func_groups(kd, 5);
  ASSERT_GT(groups.size(), 2u);
  std::set<int> seen;
  int last = -1;
  for (const auto& group : groups) {
    int members = 0;
    for (int f : group) {
      if (kd.funcs[f].is_input_alias) continue;
      ++members;
      EXPECT_GT(f, last) << "groups are consecutive in the topological order";
      last = f;
      EXPECT_TRUE(seen.insert(f).second) << kd.funcs[f].name << " is in two groups";
    }
    EXPECT_LE(members, 5);
    const hb::KernelDescription sub = group_kernel(kd, group);
    std::set<std::string> names;
    for (const hb::FuncInfo& f : sub.funcs) names.insert(f.name);
    for (const hb::Edge& e : sub.edges) {
      EXPECT_TRUE(names.count(e.consumer));
      if (e.producer_is_input) {
        EXPECT_NE(sub.find_input(e.producer), nullptr) << e.producer;
      } else {
        EXPECT_TRUE(names.count(e.producer)) << e.producer;
      }
    }
    // What a later group reads is an output of this one, computed at the root.
    for (const hb::FuncInfo& f : sub.funcs)
      for (const hb::Edge* e : kd.edges_from(f.name))
        if (!names.count(e->consumer) && !f.is_input_alias) EXPECT_TRUE(f.is_output) << f.name;
  }
  for (int f = 0; f < static_cast<int>(kd.funcs.size()); ++f)
    if (!kd.funcs[f].is_input_alias) EXPECT_TRUE(seen.count(f)) << kd.funcs[f].name << " is in no group";
}

TEST(Groups, TheJoinedScheduleIsValidAndMatchesTheReference) {
  const hb::App* app = apps::find_app("local_laplacian");
  ASSERT_NE(app, nullptr);
  const Halide::Target target = hb::host_target();
  const hb::KernelDescription kd = hb::describe_app(app->build(), target);
  Budget budget;
  budget.max_expanded = 400;
  budget.keep_top = 2;
  const GroupedOutcome outcome =
      schedule_in_groups(kd, testing::recorded_machine_for_host(), "greedy", budget,
                         std::numeric_limits<double>::infinity(), 6);
  EXPECT_GT(outcome.groups, 2);
  EXPECT_EQ(outcome.groups_at_reference, 0);
  ASSERT_FALSE(outcome.schedules.empty());
  EXPECT_GT(outcome.schedules[0].predicted_seconds, 0);
  EXPECT_LE(outcome.schedules[0].lower_bound_seconds, outcome.schedules[0].predicted_seconds);
  const hb::Outputs reference = hb::reference_outputs(*app, target);
  hb::RunOptions once;
  once.warmup_runs = 0;
  once.timed_runs = 1;
  for (const PricedSchedule& s : outcome.schedules) {
    EXPECT_TRUE(hb::schedule_problems(s.schedule, kd, target).empty());
    const hb::EvalResult r = hb::evaluate_schedule(*app, s.schedule, kd, reference, target, once);
    EXPECT_TRUE(r.ok) << r.failed_step << ": " << r.error;
  }
}

}  // namespace
}  // namespace candor::scheduler
