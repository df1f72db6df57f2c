// Global Reinhard tone mapping of a float HDR RGB image: the log-average luminance of the
// whole frame sets the exposure, a Reinhard curve with a white point compresses luminance,
// and the colour is gamma-encoded.
#include "corpus_generator.h"

namespace {

using namespace Halide;

class ReinhardTonemap : public Generator<ReinhardTonemap> {
 public:
  Input<Buffer<float>> input{"input", 3};
  Output<Buffer<float>> output{"output", 3};

  void generate() {
    const float key = 0.18f, white = 1.5f, gamma = 1.0f / 2.2f, delta = 1e-4f;

    lum(x, y) = 0.2126f * input(x, y, 0) + 0.7152f * input(x, y, 1) + 0.0722f * input(x, y, 2);

    // Log-average luminance over the whole image.
    pixels = RDom(0, input.width(), 0, input.height(), "pixels");
    log_sum() = 0.0f;
    log_sum() += log(lum(pixels.x, pixels.y) + delta);
    Expr count = cast<float>(input.width() * input.height());
    log_avg() = exp(log_sum() / count);

    // The per-pixel ratio of the compressed luminance to the original one.
    Expr l = lum(x, y) * (key / log_avg());
    Expr ld = l * (1.0f + l * (1.0f / (white * white))) / (1.0f + l);
    ratio(x, y) = ld / (lum(x, y) + delta);

    Expr mapped = clamp(input(x, y, c) * ratio(x, y), 0.0f, 1.0f);
    output(x, y, c) = pow(mapped, gamma);

    input.set_estimates({{0, 2048}, {0, 1536}, {0, 3}});
    output.set_estimates({{0, 2048}, {0, 1536}, {0, 3}});
  }

  void schedule() {
    if (auto_schedule) return;
    const int v = natural_vector_size<float>();
    // The global sum is split into vector lanes and bands of rows that are reduced in
    // parallel (rfactor); the tone curve then runs in strips of rows, with the per-pixel
    // ratio computed once per row and shared by the three channels.
    RVar rxo{"rxo"}, rxi{"rxi"}, ryo{"ryo"}, ryi{"ryi"};
    Var lane{"lane"}, band{"band"};
    Func partial = log_sum.update()
                       .split(pixels.x, rxo, rxi, v)
                       .split(pixels.y, ryo, ryi, 32)
                       .rfactor({{rxi, lane}, {ryo, band}});
    partial.compute_root().vectorize(lane);
    partial.update().reorder(lane, rxo, ryi, band).vectorize(lane).parallel(band);
    log_sum.compute_root();
    log_avg.compute_root();

    output.split(y, yo, yi, 16).reorder(x, c, yi, yo).parallel(yo).vectorize(x, v * 2);
    ratio.compute_at(output, yi).vectorize(x, v * 2);
  }

 private:
  Var x{"x"}, y{"y"}, c{"c"}, yo{"yo"}, yi{"yi"};
  Func lum{"lum"}, log_sum{"log_sum"}, log_avg{"log_avg"}, ratio{"ratio"};
  RDom pixels;
};

}  // namespace

CANDOR_CORPUS_GENERATOR(ReinhardTonemap, reinhard_tonemap, "Reinhard global tone mapping: log-average luminance reduction, tone curve, gamma, float RGB 2048x1536")
