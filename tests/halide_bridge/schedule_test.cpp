// The schedule representation: JSON round trip, applied and printed from one directive
// list, validation of CPU and GPU rules.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "compile.h"
#include "directives.h"
#include "random_schedule.h"
#include "test_pipelines.h"
#include "validate.h"

namespace candor::halide_bridge {
namespace {

using testing::blur_app;
using testing::matmul_app;
using testing::splat_app;

// A tiled, vectorized, parallel blur with blur_x computed per tile and stored per strip.
Schedule tiled_blur() {
  Schedule s;
  FuncSchedule& y = s.funcs["blur_y"];
  StageSchedule st;
  st.splits = {make_split("x", 8), make_split("y", 4)};
  st.order = {"x_i", "y_i", "x_o", "y_o"};
  st.annotations = {{"x_i", LoopAnnotation::Vectorized}, {"y_o", LoopAnnotation::Parallel}};
  y.stages = {st};
  FuncSchedule& x = s.funcs["blur_x"];
  x.compute = Location::at("blur_y", 0, "x_o");
  x.store = Location::at("blur_y", 0, "x_o");
  StageSchedule xs;
  xs.splits = {make_split("x", 4)};
  xs.annotations = {{"x_i", LoopAnnotation::Vectorized}};
  x.stages = {xs};
  s.funcs["in_clamped"].compute = Location::inlined();
  return s;
}

TEST(Schedule, JsonRoundTrip) {
  Schedule s = tiled_blur();
  s.funcs["blur_x"].memory = Halide::MemoryType::Stack;
  s.funcs["blur_x"].stages[0].splits[0].tail = Halide::TailStrategy::GuardWithIf;
  nlohmann::json j = s;
  Schedule back = nlohmann::json::parse(j.dump()).get<Schedule>();
  EXPECT_EQ(back, s);
  EXPECT_EQ(j["funcs"]["blur_x"]["compute"]["var"], "x_o");
  EXPECT_EQ(j["funcs"]["in_clamped"]["compute"], "inline");
  EXPECT_THROW(nlohmann::json::parse(R"({"funcs": {"f": {"compute": "nowhere"}}})").get<Schedule>(), BridgeError);
}

TEST(Schedule, PrintedSourceShowsEveryDirective) {
  AppInstance inst = blur_app(32, 16).build();
  KernelDescription kd = describe_app(inst, host_target());
  const std::string src = print_schedule(tiled_blur(), kd);
  for (const char* line : {"Halide::Func blur_y = funcs.at(\"blur_y\");",
                           "blur_y.split(x, x_o, x_i, 8, Halide::TailStrategy::Auto);",
                           "blur_y.reorder(x_i, y_i, x_o, y_o);", "blur_y.vectorize(x_i);",
                           "blur_y.parallel(y_o);", "blur_x.compute_at(blur_y, x_o);",
                           "blur_x.store_at(blur_y, x_o);", "in_clamped.compute_inline();"})
    EXPECT_NE(src.find(line), std::string::npos) << line << "\nin\n" << src;
  // One statement per directive: the printout is the directive list.
  const auto directives = lower(tiled_blur(), kd);
  size_t statements = 0;
  for (const Directive& d : directives) statements += src.find(print_directive(d)) != std::string::npos;
  EXPECT_EQ(statements, directives.size());
}

TEST(Schedule, AppliedScheduleReachesHalide) {
  AppInstance inst = blur_app(32, 16).build();
  KernelDescription kd = describe_app(inst, host_target());
  apply_schedule(tiled_blur(), kd, inst.outputs);
  auto funcs = pipeline_funcs(inst.outputs);
  Halide::LoopLevel at = funcs.at("blur_x").function().schedule().compute_level();
  at.lock();
  EXPECT_EQ(at.func(), funcs.at("blur_y").name());
  EXPECT_EQ(at.var().name(), "x_o");
  // blur_y's loops, innermost first, as Halide now has them.
  std::vector<std::string> dims;
  for (const auto& d : funcs.at("blur_y").function().definition().schedule().dims()) dims.push_back(d.var);
  EXPECT_EQ(dims, (std::vector<std::string>{"x.x_i", "y.y_i", "x.x_o", "y.y_o", "__outermost"}));
  Halide::LoopLevel inl = funcs.at("in_clamped").function().schedule().compute_level();
  inl.lock();
  EXPECT_TRUE(inl.is_inlined());
}

TEST(Schedule, SchedulesApplyToFreshInstancesDespiteHalideRenaming) {
  // Every build gets new Halide names ("blur_x$3"); canonical names stay the same.
  const App app = matmul_app(8);
  AppInstance first = app.build();
  KernelDescription kd = describe_app(first, host_target());
  AppInstance second = app.build();
  EXPECT_NE(second.outputs[0].name(), first.outputs[0].name());
  KernelDescription kd2 = describe_app(second, host_target());
  EXPECT_EQ(nlohmann::json(kd2.funcs[0].stages).dump(), nlohmann::json(kd.funcs[0].stages).dump());
  Schedule s = root_schedule(kd);
  StageSchedule upd;
  upd.splits = {make_split("k_x", 4)};  // the RDom variable "k$x"
  upd.annotations = {{"i", LoopAnnotation::Parallel}};
  s.funcs["prod"].stages = {StageSchedule{}, upd};
  EXPECT_NO_THROW(apply_schedule(s, kd, second.outputs));
}

// A zero-dimensional Func (a total) has a stage without loops: the reference schedule
// computes it at the root, and the pipeline compiles and runs.
TEST(Schedule, AFuncWithoutLoopsIsScheduledAtTheRoot) {
  Halide::ImageParam in(Halide::Float(32), 1, "zd_in");
  in.set_estimates({{0, 64}});
  Halide::Var x("x");
  Halide::RDom r(0, 64);
  Halide::Func total("zd_total"), out("zd_out");
  total() = 0.0f;
  total() += in(r);
  out(x) = in(x) / total();
  out.set_estimates({{0, 64}});
  const KernelDescription kd = describe_pipeline(Halide::Pipeline(out), host_target());
  EXPECT_TRUE(kd.func("zd_total").stages.at(0).loops.empty());
  const Schedule s = reference_schedule(kd);
  EXPECT_EQ(s.funcs.at("zd_total").compute.kind, Location::Kind::Root);
  std::vector<Halide::Func> outputs = {out};
  EXPECT_NO_THROW(apply_schedule(s, kd, outputs));
  EXPECT_FALSE(print_schedule(s, kd).empty());
}

// The CPU space unrolls a band of a few vectors: the outer loop of a split of a split's inner
// loop. That loop has a constant extent; the outer loop of a split of the whole image has not.
TEST(Validate, OuterLoopsOfSplitsOfConstantLoopsHaveConstantExtents) {
  KernelDescription kd = describe_app(blur_app(64, 16).build(), host_target());
  const StageInfo& stage = kd.func("blur_y").stages.at(0);
  StageSchedule st;
  st.splits = {make_split("x", 16), make_split("x_i", 8)};
  const auto loops = scheduled_loops(stage, st);
  auto loop = [&](const std::string& var) {
    return *std::find_if(loops.begin(), loops.end(), [&](const ScheduledLoop& l) { return l.var == var; });
  };
  EXPECT_TRUE(loop("x_i_i").constant_extent);
  EXPECT_TRUE(loop("x_i_o").constant_extent);
  EXPECT_EQ(loop("x_i_o").extent, 2);
  EXPECT_FALSE(loop("x_o").constant_extent);

  Schedule s = root_schedule(kd);
  st.annotations = {{"x_i_i", LoopAnnotation::Vectorized}, {"x_i_o", LoopAnnotation::Unrolled}};
  s.funcs["blur_y"].stages = {st};
  EXPECT_TRUE(schedule_problems(s, kd, host_target()).empty());
  s.funcs["blur_y"].stages[0].annotations["x_o"] = LoopAnnotation::Unrolled;
  const auto problems = schedule_problems(s, kd, host_target());
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("loop 'x_o' is unrolled but its extent is not a constant"), std::string::npos)
      << problems[0];
}

TEST(Validate, RejectsIllegalCpuSchedules) {
  KernelDescription kd = describe_app(matmul_app(8).build(), host_target());
  Schedule s = root_schedule(kd);
  s.funcs["prod"].compute = Location::inlined();  // has an update definition
  StageSchedule upd;
  upd.annotations = {{"k_x", LoopAnnotation::Parallel}};  // a serial reduction loop
  s.funcs["prod"].stages = {StageSchedule{}, upd};
  auto problems = schedule_problems(s, kd, host_target());
  ASSERT_EQ(problems.size(), 3u);
  EXPECT_NE(problems[0].find("'prod' cannot be inlined"), std::string::npos) << problems[0];
  EXPECT_NE(problems[1].find("'prod' is inlined, so it cannot have loop schedules"), std::string::npos) << problems[1];
  EXPECT_NE(problems[2].find("stage prod.update(0): loop 'k_x' runs a reduction in order"), std::string::npos)
      << problems[2];

  Schedule v = root_schedule(kd);
  StageSchedule st;
  st.annotations = {{"i", LoopAnnotation::Vectorized}};  // extent is not a constant
  v.funcs["C"].stages = {st};
  EXPECT_THROW(validate_schedule(v, kd, host_target()), BridgeError);
  Schedule unknown = root_schedule(kd);
  unknown.funcs["nope"].compute = Location::root();
  problems = schedule_problems(unknown, kd, host_target());
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("'nope', which is not in the pipeline"), std::string::npos);
}

// Halide 14 slides a window wrongly across two loops split from one dimension (random
// schedules of box_blur and non_local_means computed wrong outputs): blur_x computed per
// y strip of blur_y may be stored outside one x loop, not outside both.
TEST(Validate, WindowsSlideAcrossOneLoopPerDimension) {
  KernelDescription kd = describe_app(blur_app().build(), host_target());
  auto with_store = [&](const Location& store) {
    Schedule s = tiled_blur();
    StageSchedule& y = s.funcs["blur_y"].stages[0];
    y.splits.push_back(make_split("x_o", 2));
    y.order = {"x_i", "y_i", "x_o_i", "x_o_o", "y_o"};
    y.annotations.erase("y_o");  // serial: a window shared by the strips
    s.funcs["blur_x"].compute = Location::at("blur_y", 0, "y_i");
    s.funcs["blur_x"].store = store;
    return schedule_problems(s, kd, host_target());
  };
  EXPECT_TRUE(with_store(Location::at("blur_y", 0, "x_o_i")).empty());
  const auto problems = with_store(Location::at("blur_y", 0, "y_o"));
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("stored outside loop 'x_o_o'"), std::string::npos) << problems[0];
}

// Halide 14 rounds an update's split up without computing its producers over the rounded
// region; at data-dependent addresses the extra points store outside the buffer
// (bilateral_grid segfaulted), so only guarded tails are valid there.
TEST(Validate, UpdateAtDataDependentAddressesGuardsItsTails) {
  KernelDescription kd = describe_app(splat_app().build(), host_target());
  Schedule s = root_schedule(kd);
  StageSchedule upd;
  upd.splits = {make_split("y", 3), make_split("x", 2, Halide::TailStrategy::GuardWithIf)};
  upd.order = {"x_i", "y_i", "r_x", "r_y", "x_o", "y_o"};
  s.funcs["hist"].stages = {StageSchedule{}, upd};
  auto problems = schedule_problems(s, kd, host_target());
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("stage hist.update(0): it stores or loads at non-affine addresses, so split 'y' "
                             "must use TailStrategy::GuardWithIf"),
            std::string::npos)
      << problems[0];
  s.funcs["hist"].stages[1].splits[0].tail = Halide::TailStrategy::GuardWithIf;
  EXPECT_TRUE(schedule_problems(s, kd, host_target()).empty());

  // matmul's update reads and stores at affine addresses: its splits may round up.
  KernelDescription mm = describe_app(matmul_app(8).build(), host_target());
  Schedule m = root_schedule(mm);
  StageSchedule mupd;
  mupd.splits = {make_split("i", 4)};
  m.funcs["prod"].stages = {StageSchedule{}, mupd};
  EXPECT_TRUE(schedule_problems(m, mm, host_target()).empty());
}

// A GPU schedule for blur_y with `tx` x `ty` threads per block.
Schedule gpu_blur(int tx, int ty) {
  Schedule s;
  StageSchedule st;
  st.splits = {make_split("x", tx, Halide::TailStrategy::GuardWithIf), make_split("y", ty, Halide::TailStrategy::GuardWithIf)};
  st.order = {"x_i", "y_i", "x_o", "y_o"};
  st.annotations = {{"x_i", LoopAnnotation::GpuThread}, {"y_i", LoopAnnotation::GpuThread},
                    {"x_o", LoopAnnotation::GpuBlock}, {"y_o", LoopAnnotation::GpuBlock}};
  s.funcs["blur_y"].stages = {st};
  s.funcs["blur_x"].compute = Location::at("blur_y", 0, "x_o");
  s.funcs["blur_x"].memory = Halide::MemoryType::GPUShared;
  StageSchedule xs;
  xs.splits = {make_split("x", tx, Halide::TailStrategy::GuardWithIf)};
  xs.annotations = {{"x_i", LoopAnnotation::GpuThread}};
  s.funcs["blur_x"].stages = {xs};
  return s;
}

TEST(Validate, RejectsTooManyGpuThreadsPerBlock) {
  KernelDescription kd = describe_app(blur_app(256, 256).build(), cuda_target());
  EXPECT_TRUE(schedule_problems(gpu_blur(32, 32), kd, cuda_target()).empty());
  auto problems = schedule_problems(gpu_blur(64, 32), kd, cuda_target());
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0], "stage blur_y: 64 x 32 = 2048 GPU threads per block exceeds the limit of 1024");
  try {
    validate_schedule(gpu_blur(64, 32), kd, cuda_target());
    FAIL() << "expected BridgeError";
  } catch (const BridgeError& e) {
    EXPECT_NE(std::string(e.what()).find("2048 GPU threads per block"), std::string::npos);
  }
}

TEST(Validate, RejectsBadGpuNestingAndSharedMemory) {
  KernelDescription kd = describe_app(blur_app(256, 256).build(), cuda_target());
  Schedule s = gpu_blur(16, 16);
  s.funcs["blur_y"].stages[0].order = {"x_o", "y_i", "x_i", "y_o"};  // a thread loop outside a block loop
  auto problems = schedule_problems(s, kd, cuda_target());
  auto has = [&](const std::string& m) {
    return std::any_of(problems.begin(), problems.end(), [&](const std::string& p) { return p.find(m) != std::string::npos; });
  };
  EXPECT_TRUE(has("stage blur_y: GPU thread loop 'x_i' is outside GPU block loop 'x_o'"));
  // blur_x is computed at x_o, now inside blur_y's thread loops, and has thread loops itself.
  EXPECT_TRUE(has("stage blur_x: GPU thread loops nested inside a consumer's GPU thread loop"));

  // Tiles of 256 x 4 need about (256 + 0) x (4 + 2) floats of blur_x per block: 6 KiB.
  Schedule big = gpu_blur(256, 4);
  EXPECT_EQ(estimated_allocation_bytes(big, kd, "blur_x"), 256 * 6 * 4);
  GpuLimits tight;
  tight.max_shared_bytes = 4096;
  problems = schedule_problems(big, kd, cuda_target(), tight);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("shared memory"), std::string::npos) << problems[0];
  EXPECT_TRUE(schedule_problems(big, kd, cuda_target()).empty());

  // GPU loops make no sense on a CPU target.
  EXPECT_FALSE(schedule_problems(gpu_blur(16, 16), kd, host_target()).empty());
}

TEST(RandomSchedule, ReproducibleFromTheSeedAndVaried) {
  KernelDescription kd = describe_app(blur_app(64, 48).build(), host_target());
  EXPECT_EQ(random_cpu_schedule(kd, 7), random_cpu_schedule(kd, 7));
  std::set<std::string> distinct;
  std::set<std::string> locations;
  for (uint64_t seed = 0; seed < 40; ++seed) {
    Schedule s = random_cpu_schedule(kd, seed);
    EXPECT_TRUE(schedule_problems(s, kd, host_target()).empty());
    distinct.insert(nlohmann::json(s).dump());
    const Location& l = s.funcs.at("blur_x").compute;
    locations.insert(l.kind == Location::Kind::Inline ? "inline" : l.kind == Location::Kind::Root ? "root" : "at");
  }
  EXPECT_GT(distinct.size(), 35u);
  EXPECT_EQ(locations, (std::set<std::string>{"inline", "root", "at"}));
}

TEST(RandomSchedule, GpuSchedulesAreValidForCuda) {
  KernelDescription kd = describe_app(blur_app(128, 128).build(), cuda_target());
  for (uint64_t seed = 0; seed < 20; ++seed) {
    Schedule s = random_gpu_schedule(kd, seed, cuda_target());
    EXPECT_TRUE(schedule_problems(s, kd, cuda_target()).empty()) << seed;
    bool has_threads = false;
    for (const auto& st : s.funcs.at("blur_y").stages)
      for (const auto& [v, a] : st.annotations) has_threads |= a == LoopAnnotation::GpuThread;
    EXPECT_TRUE(has_threads) << "the output must run on the GPU (seed " << seed << ")";
  }
}

}  // namespace
}  // namespace candor::halide_bridge
