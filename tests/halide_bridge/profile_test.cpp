// Halide's profiler, read Func by Func (profile.h).
#include <gtest/gtest.h>

#include "profile.h"

namespace {

namespace hb = candor::halide_bridge;

// Two Funcs at the root: `heavy` evaluates a long chain of transcendentals per point,
// `light` copies it; the profile names both and gives `heavy` the larger share.
TEST(Profile, AttributesTimeToEachRootFunc) {
  Halide::Var x("x"), y("y");
  Halide::Func heavy("heavy"), light("light");
  Halide::Expr e = Halide::cast<float>(x + y);
  for (int i = 0; i < 24; ++i) e = Halide::sin(e) * 1.01f + Halide::cos(e);
  heavy(x, y) = e;
  light(x, y) = heavy(x, y) + 1.0f;
  heavy.compute_root();
  hb::AppInstance inst;
  inst.outputs = {light};
  inst.output_sizes = {{1024, 512}};
  const hb::FuncProfile p = hb::profile_instance(inst, Halide::get_jit_target_from_environment(), 5);
  EXPECT_EQ(p.runs, 5);
  EXPECT_GT(p.samples, 0);
  EXPECT_GT(p.total_ms, 0);
  ASSERT_TRUE(p.func_ms.count("heavy"));
  ASSERT_TRUE(p.func_ms.count("light"));
  EXPECT_GT(p.func_ms.at("heavy"), p.func_ms.at("light"));
}

}  // namespace
