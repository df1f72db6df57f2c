// Sobel edge detector on an 8-bit grayscale image: separable 3x3 x and y gradients in
// int16 over a clamped border, L1 magnitude, thresholded and scaled back to 8 bits.
#include "corpus_generator.h"

namespace {

using namespace Halide;

class SobelEdges : public Generator<SobelEdges> {
 public:
  Input<Buffer<uint8_t>> input{"input", 2};
  Input<uint16_t> threshold{"threshold", 48};
  Output<Buffer<uint8_t>> output{"output", 2};

  void generate() {
    Func clamped = BoundaryConditions::repeat_edge(input);
    in16(x, y) = cast<int16_t>(clamped(x, y));

    // The vertical halves of the two kernels: [1 2 1] and [-1 0 1] down each column.
    smooth_y(x, y) = in16(x, y - 1) + 2 * in16(x, y) + in16(x, y + 1);
    diff_y(x, y) = in16(x, y + 1) - in16(x, y - 1);

    Expr gx = smooth_y(x + 1, y) - smooth_y(x - 1, y);
    Expr gy = diff_y(x - 1, y) + 2 * diff_y(x, y) + diff_y(x + 1, y);
    magnitude(x, y) = abs(gx) + abs(gy);  // uint16, at most 8 * 255

    Expr m = magnitude(x, y);
    output(x, y) = select(m < threshold, cast<uint8_t>(0), cast<uint8_t>(min(m >> 2, 255)));

    input.set_estimates({{0, 2560}, {0, 1536}});
    threshold.set_estimate(48);
    output.set_estimates({{0, 2560}, {0, 1536}});
  }

  void schedule() {
    if (auto_schedule) return;
    const int v = natural_vector_size<int16_t>();
    // Strips of rows per core; the two column passes are computed per strip with a one-row
    // halo and stay in cache while the row pass and the threshold read them.
    output.split(y, yo, yi, 32).parallel(yo).vectorize(x, v * 2);
    smooth_y.compute_at(output, yo).vectorize(x, v);
    diff_y.compute_at(output, yo).vectorize(x, v);
  }

 private:
  Var x{"x"}, y{"y"}, yo{"yo"}, yi{"yi"};
  Func in16{"in16"}, smooth_y{"smooth_y"}, diff_y{"diff_y"}, magnitude{"magnitude"};
};

}  // namespace

CANDOR_CORPUS_GENERATOR(SobelEdges, sobel_edges_u8, "Sobel edge magnitude, uint8 gray 2560x1536, int16 gradients, thresholded")
