// Harris corner response: luminance, Sobel gradients, structure tensor products summed over
// a 3x3 window, and det - k * trace^2.
#include "app_util.h"

namespace candor::apps::detail {

using namespace Halide;

namespace {

constexpr int kWidth = 1024, kHeight = 1024;

AppInstance build() {
  AppInstance inst;
  ImageParam input(Float(32), 3, "input");
  bind_input(input, natural_image({kWidth, kHeight, 3}, 303));
  inst.inputs = {input};

  Var x("x"), y("y");
  Func clamped = repeat_edge_xy(input, "input_clamped");
  Func gray("gray"), ix("grad_x"), iy("grad_y"), ixx("grad_xx"), iyy("grad_yy"), ixy("grad_xy"),
      sxx("sum_xx"), syy("sum_yy"), sxy("sum_xy"), output("harris");
  gray(x, y) = 0.299f * clamped(x, y, 0) + 0.587f * clamped(x, y, 1) + 0.114f * clamped(x, y, 2);
  // Sobel operators (scaled by 1/12 as in the common formulation).
  ix(x, y) = (gray(x + 1, y - 1) - gray(x - 1, y - 1) + 2.0f * (gray(x + 1, y) - gray(x - 1, y)) +
              gray(x + 1, y + 1) - gray(x - 1, y + 1)) / 12.0f;
  iy(x, y) = (gray(x - 1, y + 1) - gray(x - 1, y - 1) + 2.0f * (gray(x, y + 1) - gray(x, y - 1)) +
              gray(x + 1, y + 1) - gray(x + 1, y - 1)) / 12.0f;
  ixx(x, y) = ix(x, y) * ix(x, y);
  iyy(x, y) = iy(x, y) * iy(x, y);
  ixy(x, y) = ix(x, y) * iy(x, y);
  auto box3 = [&](Func f) {
    Expr s = 0.0f;
    for (int dy = -1; dy <= 1; dy++)
      for (int dx = -1; dx <= 1; dx++) s += f(x + dx, y + dy);
    return s;
  };
  sxx(x, y) = box3(ixx);
  syy(x, y) = box3(iyy);
  sxy(x, y) = box3(ixy);
  Expr det = sxx(x, y) * syy(x, y) - sxy(x, y) * sxy(x, y);
  Expr trace = sxx(x, y) + syy(x, y);
  output(x, y) = det - 0.04f * trace * trace;

  set_output_estimates(output, {kWidth, kHeight});
  inst.outputs = {output};
  inst.output_sizes = {{kWidth, kHeight}};
  register_funcs(inst, {clamped, gray, ix, iy, ixx, iyy, ixy, sxx, syy, sxy, output});

  inst.apply_expert_schedule = [=](const Target& target) mutable {
    if (target.has_gpu_feature()) return;  // CPU-only expert schedule
    const int v = lanes(target, Float(32));
    Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
    // Tiles small enough that gray and the gradients of a tile (plus halo) stay in L1/L2;
    // the per-pixel products and 3x3 sums are inlined into the response (recomputing a
    // product is cheaper than storing and reloading it).
    output.tile(x, y, xo, yo, xi, yi, 128, 32).parallel(yo).vectorize(xi, v);
    gray.compute_at(output, xo).vectorize(x, v);
    ix.compute_at(output, xo).vectorize(x, v);
    iy.compute_at(output, xo).vectorize(x, v);
  };
  return inst;
}

}  // namespace

App make_harris_app() {
  return {"harris", "Harris corner response of a 1024x1024 RGB image", build};
}

}  // namespace candor::apps::detail
