// Three explicit time steps of the 3-D heat equation on a float volume: a 7-point Laplacian
// stencil per step, insulated (clamped) faces, each step a separate Func.
#include "corpus_generator.h"

namespace {

using namespace Halide;

class Heat3d : public Generator<Heat3d> {
 public:
  Input<Buffer<float>> input{"input", 3};
  Output<Buffer<float>> output{"output", 3};

  void generate() {
    const float alpha = 0.12f;  // diffusion number; stable below 1/6
    Func u = BoundaryConditions::repeat_edge(input);
    for (int s = 0; s < steps; s++) {
      Func next("step_" + std::to_string(s + 1));
      Expr neighbours = u(x - 1, y, z) + u(x + 1, y, z) + u(x, y - 1, z) + u(x, y + 1, z) +
                        u(x, y, z - 1) + u(x, y, z + 1);
      next(x, y, z) = u(x, y, z) + alpha * (neighbours - 6.0f * u(x, y, z));
      step.push_back(next);
      u = next;
    }
    output(x, y, z) = u(x, y, z);

    input.set_estimates({{0, 192}, {0, 192}, {0, 192}});
    output.set_estimates({{0, 192}, {0, 192}, {0, 192}});
  }

  void schedule() {
    if (auto_schedule) return;
    const int v = natural_vector_size<float>();
    // Slabs of z per core, swept plane by plane: each earlier step slides along z, keeping
    // only the few planes its consumer needs, in tiles of rows small enough for the cache.
    output.split(z, zo, zi, 16)
        .split(y, yo, yi, 32)
        .reorder(x, yi, zi, yo, zo)
        .fuse(yo, zo, t)
        .parallel(t)
        .vectorize(x, v);
    for (int s = steps - 2; s >= 0; s--) {
      step[s].store_at(output, t).compute_at(output, zi).vectorize(x, v);
    }
  }

 private:
  static constexpr int steps = 3;
  Var x{"x"}, y{"y"}, z{"z"}, yo{"yo"}, yi{"yi"}, zo{"zo"}, zi{"zi"}, t{"t"};
  std::vector<Func> step;
};

}  // namespace

CANDOR_CORPUS_GENERATOR(Heat3d, heat3d_stencil, "3 time steps of a 7-point 3-D heat-equation stencil, float 192^3 volume, clamped faces")
