// Compile, verify, benchmark; AOT for CUDA.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <numeric>
#include <set>
#include <sstream>
#include <thread>

#include "compile.h"
#include "directives.h"
#include "pipeline_app.h"
#include "random_schedule.h"
#include "test_pipelines.h"
#include "timing_lock.h"
#include "validate.h"

namespace candor::halide_bridge {
namespace {

using testing::blur_app;
using testing::diamond_app;
using testing::matmul_app;

std::string temp_dir(const std::string& name) {
  auto d = std::filesystem::temp_directory_path() / ("candor_bridge_test_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(d);
  return d.string();
}

TEST(Verify, ExactForIntegersToleranceForFloats) {
  Halide::Buffer<int32_t> a(4, 3), b(4, 3);
  a.fill(7);
  b.fill(7);
  EXPECT_TRUE(compare_outputs({a}, {b}).ok);
  b(2, 1) = 8;
  Comparison c = compare_outputs({a}, {b});
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.message, "output 0 differs at (2, 1): got 7, reference 8");

  Halide::Buffer<float> f(5), g(5);
  f.fill(100.0f);
  g.fill(100.0f);
  f(3) = 100.0f * (1 + 5e-5f);  // within rel 1e-4
  EXPECT_TRUE(compare_outputs({f}, {g}).ok);
  f(3) = 100.0f * (1 + 5e-3f);
  EXPECT_FALSE(compare_outputs({f}, {g}).ok);
  Halide::Buffer<float> h(4, 4);
  EXPECT_FALSE(compare_outputs({h}, {g}).ok);  // shape
}

// Integers computed through floats may differ by one (a float-to-int conversion rounds
// the other way after FMA contraction or another evaluation order); other integers must
// match exactly. The comparison reports the largest difference it accepted.
TEST(Verify, IntegersComputedThroughFloatsWithinOne) {
  Halide::Buffer<uint8_t> a(4, 3), b(4, 3);
  a.fill(41);
  b.fill(41);
  b(1, 2) = 42;
  Tolerance slack;
  slack.integer_slack = 1;
  const Comparison within = compare_outputs({a}, {b}, slack);
  EXPECT_TRUE(within.ok) << within.message;
  EXPECT_EQ(within.max_abs_error, 1);
  EXPECT_FALSE(compare_outputs({a}, {b}).ok);
  b(1, 2) = 43;
  const Comparison beyond = compare_outputs({a}, {b}, slack);
  EXPECT_FALSE(beyond.ok);
  EXPECT_EQ(beyond.message, "output 0 differs at (1, 2): got 41, reference 43 (tolerance 1)");

  Halide::ImageParam in(Halide::UInt(8), 1, "tf_in");
  Halide::Var x("x");
  Halide::Func through_float("tf_float"), integer("tf_int");
  through_float(x) = Halide::cast<uint8_t>(Halide::cast<float>(in(x)) * 0.5f + 0.5f);
  integer(x) = in(x) / 2;
  in.set_estimates({{0, 64}});
  through_float.set_estimates({{0, 64}});
  integer.set_estimates({{0, 64}});
  const Halide::Target target = host_target();
  EXPECT_EQ(tolerance_for(describe_pipeline(Halide::Pipeline(through_float), target)).integer_slack, 1);
  EXPECT_EQ(tolerance_for(describe_pipeline(Halide::Pipeline(integer), target)).integer_slack, 0);
}

TEST(Verify, OutputsSurviveAFile) {
  Halide::Buffer<float> f(5, 3);
  Halide::Buffer<int16_t> g(7);
  f.set_min(std::vector<int>{2, -1});
  for (int y = -1; y < 2; ++y)
    for (int x = 2; x < 7; ++x) f(x, y) = float(x * 10 + y) / 3;
  for (int x = 0; x < 7; ++x) g(x) = int16_t(-x * 1000);
  const std::string path = temp_dir("outputs") + ".outputs";
  save_outputs({f, g}, path);
  const Outputs back = load_outputs(path);
  ASSERT_EQ(back.size(), 2u);
  const Comparison c = compare_outputs(back, {f, g}, Tolerance{0, 0, 0});
  EXPECT_TRUE(c.ok) << c.message;
  EXPECT_EQ(back[0].dim(0).min(), 2);
  EXPECT_EQ(back[0].dim(1).min(), -1);
  std::ofstream(path) << "candor-outputs 1\n1\n2 32 1 1 0 100\nshort";
  EXPECT_THROW(load_outputs(path), BridgeError);
  std::ofstream(path) << "not outputs";
  EXPECT_THROW(load_outputs(path), BridgeError);
  std::filesystem::remove(path);
}

TEST(Verify, CatchesAWrongOutput) {
  const App app = blur_app(32, 16);
  const Halide::Target target = host_target();
  Outputs ref = reference_outputs(app, target);
  // A different algorithm under the same name: the reference must notice.
  App wrong = app;
  wrong.build = [app] {
    AppInstance inst = app.build();
    Halide::Func out = inst.outputs[0];
    Halide::Var x("x"), y("y");
    Halide::Func shifted("shifted");
    shifted(x, y) = out(x, y) + 0.5f;
    shifted.set_estimates({{0, 32}, {0, 16}});
    inst.outputs = {shifted};
    return inst;
  };
  EvalResult r = evaluate_instance(wrong.build(), ref, target);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.failed_step, "verify");
  EXPECT_NE(r.error.find("differs at (0, 0)"), std::string::npos) << r.error;
}

TEST(Evaluate, ExpertAndRandomSchedulesMatchTheReferenceAndAreTimed) {
  const Halide::Target target = host_target();
  for (const App& app : {blur_app(48, 32), matmul_app(16), diamond_app(40, 24)}) {
    Outputs ref = reference_outputs(app, target);
    AppInstance expert = app.build();
    expert.apply_expert_schedule(target);
    RunOptions opts;
    opts.timed_runs = 3;
    opts.threads = 2;
    EvalResult e = evaluate_instance(expert, ref, target, opts);
    EXPECT_TRUE(e.ok) << app.name << ": " << e.failed_step << ": " << e.error;
    EXPECT_EQ(e.run_ms.size(), 3u);
    EXPECT_GT(e.median_ms, 0);
    const KernelDescription kd = describe_app(app.build(), target);
    for (uint64_t seed = 100; seed < 103; ++seed) {
      EvalResult r = evaluate_schedule(app, random_cpu_schedule(kd, seed), kd, ref, target, opts);
      EXPECT_TRUE(r.ok) << app.name << " seed " << seed << ": " << r.failed_step << ": " << r.error;
    }
  }
}

// A generator's pipeline has no input data: pipeline_app gives it synthetic inputs over the
// region its estimates read and its scalars' estimates, realizes each output over its
// estimate (which need not start at 0), and its schedules verify like an app's.
TEST(PipelineApp, RunsAPipelineWithoutDataOnSyntheticInputs) {
  Halide::ImageParam in(Halide::UInt(8), 2, "pa_in");
  Halide::Param<int> gain("pa_gain");
  Halide::Var x("x"), y("y");
  Halide::Func f("pa_f"), g("pa_g");
  in.set_estimates({{0, 80}, {0, 48}});
  gain.set_estimate(3);
  f(x, y) = Halide::cast<int>(in(x, y)) * gain;
  g(x, y) = f(x, y) + f(x + 1, y);
  g.set_estimates({{2, 64}, {1, 32}});
  const Halide::Pipeline pipeline(g);
  const Halide::Target target = host_target();
  const KernelDescription kd = describe_pipeline(pipeline, target);
  const App app = pipeline_app(pipeline, kd);
  const Outputs ref = reference_outputs(app, target);
  ASSERT_EQ(ref.size(), 1u);
  const Halide::Buffer<int> out = ref[0];
  EXPECT_EQ(out.dim(0).min(), 2);
  EXPECT_EQ(out.dim(0).extent(), 64);
  EXPECT_EQ(out.dim(1).min(), 1);
  EXPECT_EQ(out.dim(1).extent(), 32);
  const Halide::Buffer<uint8_t> input = in.get();
  ASSERT_TRUE(input.defined());
  std::set<int> values;
  for (int yy = 1; yy < 33; ++yy)
    for (int xx = 2; xx < 66; ++xx) {
      ASSERT_EQ(out(xx, yy), 3 * (input(xx, yy) + input(xx + 1, yy))) << xx << ", " << yy;
      values.insert(input(xx, yy));
    }
  EXPECT_GT(values.size(), 100u);  // varied data, not a constant
  for (uint64_t seed = 100; seed < 103; ++seed) {
    const EvalResult r = evaluate_schedule(app, random_cpu_schedule(kd, seed), kd, ref, target);
    EXPECT_TRUE(r.ok) << "seed " << seed << ": " << r.failed_step << ": " << r.error;
  }
}

// An input read at a data-dependent index can be read past its estimate (a bias vector of
// 100 read at a uint8 index): the synthetic input covers what Halide's bounds query says the
// pipeline reads, so the reference runs and schedules verify.
TEST(PipelineApp, SyntheticInputsCoverWhatHalidesBoundsQueryRequires) {
  Halide::ImageParam in(Halide::UInt(8), 1, "pq_in");
  Halide::ImageParam bias(Halide::Float(32), 1, "pq_bias");
  Halide::Var x("x");
  Halide::Func out("pq_out");
  out(x) = bias(in(x)) * 2.0f;
  in.set_estimates({{0, 256}});
  bias.set_estimates({{0, 100}});
  out.set_estimates({{0, 256}});
  const Halide::Pipeline pipeline(out);
  const Halide::Target target = host_target();
  const KernelDescription kd = describe_pipeline(pipeline, target);
  const InputShapes shapes = queried_input_shapes(pipeline, kd);
  EXPECT_EQ(shapes.at("pq_bias"), (std::vector<Range>{{0, 255}}));
  EXPECT_EQ(shapes.at("pq_in"), (std::vector<Range>{{0, 255}}));
  const App app = pipeline_app(pipeline, kd, shapes);
  const Outputs ref = reference_outputs(app, target);
  ASSERT_EQ(ref.size(), 1u);
  const EvalResult r = evaluate_schedule(app, random_cpu_schedule(kd, 7), kd, ref, target);
  EXPECT_TRUE(r.ok) << r.failed_step << ": " << r.error;
}

// Schedules are checked at other sizes than the estimates, a smaller and a larger one, with
// one compile. A 96-wide tile of an output of 100 with a guarded tail runs at every size;
// shifted inwards, it writes before the output at 76 (and reads before the input): the check
// names that size. The reference schedule runs at every size.
TEST(PipelineApp, SchedulesAreVerifiedAtOtherSizesThanTheEstimates) {
  Halide::ImageParam in(Halide::UInt(8), 2, "ps_in");
  Halide::Var x("x"), y("y");
  Halide::Func out("ps_out");
  out(x, y) = Halide::cast<uint16_t>(in(x, y)) * 2 + in(x + 1, y);
  in.set_estimates({{0, 101}, {0, 40}});
  out.set_estimates({{0, 100}, {0, 40}});
  const Halide::Pipeline pipeline(out);
  const Halide::Target target = host_target();
  const KernelDescription kd = describe_pipeline(pipeline, target);
  const OutputSizes estimated = estimated_output_sizes(pipeline, kd);
  ASSERT_EQ(estimated, (OutputSizes{{100, 40}}));
  std::vector<OutputSizes> sizes = other_output_sizes(estimated);
  ASSERT_EQ(sizes, (std::vector<OutputSizes>{{{76, 31}}, {{113, 53}}}));
  sizes.insert(sizes.begin(), estimated);
  std::vector<std::string> errors;
  const std::vector<InputShapes> shapes = queried_input_shapes(pipeline, kd, sizes, errors);
  EXPECT_EQ(errors, std::vector<std::string>(3, ""));
  const App app = pipeline_app(pipeline, kd, shapes[0]);
  const auto resize = [&](size_t k, AppInstance& inst) { resize_instance(inst, kd, shapes[k], sizes[k]); };
  const std::vector<Outputs> references = reference_outputs_at_sizes(app, sizes.size(), resize, target, errors);
  EXPECT_EQ(errors, std::vector<std::string>(3, ""));
  for (size_t k = 0; k < sizes.size(); ++k) {
    const Halide::Buffer<uint16_t> ref = references[k].at(0);
    EXPECT_EQ(ref.dim(0).extent(), sizes[k][0][0]);
    EXPECT_EQ(ref.dim(1).extent(), sizes[k][0][1]);
    // Compiled once, resized: what a fresh instance of that size gives.
    EXPECT_TRUE(compare_outputs(references[k], reference_outputs(pipeline_app(pipeline, kd, shapes[k], 1, sizes[k]),
                                                                 target)).ok) << k;
  }
  const auto check = [&](const Schedule& schedule) {
    AppInstance inst;
    std::string step, error;
    EXPECT_TRUE(scheduled_instance(app, schedule, kd, target, inst, step, error)) << step << ": " << error;
    return verify_at_sizes(inst, references, resize, target);
  };
  const auto tiled = [&](Halide::TailStrategy tail) {
    Schedule s = reference_schedule(kd);
    s.funcs.at("ps_out").stages.resize(1);
    s.funcs.at("ps_out").stages[0].splits = {make_split("x", 96, tail)};
    s.funcs.at("ps_out").stages[0].annotations.clear();
    return s;
  };
  for (const Schedule& s : {reference_schedule(kd), tiled(Halide::TailStrategy::GuardWithIf)}) {
    const EvalResult r = check(s);
    EXPECT_TRUE(r.ok) << r.failed_step << ": " << r.error;
  }
  const Schedule shifted = tiled(Halide::TailStrategy::ShiftInwards);
  const EvalResult r = check(shifted);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error.rfind("at size 1: ", 0), 0u) << r.failed_step << ": " << r.error;
  // Checked at the estimate alone, it passes.
  AppInstance inst;
  std::string step, error;
  ASSERT_TRUE(scheduled_instance(app, shifted, kd, target, inst, step, error)) << step << ": " << error;
  EXPECT_TRUE(verify_at_sizes(inst, {references[0]}, resize, target).ok);
}

// The reference schedule runs each stage's outermost pure loop in parallel and inlines a
// Func whose root buffer would be too large.
TEST(ReferenceSchedule, ParallelOuterLoopsAndNoHugeBuffers) {
  const App app = blur_app(64, 32);
  const Halide::Target target = host_target();
  AppInstance inst = app.build();
  const KernelDescription kd = describe_app(inst, target);
  const Schedule s = reference_schedule(kd);
  for (const FuncInfo& f : kd.funcs) {
    if (f.is_input_alias) continue;
    const StageSchedule& st = s.funcs.at(f.name).stages.at(0);
    EXPECT_EQ(st.annotations.at(f.stages[0].loops.back().var), LoopAnnotation::Parallel) << f.name;
  }
  const Schedule small = reference_schedule(kd, 16);
  for (const FuncInfo& f : kd.funcs)
    EXPECT_EQ(small.funcs.count(f.name) > 0, !f.can_inline && !f.is_input_alias) << f.name;
  EXPECT_TRUE(compare_outputs(reference_outputs(app, target), [&] {
                apply_schedule(root_schedule(kd), kd, inst.outputs);
                return realize(inst, target);
              }()).ok);
}

// A pipeline of a few microseconds is timed more often than `timed_runs` until the runs took
// `min_timed_seconds` in all: a few runs of it are noise.
TEST(Evaluate, ShortPipelinesAreTimedUntilTheMinimumDuration) {
  const App app = blur_app(32, 16);
  const Halide::Target target = host_target();
  const Outputs ref = reference_outputs(app, target);
  RunOptions opts;
  opts.timed_runs = 2;
  opts.min_timed_seconds = 0.05;
  const EvalResult r = evaluate_instance(app.build(), ref, target, opts);
  ASSERT_TRUE(r.ok) << r.failed_step << ": " << r.error;
  EXPECT_GT(r.run_ms.size(), 2u);
  EXPECT_GE(std::accumulate(r.run_ms.begin(), r.run_ms.end(), 0.0), 0.05 * 1e3 * 0.5);
  opts.min_timed_seconds = 0;
  EXPECT_EQ(evaluate_instance(app.build(), ref, target, opts).run_ms.size(), 2u);
}

// flock semantics across open files, as between processes: shared holders coexist, an
// exclusive holder waits for all of them.
TEST(TimingLock, ExclusiveWaitsForEverySharedHolder) {
  const std::string dir = temp_dir("timing_lock");
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/lock";
  std::atomic<bool> timed{false};
  std::thread timer;
  {
    TimingLock compiling(path, TimingLock::Mode::Shared);
    TimingLock also_compiling(path, TimingLock::Mode::Shared);  // does not block
    timer = std::thread([&] {
      TimingLock timing(path, TimingLock::Mode::Exclusive);
      timed = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    EXPECT_FALSE(timed);
  }
  timer.join();
  EXPECT_TRUE(timed);
  EXPECT_THROW(TimingLock(dir + "/no/such/folder/lock", TimingLock::Mode::Shared), BridgeError);
  std::filesystem::remove_all(dir);
}

// Under a parent that limits its time (kClockLinesEnv set), a wait that blocks is announced on
// standard output with the clock lines; a lock taken at once prints nothing.
TEST(TimingLock, AnnouncesAWaitThatBlocks) {
  const std::string dir = temp_dir("timing_lock_lines");
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/lock";
  setenv(kClockLinesEnv, "1", 1);
  std::ostringstream captured;
  std::streambuf* saved = std::cout.rdbuf(captured.rdbuf());
  { TimingLock free(path, TimingLock::Mode::Exclusive); }
  const std::string after_free = captured.str();
  std::thread waiter;
  {
    TimingLock compiling(path, TimingLock::Mode::Shared);
    waiter = std::thread([&] { TimingLock timing(path, TimingLock::Mode::Exclusive); });
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  waiter.join();
  std::cout.rdbuf(saved);
  unsetenv(kClockLinesEnv);
  EXPECT_EQ(after_free, "");
  EXPECT_EQ(captured.str(), std::string(kClockStopLine) + "\n" + kClockStartLine + "\n");
  std::filesystem::remove_all(dir);
}

// With a timing lock, a measurement compiles while another process holds the lock shared (it
// compiles too), and verifies and times only once that one let go.
TEST(Evaluate, CompilesBesideASharedHolderAndTimesAfterIt) {
  const std::string dir = temp_dir("timing_lock_eval");
  std::filesystem::create_directories(dir);
  const App app = blur_app(64, 32);
  const Halide::Target target = host_target();
  const Outputs ref = reference_outputs(app, target);
  RunOptions opts;
  opts.timed_runs = 2;
  opts.timing_lock = dir + "/lock";
  auto compiling = std::make_unique<TimingLock>(opts.timing_lock, TimingLock::Mode::Shared);
  const auto start = std::chrono::steady_clock::now();
  auto seconds_since_start = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  EvalResult r;
  double finished_at = 0;
  std::thread measuring([&] {
    r = evaluate_instance(app.build(), ref, target, opts);
    finished_at = seconds_since_start();
  });
  const double held_for = 5;
  std::this_thread::sleep_for(std::chrono::duration<double>(held_for));
  compiling.reset();
  measuring.join();
  ASSERT_TRUE(r.ok) << r.failed_step << ": " << r.error;
  ASSERT_LT(r.compile_ms, 0.8 * held_for * 1e3) << "the compile alone outlasted the held lock: nothing shown";
  EXPECT_GE(finished_at, held_for);
  opts.timing_lock = dir + "/no/such/folder/lock";
  r = evaluate_instance(app.build(), ref, target, opts);
  EXPECT_EQ(r.failed_step, "lock");
  std::filesystem::remove_all(dir);
}

TEST(Evaluate, HalideErrorsAreReportedNotThrown) {
  const App app = blur_app(32, 16);
  const Halide::Target target = host_target();
  Outputs ref = reference_outputs(app, target);
  AppInstance inst = app.build();
  // Legal to state, rejected by Halide when compiling: vectorizing a loop of unknown extent.
  Halide::Func out = inst.outputs[0];
  out.vectorize(Halide::Var("y"));
  EvalResult r = evaluate_instance(inst, ref, target);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.failed_step, "compile");
  EXPECT_FALSE(r.error.empty());

  // Invalid schedules are refused before Halide sees them.
  const KernelDescription kd = describe_app(app.build(), target);
  Schedule bad = root_schedule(kd);
  bad.funcs["blur_y"].stages = {StageSchedule{{}, {}, {{"nope", LoopAnnotation::Parallel}}}};
  r = evaluate_schedule(app, bad, kd, ref, target);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.failed_step, "validate");
  EXPECT_NE(r.error.find("unknown loop 'nope'"), std::string::npos) << r.error;
}

// Side by side: every schedule that compiles and verifies is timed once per round; one that
// fails is reported and left out; ratios are taken round by round against the first. Each
// step's end is reported with the schedule's index in the order given (the failed one's
// compile step ends first: it has none), then each round's.
TEST(Interleaved, TimesSchedulesRoundByRoundAndLeavesFailuresOut) {
  const App app = blur_app(256, 128);
  const Halide::Target target = host_target();
  const Outputs ref = reference_outputs(app, target);
  const KernelDescription kd = describe_app(app.build(), target);
  Schedule bad = root_schedule(kd);
  bad.funcs["blur_y"].stages = {StageSchedule{{}, {}, {{"nope", LoopAnnotation::Parallel}}}};
  RunOptions options;
  options.timed_runs = 7;
  std::vector<std::string> steps;
  options.on_step = [&](const char* step, size_t i) { steps.push_back(std::string(step) + " " + std::to_string(i)); };
  const std::vector<EvalResult> r =
      evaluate_interleaved(app, {root_schedule(kd), bad, random_cpu_schedule(kd, 5)}, kd, ref, target, options);
  EXPECT_EQ(steps, (std::vector<std::string>{"compiled 1", "compiled 0", "compiled 2", "verified 0", "verified 2",
                                             "timed 0", "timed 1", "timed 2", "timed 3", "timed 4", "timed 5",
                                             "timed 6"}));
  ASSERT_EQ(r.size(), 3u);
  EXPECT_FALSE(r[1].ok);
  EXPECT_EQ(r[1].failed_step, "validate");
  EXPECT_TRUE(r[1].run_ms.empty());
  for (size_t i : {0, 2}) {
    ASSERT_TRUE(r[i].ok) << r[i].failed_step << ": " << r[i].error;
    ASSERT_EQ(r[i].run_ms.size(), 7u);
  }
  EXPECT_DOUBLE_EQ(r[0].ratio_to_first, 1.0);
  std::vector<double> ratios;
  for (size_t k = 0; k < 7; ++k) ratios.push_back(r[2].run_ms[k] / r[0].run_ms[k]);
  std::sort(ratios.begin(), ratios.end());
  EXPECT_DOUBLE_EQ(r[2].ratio_to_first, ratios[3]);
}

TEST(Aot, CudaCompileOfAValidGpuSchedule) {
  const App app = blur_app(128, 96);
  const KernelDescription kd = describe_app(app.build(), cuda_target());
  const Schedule s = random_gpu_schedule(kd, 3, cuda_target());
  const std::string dir = temp_dir("aot");
  AotResult r = compile_schedule_aot(app, s, kd, cuda_target(), dir);
  ASSERT_TRUE(r.ok) << r.error << "\n" << print_schedule(s, kd);
  EXPECT_GT(std::filesystem::file_size(r.object_file), 0u);
  std::filesystem::remove_all(dir);
}

TEST(Aot, InvalidGpuScheduleIsRejectedBeforeCompiling) {
  const App app = blur_app(128, 96);
  const KernelDescription kd = describe_app(app.build(), cuda_target());
  Schedule s = root_schedule(kd);
  StageSchedule st;
  st.splits = {make_split("x", 64, Halide::TailStrategy::GuardWithIf), make_split("y", 32, Halide::TailStrategy::GuardWithIf)};
  st.order = {"x_i", "y_i", "x_o", "y_o"};
  st.annotations = {{"x_i", LoopAnnotation::GpuThread}, {"y_i", LoopAnnotation::GpuThread},
                    {"x_o", LoopAnnotation::GpuBlock}, {"y_o", LoopAnnotation::GpuBlock}};
  s.funcs["blur_y"].stages = {st};
  AotResult r = compile_schedule_aot(app, s, kd, cuda_target(), temp_dir("aot_invalid"));
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("validate: invalid schedule"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("2048 GPU threads per block exceeds the limit of 1024"), std::string::npos) << r.error;
}

}  // namespace
}  // namespace candor::halide_bridge
