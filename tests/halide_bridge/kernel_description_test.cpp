#include <gtest/gtest.h>

#include "expr_analysis.h"
#include "kernel_description.h"
#include "test_pipelines.h"

namespace candor::halide_bridge {
namespace {

using testing::blur_app;
using testing::matmul_app;
using testing::resample_app;
using testing::splat_app;

const Halide::Target kHost("x86-64-linux-avx2-sse41");

const Edge& edge(const KernelDescription& kd, const std::string& producer, const std::string& consumer,
                 int stage = 0) {
  for (const Edge& e : kd.edges)
    if (e.producer == producer && e.consumer == consumer && e.consumer_stage == stage) return e;
  throw std::runtime_error("no edge " + producer + " -> " + consumer);
}

std::vector<int64_t> ints(const std::vector<Rational>& rs) {
  std::vector<int64_t> v;
  for (const Rational& r : rs) {
    EXPECT_EQ(r.den, 1);
    v.push_back(r.num);
  }
  return v;
}

TEST(KernelDescription, BlurExtentsFromBoundsInference) {
  AppInstance inst = blur_app(64, 48).build();
  KernelDescription kd = describe_app(inst, kHost);
  EXPECT_EQ(kd.outputs, std::vector<std::string>{"blur_y"});
  // Topological order: producers first.
  auto pos = [&](const std::string& n) { return kd.find_func(n) - kd.funcs.data(); };
  EXPECT_LT(pos("in_clamped"), pos("blur_x"));
  EXPECT_LT(pos("blur_x"), pos("blur_y"));

  EXPECT_EQ(kd.func("blur_y").region, (std::vector<Range>{{0, 63}, {0, 47}}));
  // blur_y reads rows y-1..y+1 of blur_x, which reads columns x-1..x+1 of in_clamped.
  EXPECT_EQ(kd.func("blur_x").region, (std::vector<Range>{{0, 63}, {-1, 48}}));
  EXPECT_EQ(kd.func("in_clamped").region, (std::vector<Range>{{-1, 64}, {-1, 48}}));
  const StageInfo& bx = kd.func("blur_x").stages.at(0);
  ASSERT_EQ(bx.loops.size(), 2u);
  EXPECT_EQ(bx.loops[0].var, "x");
  EXPECT_EQ(bx.loops[0].extent, 64);
  EXPECT_EQ(bx.loops[1].var, "y");
  EXPECT_EQ(bx.loops[1].min, -1);
  EXPECT_EQ(bx.loops[1].extent, 50);
  EXPECT_TRUE(kd.func("blur_x").can_inline);
  EXPECT_FALSE(kd.func("blur_y").can_inline);
  EXPECT_EQ(kd.func("blur_y").vector_width, kHost.natural_vector_size(Halide::Float(32)));
  EXPECT_EQ(kd.func("blur_x").consumers, std::vector<std::string>{"blur_y"});

  // The boundary condition clamps, so the input is read exactly on its estimate.
  const InputInfo* in = kd.find_input("in");
  ASSERT_NE(in, nullptr);
  EXPECT_EQ(in->estimate, (std::vector<Range>{{0, 63}, {0, 47}}));
  EXPECT_EQ(in->required, in->estimate);
}

TEST(KernelDescription, BlurStencilFootprints) {
  KernelDescription kd = describe_app(blur_app(64, 48).build(), kHost);
  const Edge& yx = edge(kd, "blur_x", "blur_y");
  EXPECT_EQ(yx.calls, 3);
  ASSERT_EQ(yx.footprint.size(), 2u);
  EXPECT_TRUE(yx.footprint[0].affine);
  EXPECT_EQ(ints(yx.footprint[0].coeffs), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(yx.footprint[0].min_offset, 0);
  EXPECT_EQ(yx.footprint[0].max_offset, 0);
  EXPECT_EQ(ints(yx.footprint[1].coeffs), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(yx.footprint[1].min_offset, -1);
  EXPECT_EQ(yx.footprint[1].max_offset, 1);
  EXPECT_EQ(yx.required, (std::vector<Range>{{0, 63}, {-1, 48}}));

  const Edge& xc = edge(kd, "in_clamped", "blur_x");
  EXPECT_EQ(xc.footprint[0].min_offset, -1);
  EXPECT_EQ(xc.footprint[0].max_offset, 1);
  EXPECT_EQ(xc.footprint[1].min_offset, 0);
  EXPECT_EQ(xc.footprint[1].max_offset, 0);

  const OpCounts& ops = kd.func("blur_x").stages[0].ops;
  EXPECT_EQ(ops.add, 2 + 2);  // two float adds, plus x-1 and x+1 in the indices
  // Counted after simplification, as compiled: Halide turns "/ 3.0f" into a multiplication.
  EXPECT_EQ(ops.mul, 1);
  EXPECT_EQ(ops.div, 0);
  EXPECT_EQ(ops.load_func, 3);
  EXPECT_EQ(ops.by_type.at("float32"), 3);
}

TEST(KernelDescription, ReductionLoopsAndJacobians) {
  KernelDescription kd = describe_app(matmul_app(16).build(), kHost);
  const FuncInfo& prod = kd.func("prod");
  ASSERT_EQ(prod.stages.size(), 2u);
  EXPECT_FALSE(prod.can_inline);
  const StageInfo& upd = prod.stages[1];
  ASSERT_EQ(upd.loops.size(), 3u);  // k innermost, then i, j
  EXPECT_TRUE(upd.loops[0].is_rvar);
  EXPECT_EQ(upd.loops[0].extent, 16);
  EXPECT_EQ(upd.loops[1].var, "i");
  EXPECT_EQ(upd.loops[2].var, "j");
  EXPECT_EQ(upd.points(), 16 * 16 * 16);
    // An ImageParam is read through its own Func, "A_im", which reads the input "A".
  EXPECT_TRUE(edge(kd, "A", "A_im").producer_is_input);
  const Edge& a = edge(kd, "A_im", "prod", 1);
  EXPECT_FALSE(a.producer_is_input);
  EXPECT_EQ(ints(a.footprint[0].coeffs), (std::vector<int64_t>{1, 0, 0}));  // A(k, j)
  EXPECT_EQ(ints(a.footprint[1].coeffs), (std::vector<int64_t>{0, 0, 1}));
  const Edge& self = edge(kd, "prod", "prod", 1);
  EXPECT_EQ(ints(self.footprint[0].coeffs), (std::vector<int64_t>{0, 1, 0}));
  EXPECT_EQ(upd.ops.mul, 1);
  EXPECT_EQ(upd.ops.load_func, 3);  // A_im, B_im and prod itself
  EXPECT_EQ(kd.func("prod").consumers, std::vector<std::string>{"C"});
  EXPECT_FALSE(upd.non_affine_addresses);
}

TEST(KernelDescription, DataDependentStoreOfAnUpdate) {
  KernelDescription kd = describe_app(splat_app().build(), kHost);
  const FuncInfo& hist = kd.func("hist");
  ASSERT_EQ(hist.stages.size(), 2u);
  EXPECT_FALSE(hist.stages[0].non_affine_addresses);
  EXPECT_TRUE(hist.stages[1].non_affine_addresses);  // hist(x, y, in(...) / 32) += 1
}

TEST(KernelDescription, ResamplingAndDataDependentAccess) {
  KernelDescription kd = describe_app(resample_app(64, 64).build(), kHost);
  EXPECT_EQ(kd.func("down").region, (std::vector<Range>{{0, 31}, {0, 31}}));
  const Edge& up = edge(kd, "mapped", "up");
  EXPECT_EQ(up.footprint[0].coeffs[0], Rational(1, 2));
  EXPECT_EQ(up.footprint[0].min_offset, -1);  // floor division: x/2 in [x/2 - 1/2, x/2]
  EXPECT_EQ(up.footprint[0].max_offset, 0);
  // The table lookup is data dependent; the region read comes from the value bounds of
  // `down & 255`.
  const Edge& lut = edge(kd, "lut_im", "mapped");
  EXPECT_FALSE(lut.footprint[0].affine);
  EXPECT_TRUE(lut.footprint[0].lookup);
  EXPECT_TRUE(lut.data_dependent());
  EXPECT_EQ(lut.required, (std::vector<Range>{{0, 255}}));
  EXPECT_EQ(kd.func("up").vector_width, kHost.natural_vector_size(Halide::UInt(16)));
  // Downsampling reads two columns per point with stride 2.
  bool found = false;
  for (const Edge* e : kd.edges_into("down", 0)) {
    found = true;
    EXPECT_EQ(e->footprint[0].coeffs[0], Rational(2));
    EXPECT_EQ(e->footprint[0].min_offset, 0);
    EXPECT_EQ(e->footprint[0].max_offset, 1);
  }
  EXPECT_TRUE(found);
}

// Call sites with different affine maps (a pixel and its neighbour at a loop's offset, as
// non_local_means compares patches) have no single footprint map, but they are no lookup:
// vectorized, they load densely (the model charged them as gathers, 22x too slow).
TEST(KernelDescription, CallSitesWithDifferentMapsAreIrregularNotDataDependent) {
  App app;
  app.name = "test_offsets";
  app.build = [] {
    using Halide::Func, Halide::ImageParam, Halide::RDom, Halide::Var;
    AppInstance inst;
    ImageParam in(Halide::Float(32), 2, "in");
    Var x("x"), y("y"), d("d");
    Func diff("diff"), out("out");
    diff(x, y, d) = in(x, y) - in(x + d, y);
    RDom r(0, 4);
    out(x, y) = 0.0f;
    out(x, y) += diff(x, y, r);
    in.set_estimates({{0, 68}, {0, 16}});
    out.set_estimates({{0, 64}, {0, 16}});
    inst.funcs = {{"diff", diff}, {"out", out}};
    inst.outputs = {out};
    inst.inputs = {in};
    inst.output_sizes = {{64, 16}};
    return inst;
  };
  const KernelDescription kd = describe_app(app.build(), kHost);
  const Edge& offsets = edge(kd, "in_im", "diff");  // the bridge reads inputs through a wrapper
  EXPECT_FALSE(offsets.footprint[0].affine);
  EXPECT_FALSE(offsets.footprint[0].lookup);
  EXPECT_TRUE(offsets.irregular());
  EXPECT_FALSE(offsets.data_dependent());
  EXPECT_TRUE(edge(kd, "diff", "out", 1).footprint[2].affine);
}

// A lookup into a Func at an index another Func clamps to the input's width: Halide bounds
// the region by that Func's value bounds, which name the input's extent; its estimate makes
// them constants (the description refused such pipelines as unbounded).
TEST(KernelDescription, LookupBoundedThroughAnotherFuncsClampToAParameter) {
  App app;
  app.name = "test_clamped_index";
  app.build = [] {
    using Halide::Func, Halide::ImageParam, Halide::Var;
    AppInstance inst;
    ImageParam in(Halide::UInt(8), 1, "in");
    Var x("x");
    Func table("table"), index("index"), out("out");
    table(x) = x * 3;
    index(x) = Halide::clamp(Halide::cast<int>(in(x)) * 7, 0, in.width() - 1);
    out(x) = table(index(x));
    in.set_estimates({{0, 100}});
    out.set_estimates({{0, 100}});
    inst.funcs = {{"table", table}, {"index", index}, {"out", out}};
    inst.outputs = {out};
    inst.inputs = {in};
    inst.output_sizes = {{100}};
    return inst;
  };
  const KernelDescription kd = describe_app(app.build(), kHost);
  const Edge& lookup = edge(kd, "table", "out");
  EXPECT_TRUE(lookup.data_dependent());
  EXPECT_EQ(lookup.required, (std::vector<Range>{{0, 99}}));
  EXPECT_EQ(kd.func("table").region, (std::vector<Range>{{0, 99}}));
}

// An upsampling tap reads x / 2 + r * (2 * (x % 2) - 1), r one of an RDom's two values: the
// product of the bounded r and the bounded parity term is a constant range, so the index is
// x / 2 plus [-3/2, 1], not a lookup (local_laplacian's pyramid, read so, could be computed
// nowhere but the root).
TEST(KernelDescription, ProductsOfBoundedTermsAreConstantRanges) {
  Halide::Var x("x"), r("r");
  const Halide::Expr tap = x / 2 + r * (2 * (x % 2) - 1);
  const VarBounds r_in_0_1 = {std::nullopt, std::pair<int64_t, int64_t>{0, 1}};
  EXPECT_FALSE(affine_form(tap, {"x", "r"}));  // r's values unknown
  const auto form = affine_form(tap, {"x", "r"}, r_in_0_1);
  ASSERT_TRUE(form);
  EXPECT_EQ(form->coeffs[0], Rational(1, 2));
  EXPECT_EQ(form->coeffs[1], Rational(0));
  EXPECT_EQ(form->const_min, Rational(-3, 2));
  EXPECT_EQ(form->const_max, Rational(1));
  // An unbounded variable times a bounded term stays non-affine.
  EXPECT_FALSE(affine_form(x * (x % 2), {"x", "r"}, r_in_0_1));
}

// A zero-padded image with channels innermost: its tests and clamps of x and y do not vary
// along c, so vectorized along c they run once per vector; only the select of the values does
// per lane. Along x, only the tests of y and w - 1 do.
TEST(KernelDescription, OperationsUniformAlongALoopAreCountedPerLoop) {
  Halide::Var c("c"), x("x"), y("y");
  Halide::Param<int> w("w");
  const Halide::Expr inside = x >= 0 && x < w && y >= 0 && y < 8;
  const Halide::Expr e = Halide::select(inside, Halide::cast<float>(Halide::clamp(x, 0, w - 1) + c), 0.0f);
  const OpCounts all = count_ops(e), along_c = count_ops_uniform_along(e, "c"),
                 along_x = count_ops_uniform_along(e, "x");
  EXPECT_EQ(all.compare, 4);
  EXPECT_EQ(along_c.compare, 4);
  EXPECT_EQ(along_c.logic, 3);
  EXPECT_EQ(along_c.minmax, 2);
  EXPECT_EQ(along_c.add, 1);  // w - 1
  EXPECT_EQ(along_c.select + along_c.cast, 0);
  EXPECT_EQ(along_x.compare, 2);  // y >= 0, y < 8
  EXPECT_EQ(along_x.logic, 0);    // each && joins a test of x
  EXPECT_EQ(along_x.minmax, 0);
  EXPECT_EQ(along_x.add, 1);
  EXPECT_EQ(count_ops_uniform_along(e, "z").arithmetic(), all.arithmetic());

  KernelDescription kd = describe_app(blur_app(64, 48).build(), kHost);
  const StageInfo& bx = kd.func("blur_x").stages[0];
  ASSERT_EQ(bx.ops_uniform_along.size(), bx.loops.size());
  // blur_x(x, y) = (in(x - 1, y) + in(x, y) + in(x + 1, y)) / 3: nothing is uniform along x.
  EXPECT_EQ(bx.ops_uniform_along[0].arithmetic(), 0);
}

// Loop partitioning drops a boundary condition's clamp from the interior only where it can
// solve the clamp's bound for the loop: not where the bound reads the clamped coordinate, as
// camera_pipe's clamp that keeps each pixel's Bayer colour does.
TEST(KernelDescription, BoundaryClampsThatLoopPartitioningCannotDrop) {
  Halide::Var x("x");
  Halide::Param<int> w("w");
  EXPECT_EQ(boundary_clamp(Halide::clamp(Halide::likely(x), 0, w - 1)), BoundaryClamp::AtEdges);
  EXPECT_EQ(boundary_clamp(Halide::clamp(Halide::likely(x + 1), 0, w - 1) * 2), BoundaryClamp::AtEdges);
  EXPECT_EQ(boundary_clamp(Halide::clamp(Halide::likely(x), x % 2, w - 2 + x % 2)), BoundaryClamp::Everywhere);
  EXPECT_EQ(boundary_clamp(Halide::clamp(x, 0, w - 1)), BoundaryClamp::None);
  EXPECT_EQ(boundary_clamp(x + 1), BoundaryClamp::None);
}

TEST(KernelDescription, MissingOutputEstimateIsAClearError) {
  Halide::ImageParam in(Halide::Float(32), 2, "in");
  in.set_estimates({{0, 10}, {0, 10}});
  Halide::Func out("out");
  Halide::Var x("x"), y("y");
  out(x, y) = in(x, y) * 2.0f;
  out.set_estimate(x, 0, 10);  // no estimate for y
  try {
    describe_pipeline(Halide::Pipeline(out), kHost);
    FAIL() << "expected BridgeError";
  } catch (const BridgeError& e) {
    EXPECT_NE(std::string(e.what()).find("output 'out' has no estimate for dimension 'y'"), std::string::npos)
        << e.what();
  }
}

TEST(KernelDescription, MissingInputEstimateIsAClearError) {
  Halide::ImageParam in(Halide::Float(32), 2, "img");
  Halide::Func out("out");
  Halide::Var x("x"), y("y");
  out(x, y) = in(x, y) * 2.0f;
  out.set_estimates({{0, 10}, {0, 10}});
  try {
    describe_pipeline(Halide::Pipeline(out), kHost);
    FAIL() << "expected BridgeError";
  } catch (const BridgeError& e) {
    EXPECT_NE(std::string(e.what()).find("input 'img' has no estimate for dimension 0"), std::string::npos)
        << e.what();
  }
}

// A Func read at an index nothing bounds (an int32 read from an input, unclamped) cannot be
// compiled by Halide either: the error says which read and what to do.
TEST(KernelDescription, UnboundedReadIsAClearError) {
  Halide::ImageParam in(Halide::Int(32), 1, "in");
  in.set_estimates({{0, 100}});
  Halide::Var x("x");
  Halide::Func table("table"), out("out");
  table(x) = x * 2;
  out(x) = table(in(x));
  out.set_estimates({{0, 100}});
  try {
    describe_pipeline(Halide::Pipeline(out), kHost);
    FAIL() << "expected BridgeError";
  } catch (const BridgeError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("cannot bound the region of 'table' read by out in dimension 0"), std::string::npos) << m;
    EXPECT_NE(m.find("clamp the index"), std::string::npos) << m;
  }
}

// Estimates the models cannot count in 64 bits, and extents that are not positive, are
// clear errors rather than overflowed prices.
TEST(KernelDescription, EstimatesPastWhatAMachineHoldsAreAClearError) {
  Halide::Var x("x"), y("y"), z("z");
  Halide::Func huge("huge");
  huge(x, y, z) = x + y + z;
  huge.set_estimates({{0, 1 << 20}, {0, 1 << 20}, {0, 1 << 20}});
  try {
    describe_pipeline(Halide::Pipeline(huge), kHost);
    FAIL() << "expected BridgeError";
  } catch (const BridgeError& e) {
    EXPECT_NE(std::string(e.what()).find("'huge' covers more than 2^48 points under the estimates"),
              std::string::npos) << e.what();
  }
  Halide::Func empty("empty");
  empty(x) = x;
  empty.set_estimates({{0, -4}});
  try {
    describe_pipeline(Halide::Pipeline(empty), kHost);
    FAIL() << "expected BridgeError";
  } catch (const BridgeError& e) {
    EXPECT_NE(std::string(e.what()).find("estimate extent -4 for 'x' (extents are positive)"), std::string::npos)
        << e.what();
  }
}

// An extern stage has nothing to schedule but its place: one stage without loops. It is
// assumed to read the buffers it is handed over its own region where it has the dimension,
// over their estimate beyond.
TEST(KernelDescription, ExternStageReadsItsArgumentsOverItsOwnRegion) {
  Halide::ImageParam in(Halide::Float(32), 2, "in");
  in.set_estimates({{0, 10}, {0, 3}});
  Halide::Func ext("ext"), out("out");
  Halide::Var x("x");
  ext.define_extern("some_c_function", {in}, Halide::Float(32), 1);
  out(x) = ext(x) + ext(x + 2);
  out.set_estimates({{0, 8}});
  const KernelDescription kd = describe_pipeline(Halide::Pipeline(out), kHost);
  const FuncInfo& f = kd.func("ext");
  EXPECT_TRUE(f.is_extern);
  EXPECT_FALSE(f.can_inline);
  ASSERT_EQ(f.stages.size(), 1u);
  EXPECT_TRUE(f.stages[0].loops.empty());
  EXPECT_EQ(f.region, (std::vector<Range>{{0, 9}}));
  const Edge& read = edge(kd, "in", "ext");
  EXPECT_TRUE(read.producer_is_input);
  EXPECT_EQ(read.required, (std::vector<Range>{{0, 9}, {0, 2}}));
  EXPECT_TRUE(read.irregular());
  EXPECT_FALSE(read.data_dependent());
}

TEST(KernelDescription, SerialisesToJson) {
  KernelDescription kd = describe_app(blur_app(16, 8).build(), kHost);
  nlohmann::json j = kd;
  ASSERT_TRUE(j.contains("funcs"));
  ASSERT_TRUE(j.contains("edges"));
  // Round trip through text stays parseable and keeps the numbers.
  nlohmann::json back = nlohmann::json::parse(j.dump());
  bool seen = false;
  for (const auto& f : back["funcs"])
    if (f["name"] == "blur_x") {
      seen = true;
      EXPECT_EQ(f["region"][1]["min"], -1);
      EXPECT_EQ(f["region"][1]["extent"], 10);
      EXPECT_EQ(f["stages"][0]["ops"]["load_func"], 3);
    }
  EXPECT_TRUE(seen);
}

}  // namespace
}  // namespace candor::halide_bridge

namespace candor::halide_bridge {
namespace {

// Unnamed Funcs, Vars and RDoms get per-process counters in Halide; canonical names must
// not depend on them.
Halide::Pipeline anonymous_pipeline() {
  Halide::ImageParam in(Halide::Int(32), 1, "in");
  in.set_estimates({{0, 16}});
  Halide::Func f, g;
  Halide::Var x;
  Halide::RDom r(0, 4);
  f(x) = in(x) * 2;
  g(x) = 0;
  g(x) += f(x + r);
  g.set_estimates({{0, 12}});
  return Halide::Pipeline(g);
}

TEST(KernelDescription, CanonicalNamesAreStableAcrossInstances) {
  const Halide::Target t("x86-64-linux-avx2-sse41");
  nlohmann::json a = describe_pipeline(anonymous_pipeline(), t);
  nlohmann::json b = describe_pipeline(anonymous_pipeline(), t);
  EXPECT_NE(a["funcs"][1]["halide_name"], b["funcs"][1]["halide_name"]);
  for (auto* j : {&a, &b})
    for (auto& f : (*j)["funcs"]) f.erase("halide_name");
  EXPECT_EQ(a.dump(), b.dump());
  const auto& loops = a["funcs"].back()["stages"][1]["loops"];
  EXPECT_EQ(loops[0]["var"], "r_x");  // RDom r42$x
  EXPECT_EQ(loops[1]["var"], "v0");   // Var v17 at argument 0
}

}  // namespace
}  // namespace candor::halide_bridge
