// Circular max filter (grayscale dilation with a disc of radius 6). Column maxima over
// power-of-two windows are built by doubling (vert_max_k covers rows [y, y + 2^k)); the
// column maximum over any window of length L is then the max of two overlapping
// power-of-two windows. The disc is the union, over each column offset dx, of a vertical
// window whose half-height depends on dx.
#include <cmath>

#include "app_util.h"

namespace candor::apps::detail {

using namespace Halide;

namespace {

constexpr int kWidth = 1024, kHeight = 1024;
constexpr int kRadius = 6;

AppInstance build() {
  AppInstance inst;
  ImageParam input(Float(32), 2, "input");
  bind_input(input, natural_image({kWidth, kHeight}, 909));
  inst.inputs = {input};

  Var x("x"), y("y");
  Func clamped = repeat_edge_xy(input, "input_clamped");
  // Levels needed: the longest window is 2 * kRadius + 1 rows.
  int levels = 0;
  while ((2 << levels) <= 2 * kRadius + 1) levels++;
  std::vector<Func> vert_max(levels + 1);
  vert_max[0] = clamped;
  for (int k = 1; k <= levels; k++) {
    vert_max[k] = Func("vert_max_" + std::to_string(k));
    vert_max[k](x, y) = max(vert_max[k - 1](x, y), vert_max[k - 1](x, y + (1 << (k - 1))));
  }
  Func output("max_filter");
  Expr result;
  for (int dx = -kRadius; dx <= kRadius; dx++) {
    const int half = static_cast<int>(std::floor(std::sqrt(double(kRadius * kRadius - dx * dx))));
    const int length = 2 * half + 1;
    int k = 0;
    while ((2 << k) <= length) k++;
    // Rows [y - half, y + half] = [y - half, y - half + 2^k) U [y + half - 2^k + 1, y + half].
    Expr column = max(vert_max[k](x + dx, y - half), vert_max[k](x + dx, y + half - (1 << k) + 1));
    result = result.defined() ? max(result, column) : column;
  }
  output(x, y) = result;

  set_output_estimates(output, {kWidth, kHeight});
  inst.outputs = {output};
  inst.output_sizes = {{kWidth, kHeight}};
  std::vector<Func> all = vert_max;
  all.push_back(output);
  register_funcs(inst, all);

  inst.apply_expert_schedule = [=](const Target& target) mutable {
    if (target.has_gpu_feature()) return;  // CPU-only expert schedule
    const int v = lanes(target, Float(32));
    Var yo("yo"), yi("yi");
    // Strips of rows in parallel; every level of the doubling pyramid is computed for the
    // strip (plus its vertical halo) so each level costs one max per pixel, and the
    // strips are short enough that the levels stay in L2.
    output.split(y, yo, yi, 32).parallel(yo).vectorize(x, v);
    for (int k = 1; k < static_cast<int>(vert_max.size()); k++) {
      Func f = vert_max[k];
      f.compute_at(output, yo).vectorize(x, v);
    }
  };
  return inst;
}

}  // namespace

App make_max_filter_app() {
  return {"max_filter", "circular max filter (radius 6) of a 1024x1024 image", build};
}

}  // namespace candor::apps::detail
