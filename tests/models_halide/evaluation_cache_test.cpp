// The analytic model's evaluation cache (EvaluationCache) is an optimisation only: over the
// candidates a search meets (every prefix of random dives, in the order a dive makes them),
// a cached evaluation prices every stage exactly as a fresh one, whatever the cache holds
// from earlier candidates, other kernels or another model.
#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <vector>

#include "analytic_model.h"
#include "apps.h"
#include "compile.h"
#include "halide_cpu_space.h"
#include "random_pipelines.h"
#include "tests/machines/recorded_machines.h"

namespace {

namespace hb = candor::halide_bridge;
namespace mh = candor::models::halide;

// The views of `dives` random dives of the space, each candidate after every decision.
std::vector<mh::ScheduleView> dive_views(const candor::HalideCpuSpace& space, int dives, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<mh::ScheduleView> views;
  for (int d = 0; d < dives; ++d) {
    std::optional<candor::Candidate> c = space.root();
    if (c) views.push_back(space.view(*c));
    for (int var : space.decision_order()) {
      while (c && !space.is_fixed(*c, var)) {
        const std::vector<int> values = space.values(*c, var);
        candor::Candidate next = *c;
        if (space.fix(next, var, values[rng() % values.size()])) {
          *c = next;
          views.push_back(space.view(*c));
        } else if (!space.remove(*c, var, values.front())) {
          c.reset();
        }
      }
    }
  }
  return views;
}

void expect_same(const mh::Prediction& fresh, const mh::Prediction& cached, size_t view) {
  EXPECT_EQ(fresh.seconds, cached.seconds) << "view " << view;
  ASSERT_EQ(fresh.stages.size(), cached.stages.size()) << "view " << view;
  for (size_t s = 0; s < fresh.stages.size(); ++s) {
    EXPECT_EQ(fresh.stages[s].func, cached.stages[s].func);
    EXPECT_EQ(fresh.stages[s].total_s, cached.stages[s].total_s) << "view " << view << " " << fresh.stages[s].func;
    EXPECT_EQ(fresh.stages[s].load_s, cached.stages[s].load_s) << "view " << view << " " << fresh.stages[s].func;
    EXPECT_EQ(fresh.stages[s].compute_s, cached.stages[s].compute_s) << "view " << view << " " << fresh.stages[s].func;
  }
}

hb::KernelDescription describe(const hb::App& app) { return hb::describe_app(app.build(), hb::host_target()); }

TEST(EvaluationCache, CachedEvaluationsEqualFreshOnes) {
  const mh::AnalyticModel model(candor::testing::recorded_machine_for_host());
  std::vector<hb::KernelDescription> kernels;
  for (const char* name : {"unsharp_mask", "local_laplacian", "bilateral_grid"})
    kernels.push_back(describe(*candor::apps::find_app(name)));
  for (uint64_t seed : {2, 5})
    kernels.push_back(describe(candor::models::random_pipelines::random_pipeline(seed)));
  mh::EvaluationCache cache;  // one for all the kernels, in turn
  for (const hb::KernelDescription& kd : kernels) {
    const candor::HalideCpuSpace space(kd);
    const std::vector<mh::ScheduleView> views = dive_views(space, 3, kd.funcs.size());
    ASSERT_GT(views.size(), 10u);
    for (size_t i = 0; i < views.size(); ++i) expect_same(model.explain(kd, views[i]), model.explain(kd, views[i], cache), i);
    // Again, the cache now holding every one of them.
    for (size_t i = 0; i < views.size(); i += 7) expect_same(model.explain(kd, views[i]), model.explain(kd, views[i], cache), i);
  }
}

TEST(EvaluationCache, AnotherModelStartsAfresh) {
  const hb::KernelDescription kd = describe(*candor::apps::find_app("unsharp_mask"));
  const candor::HalideCpuSpace space(kd);
  const auto machines = candor::testing::recorded_machines();
  ASSERT_GE(machines.size(), 2u);
  const mh::AnalyticModel first(machines.begin()->second), second(std::next(machines.begin())->second);
  const std::vector<mh::ScheduleView> views = dive_views(space, 1, 9);
  mh::EvaluationCache cache;
  for (size_t i = 0; i < views.size(); ++i) {
    expect_same(first.explain(kd, views[i]), first.explain(kd, views[i], cache), i);
    expect_same(second.explain(kd, views[i]), second.explain(kd, views[i], cache), i);
  }
}

}  // namespace
