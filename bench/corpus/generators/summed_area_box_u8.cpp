// Large box blur (radius 8) of an 8-bit grayscale image through a summed-area table: a
// row scan and a column scan in uint32 over the edge-clamped image, then four lookups each.
#include "corpus_generator.h"

namespace {

using namespace Halide;

class SummedAreaBox : public Generator<SummedAreaBox> {
 public:
  Input<Buffer<uint8_t>> input{"input", 2};
  Output<Buffer<uint8_t>> output{"output", 2};

  void generate() {
    const int radius = 8;
    const int area = (2 * radius + 1) * (2 * radius + 1);
    Func clamped = BoundaryConditions::repeat_edge(input);

    // The table covers the image plus the box's reach on every side, so that every lookup
    // lands inside it and every box sums exactly `area` (edge-replicated) pixels.
    const Expr x0 = -radius - 1, y0 = -radius - 1;
    RDom rx(x0 + 1, input.width() + 2 * radius);
    RDom ry(y0 + 1, input.height() + 2 * radius);

    // Built in place: each row is prefix-summed, then each column.
    sat(x, y) = cast<uint32_t>(clamped(x, y));
    sat(rx, y) += sat(rx - 1, y);
    sat(x, ry) += sat(x, ry - 1);

    Expr sum = sat(x + radius, y + radius) - sat(x - radius - 1, y + radius) - sat(x + radius, y - radius - 1) +
               sat(x - radius - 1, y - radius - 1);
    output(x, y) = cast<uint8_t>((sum + area / 2) / area);

    input.set_estimates({{0, 2048}, {0, 1536}});
    output.set_estimates({{0, 2048}, {0, 1536}});
  }

  void schedule() {
    if (auto_schedule) return;
    const int v = natural_vector_size<uint32_t>();
    // The row scan is serial along x, so rows are split across cores; the column scan is
    // vectorized across x in parallel column strips, and the box pass reads the table in
    // row strips.
    sat.compute_root().split(y, yo, yi, 16).parallel(yo).vectorize(x, v);
    sat.update(0).split(y, yo, yi, 16).parallel(yo);
    sat.update(1).split(x, xo, xi, v * 8).parallel(xo).vectorize(xi, v);
    output.split(y, yo, yi, 32).parallel(yo).vectorize(x, v * 2);
  }

 private:
  Var x{"x"}, y{"y"}, xo{"xo"}, xi{"xi"}, yo{"yo"}, yi{"yi"};
  Func sat{"sat"};
};

}  // namespace

CANDOR_CORPUS_GENERATOR(SummedAreaBox, summed_area_box_u8, "radius-8 box blur from a uint32 summed-area table (two scans), uint8 2048x1536")
