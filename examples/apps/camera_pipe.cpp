// A raw camera pipeline: 10-bit GRBG Bayer raw -> hot-pixel suppression -> deinterleave
// -> edge-directed demosaic (green by the smoother direction, red/blue by interpolating
// colour differences) -> colour correction matrix (fixed point) -> tone curve (gamma +
// S-curve lookup table) -> unsharp sharpening -> 8-bit RGB. All integer except the tone
// curve table, so any schedule must match the reference exactly.
#include "app_util.h"

namespace candor::apps::detail {

using namespace Halide;

namespace {

constexpr int kWidth = 512, kHeight = 512;  // raw (and output) size; both even
constexpr int kBlackLevel = 64, kWhiteLevel = 1023;

AppInstance build() {
  AppInstance inst;
  ImageParam input(UInt(16), 2, "raw");
  {
    // A colour scene sampled through a GRBG mosaic, with a few hot pixels.
    Buffer<float> scene = natural_image({kWidth, kHeight, 3}, 1111);
    Buffer<uint16_t> raw(kWidth, kHeight);
    Rng rng(1112);
    for (int y = 0; y < kHeight; y++) {
      for (int x = 0; x < kWidth; x++) {
        const int c = (y % 2 == 0) ? (x % 2 == 0 ? 1 : 0) : (x % 2 == 0 ? 2 : 1);
        int v = kBlackLevel + static_cast<int>(scene(x, y, c) * (kWhiteLevel - kBlackLevel));
        if (rng.next_below(2000) == 0) v = kWhiteLevel;  // hot pixel
        raw(x, y) = static_cast<uint16_t>(v);
      }
    }
    bind_input(input, raw);
  }
  inst.inputs = {input};
  Param<float> contrast("contrast", 0.5f);
  contrast.set_estimate(0.5f);
  Param<int> sharpen_strength("sharpen_strength", 24);  // in 1/16ths
  sharpen_strength.set_estimate(24);
  inst.scalar_params = {contrast.parameter(), sharpen_strength.parameter()};

  Var x("x"), y("y"), c("c"), i("i");
  // Clamp to the nearest pixel of the same Bayer colour (keeps the mosaic phase).
  Func raw("raw_clamped");
  {
    Expr w = input.dim(0).extent(), h = input.dim(1).extent();
    raw(x, y) = cast<int16_t>(input(clamp(likely(x), x % 2, w - 2 + x % 2),
                                    clamp(likely(y), y % 2, h - 2 + y % 2)));
  }
  // Hot pixels: clamp each pixel to the range of its four same-colour neighbours.
  Func denoised("denoised");
  {
    Expr lo = min(min(raw(x - 2, y), raw(x + 2, y)), min(raw(x, y - 2), raw(x, y + 2)));
    Expr hi = max(max(raw(x - 2, y), raw(x + 2, y)), max(raw(x, y - 2), raw(x, y + 2)));
    denoised(x, y) = clamp(raw(x, y), lo, hi);
  }
  // Deinterleave into four half-resolution planes (x, y are quad coordinates here).
  Func g_gr("g_gr"), r_r("r_r"), b_b("b_b"), g_gb("g_gb");
  g_gr(x, y) = denoised(2 * x, 2 * y);
  r_r(x, y) = denoised(2 * x + 1, 2 * y);
  b_b(x, y) = denoised(2 * x, 2 * y + 1);
  g_gb(x, y) = denoised(2 * x + 1, 2 * y + 1);

  auto avg = [](Expr a, Expr b) { return (a + b) / 2; };
  // Green at red and blue sites: average along the direction with the smaller gradient.
  auto directional = [&](Expr h0, Expr h1, Expr v0, Expr v1) {
    return select(absd(h0, h1) < absd(v0, v1), avg(h0, h1), avg(v0, v1));
  };
  Func g_r("g_r"), g_b("g_b");
  g_r(x, y) = directional(g_gr(x, y), g_gr(x + 1, y), g_gb(x, y - 1), g_gb(x, y));
  g_b(x, y) = directional(g_gb(x - 1, y), g_gb(x, y), g_gr(x, y), g_gr(x, y + 1));
  // Red and blue elsewhere: interpolate the colour difference (r - g or b - g).
  Func r_gr("r_gr"), b_gr("b_gr"), r_gb("r_gb"), b_gb("b_gb"), r_b("r_b"), b_r("b_r");
  r_gr(x, y) = g_gr(x, y) + avg(r_r(x - 1, y) - g_r(x - 1, y), r_r(x, y) - g_r(x, y));
  b_gr(x, y) = g_gr(x, y) + avg(b_b(x, y - 1) - g_b(x, y - 1), b_b(x, y) - g_b(x, y));
  r_gb(x, y) = g_gb(x, y) + avg(r_r(x, y) - g_r(x, y), r_r(x, y + 1) - g_r(x, y + 1));
  b_gb(x, y) = g_gb(x, y) + avg(b_b(x, y) - g_b(x, y), b_b(x + 1, y) - g_b(x + 1, y));
  r_b(x, y) = g_b(x, y) + avg(avg(r_r(x - 1, y) - g_r(x - 1, y), r_r(x, y) - g_r(x, y)),
                              avg(r_r(x - 1, y + 1) - g_r(x - 1, y + 1), r_r(x, y + 1) - g_r(x, y + 1)));
  b_r(x, y) = g_r(x, y) + avg(avg(b_b(x, y - 1) - g_b(x, y - 1), b_b(x + 1, y - 1) - g_b(x + 1, y - 1)),
                              avg(b_b(x, y) - g_b(x, y), b_b(x + 1, y) - g_b(x + 1, y)));
  // Interleave back to full resolution, one channel per c.
  Func demosaic("demosaic");
  {
    Expr qx = x / 2, qy = y / 2;
    Expr even_x = x % 2 == 0, even_y = y % 2 == 0;
    Expr red = select(even_y, select(even_x, r_gr(qx, qy), r_r(qx, qy)),
                      select(even_x, r_b(qx, qy), r_gb(qx, qy)));
    Expr green = select(even_y, select(even_x, g_gr(qx, qy), g_r(qx, qy)),
                        select(even_x, g_b(qx, qy), g_gb(qx, qy)));
    Expr blue = select(even_y, select(even_x, b_gr(qx, qy), b_r(qx, qy)),
                       select(even_x, b_b(qx, qy), b_gb(qx, qy)));
    demosaic(x, y, c) = select(c == 0, red, c == 1, green, blue);
  }
  // Colour correction: 3x3 sensor-to-sRGB matrix in 8.8 fixed point, after black level.
  // The row is picked per output channel (mux), so each demosaic channel is read once.
  Func corrected("color_corrected");
  {
    const int m[3][3] = {{410, -115, -38}, {-64, 384, -64}, {-13, -141, 410}};
    Expr sum = 128;  // rounding
    for (int k = 0; k < 3; k++) {
      sum += mux(c, {m[0][k], m[1][k], m[2][k]}) * (cast<int32_t>(demosaic(x, y, k)) - kBlackLevel);
    }
    corrected(x, y, c) = sum >> 8;
  }
  // Tone curve as a table over the corrected range: gamma 1/2.2, then an S-curve blend.
  Func curve("tone_curve");
  {
    Expr v = clamp(cast<float>(i) / (kWhiteLevel - kBlackLevel), 0.0f, 1.0f);
    Expr g = pow(v, 1.0f / 2.2f);
    Expr s = g * g * (3.0f - 2.0f * g);
    curve(i) = cast<uint8_t>(clamp((g + contrast * (s - g)) * 255.0f + 0.5f, 0.0f, 255.0f));
  }
  Func curved("curved");
  curved(x, y, c) = cast<int16_t>(curve(clamp(corrected(x, y, c), 0, kWhiteLevel - kBlackLevel)));
  // Sharpen: add back the difference from a cross-shaped blur (centre 4/8, neighbours 1/8).
  Func blur("sharpen_blur"), output("camera_pipe");
  blur(x, y, c) = (4 * curved(x, y, c) + curved(x - 1, y, c) + curved(x + 1, y, c) +
                   curved(x, y - 1, c) + curved(x, y + 1, c) + 4) / 8;
  {
    Expr detail = cast<int32_t>(curved(x, y, c)) - blur(x, y, c);
    output(x, y, c) = cast<uint8_t>(clamp(curved(x, y, c) + (detail * sharpen_strength) / 16, 0, 255));
  }

  const std::vector<int> out_size = {kWidth, kHeight, 3};
  set_output_estimates(output, out_size);
  inst.outputs = {output};
  inst.output_sizes = {out_size};
  register_funcs(inst, {raw, denoised, g_gr, r_r, b_b, g_gb, g_r, g_b, r_gr, b_gr, r_gb, b_gb,
                        r_b, b_r, demosaic, corrected, curve, curved, blur, output});

  inst.apply_expert_schedule = [=](const Target& target) mutable {
    if (target.has_gpu_feature()) return;  // CPU-only expert schedule
    const int v = lanes(target, Int(16));
    Var yo("yo"), yi("yi");
    // The tone curve is a 960-entry table: computed once, not vectorized (its pow must
    // round exactly as in the reference, which evaluates it one value at a time).
    curve.compute_root();
    // Strips of output rows per core. Inside a strip, each stage that is read at several
    // offsets (denoised, the four planes, interpolated greens, the curved image) is
    // computed for the whole strip plus halo; stages read once
    // (red/blue interpolation, demosaic, colour correction) are inlined into their
    // consumer, as is the cheap sharpening blur. Vectorized along x at 16 x int16.
    output.split(y, yo, yi, 32).parallel(yo).reorder(x, c, yi, yo).bound(c, 0, 3).vectorize(x, v);
    denoised.compute_at(output, yo).vectorize(x, v);
    for (Func f : {g_gr, r_r, b_b, g_gb, g_r, g_b}) f.compute_at(output, yo).vectorize(x, v);
    curved.compute_at(output, yo).reorder(x, c, y).bound(c, 0, 3).unroll(c).vectorize(x, v);
  };
  return inst;
}

}  // namespace

App make_camera_pipe_app() {
  return {"camera_pipe",
          "raw Bayer -> denoise -> demosaic -> colour matrix -> tone curve -> sharpen, 512x512",
          build};
}

}  // namespace candor::apps::detail
