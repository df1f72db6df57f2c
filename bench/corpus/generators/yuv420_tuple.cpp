// RGB to YUV 4:2:0 conversion of an 8-bit image with BT.601 integer coefficients: Y, U and V
// are computed together as a Tuple, then the chroma is box-averaged over 2x2 blocks into a
// half-resolution interleaved-plane output next to the full-resolution luma plane.
#include "corpus_generator.h"

namespace {

using namespace Halide;

class Yuv420Tuple : public Generator<Yuv420Tuple> {
 public:
  Input<Buffer<uint8_t>> input{"input", 3};
  Output<Buffer<uint8_t>> y_plane{"y_plane", 2};
  Output<Buffer<uint8_t>> uv_plane{"uv_plane", 3};  // (x, y, 0 = U / 1 = V), half resolution

  void generate() {
    Expr r = cast<int16_t>(input(x, y, 0));
    Expr g = cast<int16_t>(input(x, y, 1));
    Expr b = cast<int16_t>(input(x, y, 2));
    Expr ru = cast<uint16_t>(input(x, y, 0));
    Expr gu = cast<uint16_t>(input(x, y, 1));
    Expr bu = cast<uint16_t>(input(x, y, 2));
    Expr luma = cast<uint8_t>(((66 * ru + 129 * gu + 25 * bu + 128) >> 8) + 16);
    Expr u = cast<uint8_t>(((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128);
    Expr v = cast<uint8_t>(((112 * r - 94 * g - 18 * b + 128) >> 8) + 128);
    yuv(x, y) = Tuple(luma, u, v);

    y_plane(x, y) = yuv(x, y)[0];

    auto box = [&](int k) {
      Expr s = cast<uint16_t>(yuv(2 * x, 2 * y)[k]) + cast<uint16_t>(yuv(2 * x + 1, 2 * y)[k]) +
               cast<uint16_t>(yuv(2 * x, 2 * y + 1)[k]) + cast<uint16_t>(yuv(2 * x + 1, 2 * y + 1)[k]);
      return cast<uint8_t>((s + 2) >> 2);
    };
    uv_plane(x, y, c) = mux(c, {box(1), box(2)});

    input.set_estimates({{0, 2560}, {0, 1600}, {0, 3}});
    y_plane.set_estimates({{0, 2560}, {0, 1600}});
    uv_plane.set_estimates({{0, 1280}, {0, 800}, {0, 2}});
  }

  void schedule() {
    if (auto_schedule) return;
    const int v = natural_vector_size<uint8_t>();
    // The chroma plane computes the full Tuple two rows at a time per output row (kept in
    // cache, read with stride 2); the luma plane inlines a copy of the Tuple, which reduces
    // to the Y expression alone, so no full-resolution intermediate reaches memory.
    yuv.clone_in(y_plane);
    y_plane.split(y, yo, yi, 32).parallel(yo).vectorize(x, v);
    uv_plane.bound(c, 0, 2)
        .split(y, yo, yi, 16)
        .reorder(x, c, yi, yo)
        .parallel(yo)
        .unroll(c)
        .vectorize(x, v);
    yuv.compute_at(uv_plane, yi).vectorize(x, v);
  }

 private:
  Var x{"x"}, y{"y"}, c{"c"}, yo{"yo"}, yi{"yi"};
  Func yuv{"yuv"};
};

}  // namespace

CANDOR_CORPUS_GENERATOR(Yuv420Tuple, yuv420_tuple, "RGB -> YUV 4:2:0 with a Tuple-valued (Y, U, V) stage and 2x2 chroma averaging, uint8 2560x1600, two outputs")
