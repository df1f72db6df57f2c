// The Halide CPU space on the example apps: every complete candidate reached by random
// dives becomes a schedule that compiles and matches the reference output.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <set>

#include "apps.h"
#include "halide_bridge/compile.h"
#include "halide_bridge/directives.h"
#include "halide_cpu_space.h"
#include "neighbours.h"
#include "layer_pipelines.h"
#include "random_dive.h"
#include "random_pipelines.h"

namespace {

namespace hb = candor::halide_bridge;
using candor::Candidate;
using candor::HalideCpuSpace;

// A random dive from `c` (the root when absent) over the space's decision order.
std::optional<Candidate> random_dive(const HalideCpuSpace& space, std::mt19937_64& rng,
                                     std::optional<Candidate> c = std::nullopt) {
  if (!c) c = space.root();
  if (!c) return c;
  return candor::random_dive(space, *c, space.decision_order(), rng);
}

// Compiles `schedule` and runs it once against the reference output.
hb::EvalResult run_once(const hb::App& app, const hb::Schedule& schedule, const hb::KernelDescription& kd,
                        const hb::Outputs& reference, const Halide::Target& target) {
  hb::RunOptions once;
  once.warmup_runs = 0;
  once.timed_runs = 1;
  return hb::evaluate_schedule(app, schedule, kd, reference, target, once);
}

// Fixes choice `var` of `c` to the value named `value`; false when either is unknown or the
// fix fails.
bool fix_named(const HalideCpuSpace& space, Candidate& c, const std::string& var, const std::string& value) {
  const int v = space.var_named(var), x = v < 0 ? -1 : space.value_named(c, v, value);
  return x >= 0 && space.fix(c, v, x);
}

// Fixes `var` to the value shown as `label` (a host by its Func's name).
bool fix_labelled(const HalideCpuSpace& space, Candidate& c, const std::string& var, const std::string& label) {
  const int v = space.var_named(var), x = v < 0 ? -1 : space.value_labelled(c, v, label);
  return x >= 0 && space.fix(c, v, x);
}

// The labels of the values `var` may still take in c.
std::set<std::string> value_labels(const HalideCpuSpace& space, const Candidate& c, const std::string& var) {
  std::set<std::string> out;
  const int v = space.var_named(var);
  for (int x : space.values(c, v)) out.insert(v < 0 ? "" : space.value_label(v, x));
  return out;
}

}  // namespace

// An extern stage for ExternStagesAndWhatTheyReadLiveAtTheRoot: out = 2 * in over out's
// region, and in a bounds query, in's region is out's.
extern "C" int candor_test_extern_scale(halide_buffer_t* in, halide_buffer_t* out) {
  if (in->is_bounds_query()) {
    for (int d = 0; d < out->dimensions; ++d) in->dim[d] = out->dim[d];
    return 0;
  }
  Halide::Runtime::Buffer<float> src(*in), dst(*out);
  dst.for_each_element([&](int x, int y) { dst(x, y) = 2.0f * src(x, y); });
  return 0;
}

namespace {

// A stage computed by C code (define_extern) has nothing to schedule but its place: every
// candidate computes it and the Func it reads at the root, and the schedules run and match
// the reference.
TEST(HalideCpuSpace, ExternStagesAndWhatTheyReadLiveAtTheRoot) {
  hb::App app;
  app.name = "test_extern";
  app.build = [] {
    using Halide::Func, Halide::Var;
    hb::AppInstance inst;
    Halide::ImageParam in(Halide::Float(32), 2, "ext_in");
    Var x("x"), y("y");
    Func pre("pre"), scaled("scaled"), out("out");
    pre(x, y) = in(x, y) + 1.0f;
    scaled.define_extern("candor_test_extern_scale", {pre}, Halide::Float(32), {x, y});
    out(x, y) = scaled(x, y) + scaled(x + 1, y) + in(x, y);
    in.set_estimates({{0, 65}, {0, 32}});
    out.set_estimates({{0, 64}, {0, 32}});
    inst.funcs = {{"pre", pre}, {"scaled", scaled}, {"out", out}};
    inst.outputs = {out};
    inst.inputs = {in};
    inst.output_sizes = {{64, 32}};
    Halide::Buffer<float> data(65, 32);
    data.for_each_element([&](int xx, int yy) { data(xx, yy) = float((xx * 7 + yy * 3) % 11); });
    in.set(data);
    return inst;
  };
  const Halide::Target target = hb::host_target();
  const hb::KernelDescription kd = hb::describe_app(app.build(), target);
  const hb::FuncInfo& scaled = kd.func("scaled");
  EXPECT_TRUE(scaled.is_extern);
  EXPECT_FALSE(scaled.can_inline);
  ASSERT_EQ(scaled.stages.size(), 1u);
  EXPECT_TRUE(scaled.stages[0].loops.empty());
  EXPECT_EQ(scaled.region, (std::vector<hb::Range>{{0, 64}, {0, 31}}));
  EXPECT_TRUE(kd.func("pre").read_by_extern);
  EXPECT_FALSE(kd.func("pre").can_inline);
  EXPECT_EQ(kd.func("pre").region, scaled.region);  // read over the extern's own region
  HalideCpuSpace space(kd);
  const hb::Outputs reference = hb::reference_outputs(app, target);
  std::mt19937_64 rng(3);
  for (int dive = 0; dive < 3; ++dive) {
    std::optional<Candidate> c = random_dive(space, rng);
    ASSERT_TRUE(c);
    const hb::Schedule schedule = space.to_schedule(*c);
    for (const char* f : {"pre", "scaled"})
      EXPECT_EQ(schedule.funcs.at(f).compute.kind, hb::Location::Kind::Root) << f;
    const hb::EvalResult r = run_once(app, schedule, kd, reference, target);
    EXPECT_TRUE(r.ok) << "dive " << dive << ": " << r.failed_step << ": " << r.error;
  }
}

class HalideCpuSpaceOnApps : public ::testing::TestWithParam<std::string> {};

// The first CANDOR_SPACE_RANDOM_DIVES (default 2) of a fixed seed's random dives per app: a
// fixed set, whatever the machine's speed. The seed's third dive of camera_pipe and of
// max_filter takes Halide 2-3 minutes each to compile; run it with CANDOR_SPACE_RANDOM_DIVES=4.
int random_dives() {
  const char* env = std::getenv("CANDOR_SPACE_RANDOM_DIVES");
  return env && std::atoi(env) > 0 ? std::atoi(env) : 2;
}

TEST_P(HalideCpuSpaceOnApps, RandomCandidatesCompileAndMatchTheReference) {
  const hb::App* app = candor::apps::find_app(GetParam());
  ASSERT_NE(app, nullptr);
  const Halide::Target target = hb::host_target();
  hb::KernelDescription kd = hb::describe_app(app->build(), target);
  HalideCpuSpace space(kd);
  hb::Outputs reference = hb::reference_outputs(*app, target);
  std::mt19937_64 rng(7);
  for (int i = 0; i < random_dives(); ++i) {
    std::optional<Candidate> c = random_dive(space, rng);
    ASSERT_TRUE(c) << "dive " << i << " failed";
    ASSERT_TRUE(space.satisfies_all(*c));
    hb::Schedule schedule = space.to_schedule(*c);
    nlohmann::json j = schedule;
    if (std::getenv("CANDOR_TEST_TRACE")) std::cerr << hb::print_schedule(schedule, kd) << std::endl;
    hb::EvalResult result = run_once(*app, schedule, kd, reference, target);
    EXPECT_TRUE(result.ok) << result.failed_step << ": " << result.error << "\n" << j.dump(1);
  }
}

// matmul's update `dot(x, y) += A(k, y) * B(x, k)` runs its RDom loop innermost in the
// algorithm; the space vectorizes its innermost pure loop (x) instead, and that schedule
// compiles and matches the reference.
TEST(HalideCpuSpace, UpdateWithAnInnermostRDomLoopVectorizesItsInnermostPureLoop) {
  const hb::App* app = candor::apps::find_app("matmul");
  ASSERT_NE(app, nullptr);
  const Halide::Target target = hb::host_target();
  hb::KernelDescription kd = hb::describe_app(app->build(), target);
  HalideCpuSpace space(kd);
  // The update stage object: stage objects follow the Funcs' order, stages in order.
  int stage_object = 0, func = -1;
  for (int f = 0; f < static_cast<int>(kd.funcs.size()) && func < 0; ++f) {
    const auto& stages = kd.funcs[f].stages;
    if (stages.size() > 1 && !stages[1].loops.empty() && !stages[1].loops[0].is_pure) {
      func = f;
      stage_object += 1;
    } else {
      stage_object += static_cast<int>(stages.size());
    }
  }
  ASSERT_GE(func, 0) << "matmul has no update with an innermost RDom loop";
  const hb::StageInfo& update = kd.funcs[func].stages[1];
  std::string pure_var;
  for (const hb::LoopInfo& l : update.loops)
    if (l.is_pure && pure_var.empty()) pure_var = l.var;

  std::optional<Candidate> root = space.root();
  ASSERT_TRUE(root);
  ASSERT_TRUE(space.fix(*root, space.vectorize_ref(stage_object).var, candor::spaces::halide_cpu::Bool::YES))
      << "vectorizing the update is not allowed";
  hb::Outputs reference = hb::reference_outputs(*app, target);
  std::mt19937_64 rng(11);
  for (int i = 0; i < 2; ++i) {
    std::optional<Candidate> c = random_dive(space, rng, root);
    ASSERT_TRUE(c) << "dive " << i << " failed";
    ASSERT_TRUE(space.satisfies_all(*c));
    hb::Schedule schedule = space.to_schedule(*c);
    const hb::StageSchedule& s = schedule.funcs.at(kd.funcs[func].name).stages.at(1);
    std::string vectorized;
    for (const auto& [var, annotation] : s.annotations)
      if (annotation == hb::LoopAnnotation::Vectorized) vectorized = var;
    EXPECT_EQ(vectorized.rfind(pure_var, 0), 0u) << "vectorized loop '" << vectorized << "', expected a part of "
                                                 << pure_var;
    ASSERT_FALSE(s.order.empty());
    EXPECT_EQ(s.order.front(), vectorized) << "the vector loop is not innermost";
    hb::EvalResult result = run_once(*app, schedule, kd, reference, target);
    nlohmann::json j = schedule;
    EXPECT_TRUE(result.ok) << result.failed_step << ": " << result.error << "\n" << j.dump(1);
  }
}

// The DNN-layer pipelines (channel reductions, zero padding, pooling; the learned model's
// training data) at a small size: random candidates compile and match the reference.
TEST(HalideCpuSpace, RandomCandidatesOfLayerPipelinesCompileAndMatchTheReference) {
  const Halide::Target target = hb::host_target();
  std::mt19937_64 rng(11);
  candor::models::random_pipelines::LayerPipelineOptions small;
  small.size = 16;
  for (uint64_t seed : {2u, 5u, 9u}) {
    const hb::App app = candor::models::random_pipelines::layer_pipeline(seed, small);
    hb::KernelDescription kd = hb::describe_app(app.build(), target);
    HalideCpuSpace space(kd);
    const hb::Outputs reference = hb::reference_outputs(app, target);
    for (int dive = 0; dive < 2; ++dive) {
      std::optional<Candidate> c = random_dive(space, rng);
      ASSERT_TRUE(c) << app.name << " dive " << dive;
      const hb::EvalResult r = run_once(app, space.to_schedule(*c), kd, reference, target);
      EXPECT_TRUE(r.ok) << app.name << " dive " << dive << ": " << r.failed_step << ": " << r.error << "\n"
                        << app.description;
    }
  }
}

// A stage reading an input through the input's Func (always inlined) reads the input itself:
// its splits must guard their tails, or a tile shifted inwards at the image's edge reads
// before the input's first pixel (random pipelines read through such Funcs).
// A stage reading an input (through the input's always-inlined Func) guards its tails where
// an unguarded tail could leave its region: inside a consumer (edge tiles may be partial), and
// in root updates whose splits are not exact (Auto rounds an update up). Root pure stages keep
// Auto tails (they shift inwards, and no tile is longer than its loop): those schedules run
// and match the reference without reading outside the input.
TEST(HalideCpuSpace, StagesReadingAnInputGuardTailsThatCouldLeaveTheirRegion) {
  const Halide::Target target = hb::host_target();
  int guarded = 0, unguarded_run = 0;
  std::mt19937_64 rng(5);
  for (uint64_t seed = 0; seed < 6; ++seed) {
    const hb::App app = candor::models::random_pipelines::random_pipeline(seed);
    hb::KernelDescription kd = hb::describe_app(app.build(), target);
    HalideCpuSpace space(kd);
    std::optional<hb::Outputs> reference;
    for (int dive = 0; dive < 3; ++dive) {
      std::optional<Candidate> c = random_dive(space, rng);
      ASSERT_TRUE(c);
      const hb::Schedule schedule = space.to_schedule(*c);
      bool root_reader_unguarded = false;
      for (const hb::FuncInfo& f : kd.funcs) {
        const hb::FuncSchedule& fs = schedule.funcs.at(f.name);
        for (size_t k = 0; k < fs.stages.size(); ++k) {
          bool through_alias = false;
          for (const hb::Edge* e : kd.edges_into(f.name, f.stages[k].index)) {
            const hb::FuncInfo* p = kd.find_func(e->producer);
            through_alias |= p && p->is_input_alias;
          }
          if (!through_alias || fs.stages[k].splits.empty()) continue;
          const bool at_root = fs.compute.kind == hb::Location::Kind::Root;
          for (const hb::Split& split : fs.stages[k].splits) {
            if (!at_root) {
              EXPECT_EQ(split.tail, Halide::TailStrategy::GuardWithIf) << f.name << " splits " << split.var;
              ++guarded;
            } else if (split.tail != Halide::TailStrategy::GuardWithIf) {
              root_reader_unguarded = true;
            }
          }
        }
      }
      if (!root_reader_unguarded) continue;
      if (!reference) reference = hb::reference_outputs(app, target);
      const hb::EvalResult r = run_once(app, schedule, kd, *reference, target);
      EXPECT_TRUE(r.ok) << "random:" << seed << " dive " << dive << ": " << r.failed_step << ": " << r.error;
      ++unguarded_run;
    }
  }
  EXPECT_GT(guarded, 0) << "no dive computed an input reader inside a consumer";
  EXPECT_GT(unguarded_run, 0) << "no dive left a root input reader unguarded";
}

// The parallel loop is the outermost one with more than one iteration: unsharp_mask's output
// with its 3 colour channels tiled whole (one iteration of c's outer loop) runs its rows in
// parallel, and the schedule compiles and matches the reference.
TEST(HalideCpuSpace, ALoopTiledWholePassesParallelismInwards) {
  const hb::App* app = candor::apps::find_app("unsharp_mask");
  ASSERT_NE(app, nullptr);
  const Halide::Target target = hb::host_target();
  hb::KernelDescription kd = hb::describe_app(app->build(), target);
  HalideCpuSpace space(kd);
  std::optional<Candidate> root = space.root();
  ASSERT_TRUE(root);
  auto fix = [&](const std::string& var, const std::string& value) { return fix_named(space, *root, var, value); };
  ASSERT_TRUE(fix("parallel(unsharp_mask)", "YES"));
  ASSERT_TRUE(fix("tile(unsharp_mask.c)", "3"));
  ASSERT_TRUE(fix("subtile(unsharp_mask.c)", "1"));
  ASSERT_TRUE(fix("tile(unsharp_mask.y)", "64"));
  std::mt19937_64 rng(3);
  std::optional<Candidate> c = random_dive(space, rng, root);
  ASSERT_TRUE(c);
  const hb::Schedule schedule = space.to_schedule(*c);
  std::string parallel;
  for (const auto& [var, annotation] : schedule.funcs.at("unsharp_mask").stages.at(0).annotations)
    if (annotation == hb::LoopAnnotation::Parallel) parallel = var;
  EXPECT_EQ(parallel, "y_o");
  const hb::EvalResult r = run_once(*app, schedule, kd, hb::reference_outputs(*app, target), target);
  EXPECT_TRUE(r.ok) << r.failed_step << ": " << r.error;
}

// A vectorized register tile of a few vectors is unrolled across its vectors (the model
// prices it so); a longer one is left a loop. Both compile and match the reference.
TEST(HalideCpuSpace, ShortVectorBandsAreUnrolled) {
  const hb::App* app = candor::apps::find_app("unsharp_mask");
  ASSERT_NE(app, nullptr);
  const Halide::Target target = hb::host_target();
  hb::KernelDescription kd = hb::describe_app(app->build(), target);
  HalideCpuSpace space(kd);
  const int lanes = kd.func("unsharp_mask").vector_width;
  const hb::Outputs reference = hb::reference_outputs(*app, target);
  for (const int vectors : {2, 2 * HalideCpuSpace::kUnrolledVectors}) {
    SCOPED_TRACE(std::to_string(vectors) + " vectors");
    std::optional<Candidate> root = space.root();
    ASSERT_TRUE(root);
    auto fix = [&](const std::string& var, const std::string& value) { return fix_named(space, *root, var, value); };
    const std::string band = std::to_string(vectors * lanes);
    ASSERT_TRUE(fix("vectorize(unsharp_mask)", "YES"));
    ASSERT_TRUE(fix("unroll(unsharp_mask)", "NO"));
    ASSERT_TRUE(fix("tile(unsharp_mask.x)", band));
    ASSERT_TRUE(fix("subtile(unsharp_mask.x)", band));
    std::mt19937_64 rng(5);
    std::optional<Candidate> c = random_dive(space, rng, root);
    ASSERT_TRUE(c);
    const hb::Schedule schedule = space.to_schedule(*c);
    const auto& annotations = schedule.funcs.at("unsharp_mask").stages.at(0).annotations;
    ASSERT_TRUE(annotations.count("x_i_i"));
    EXPECT_EQ(annotations.at("x_i_i"), hb::LoopAnnotation::Vectorized);
    EXPECT_EQ(annotations.count("x_i_o") && annotations.at("x_i_o") == hb::LoopAnnotation::Unrolled,
              vectors <= HalideCpuSpace::kUnrolledVectors);
    const hb::EvalResult r = run_once(*app, schedule, kd, reference, target);
    EXPECT_TRUE(r.ok) << r.failed_step << ": " << r.error;
  }
}

// conv_relu's convolution keeps a two-loop register tile: one vector of channels by 4 pixels
// by 2 rows, both unrolled inside the RDom loops (Adams et al.'s conv tile is 4 x 3; with x
// alone unrolled the space could not hold more than one row). It compiles and matches.
TEST(HalideCpuSpace, AnUpdateKeepsATwoLoopRegisterTile) {
  const hb::App* app = candor::apps::find_app("conv_relu");
  ASSERT_NE(app, nullptr);
  const Halide::Target target = hb::host_target();
  hb::KernelDescription kd = hb::describe_app(app->build(), target);
  HalideCpuSpace space(kd);
  const std::string lanes = std::to_string(kd.func("conv").vector_width);
  std::optional<Candidate> root = space.root();
  ASSERT_TRUE(root);
  auto fix = [&](const std::string& var, const std::string& value) { return fix_named(space, *root, var, value); };
  const std::string u = "conv.update(0)";
  ASSERT_TRUE(fix("vectorize(" + u + ")", "YES"));
  ASSERT_TRUE(fix("unroll(" + u + ")", "YES"));
  ASSERT_TRUE(fix("unroll_third(" + u + ")", "YES"));
  for (const auto& [loop, size] : {std::pair<std::string, std::string>{"c", lanes}, {"x", "4"}, {"y", "2"}}) {
    ASSERT_TRUE(fix("tile(" + u + "." + loop + ")", size)) << loop;
    ASSERT_TRUE(fix("subtile(" + u + "." + loop + ")", size)) << loop;
  }
  // The third loop's inner band unrolls only as a short tile.
  std::optional<Candidate> wide = space.root();
  ASSERT_TRUE(wide && fix_named(space, *wide, "unroll_third(" + u + ")", "YES"));
  EXPECT_FALSE(fix_named(space, *wide, "subtile(" + u + ".y)", "8"));
  // matmul's update has two pure loops: nothing third to unroll.
  const hb::App* matmul = candor::apps::find_app("matmul");
  ASSERT_NE(matmul, nullptr);
  HalideCpuSpace matmul_space(hb::describe_app(matmul->build(), target));
  std::optional<Candidate> two_loops = matmul_space.root();
  ASSERT_TRUE(two_loops);
  EXPECT_FALSE(fix_named(matmul_space, *two_loops, "unroll_third(dot.update(0))", "YES"));

  std::mt19937_64 rng(3);
  std::optional<Candidate> c = random_dive(space, rng, root);
  ASSERT_TRUE(c);
  const hb::Schedule schedule = space.to_schedule(*c);
  const hb::StageSchedule& update = schedule.funcs.at("conv").stages.at(1);
  const auto position = [&](const std::string& var) {
    return std::find(update.order.begin(), update.order.end(), var) - update.order.begin();
  };
  for (const std::string var : {"x_i", "y_i"}) {
    ASSERT_TRUE(update.annotations.count(var)) << var;
    EXPECT_EQ(update.annotations.at(var), hb::LoopAnnotation::Unrolled) << var;
    EXPECT_LT(position(var), position("r_x")) << var << " is not inside the RDom loops";
  }
  const hb::Outputs reference = hb::reference_outputs(*app, target);
  const hb::EvalResult r = run_once(*app, schedule, kd, reference, target);
  nlohmann::json j = schedule;
  EXPECT_TRUE(r.ok) << r.failed_step << ": " << r.error << "\n" << j.dump(1);
}

// A tile as long as its loop is emitted without the split's outer loop of one iteration,
// which Halide's loop partitioning would treat as all edge (unsharp_mask's output in row
// strips as wide as the image reads its clamped input gathered, 2.6x slower). The split
// stays where a short vector band inside is unrolled: that needs the split's constant extent.
// Both compile and match the reference.
TEST(HalideCpuSpace, ATileAsLongAsItsLoopSplitsOffNoOuterLoop) {
  const hb::App* app = candor::apps::find_app("unsharp_mask");
  ASSERT_NE(app, nullptr);
  const Halide::Target target = hb::host_target();
  hb::KernelDescription kd = hb::describe_app(app->build(), target);
  HalideCpuSpace space(kd);
  const int lanes = kd.func("unsharp_mask").vector_width;
  const int64_t width = kd.func("unsharp_mask").stages.at(0).loops.at(0).extent;
  const hb::Outputs reference = hb::reference_outputs(*app, target);
  auto x_splits = [&](int64_t tile, int64_t band) {
    std::optional<Candidate> root = space.root();
    EXPECT_TRUE(root);
    if (!root) return std::vector<int>{};
    auto fix = [&](const std::string& var, const std::string& value) { return fix_named(space, *root, var, value); };
    EXPECT_TRUE(fix("vectorize(unsharp_mask)", "YES"));
    EXPECT_TRUE(fix("unroll(unsharp_mask)", "NO"));
    EXPECT_TRUE(fix("tile(unsharp_mask.x)", std::to_string(tile)));
    EXPECT_TRUE(fix("subtile(unsharp_mask.x)", std::to_string(band)));
    EXPECT_TRUE(fix("tile(unsharp_mask.y)", "16"));
    std::mt19937_64 rng(7);
    std::optional<Candidate> c = random_dive(space, rng, root);
    EXPECT_TRUE(c);
    if (!c) return std::vector<int>{};
    const hb::Schedule schedule = space.to_schedule(*c);
    const hb::EvalResult r = run_once(*app, schedule, kd, reference, target);
    EXPECT_TRUE(r.ok) << r.failed_step << ": " << r.error;
    std::vector<int> factors;
    for (const hb::Split& s : schedule.funcs.at("unsharp_mask").stages.at(0).splits)
      if (s.var.rfind("x", 0) == 0) factors.push_back(s.factor);
    return factors;
  };
  EXPECT_EQ(x_splits(width, width), (std::vector<int>{lanes}));  // rows of vectors, no outer loop
  EXPECT_EQ(x_splits(256, 256), (std::vector<int>{256, lanes}));

  // hist_eq's copy of its input, 128 columns: a whole row of a few vectors is unrolled.
  const hb::App* hist_eq = candor::apps::find_app("hist_eq");
  ASSERT_NE(hist_eq, nullptr);
  hb::KernelDescription hist_kd = hb::describe_app(hist_eq->build(), target);
  HalideCpuSpace hist_space(hist_kd);
  const int byte_lanes = hist_kd.func("input_clamped").vector_width;
  const int64_t columns = hist_kd.func("input_clamped").stages.at(0).loops.at(0).extent;
  ASSERT_LE(columns, int64_t(HalideCpuSpace::kUnrolledVectors) * byte_lanes);
  std::optional<Candidate> root = hist_space.root();
  ASSERT_TRUE(root);
  auto fix = [&](const std::string& var, const std::string& value) { return fix_named(hist_space, *root, var, value); };
  ASSERT_TRUE(fix("location(input_clamped)", "ROOT"));
  ASSERT_TRUE(fix("vectorize(input_clamped)", "YES"));
  ASSERT_TRUE(fix("tile(input_clamped.d0)", std::to_string(columns)));
  ASSERT_TRUE(fix("subtile(input_clamped.d0)", std::to_string(columns)));
  std::mt19937_64 rng(7);
  std::optional<Candidate> c = random_dive(hist_space, rng, root);
  ASSERT_TRUE(c);
  const hb::Schedule schedule = hist_space.to_schedule(*c);
  std::vector<int> factors;
  for (const hb::Split& s : schedule.funcs.at("input_clamped").stages.at(0).splits)
    if (s.var.rfind("d0", 0) == 0) factors.push_back(s.factor);
  EXPECT_EQ(factors, (std::vector<int>{int(columns), byte_lanes}));
  const hb::EvalResult r = run_once(*hist_eq, schedule, hist_kd, hb::reference_outputs(*hist_eq, target), target);
  EXPECT_TRUE(r.ok) << r.failed_step << ": " << r.error;
}

// A Func with several consumers may be computed inside a Func every path from it passes
// through (its host): unsharp_mask's gray, read by blur_y, sharpen and ratio, per strip of the
// output as the expert schedule does. Everything between it and its host then runs inside
// the host's tile too (inlined, or at the same loop or further in), and the schedule compiles
// and matches the reference.
TEST(HalideCpuSpace, AFuncWithSeveralConsumersIsComputedInsideTheirCommonHost) {
  const hb::App* app = candor::apps::find_app("unsharp_mask");
  ASSERT_NE(app, nullptr);
  const Halide::Target target = hb::host_target();
  hb::KernelDescription kd = hb::describe_app(app->build(), target);
  HalideCpuSpace space(kd);
  std::optional<Candidate> c = space.root();
  ASSERT_TRUE(c);
  auto labels = [&](const std::string& var) { return value_labels(space, *c, var); };
  auto fix = [&](const std::string& var, const std::string& label) { return fix_labelled(space, *c, var, label); };
  EXPECT_EQ(labels("host(gray)"), (std::set<std::string>{"none", "ratio", "unsharp_mask"}));
  ASSERT_TRUE(fix("host(gray)", "unsharp_mask"));
  EXPECT_EQ(labels("location(gray)"), (std::set<std::string>{"TILE", "SUBTILE"}));
  EXPECT_FALSE(labels("location(blur_y)").count("ROOT"));  // it reads gray
  EXPECT_FALSE(labels("location(ratio)").count("ROOT"));
  ASSERT_TRUE(fix("location(blur_y)", "TILE"));
  EXPECT_EQ(labels("host(blur_y)"), std::set<std::string>{"unsharp_mask"});
  EXPECT_EQ(labels("location(gray)"), std::set<std::string>{"TILE"});  // not inside blur_y's loop
  ASSERT_TRUE(fix("location(ratio)", "SUBTILE"));
  ASSERT_TRUE(fix("tile(unsharp_mask.y)", "32"));
  std::mt19937_64 rng(11);
  c = random_dive(space, rng, c);
  ASSERT_TRUE(c);
  const hb::Schedule schedule = space.to_schedule(*c);
  for (const char* f : {"gray", "blur_y", "ratio"}) {
    EXPECT_EQ(schedule.funcs.at(f).compute.kind, hb::Location::Kind::At) << f;
    EXPECT_EQ(schedule.funcs.at(f).compute.func, "unsharp_mask") << f;
  }
  const hb::EvalResult r = run_once(*app, schedule, kd, hb::reference_outputs(*app, target), target);
  EXPECT_TRUE(r.ok) << r.failed_step << ": " << r.error;
}

// A window of a Func with several readers slides over its nearest host when the host reads it
// itself: max_filter's input_clamped and vert_max_2 (read by the output and by the next
// vertical maximum), stored per tile of the output and computed per band of its rows, the
// readers between computed in the same bands. Such a window never slides per tile (stored at
// the root). The schedule compiles and matches the reference.
TEST(HalideCpuSpace, AWindowOfAFuncWithSeveralReadersSlidesOverTheirHost) {
  const hb::App* app = candor::apps::find_app("max_filter");
  ASSERT_NE(app, nullptr);
  const Halide::Target target = hb::host_target();
  hb::KernelDescription kd = hb::describe_app(app->build(), target);
  ASSERT_GT(kd.find_func("vert_max_2")->consumers.size(), 1u);
  HalideCpuSpace space(kd);
  std::optional<Candidate> c = space.root();
  ASSERT_TRUE(c);
  auto fix = [&](const std::string& var, const std::string& label) { return fix_labelled(space, *c, var, label); };
  for (const char* f : {"input_clamped", "vert_max_2", "vert_max_3"}) {
    ASSERT_TRUE(fix(std::string("host(") + f + ")", "max_filter")) << f;
    ASSERT_TRUE(fix(std::string("sliding(") + f + ")", "YES")) << f;
  }
  EXPECT_EQ(value_labels(space, *c, "location(vert_max_2)"), std::set<std::string>{"SUBTILE"});
  ASSERT_TRUE(fix("location(vert_max_1)", "INLINE"));
  ASSERT_TRUE(fix("tile(max_filter.y)", "64"));
  ASSERT_TRUE(fix("subtile(max_filter.y)", "8"));
  std::mt19937_64 rng(5);
  c = random_dive(space, rng, c);
  ASSERT_TRUE(c);
  const hb::Schedule schedule = space.to_schedule(*c);
  for (const char* f : {"input_clamped", "vert_max_2"}) {
    const hb::FuncSchedule& fs = schedule.funcs.at(f);
    EXPECT_EQ(fs.compute.func, "max_filter") << f;
    ASSERT_TRUE(fs.store) << f;
    EXPECT_EQ(fs.store->func, "max_filter") << f;
    EXPECT_NE(fs.store->var, fs.compute.var) << f;
  }
  const hb::EvalResult r = run_once(*app, schedule, kd, hb::reference_outputs(*app, target), target);
  EXPECT_TRUE(r.ok) << r.failed_step << ": " << r.error;
}

// Funcs with update definitions are never stored coarser than they are computed (Halide slides
// no window over them); pure Funcs computed inside a consumer may be.
TEST(HalideCpuSpace, OnlyPureFuncsSlide) {
  for (const char* name : {"conv_relu", "unsharp_mask"}) {
    const hb::App* app = candor::apps::find_app(name);
    ASSERT_NE(app, nullptr);
    const hb::KernelDescription kd = hb::describe_app(app->build(), hb::host_target());
    HalideCpuSpace space(kd);
    std::optional<Candidate> root = space.root();
    ASSERT_TRUE(root);
    for (int v = 0; v < space.num_vars(); ++v) {
      const std::string var = space.var_name(v);
      if (var.rfind("sliding(", 0) != 0) continue;
      const std::string func = var.substr(8, var.size() - 9);
      const hb::FuncInfo* f = kd.find_func(func);
      ASSERT_NE(f, nullptr) << var;
      bool may_slide = false;
      for (int x : space.values(*root, v)) may_slide |= space.value_name(v, x) == "YES";
      if (f->stages.size() > 1) {
        EXPECT_FALSE(may_slide) << name << ": " << var;
      } else if (func == "ratio") {
        EXPECT_TRUE(may_slide) << name << ": " << var;
      }
    }
  }
}

std::vector<std::string> app_names() {
  std::vector<std::string> names;
  for (const hb::App& app : candor::apps::all_apps()) names.push_back(app.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(Apps, HalideCpuSpaceOnApps, ::testing::ValuesIn(app_names()),
                         [](const auto& info) { return info.param; });

}  // namespace

namespace {

// Every implementation costs the same: the moves alone decide what the neighbours are.
class FlatObjective : public candor::Objective {
 public:
  double cost(const candor::Space&, const Candidate&) const override { return 1; }
};

TEST(HalideCpuSpace, AMoveTakesAFuncFromTheRootToAnyOfItsHosts) {
  // unsharp_mask's gray has several hosts; the output's strips are not the nearest by index,
  // and a move there must come with blur_y's (gray reaches the output through it).
  const hb::App* app = candor::apps::find_app("unsharp_mask");
  ASSERT_NE(app, nullptr);
  const HalideCpuSpace space(hb::describe_app(app->build(), hb::host_target()));
  const Candidate root = *space.root();
  const int host = space.var_named("host(gray)");
  ASSERT_GE(host, 0);
  EXPECT_FALSE(space.has_ordered_values(host));
  EXPECT_TRUE(space.has_ordered_values(space.var_named("tile(gray.x)")));
  std::optional<Candidate> at_root = root;
  ASSERT_TRUE(fix_named(space, *at_root, "location(gray)", "ROOT"));
  const int blur_y_host = space.var_named("host(blur_y)");
  ASSERT_TRUE(space.fix(*at_root, blur_y_host, space.value_labelled(*at_root, blur_y_host, "ratio")));
  std::mt19937_64 rng(3);
  const std::optional<Candidate> centre = random_dive(space, rng, at_root);
  ASSERT_TRUE(centre);

  // (A move to ratio may give the neighbour location(gray)'s move gave, listed once.)
  std::set<std::string> reached;
  for (const candor::Neighbour& n : candor::neighbours(space, FlatObjective(), root, *centre, space.decision_order())) {
    if (n.var == host) {
      reached.insert(space.value_label(host, n.value));
      if (space.value_label(host, n.value) == "unsharp_mask") {  // blur_y came along
        const std::string blur_y_at = space.value_label(blur_y_host, space.first_value(n.candidate, blur_y_host));
        const int blur_y_where = space.var_named("location(blur_y)");
        EXPECT_TRUE(blur_y_at == "unsharp_mask" ||
                    space.value_label(blur_y_where, space.first_value(n.candidate, blur_y_where)) == "INLINE")
            << blur_y_at;
      }
    }
  }
  EXPECT_GE(space.values(root, host).size(), 3u);  // none, ratio, unsharp_mask
  EXPECT_TRUE(reached.count("unsharp_mask"));
}

// `candor search --json` reports a pick's decisions as pins (hosts named by Func, as people
// pin them); fixed in turn on the root they give the same candidate back.
TEST(HalideCpuSpace, ACandidatesPinsGiveItBack) {
  const hb::App* app = candor::apps::find_app("unsharp_mask");
  ASSERT_NE(app, nullptr);
  const HalideCpuSpace space(hb::describe_app(app->build(), hb::host_target()));
  std::mt19937_64 rng(7);
  for (int dive = 0; dive < 5; ++dive) {
    const std::optional<Candidate> picked = random_dive(space, rng);
    ASSERT_TRUE(picked);
    const auto pins = space.decisions(*picked, true);
    EXPECT_EQ(pins.size(), size_t(space.num_vars()));
    std::optional<Candidate> c = space.root();
    ASSERT_TRUE(c);
    for (const auto& [choice, label] : pins) {
      const int v = space.var_named(choice);
      const int x = v < 0 ? -1 : space.value_labelled(*c, v, label);
      ASSERT_GE(x, 0) << choice << "=" << label;
      ASSERT_TRUE(space.fix(*c, v, x)) << choice << "=" << label;
    }
    EXPECT_TRUE(space.to_schedule(*c) == space.to_schedule(*picked));
  }
}

}  // namespace
