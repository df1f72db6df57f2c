// Global histogram equalization of an 8-bit grayscale image: a 256-bin histogram over the
// whole image, its cumulative distribution by a scan, and the resulting LUT applied.
#include "corpus_generator.h"

namespace {

using namespace Halide;

class HistEqualize : public Generator<HistEqualize> {
 public:
  Input<Buffer<uint8_t>> input{"input", 2};
  Output<Buffer<uint8_t>> output{"output", 2};

  void generate() {
    pixels = RDom(0, input.width(), 0, input.height());
    hist(i) = 0;
    hist(clamp(cast<int>(input(pixels.x, pixels.y)), 0, 255)) += 1;

    RDom b(1, 255);
    cdf(i) = hist(0);
    cdf(b) = cdf(b - 1) + hist(b);

    Expr total = cast<uint32_t>(input.width() * input.height());
    Expr scaled = (cast<uint32_t>(cdf(i)) * 255 + total / 2) / total;
    lut(i) = cast<uint8_t>(min(scaled, 255));

    output(x, y) = lut(input(x, y));

    input.set_estimates({{0, 2560}, {0, 1600}});
    output.set_estimates({{0, 2560}, {0, 1600}});
  }

  void schedule() {
    if (auto_schedule) return;
    const int vi = natural_vector_size<int32_t>();
    const int v = natural_vector_size<uint8_t>();
    // The histogram is split into partial histograms over bands of rows, counted in
    // parallel and summed with vectors; the scan and the LUT are tiny and serial.
    RVar ryo{"ryo"}, ryi{"ryi"};
    Var band{"band"};
    Func partial = hist.update().split(pixels.y, ryo, ryi, 64).rfactor(ryo, band);
    partial.compute_root().vectorize(i, vi);
    partial.update().parallel(band);
    hist.compute_root().vectorize(i, vi);
    hist.update().vectorize(i, vi);
    cdf.compute_root();
    lut.compute_root().vectorize(i, vi);
    output.split(y, yo, yi, 64).parallel(yo).vectorize(x, v);
  }

 private:
  Var x{"x"}, y{"y"}, i{"i"}, yo{"yo"}, yi{"yi"};
  Func hist{"hist"}, cdf{"cdf"}, lut{"lut"};
  RDom pixels;
};

}  // namespace

CANDOR_CORPUS_GENERATOR(HistEqualize, hist_equalize_u8, "histogram equalization: parallel 256-bin histogram, CDF scan, LUT, uint8 2560x1600")
