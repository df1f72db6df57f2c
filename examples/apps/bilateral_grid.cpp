// Bilateral grid (Chen, Paris, Durand 2007): splat the image into a coarse 3-D grid
// (space downsampled by s_sigma, intensity by r_sigma) accumulating (value, weight),
// blur the grid along z, x and y, then slice it trilinearly at every pixel and normalize.
// The grid blurs are [1 2 1] (Halide's classic app uses 5 taps): unscheduled, each output
// pixel re-splats every grid cell it reads, 8 corners x 27 blur taps of them.
#include "app_util.h"

namespace candor::apps::detail {

using namespace Halide;

namespace {

constexpr int kWidth = 128, kHeight = 128;
constexpr int kSigmaS = 8;

AppInstance build() {
  AppInstance inst;
  ImageParam input(Float(32), 2, "input");
  bind_input(input, natural_image({kWidth, kHeight}, 1515));
  inst.inputs = {input};
  Param<float> r_sigma("r_sigma", 0.1f);
  r_sigma.set_estimate(0.1f);
  inst.scalar_params = {r_sigma.parameter()};

  Var x("x"), y("y"), z("z"), c("c");
  Func clamped("input_clamped");
  {
    // Clamp values too: the grid's z range is then known from r_sigma.
    Func edge = repeat_edge_xy(input, "input_edge");
    clamped(x, y) = clamp(edge(x, y), 0.0f, 1.0f);
    inst.funcs.emplace("input_edge", edge);
  }
  // Splat: cell (x, y) gathers its s_sigma x s_sigma pixels, each into the z bin of its value.
  Func grid("grid");
  RDom r(0, kSigmaS, 0, kSigmaS, "r");
  {
    Expr val = clamped(x * kSigmaS + r.x - kSigmaS / 2, y * kSigmaS + r.y - kSigmaS / 2);
    Expr zi = cast<int>(val / r_sigma + 0.5f);
    grid(x, y, z, c) = 0.0f;
    grid(x, y, zi, c) += select(c == 0, val, 1.0f);
  }
  Func blur_z("blur_z"), blur_x("blur_x"), blur_y("blur_y");
  blur_z(x, y, z, c) = grid(x, y, z - 1, c) + 2.0f * grid(x, y, z, c) + grid(x, y, z + 1, c);
  blur_x(x, y, z, c) = blur_z(x - 1, y, z, c) + 2.0f * blur_z(x, y, z, c) + blur_z(x + 1, y, z, c);
  blur_y(x, y, z, c) = blur_x(x, y - 1, z, c) + 2.0f * blur_x(x, y, z, c) + blur_x(x, y + 1, z, c);
  // Slice: trilinear interpolation at (x / s, y / s, value / r_sigma).
  Func interpolated("interpolated"), output("bilateral_grid");
  {
    Expr zv = clamped(x, y) / r_sigma;
    Expr zi = cast<int>(floor(zv));
    Expr zf = zv - zi;
    Expr xf = cast<float>(x % kSigmaS) / kSigmaS, yf = cast<float>(y % kSigmaS) / kSigmaS;
    Expr xi = x / kSigmaS, yi = y / kSigmaS;
    auto at = [&](Expr dx, Expr dy, Expr dz) { return blur_y(xi + dx, yi + dy, zi + dz, c); };
    auto lerp1 = [](Expr a, Expr b, Expr t) { return a + t * (b - a); };
    interpolated(x, y, c) =
        lerp1(lerp1(lerp1(at(0, 0, 0), at(1, 0, 0), xf), lerp1(at(0, 1, 0), at(1, 1, 0), xf), yf),
              lerp1(lerp1(at(0, 0, 1), at(1, 0, 1), xf), lerp1(at(0, 1, 1), at(1, 1, 1), xf), yf), zf);
  }
  output(x, y) = interpolated(x, y, 0) / interpolated(x, y, 1);

  set_output_estimates(output, {kWidth, kHeight});
  inst.outputs = {output};
  inst.output_sizes = {{kWidth, kHeight}};
  register_funcs(inst, {clamped, grid, blur_z, blur_x, blur_y, interpolated, output});

  inst.apply_expert_schedule = [=](const Target& target) mutable {
    if (target.has_gpu_feature()) return;  // CPU-only expert schedule
    const int v = lanes(target, Float(32));
    Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
    // The grid is small (W/8 x H/8 x ~12 x 2): splat once, one grid row per task (the
    // scatter along z is serial per cell, so parallelize over y). Each blur pass is
    // computed root, vectorized along x and parallel over y (the grid is too small to
    // gain from fusing). Slicing is pure per-pixel work: tiles in parallel, vectorized,
    // with the two interpolated channels computed together.
    grid.compute_root().reorder(c, z, x, y).parallel(y);
    grid.update().reorder(c, r.x, r.y, x, y).parallel(y);
    for (Func f : {blur_z, blur_x, blur_y}) f.compute_root().reorder(c, x, y, z).parallel(z).vectorize(x, v);
    output.tile(x, y, xo, yo, xi, yi, 64, 16).parallel(yo).vectorize(xi, v);
    interpolated.compute_at(output, xo).bound(c, 0, 2).reorder(c, x, y).unroll(c).vectorize(x, v);
  };
  return inst;
}

}  // namespace

App make_bilateral_grid_app() {
  return {"bilateral_grid", "bilateral grid filter (s_sigma 8, r_sigma 0.1) of a 128x128 image", build};
}

}  // namespace candor::apps::detail
