// Every example app: the expert schedule's output equals the unscheduled reference's
// (exactly for integer outputs, within kFloatTolerance for float ones: see app_check.cpp),
// and every app's instance is well formed (estimates, unique names, bound inputs).
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "app_check.h"
#include "apps.h"
#include "halide_bridge/compile.h"

namespace {

using namespace Halide;
using candor::halide_bridge::App;
using candor::halide_bridge::AppInstance;

std::vector<std::string> app_names() {
  std::vector<std::string> names;
  for (const App& app : candor::apps::all_apps()) names.push_back(app.name);
  return names;
}

class AppTest : public ::testing::TestWithParam<std::string> {};

TEST_P(AppTest, ExpertMatchesReference) {
  const App* app = candor::apps::find_app(GetParam());
  ASSERT_NE(app, nullptr);
  const Target target = candor::halide_bridge::host_target();

  AppInstance naive = app->build();
  Pipeline naive_p = naive.pipeline();
  std::vector<Buffer<>> reference = candor::apps::check::realize(naive_p, naive, target);

  AppInstance expert = app->build();
  ASSERT_TRUE(expert.apply_expert_schedule);
  expert.apply_expert_schedule(target);
  Pipeline expert_p = expert.pipeline();
  std::vector<Buffer<>> out = candor::apps::check::realize(expert_p, expert, target);

  ASSERT_EQ(reference.size(), out.size());
  for (size_t i = 0; i < out.size(); i++) {
    auto c = candor::apps::check::compare(reference[i], out[i], candor::apps::check::kFloatTolerance);
    EXPECT_TRUE(c.same_shape) << "output " << i;
    EXPECT_EQ(c.mismatches, 0) << "output " << i << ": first mismatch " << c.first_mismatch
                               << ", max abs diff " << c.max_abs_diff;
  }
}

TEST_P(AppTest, InstanceIsWellFormed) {
  const App* app = candor::apps::find_app(GetParam());
  ASSERT_NE(app, nullptr);
  EXPECT_FALSE(app->description.empty());
  AppInstance inst = app->build();

  // Outputs: registered, with an estimate on every dimension and a size to realize at.
  ASSERT_FALSE(inst.outputs.empty());
  ASSERT_EQ(inst.outputs.size(), inst.output_sizes.size());
  for (size_t i = 0; i < inst.outputs.size(); i++) {
    const Func& out = inst.outputs[i];
    ASSERT_TRUE(inst.funcs.count(out.name().substr(0, out.name().find('$')))) << out.name();
    EXPECT_EQ(static_cast<int>(inst.output_sizes[i].size()), out.dimensions()) << out.name();
    const auto& estimates = out.function().schedule().estimates();
    std::set<std::string> estimated;
    for (const auto& b : estimates) {
      if (b.min.defined() && b.extent.defined()) estimated.insert(b.var);
    }
    for (const Var& v : out.args()) EXPECT_TRUE(estimated.count(v.name())) << out.name() << "." << v.name();
  }

  // Funcs: keyed by readable names: the Func's own name up to the '$N' suffix Halide 14
  // appends to a name already used in this process (each build() makes new Funcs).
  std::set<std::string> registered;
  for (const auto& [name, f] : inst.funcs) {
    EXPECT_EQ(name, f.name().substr(0, f.name().find('$')));
    EXPECT_FALSE(name.empty());
    EXPECT_TRUE(f.defined()) << name;
    registered.insert(f.name());
  }
  // Every Func the pipeline reaches is registered (nothing hidden, e.g. by an inline
  // reduction or a BoundaryConditions helper).
  for (const Func& out : inst.outputs) {
    for (const auto& [name, fn] : Internal::find_transitive_calls(out.function())) {
      // An ImageParam is called through a Func "<param>_im[$N]".
      bool is_input = false;
      for (const ImageParam& in : inst.inputs) is_input |= name.rfind(in.name() + "_im", 0) == 0;
      if (is_input) continue;
      EXPECT_TRUE(registered.count(name)) << "unregistered Func " << name;
    }
  }

  // Inputs: bound to buffers, with estimates on every dimension.
  ASSERT_FALSE(inst.inputs.empty());
  for (const ImageParam& in : inst.inputs) {
    EXPECT_TRUE(in.get().defined()) << in.name();
    const Internal::Parameter& p = in.parameter();
    for (int d = 0; d < in.dimensions(); d++) {
      EXPECT_TRUE(p.min_constraint_estimate(d).defined()) << in.name() << " dim " << d;
      EXPECT_TRUE(p.extent_constraint_estimate(d).defined()) << in.name() << " dim " << d;
    }
  }
  // Scalar params: estimate set.
  for (const Internal::Parameter& p : inst.scalar_params) {
    EXPECT_TRUE(p.estimate().defined()) << p.name();
  }
}

INSTANTIATE_TEST_SUITE_P(Apps, AppTest, ::testing::ValuesIn(app_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

TEST(AppRegistry, SortedUniqueAndFindable) {
  const auto& apps = candor::apps::all_apps();
  EXPECT_FALSE(apps.empty());
  for (size_t i = 1; i < apps.size(); i++) EXPECT_LT(apps[i - 1].name, apps[i].name);
  for (const App& app : apps) EXPECT_EQ(candor::apps::find_app(app.name), &app);
  EXPECT_EQ(candor::apps::find_app("no_such_app"), nullptr);
}

}  // namespace
