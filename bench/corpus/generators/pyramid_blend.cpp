// Laplacian-pyramid blending of two float grayscale images under a float mask (Burt and
// Adelson): 5-level Gaussian pyramids with a 1-4-6-4-1 kernel, Laplacian levels from the
// upsampled coarser level, a per-level blend by the mask's Gaussian pyramid, and a collapse.
#include "corpus_generator.h"

namespace {

using namespace Halide;

class PyramidBlend : public Generator<PyramidBlend> {
 public:
  Input<Buffer<float>> image_a{"image_a", 2};
  Input<Buffer<float>> image_b{"image_b", 2};
  Input<Buffer<float>> mask{"mask", 2};  // weight of image_a
  Output<Buffer<float>> output{"output", 2};

  void generate() {
    gauss_a = gaussian_pyramid(BoundaryConditions::repeat_edge(image_a), "a");
    gauss_b = gaussian_pyramid(BoundaryConditions::repeat_edge(image_b), "b");
    gauss_m = gaussian_pyramid(BoundaryConditions::repeat_edge(mask), "m");

    // Blend the Laplacian levels; the coarsest level is the Gaussian residual itself.
    std::vector<Func> blended(levels);
    for (int j = 0; j < levels; j++) {
      Expr la = gauss_a[j](x, y), lb = gauss_b[j](x, y);
      if (j < levels - 1) {
        Func up_a = upsample(gauss_a[j + 1], "up_a_" + std::to_string(j));
        Func up_b = upsample(gauss_b[j + 1], "up_b_" + std::to_string(j));
        la -= up_a(x, y);
        lb -= up_b(x, y);
      }
      blended[j] = Func("blended_" + std::to_string(j));
      blended[j](x, y) = lerp(lb, la, gauss_m[j](x, y));
    }

    // Collapse from the coarsest level up.
    collapsed.resize(levels);
    collapsed[levels - 1] = blended[levels - 1];
    for (int j = levels - 2; j >= 0; j--) {
      Func up = upsample(collapsed[j + 1], "up_collapsed_" + std::to_string(j));
      collapsed[j] = Func("collapsed_" + std::to_string(j));
      collapsed[j](x, y) = blended[j](x, y) + up(x, y);
    }
    output(x, y) = collapsed[0](x, y);

    image_a.set_estimates({{0, 2048}, {0, 1536}});
    image_b.set_estimates({{0, 2048}, {0, 1536}});
    mask.set_estimates({{0, 2048}, {0, 1536}});
    output.set_estimates({{0, 2048}, {0, 1536}});
  }

  void schedule() {
    if (auto_schedule) return;
    const int v = natural_vector_size<float>();
    // Every pyramid level is computed at the root in parallel strips of rows, its
    // horizontal pass per strip; the Laplacian, blend and upsampling are inlined into the
    // collapse, whose upsampling is split into (even, odd) phases to drop the selects.
    for (std::vector<Func>* pyramid : {&gauss_a, &gauss_b, &gauss_m}) {
      for (int j = 1; j < levels; j++) {
        Func level = (*pyramid)[j];
        const int strip = std::max(4, 32 >> j);
        level.compute_root().split(y, yo, yi, strip).parallel(yo).vectorize(x, v);
        down_x.at(level.name()).compute_at(level, yo).vectorize(x, v);
      }
    }
    for (int j = levels - 2; j >= 0; j--) {
      Func level = j == 0 ? Func(output) : collapsed[j];
      if (j > 0) level.compute_root();
      level.split(y, yo, yi, 2 * std::max(4, 32 >> j))
          .split(yi, yi, phase_y, 2)
          .split(x, xo, phase_x, 2)
          .reorder(phase_x, xo, phase_y, yi, yo)
          .unroll(phase_x)
          .unroll(phase_y)
          .vectorize(xo, v)
          .parallel(yo);
    }
  }

 private:
  static constexpr int levels = 5;
  Var x{"x"}, y{"y"}, yo{"yo"}, yi{"yi"}, xo{"xo"}, phase_x{"phase_x"}, phase_y{"phase_y"};
  std::vector<Func> gauss_a, gauss_b, gauss_m, collapsed;
  std::map<std::string, Func> down_x;  // the horizontal pass of each downsampled level

  std::vector<Func> gaussian_pyramid(Func base, const std::string& tag) {
    std::vector<Func> pyramid(levels);
    pyramid[0] = Func("gauss_" + tag + "_0");
    pyramid[0](x, y) = base(x, y);
    for (int j = 1; j < levels; j++) {
      const std::string name = "gauss_" + tag + "_" + std::to_string(j);
      Func prev = pyramid[j - 1];
      Func dx(name + "_x");
      dx(x, y) = (prev(2 * x - 2, y) + prev(2 * x + 2, y) + 4.0f * (prev(2 * x - 1, y) + prev(2 * x + 1, y)) +
                  6.0f * prev(2 * x, y)) *
                 (1.0f / 16.0f);
      pyramid[j] = Func(name);
      pyramid[j](x, y) =
          (dx(x, 2 * y - 2) + dx(x, 2 * y + 2) + 4.0f * (dx(x, 2 * y - 1) + dx(x, 2 * y + 1)) + 6.0f * dx(x, 2 * y)) *
          (1.0f / 16.0f);
      down_x[pyramid[j].name()] = dx;
    }
    return pyramid;
  }

  // The transpose of the 1-4-6-4-1 downsampling: even samples (1 6 1) / 8, odd ones (4 4) / 8.
  Func upsample(Func coarse, const std::string& name) {
    Func ux(name + "_x"), uy(name);
    Expr i = x / 2;
    ux(x, y) = select(x % 2 == 0, (coarse(i - 1, y) + 6.0f * coarse(i, y) + coarse(i + 1, y)) * 0.125f,
                      (coarse(i, y) + coarse(i + 1, y)) * 0.5f);
    Expr k = y / 2;
    uy(x, y) = select(y % 2 == 0, (ux(x, k - 1) + 6.0f * ux(x, k) + ux(x, k + 1)) * 0.125f,
                      (ux(x, k) + ux(x, k + 1)) * 0.5f);
    return uy;
  }
};

}  // namespace

CANDOR_CORPUS_GENERATOR(PyramidBlend, pyramid_blend, "Laplacian-pyramid blend of two float gray 2048x1536 images by a mask, 5 levels, 1-4-6-4-1 kernel")
