// Local binary pattern texture descriptor: an 8-bit code per pixel from comparing its eight
// neighbours with it, then a 256-bin histogram of the codes in each 32x32 tile.
#include "corpus_generator.h"

namespace {

using namespace Halide;

class LbpTileHistograms : public Generator<LbpTileHistograms> {
 public:
  Input<Buffer<uint8_t>> input{"input", 2};
  Output<Buffer<int32_t>> output{"output", 3};

  void generate() {
    const int tile = 32;
    Func clamped = BoundaryConditions::repeat_edge(input);

    // Neighbours clockwise from the top-left, bit 7 first.
    const int dx[8] = {-1, 0, 1, 1, 1, 0, -1, -1};
    const int dy[8] = {-1, -1, -1, 0, 1, 1, 1, 0};
    Expr centre = clamped(x, y);
    Expr bits = cast<uint8_t>(0);
    for (int k = 0; k < 8; k++)
      bits = bits | select(clamped(x + dx[k], y + dy[k]) >= centre, cast<uint8_t>(1 << (7 - k)), cast<uint8_t>(0));
    code(x, y) = bits;

    RDom r(0, tile, 0, tile);
    Expr bin = clamp(cast<int>(code(tx * tile + r.x, ty * tile + r.y)), 0, 255);
    output(b, tx, ty) = 0;
    output(bin, tx, ty) += 1;

    input.set_estimates({{0, 2048}, {0, 1536}});
    output.set_estimates({{0, 256}, {0, 2048 / tile}, {0, 1536 / tile}});
  }

  void schedule() {
    if (auto_schedule) return;
    const int v = natural_vector_size<uint8_t>();
    const int vi = natural_vector_size<int32_t>();
    // Rows of tiles per core; the codes of one row of tiles are computed with vectors into
    // a buffer that stays in L2, then counted tile by tile with scalar increments.
    output.vectorize(b, vi).parallel(ty);
    output.update().parallel(ty);
    code.compute_at(output, ty).vectorize(x, v);
  }

 private:
  Var x{"x"}, y{"y"}, b{"b"}, tx{"tx"}, ty{"ty"};
  Func code{"code"};
};

}  // namespace

CANDOR_CORPUS_GENERATOR(LbpTileHistograms, lbp_tile_histograms, "LBP codes then 256-bin histograms per 32x32 tile, uint8 gray 2048x1536 -> int32")
