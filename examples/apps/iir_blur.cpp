// Recursive (IIR) blur: a first-order causal + anticausal exponential filter down the
// columns, then the same along the rows. Each direction is one Func whose two update
// definitions are the forward and backward scans; the row pass is the output itself, so
// the unscheduled pipeline computes it once (a scan consumed by another Func is recomputed
// per consumer point when unscheduled, which would make the reference quartic).
#include "app_util.h"

namespace candor::apps::detail {

using namespace Halide;

namespace {

constexpr int kWidth = 256, kHeight = 256;

AppInstance build() {
  AppInstance inst;
  ImageParam input(Float(32), 2, "input");
  bind_input(input, natural_image({kWidth, kHeight}, 707));
  inst.inputs = {input};
  Param<float> alpha("alpha", 0.75f);  // feedback coefficient: larger = wider blur
  alpha.set_estimate(0.75f);
  inst.scalar_params = {alpha.parameter()};

  Var x("x"), y("y");
  Func clamped = repeat_edge_xy(input, "input_clamped");
  Expr width = input.dim(0).extent(), height = input.dim(1).extent();
  RDom ry(1, height - 1, "ry"), rx(1, width - 1, "rx");
  Func blur_y("blur_y"), output("iir_blur");
  blur_y(x, y) = clamped(x, y);
  blur_y(x, ry) = (1 - alpha) * blur_y(x, ry) + alpha * blur_y(x, ry - 1);
  blur_y(x, height - 1 - ry) = (1 - alpha) * blur_y(x, height - 1 - ry) + alpha * blur_y(x, height - ry);
  output(x, y) = blur_y(x, y);
  output(rx, y) = (1 - alpha) * output(rx, y) + alpha * output(rx - 1, y);
  output(width - 1 - rx, y) = (1 - alpha) * output(width - 1 - rx, y) + alpha * output(width - rx, y);

  set_output_estimates(output, {kWidth, kHeight});
  inst.outputs = {output};
  inst.output_sizes = {{kWidth, kHeight}};
  register_funcs(inst, {clamped, blur_y, output});

  inst.apply_expert_schedule = [=](const Target& target) mutable {
    if (target.has_gpu_feature()) return;  // CPU-only expert schedule
    const int v = lanes(target, Float(32));
    Var xo("xo"), xi("xi"), yo("yo"), yi("yi");
    // Column scans are independent across x: vectorize across x (dense loads along rows),
    // columns split among the cores. Row scans are independent across y: run them across
    // a vector of rows at a time (strided loads, but v independent dependency chains
    // instead of one latency-bound scalar chain), strips of rows per core.
    blur_y.compute_root().split(x, xo, xi, 4 * v).parallel(xo).vectorize(xi, v);
    for (int s = 0; s < 2; s++) {
      blur_y.update(s).split(x, xo, xi, 4 * v).parallel(xo).vectorize(xi, v);
    }
    output.split(y, yo, yi, 4 * v).parallel(yo).vectorize(x, v);
    for (int s = 0; s < 2; s++) {
      output.update(s).reorder(y, rx).split(y, yo, yi, 4 * v).parallel(yo).vectorize(yi, v);
    }
  };
  return inst;
}

}  // namespace

App make_iir_blur_app() {
  return {"iir_blur", "first-order recursive causal+anticausal blur in y then x, 256x256", build};
}

}  // namespace candor::apps::detail
