// 3x3 median filter of an 8-bit RGB image: each column of three is sorted, then the median
// of nine is the median of (max of the lows, median of the mids, min of the highs).
#include "corpus_generator.h"

namespace {

using namespace Halide;

Expr median3(Expr a, Expr b, Expr c) { return max(min(a, b), min(max(a, b), c)); }

class Median3x3 : public Generator<Median3x3> {
 public:
  Input<Buffer<uint8_t>> input{"input", 3};
  Output<Buffer<uint8_t>> output{"output", 3};

  void generate() {
    clamped = BoundaryConditions::repeat_edge(input);

    Expr a = clamped(x, y - 1, c), b = clamped(x, y, c), d = clamped(x, y + 1, c);
    col_lo(x, y, c) = min(min(a, b), d);
    col_mid(x, y, c) = median3(a, b, d);
    col_hi(x, y, c) = max(max(a, b), d);

    Expr lo = max(max(col_lo(x - 1, y, c), col_lo(x, y, c)), col_lo(x + 1, y, c));
    Expr mid = median3(col_mid(x - 1, y, c), col_mid(x, y, c), col_mid(x + 1, y, c));
    Expr hi = min(min(col_hi(x - 1, y, c), col_hi(x, y, c)), col_hi(x + 1, y, c));
    output(x, y, c) = median3(lo, mid, hi);

    input.set_estimates({{0, 1920}, {0, 1080}, {0, 3}});
    output.set_estimates({{0, 1920}, {0, 1080}, {0, 3}});
  }

  void schedule() {
    if (auto_schedule) return;
    const int v = natural_vector_size<uint8_t>();
    // Strips of rows per core. The clamped input is copied per strip and channel, so that
    // the sorting network reads it with dense vector loads instead of clamped gathers; the
    // column sorts are a few byte min/max each, cheaper to redo in registers than to store.
    output.split(y, yo, yi, 32).reorder(x, yi, c, yo).parallel(yo).vectorize(x, v);
    clamped.compute_at(output, c).vectorize(_0, v);
  }

 private:
  Var x{"x"}, y{"y"}, c{"c"}, yo{"yo"}, yi{"yi"};
  Func clamped{"clamped"};
  Func col_lo{"col_lo"}, col_mid{"col_mid"}, col_hi{"col_hi"};
};

}  // namespace

CANDOR_CORPUS_GENERATOR(Median3x3, median3x3_u8, "3x3 median by a min/max sorting network, uint8 RGB 1920x1080")
