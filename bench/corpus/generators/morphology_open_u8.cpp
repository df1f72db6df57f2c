// Grayscale morphological opening with a 5x5 square element: erosion (a separable running
// minimum) then dilation (a separable maximum), each pass an RDom reduction.
#include "corpus_generator.h"

namespace {

using namespace Halide;

class MorphologyOpen : public Generator<MorphologyOpen> {
 public:
  Input<Buffer<uint8_t>> input{"input", 2};
  Output<Buffer<uint8_t>> output{"output", 2};

  void generate() {
    const int radius = 2;
    Func clamped = BoundaryConditions::repeat_edge(input);
    RDom r(-radius, 2 * radius + 1);

    erode_x(x, y) = minimum(clamped(x + r, y));
    erode(x, y) = minimum(erode_x(x, y + r));
    dilate_x(x, y) = maximum(erode(x + r, y));
    output(x, y) = maximum(dilate_x(x, y + r));

    input.set_estimates({{0, 2560}, {0, 1600}});
    output.set_estimates({{0, 2560}, {0, 1600}});
  }

  void schedule() {
    if (auto_schedule) return;
    const int v = natural_vector_size<uint8_t>();
    // Strips of rows per core, each pass a line buffer that slides down the strip: every
    // output row computes one new row of each producer, and all of them stay in L1.
    output.split(y, yo, yi, 64).parallel(yo).vectorize(x, v);
    for (Func f : {dilate_x, erode, erode_x}) f.store_at(output, yo).compute_at(output, yi).vectorize(x, v);
  }

 private:
  Var x{"x"}, y{"y"}, yo{"yo"}, yi{"yi"};
  Func erode_x{"erode_x"}, erode{"erode"}, dilate_x{"dilate_x"};
};

}  // namespace

CANDOR_CORPUS_GENERATOR(MorphologyOpen, morphology_open_u8, "5x5 grayscale opening (erode then dilate), uint8 2560x1600")
