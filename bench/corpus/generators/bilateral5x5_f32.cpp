// A brute-force bilateral filter of a float grayscale image over a 5x5 window: each tap is
// weighted by a spatial Gaussian and a Gaussian of its difference from the centre pixel.
#include "corpus_generator.h"

namespace {

using namespace Halide;

class Bilateral5x5 : public Generator<Bilateral5x5> {
 public:
  Input<Buffer<float>> input{"input", 2};
  Output<Buffer<float>> output{"output", 2};

  void generate() {
    const float sigma_s = 1.5f, sigma_r = 0.1f;
    clamped = BoundaryConditions::repeat_edge(input);

    // The spatial weights depend on the tap offset only: a 5x5 table.
    spatial(dx, dy) = exp(-cast<float>(dx * dx + dy * dy) * (0.5f / (sigma_s * sigma_s)));

    r = RDom(-2, 5, -2, 5, "r");
    Expr centre = clamped(x, y);
    Expr sample = clamped(x + r.x, y + r.y);
    Expr d = sample - centre;
    Expr w = spatial(r.x + 2, r.y + 2) * exp(-d * d * (0.5f / (sigma_r * sigma_r)));
    // Sum of weights and weighted sum of samples, accumulated together.
    acc(x, y) = Tuple(0.0f, 0.0f);
    acc(x, y) = Tuple(acc(x, y)[0] + w, acc(x, y)[1] + w * sample);

    output(x, y) = acc(x, y)[1] / acc(x, y)[0];

    input.set_estimates({{0, 1920}, {0, 1080}});
    output.set_estimates({{0, 1920}, {0, 1080}});
  }

  void schedule() {
    if (auto_schedule) return;
    const int v = natural_vector_size<float>();
    // Strips of rows per core; the 25 exp() per pixel dominate, so each vector of output
    // keeps both sums in registers over the window (rows unrolled, one vector wide to leave
    // registers for exp), and the spatial table is computed once up front.
    spatial.compute_root();
    output.split(y, yo, yi, 16).parallel(yo).vectorize(x, v);
    acc.compute_at(output, x).vectorize(x);
    acc.update().reorder(x, r.x, r.y).vectorize(x).unroll(r.x);
  }

 private:
  Var x{"x"}, y{"y"}, dx{"dx"}, dy{"dy"}, yo{"yo"}, yi{"yi"};
  Func clamped{"clamped"}, spatial{"spatial"}, acc{"acc"};
  RDom r;
};

}  // namespace

CANDOR_CORPUS_GENERATOR(Bilateral5x5, bilateral5x5_f32, "brute-force 5x5 bilateral filter (spatial and range Gaussians via exp), float gray 1920x1080")
