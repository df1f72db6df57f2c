// 3x3 box blur of a 16-bit image, as two separable passes (the first Halide tutorial app).
#include "app_util.h"

namespace candor::apps::detail {

using namespace Halide;

namespace {

constexpr int kWidth = 1536, kHeight = 1536;

AppInstance build() {
  AppInstance inst;
  ImageParam input(UInt(16), 2, "input");
  bind_input(input, natural_image_u16({kWidth, kHeight}, 101, 65535));
  inst.inputs = {input};

  Var x("x"), y("y");
  Func clamped = repeat_edge_xy(input, "input_clamped");
  Func blur_x("blur_x"), blur_y("blur_y");
  // Sum in 32 bits, then divide: exact integer semantics whatever the schedule.
  Expr wide = cast<uint32_t>(clamped(x - 1, y)) + clamped(x, y) + clamped(x + 1, y);
  blur_x(x, y) = cast<uint16_t>(wide / 3);
  blur_y(x, y) = cast<uint16_t>((cast<uint32_t>(blur_x(x, y - 1)) + blur_x(x, y) + blur_x(x, y + 1)) / 3);

  set_output_estimates(blur_y, {kWidth, kHeight});
  inst.outputs = {blur_y};
  inst.output_sizes = {{kWidth, kHeight}};
  register_funcs(inst, {clamped, blur_x, blur_y});

  inst.apply_expert_schedule = [=](const Target& target) mutable {
    if (target.has_gpu_feature()) return;  // CPU-only expert schedule
    const int v = lanes(target, UInt(16));
    Var xi("xi"), yi("yi"), yo("yo");
    // Strips of rows across the two cores; blur_x is produced a row at a time inside the
    // strip (sliding window over y: each row of blur_x is computed once and kept in a
    // 3-row circular buffer), so the intermediate stays in L1.
    blur_y.split(y, yo, yi, 32).parallel(yo).vectorize(x, v);
    blur_x.store_at(blur_y, yo).compute_at(blur_y, yi).vectorize(x, v);
  };
  return inst;
}

}  // namespace

App make_box_blur_app() {
  return {"box_blur", "3x3 box blur of a 16-bit 1536x1536 image in two separable passes", build};
}

}  // namespace candor::apps::detail
