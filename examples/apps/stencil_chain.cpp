// A chain of four 5-point stencils on a 16-bit image (each stage a weighted average of a
// pixel and its four neighbours, with exact integer rounding), as in Halide's
// stencil-chain benchmark but with cross-shaped stencils.
#include "app_util.h"

namespace candor::apps::detail {

using namespace Halide;

namespace {

constexpr int kWidth = 1024, kHeight = 1024;
constexpr int kStages = 4;

AppInstance build() {
  AppInstance inst;
  ImageParam input(UInt(16), 2, "input");
  bind_input(input, natural_image_u16({kWidth, kHeight}, 1010, 65535));
  inst.inputs = {input};

  Var x("x"), y("y");
  std::vector<Func> stages;
  stages.push_back(repeat_edge_xy(input, "input_clamped"));
  for (int s = 1; s <= kStages; s++) {
    Func prev = stages.back();
    Func f("stage_" + std::to_string(s));
    // Centre weight alternates 4 and 2 so consecutive stages differ; weights sum to 8 or 6.
    const int centre = (s % 2) ? 4 : 2;
    Expr sum = centre * cast<uint32_t>(prev(x, y)) + prev(x - 1, y) + prev(x + 1, y) +
               prev(x, y - 1) + prev(x, y + 1);
    f(x, y) = cast<uint16_t>((sum + (centre + 4) / 2) / (centre + 4));
    stages.push_back(f);
  }
  Func output = stages.back();

  set_output_estimates(output, {kWidth, kHeight});
  inst.outputs = {output};
  inst.output_sizes = {{kWidth, kHeight}};
  register_funcs(inst, stages);

  inst.apply_expert_schedule = [=](const Target& target) mutable {
    if (target.has_gpu_feature()) return;  // CPU-only expert schedule
    const int v = lanes(target, UInt(16));
    Var yo("yo"), yi("yi");
    // Strips of rows per core; inside a strip every stage slides down the rows (stored
    // for the strip, computed one row at a time just ahead of its consumer), so each stage
    // is evaluated once per pixel and only a few rows of each are live.
    output.split(y, yo, yi, 64).parallel(yo).vectorize(x, v);
    for (size_t s = 1; s + 1 < stages.size(); s++) {
      Func f = stages[s];
      f.store_at(output, yo).compute_at(output, yi).vectorize(x, v);
    }
  };
  return inst;
}

}  // namespace

App make_stencil_chain_app() {
  return {"stencil_chain", "chain of four 5-point stencils on a 1024x1024 16-bit image", build};
}

}  // namespace candor::apps::detail
