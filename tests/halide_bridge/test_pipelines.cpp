#include "test_pipelines.h"

#include <cstdint>

namespace candor::halide_bridge::testing {

namespace {

using Halide::Buffer;
using Halide::Expr;
using Halide::Func;
using Halide::ImageParam;
using Halide::Var;

// Deterministic pseudo-random contents (a fixed LCG), so every instance sees the same data.
template <typename T>
Buffer<T> filled(std::vector<int> sizes, uint32_t seed, int modulus) {
  Buffer<T> b(sizes);
  uint32_t s = seed;
  b.for_each_value([&](T& v) {
    s = s * 1664525u + 1013904223u;
    v = T((s >> 8) % uint32_t(modulus));
  });
  return b;
}

}  // namespace

App blur_app(int width, int height) {
  App app;
  app.name = "test_blur";
  app.description = "3x3 separable box blur with a clamped boundary";
  app.build = [=] {
    AppInstance inst;
    ImageParam in(Halide::Float(32), 2, "in");
    Var x("x"), y("y");
    Func clamped = Halide::BoundaryConditions::repeat_edge(in);
    Func in_clamped("in_clamped"), blur_x("blur_x"), blur_y("blur_y");
    in_clamped(x, y) = clamped(x, y);
    blur_x(x, y) = (in_clamped(x - 1, y) + in_clamped(x, y) + in_clamped(x + 1, y)) / 3.0f;
    blur_y(x, y) = (blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1)) / 3.0f;
    in.set_estimates({{0, width}, {0, height}});
    blur_y.set_estimates({{0, width}, {0, height}});
    in.set(filled<float>({width, height}, 1, 1000));
    inst.funcs = {{"in_clamped", in_clamped}, {"blur_x", blur_x}, {"blur_y", blur_y}};
    inst.outputs = {blur_y};
    inst.inputs = {in};
    inst.output_sizes = {{width, height}};
    inst.apply_expert_schedule = [=](const Halide::Target&) mutable {
      Var xi("xi"), yi("yi"), xo("xo"), yo("yo");
      blur_y.tile(x, y, xo, yo, xi, yi, 32, 8).parallel(yo).vectorize(xi, 8);
      blur_x.compute_at(blur_y, xo).vectorize(x, 8);
    };
    return inst;
  };
  return app;
}

App matmul_app(int n) {
  App app;
  app.name = "test_matmul";
  app.description = "int32 matrix product with an RDom update";
  app.build = [=] {
    AppInstance inst;
    ImageParam A(Halide::Int(32), 2, "A"), B(Halide::Int(32), 2, "B");
    Var i("i"), j("j");
    Halide::RDom k(0, n, "k");
    Func prod("prod"), C("C");
    prod(i, j) = 0;
    prod(i, j) += A(k, j) * B(i, k);
    C(i, j) = prod(i, j) + 1;
    A.set_estimates({{0, n}, {0, n}});
    B.set_estimates({{0, n}, {0, n}});
    C.set_estimates({{0, n}, {0, n}});
    A.set(filled<int32_t>({n, n}, 2, 100));
    B.set(filled<int32_t>({n, n}, 3, 100));
    inst.funcs = {{"prod", prod}, {"C", C}};
    inst.outputs = {C};
    inst.inputs = {A, B};
    inst.output_sizes = {{n, n}};
    inst.apply_expert_schedule = [=](const Halide::Target&) mutable {
      Var io("io"), ii("ii");
      C.split(i, io, ii, 8).vectorize(ii).parallel(j);
      prod.compute_at(C, j).vectorize(i, 8);
      prod.update(0).vectorize(i, 8);
    };
    return inst;
  };
  return app;
}

App resample_app(int width, int height) {
  App app;
  app.name = "test_resample";
  app.description = "downsample by 2, table lookup, upsample by 2 (uint16)";
  app.build = [=] {
    AppInstance inst;
    ImageParam in(Halide::UInt(16), 2, "in");
    ImageParam lut(Halide::UInt(16), 1, "lut");
    Var x("x"), y("y");
    Func clamped = Halide::BoundaryConditions::repeat_edge(in);
    Func down("down"), mapped("mapped"), up("up");
    down(x, y) = (clamped(2 * x, 2 * y) + clamped(2 * x + 1, 2 * y)) / 2;
    mapped(x, y) = lut(Halide::cast<int>(down(x, y) & 255)) + down(x, y);
    up(x, y) = mapped(x / 2, y / 2) + Halide::cast<uint16_t>(x % 2);
    in.set_estimates({{0, width}, {0, height}});
    lut.set_estimates({{0, 256}});
    up.set_estimates({{0, width}, {0, height}});
    in.set(filled<uint16_t>({width, height}, 4, 4096));
    lut.set(filled<uint16_t>({256}, 5, 4096));
    inst.funcs = {{"down", down}, {"mapped", mapped}, {"up", up}};
    inst.outputs = {up};
    inst.inputs = {in, lut};
    inst.output_sizes = {{width, height}};
    inst.apply_expert_schedule = [=](const Halide::Target&) mutable {
      up.parallel(y).vectorize(x, 16);
      down.compute_root().parallel(y).vectorize(x, 16);
    };
    return inst;
  };
  return app;
}

App diamond_app(int width, int height) {
  App app;
  app.name = "test_diamond";
  app.description = "one producer read by two consumers; two outputs";
  app.build = [=] {
    AppInstance inst;
    ImageParam in(Halide::Float(32), 2, "in");
    Var x("x"), y("y");
    Func clamped = Halide::BoundaryConditions::constant_exterior(in, 0.0f);
    Func base("base"), left("left"), right("right"), sum("sum"), diff("diff");
    base(x, y) = Halide::sqrt(clamped(x, y) + 1.0f);
    left(x, y) = base(x - 1, y) * 2.0f;
    right(x, y) = base(x + 1, y + 1) - base(x, y);
    sum(x, y) = left(x, y) + right(x, y);
    diff(x, y) = Halide::select(left(x, y) > right(x, y), left(x, y) - right(x, y), 0.0f);
    in.set_estimates({{0, width}, {0, height}});
    sum.set_estimates({{0, width}, {0, height}});
    diff.set_estimates({{0, width}, {0, height}});
    in.set(filled<float>({width, height}, 6, 500));
    inst.funcs = {{"base", base}, {"left", left}, {"right", right}, {"sum", sum}, {"diff", diff}};
    inst.outputs = {sum, diff};
    inst.inputs = {in};
    inst.output_sizes = {{width, height}, {width, height}};
    inst.apply_expert_schedule = [=](const Halide::Target&) mutable {
      base.compute_root().parallel(y).vectorize(x, 8);
      sum.parallel(y).vectorize(x, 8);
      diff.parallel(y).vectorize(x, 8);
    };
    return inst;
  };
  return app;
}

App splat_app(int width, int height) {
  App app;
  app.name = "test_splat";
  app.description = "4x4 cells of a uint8 image splatted into 8 bins (data-dependent stores)";
  app.build = [=] {
    AppInstance inst;
    ImageParam in(Halide::UInt(8), 2, "in");
    Var x("x"), y("y"), b("b");
    Halide::RDom r(0, 4, 0, 4, "r");
    Func hist("hist");
    hist(x, y, b) = 0;
    hist(x, y, Halide::cast<int>(in(4 * x + r.x, 4 * y + r.y) / 32)) += 1;
    in.set_estimates({{0, width}, {0, height}});
    hist.set_estimates({{0, width / 4}, {0, height / 4}, {0, 8}});
    in.set(filled<uint8_t>({width, height}, 6, 256));
    inst.funcs = {{"hist", hist}};
    inst.outputs = {hist};
    inst.inputs = {in};
    inst.output_sizes = {{width / 4, height / 4, 8}};
    return inst;
  };
  return app;
}

std::vector<App> all_test_apps() { return {blur_app(), matmul_app(), resample_app(), diamond_app()}; }

}  // namespace candor::halide_bridge::testing
