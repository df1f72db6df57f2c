// Raw-to-RGB for a 12-bit RGGB Bayer mosaic in uint16: bilinear demosaic on the 2x2 quads,
// fixed-point white balance from float gains, and a gamma curve applied through a 4096-entry LUT.
#include "corpus_generator.h"

namespace {

using namespace Halide;

Expr avg2(Expr a, Expr b) { return cast<uint16_t>((cast<uint32_t>(a) + b + 1) >> 1); }
Expr avg4(Expr a, Expr b, Expr c, Expr d) { return cast<uint16_t>((cast<uint32_t>(a) + b + c + d + 2) >> 2); }

class DemosaicU16 : public Generator<DemosaicU16> {
 public:
  Input<Buffer<uint16_t>> input{"input", 2};
  Input<float> red_gain{"red_gain", 1.9f};
  Input<float> blue_gain{"blue_gain", 1.5f};
  Input<float> gamma{"gamma", 2.2f};
  Output<Buffer<uint8_t>> output{"output", 3};

  void generate() {
    const int white = 4095;
    // Mirroring about the edge pixel keeps the Bayer phase of every reflected sample.
    Func raw = BoundaryConditions::mirror_interior(input);

    // The four sites of quad (x, y), at half resolution.
    Func r_r, g_gr, g_gb, b_b;
    r_r(x, y) = raw(2 * x, 2 * y);
    g_gr(x, y) = raw(2 * x + 1, 2 * y);
    g_gb(x, y) = raw(2 * x, 2 * y + 1);
    b_b(x, y) = raw(2 * x + 1, 2 * y + 1);

    // The missing colour samples at each site, by bilinear interpolation.
    g_at_r(x, y) = avg4(g_gr(x - 1, y), g_gr(x, y), g_gb(x, y - 1), g_gb(x, y));
    b_at_r(x, y) = avg4(b_b(x - 1, y - 1), b_b(x, y - 1), b_b(x - 1, y), b_b(x, y));
    r_at_gr(x, y) = avg2(r_r(x, y), r_r(x + 1, y));
    b_at_gr(x, y) = avg2(b_b(x, y - 1), b_b(x, y));
    r_at_gb(x, y) = avg2(r_r(x, y), r_r(x, y + 1));
    b_at_gb(x, y) = avg2(b_b(x - 1, y), b_b(x, y));
    g_at_b(x, y) = avg4(g_gb(x, y), g_gb(x + 1, y), g_gr(x, y), g_gr(x, y + 1));
    r_at_b(x, y) = avg4(r_r(x, y), r_r(x + 1, y), r_r(x, y + 1), r_r(x + 1, y + 1));

    // Back to full resolution: pick the site's sample by the pixel's phase.
    auto interleave = [&](Func at_r, Func at_gr, Func at_gb, Func at_b) {
      Expr qx = x / 2, qy = y / 2;
      return select(y % 2 == 0, select(x % 2 == 0, at_r(qx, qy), at_gr(qx, qy)),
                    select(x % 2 == 0, at_gb(qx, qy), at_b(qx, qy)));
    };
    Expr red = interleave(r_r, r_at_gr, r_at_gb, r_at_b);
    Expr green = interleave(g_at_r, g_gr, g_gb, g_at_b);
    Expr blue = interleave(b_at_r, b_at_gr, b_at_gb, b_b);
    rgb(x, y, c) = mux(c, {red, green, blue});

    // White balance in 8.8 fixed point, clipped at the sensor's white level.
    Expr gain = mux(c, {red_gain, 1.0f, blue_gain});
    Expr gain_q = cast<uint32_t>(clamp(gain, 0.0f, 16.0f) * 256.0f + 0.5f);
    balanced(x, y, c) = cast<uint16_t>(min((cast<uint32_t>(rgb(x, y, c)) * gain_q + 128) >> 8, white));

    Expr level = cast<float>(i) / white;
    curve(i) = cast<uint8_t>(clamp(pow(level, 1.0f / gamma) * 255.0f + 0.5f, 0.0f, 255.0f));

    output(x, y, c) = curve(balanced(x, y, c));

    input.set_estimates({{0, 2048}, {0, 1536}});
    red_gain.set_estimate(1.9f);
    blue_gain.set_estimate(1.5f);
    gamma.set_estimate(2.2f);
    output.set_estimates({{0, 2048}, {0, 1536}, {0, 3}});
  }

  void schedule() {
    if (auto_schedule) return;
    const int v = natural_vector_size<uint16_t>();
    // The curve is computed once; strips of rows per core. Per pair of output rows, the
    // interpolated samples of the row of quads and then the balanced colours are computed
    // with vectors, the latter on bounds aligned to the Bayer quad so that every pixel's phase
    // is known and the selects fold away; the table lookups stay scalar (a byte gather is).
    curve.compute_root().vectorize(i, natural_vector_size<float>());
    output.bound(c, 0, 3)
        .split(y, yo, y, 32)
        .split(y, yp, yi, 2)
        .reorder(x, yi, c, yp, yo)
        .unroll(yi)
        .parallel(yo);
    balanced.compute_at(output, yp)
        .bound(c, 0, 3)
        .align_bounds(x, 2)
        .align_bounds(y, 2)
        .split(x, xq, xi, 2)
        .reorder(xi, xq, y, c)
        .unroll(xi)
        .unroll(y)
        .vectorize(xq, v);
    for (Func f : {g_at_r, b_at_r, r_at_gr, b_at_gr, r_at_gb, b_at_gb, g_at_b, r_at_b})
      f.compute_at(output, yp).vectorize(x, v);
  }

 private:
  Var x{"x"}, y{"y"}, c{"c"}, i{"i"}, yo{"yo"}, yp{"yp"}, yi{"yi"}, xq{"xq"}, xi{"xi"};
  Func g_at_r{"g_at_r"}, b_at_r{"b_at_r"}, r_at_gr{"r_at_gr"}, b_at_gr{"b_at_gr"};
  Func r_at_gb{"r_at_gb"}, b_at_gb{"b_at_gb"}, g_at_b{"g_at_b"}, r_at_b{"r_at_b"};
  Func rgb{"rgb"}, balanced{"balanced"}, curve{"curve"};
};

}  // namespace

CANDOR_CORPUS_GENERATOR(DemosaicU16, demosaic_u16, "bilinear RGGB demosaic, white balance, gamma LUT, uint16 raw 2048x1536 -> uint8 RGB")
