// First-order exponential (IIR) smoothing of a float RGB image: a causal and an anti-causal
// recursive pass along each row, then the same along each column, as RDom scans.
#include "corpus_generator.h"

namespace {

using namespace Halide;

class IirRowsCols : public Generator<IirRowsCols> {
 public:
  Input<Buffer<float>> input{"input", 3};
  Output<Buffer<float>> output{"output", 3};

  void generate() {
    const float a = 0.7f, b = 1.0f - a;  // feedback and gain of y[n] = b x[n] + a y[n-1]
    Expr w = input.width(), h = input.height();

    // Rows: forward along x, then backward.
    rx = RDom(1, w - 1, "rx");
    row_fwd(x, y, c) = input(x, y, c);
    row_fwd(rx, y, c) = b * input(rx, y, c) + a * row_fwd(rx - 1, y, c);
    rxb = RDom(0, w - 1, "rxb");
    Expr xb = w - 2 - rxb;  // w - 2 down to 0
    row_bwd(x, y, c) = row_fwd(x, y, c);
    row_bwd(xb, y, c) = b * row_fwd(xb, y, c) + a * row_bwd(xb + 1, y, c);

    // Columns: forward along y, then backward.
    RDom ry(1, h - 1, "ry");
    col_fwd(x, y, c) = row_bwd(x, y, c);
    col_fwd(x, ry, c) = b * row_bwd(x, ry, c) + a * col_fwd(x, ry - 1, c);
    ryb = RDom(0, h - 1, "ryb");
    Expr yb = h - 2 - ryb;
    col_bwd(x, y, c) = col_fwd(x, y, c);
    col_bwd(x, yb, c) = b * col_fwd(x, yb, c) + a * col_bwd(x, yb + 1, c);

    output(x, y, c) = col_bwd(x, y, c);

    input.set_estimates({{0, 1920}, {0, 1080}, {0, 3}});
    output.set_estimates({{0, 1920}, {0, 1080}, {0, 3}});
  }

  void schedule() {
    if (auto_schedule) return;
    const int v = natural_vector_size<float>();
    // The row scans run on bands of rows, vectorized across the rows of a band: the band is
    // transposed into scratch (y innermost) so that each step of a scan loads and stores
    // whole vectors, and transposed back by a copy; the column scans run on strips of
    // columns, vectorized along x.
    Var xi{"xi"}, yi{"yi"}, xo{"xo"}, yo{"yo"}, t{"t"};
    Func rows = row_bwd.in(col_fwd);
    rows.compute_root()
        .split(y, yo, yi, v)
        .reorder(x, yi, yo, c)
        .fuse(yo, c, t)
        .parallel(t)
        .split(x, xo, xi, v)
        .reorder(xi, yi, xo, t)
        .vectorize(xi)
        .vectorize(yi);
    row_bwd.compute_at(rows, t).reorder_storage(y, x, c).vectorize(y, v);
    row_bwd.update().reorder(y, rxb).vectorize(y, v);
    row_fwd.compute_at(rows, t).reorder_storage(y, x, c).vectorize(y, v);
    row_fwd.update().reorder(y, rx).vectorize(y, v);
    Func in_t = input.in(row_fwd);
    const std::vector<Var> a = in_t.args();  // (x, y, c) of the copy
    in_t.compute_at(rows, t)
        .reorder_storage(a[1], a[0], a[2])
        .split(a[0], xo, xi, v)
        .split(a[1], yo, yi, v)
        .reorder(xi, yi, xo, yo)
        .vectorize(xi)
        .vectorize(yi);

    output.split(x, xo, xi, v * 2)
        .reorder(xi, y, xo, c)
        .fuse(xo, c, t)
        .parallel(t)
        .vectorize(xi, v);
    col_bwd.compute_at(output, t).vectorize(x, v);
    col_bwd.update().vectorize(x, v);
    col_fwd.compute_at(output, t).vectorize(x, v);
    col_fwd.update().vectorize(x, v);
  }

 private:
  Var x{"x"}, y{"y"}, c{"c"};
  RDom rx, rxb, ryb;
  Func row_fwd{"row_fwd"}, row_bwd{"row_bwd"}, col_fwd{"col_fwd"}, col_bwd{"col_bwd"};
};

}  // namespace

CANDOR_CORPUS_GENERATOR(IirRowsCols, iir_rows_cols, "first-order causal + anti-causal IIR smoothing along rows then columns via RDom scans, float RGB 1920x1080")
