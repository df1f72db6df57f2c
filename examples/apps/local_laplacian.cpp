// Local Laplacian filter (Paris, Hasinoff, Kautz 2011), in the fast discrete form: the
// input is remapped at K intensity levels (detail enhanced around each level), a Laplacian
// pyramid is built for every remapped image, and each output Laplacian coefficient is
// interpolated between the two levels bracketing the input's Gaussian pyramid value at
// that position; the output pyramid is then collapsed.
//
// The pyramid filters are written as small RDom convolutions (a reduction over the taps):
// unscheduled, a pure filter would be inlined into the next level and the whole pyramid
// would become one expression growing ~36x per level, which takes Halide minutes to
// compile; a reduction is instead evaluated point by point where it is needed, which
// compiles in seconds. The depth (2) and size (96x96) are small because the unscheduled
// reference still recomputes every level per use, and the data-dependent choice of
// intensity level makes it evaluate all 8 levels each time: with 3 levels it takes ~40 s.
#include "app_util.h"

namespace candor::apps::detail {

using namespace Halide;

namespace {

constexpr int kWidth = 96, kHeight = 96;
constexpr int kLevels = 8;   // intensity levels K
constexpr int kPyramid = 2;  // pyramid levels J

AppInstance build() {
  AppInstance inst;
  ImageParam input(Float(32), 2, "input");
  bind_input(input, natural_image({kWidth, kHeight}, 1212));
  inst.inputs = {input};
  Param<float> alpha("alpha", 1.0f), beta("beta", 1.0f);  // detail gain, tone range gain
  alpha.set_estimate(1.0f);
  beta.set_estimate(1.0f);
  inst.scalar_params = {alpha.parameter(), beta.parameter()};

  Var x("x"), y("y"), k("k"), i("i");
  std::vector<Func> all;
  auto named = [&](const std::string& name) {
    Func f(name);
    all.push_back(f);
    return f;
  };
  Func clamped = repeat_edge_xy(input, "input_clamped");
  all.push_back(clamped);

  // Detail remapping table over the difference d = i / 256 in [-1, 1]:
  // r(d) = alpha * d * exp(-d^2 / (2 sigma^2)) boosts small-scale detail (sigma = 0.1...).
  Func remap = named("remap");
  {
    Expr d = cast<float>(i) / 256.0f;
    remap(i) = alpha * d * exp(-d * d * 8.0f);
  }
  // Level k's processed image: beta * (g - level) + level + r(g - level).
  Func processed = named("processed");
  {
    Expr level = cast<float>(k) / (kLevels - 1);
    Expr g = clamped(x, y);
    Expr idx = clamp(cast<int>(round((g - level) * 256.0f)), -256, 256);
    processed(x, y, k) = beta * (g - level) + level + remap(idx);
  }

  // Separable [1 2 1]/4 downsampling by 2, and linear upsampling by 2.
  // Horizontal passes, each with the Func in which the expert schedule computes it.
  std::vector<std::pair<Func, Func>> row_passes, up_passes;
  auto downsample = [&](Func f, const std::string& name, bool has_k) {
    Func dx = named(name + "_down_x"), dy = named(name);
    row_passes.emplace_back(dx, dy);
    std::vector<Var> vars = {x, y};
    if (has_k) vars.push_back(k);
    auto at = [&](Func g, Expr xx, Expr yy) {
      return has_k ? g(xx, yy, k) : g(xx, yy);
    };
    RDom r(-1, 3, name + "_tap");
    Expr w = (2 - abs(r)) * 0.25f;  // [1 2 1] / 4
    dx(vars) = 0.0f;
    dx(vars) += w * at(f, 2 * x + r, y);
    dy(vars) = 0.0f;
    dy(vars) += w * at(dx, x, 2 * y + r);
    return dy;
  };
  auto upsample = [&](Func f, const std::string& name, bool has_k, Func computed_in) {
    Func ux = named(name + "_up_x"), uy = named(name + "_up");
    row_passes.emplace_back(ux, computed_in);
    up_passes.emplace_back(uy, computed_in);
    std::vector<Var> vars = {x, y};
    if (has_k) vars.push_back(k);
    auto at = [&](Func g, Expr xx, Expr yy) {
      return has_k ? g(xx, yy, k) : g(xx, yy);
    };
    // Output pixel x sits between coarse pixels x/2 (weight 3/4) and x/2 - 1 or x/2 + 1
    // (weight 1/4, on the side of x's parity).
    RDom r(0, 2, name + "_up_tap");
    Expr w = select(r == 0, 0.75f, 0.25f);
    ux(vars) = 0.0f;
    ux(vars) += w * at(f, x / 2 + r * (2 * (x % 2) - 1), y);
    uy(vars) = 0.0f;
    uy(vars) += w * at(ux, x, y / 2 + r * (2 * (y % 2) - 1));
    return uy;
  };

  // Gaussian and Laplacian pyramids of the processed images (one per level k).
  std::vector<Func> g_pyr(kPyramid), l_pyr(kPyramid);
  g_pyr[0] = processed;
  for (int j = 1; j < kPyramid; j++) g_pyr[j] = downsample(g_pyr[j - 1], "gpyr_" + std::to_string(j), true);
  // The output pyramid's levels, declared early: the expert schedule computes the
  // upsampling of level j + 1 inside level j of the collapsed output (or the output).
  std::vector<Func> out_g(kPyramid);
  Func output("local_laplacian");
  for (int j = 0; j < kPyramid - 1; j++) out_g[j] = j == 0 ? output : named("out_gpyr_" + std::to_string(j));
  all.push_back(output);
  l_pyr[kPyramid - 1] = g_pyr[kPyramid - 1];
  for (int j = 0; j < kPyramid - 1; j++) {
    Func up = upsample(g_pyr[j + 1], "gpyr_" + std::to_string(j + 1), true, out_g[j]);
    l_pyr[j] = named("lpyr_" + std::to_string(j));
    l_pyr[j](x, y, k) = g_pyr[j](x, y, k) - up(x, y, k);
  }
  // Gaussian pyramid of the input, which selects the levels to interpolate.
  std::vector<Func> in_pyr(kPyramid);
  in_pyr[0] = clamped;
  for (int j = 1; j < kPyramid; j++) in_pyr[j] = downsample(in_pyr[j - 1], "in_gpyr_" + std::to_string(j), false);
  // Output Laplacian pyramid: interpolate between the two nearest intensity levels.
  std::vector<Func> out_l(kPyramid);
  for (int j = 0; j < kPyramid; j++) {
    out_l[j] = named("out_lpyr_" + std::to_string(j));
    Expr level = in_pyr[j](x, y) * (kLevels - 1);
    Expr li = clamp(cast<int>(floor(level)), 0, kLevels - 2);
    Expr lf = level - li;
    out_l[j](x, y) = (1.0f - lf) * l_pyr[j](x, y, li) + lf * l_pyr[j](x, y, li + 1);
  }
  // Collapse; the finest level, clamped, is the output.
  out_g[kPyramid - 1] = out_l[kPyramid - 1];
  for (int j = kPyramid - 2; j >= 0; j--) {
    Func up = upsample(out_g[j + 1], "out_gpyr_" + std::to_string(j + 1), false, out_g[j]);
    Expr value = out_l[j](x, y) + up(x, y);
    out_g[j](x, y) = j == 0 ? clamp(value, 0.0f, 1.0f) : value;
  }

  set_output_estimates(output, {kWidth, kHeight});
  inst.outputs = {output};
  inst.output_sizes = {{kWidth, kHeight}};
  register_funcs(inst, all);

  inst.apply_expert_schedule = [=](const Target& target) mutable {
    if (target.has_gpu_feature()) return;  // CPU-only expert schedule
    const int v = lanes(target, Float(32));
    Var yo("yo"), yi("yi");
    // The remap table is tiny: compute once. Every pyramid level is computed root (each
    // level is read at overlapping, strided positions by the next, so inlining would
    // recompute it ~9x), parallel over rows and vectorized along x; the horizontal pass of
    // each down/upsampling is computed per row of the root Func that consumes it, so it
    // lives in L1. Laplacian levels are inlined into the interpolation: they are read at
    // two data-dependent intensity levels and cost one subtraction.
    remap.compute_root().vectorize(i, v);
    auto root = [&](Func f) {
      f.compute_root().parallel(y).vectorize(x, v);
      if (f.has_update_definition()) f.update().parallel(y).vectorize(x, v);
    };
    root(processed);
    for (int j = 1; j < kPyramid; j++) {
      root(g_pyr[j]);
      root(in_pyr[j]);
    }
    for (int j = 1; j < kPyramid - 1; j++) root(out_g[j]);
    output.split(y, yo, yi, 16).parallel(yo).vectorize(x, v);
    // Vertical upsampling passes (reductions, so not inlinable) are computed per row of
    // the root Func that consumes them, like the horizontal passes.
    for (auto [pass, consumer] : row_passes) {
      Var at = consumer.name() == output.name() ? yi : y;
      pass.compute_at(consumer, at).vectorize(x, v);
      pass.update().vectorize(x, v);
    }
    for (auto [vertical, consumer] : up_passes) {
      Var at = consumer.name() == output.name() ? yi : y;
      vertical.compute_at(consumer, at).vectorize(x, v);
      vertical.update().vectorize(x, v);
    }
  };
  return inst;
}

}  // namespace

App make_local_laplacian_app() {
  return {"local_laplacian",
          "local Laplacian filter (8 intensity levels, 2 pyramid levels) of a 96x96 image",
          build};
}

}  // namespace candor::apps::detail
