// A corpus of generators written the way users write them, for the plugin tests: each one
// brings the plugin a feature of real pipelines (data-dependent lookups and scatters,
// pyramids, tall reduction stacks, integer outputs computed in float, extern stages, every
// boundary condition, tuples, several outputs, scalar parameters in index arithmetic). None
// has a schedule: the plugin schedules them all. Every input, scalar and output carries an
// estimate, and the sizes are small so that the all-root reference the plugin checks its
// pick against runs in well under a second.
#include <algorithm>
#include <cmath>
#include <limits>

#include <Halide.h>

// Halide 14's headers leave HALIDE_FUNCTION_ATTRS undefined. The extern stage needs only
// default visibility: the generator executable exports its symbols (ENABLE_EXPORTS in
// CMakeLists.txt) so that the pipelines the plugin JIT-compiles find it.
#ifndef HALIDE_FUNCTION_ATTRS
#define HALIDE_FUNCTION_ATTRS __attribute__((visibility("default")))
#endif

// The extern stage of corpus_extern_tonemap: Reinhard's global tone mapping operator,
// v / (1 + v), as a user hands a stage to an existing C routine. Each output pixel reads the
// input pixel at the same coordinates, which is what it answers to Halide's bounds query.
// In a bounds query the output has no host memory; the input has some when it is a buffer the
// caller passed in, and its shape is then left alone.
extern "C" HALIDE_FUNCTION_ATTRS int candor_corpus_extern(halide_buffer_t* in, halide_buffer_t* out) {
  if (in->is_bounds_query() || out->is_bounds_query()) {
    if (in->is_bounds_query()) {
      for (int d = 0; d < 2; d++) {
        in->dim[d].min = out->dim[d].min;
        in->dim[d].extent = out->dim[d].extent;
      }
    }
    return 0;
  }
  const auto* src = reinterpret_cast<const float*>(in->host);
  auto* dst = reinterpret_cast<float*>(out->host);
  for (int y = 0; y < out->dim[1].extent; y++) {
    for (int x = 0; x < out->dim[0].extent; x++) {
      const int in_x = out->dim[0].min + x - in->dim[0].min, in_y = out->dim[1].min + y - in->dim[1].min;
      const float v = src[in_x * in->dim[0].stride + in_y * in->dim[1].stride];
      dst[x * out->dim[0].stride + y * out->dim[1].stride] = v / (1.0f + v);
    }
  }
  return 0;
}

namespace {

using namespace Halide;

constexpr int kWidth = 384, kHeight = 256;  // photo-style pipelines
constexpr int kSquare = 256;                // pyramids, grids and tiles want a power of two
constexpr int kChannels = 3;

// Colour grading in a photo app: a uint8 RGB image through a shadow-lift table indexed by
// arithmetic on the pixel value (bounded only by Halide's bounds inference), a user-supplied
// per-channel tone curve read at a clamped computed index, and a vignette table indexed by the
// distance to the centre, clamped with bounds that depend on input.width().
class ColorGrade : public Generator<ColorGrade> {
 public:
  Input<Buffer<uint8_t>> input{"input", 3};  // (x, y, c)
  Input<Buffer<uint8_t>> curve{"curve", 2};  // (value, c): 256 entries per channel
  Output<Buffer<uint8_t>> output{"output", 3};

  void generate() {
    Var x("x"), y("y"), c("c"), i("i");
    Func shadow_lift("shadow_lift"), lifted("lifted"), graded("graded"), vignette("vignette");
    // Bounds inference computes it on [7, 517], the range of 2 * v + 7 for a uint8 v.
    shadow_lift(i) = 255.0f * pow(cast<float>(i) / 517.0f, 0.8f);
    lifted(x, y, c) = shadow_lift(cast<int>(input(x, y, c)) * 2 + 7);
    graded(x, y, c) = curve(clamp(cast<int>(lifted(x, y, c)), 0, 255), c);

    Expr half_width = input.width() / 2;
    Expr t = cast<float>(i) / cast<float>(half_width);
    vignette(i) = cast<uint16_t>(256.0f * (1.0f - 0.4f * t * t));
    Expr distance = clamp(max(x - half_width, half_width - x), 0, half_width);
    output(x, y, c) = cast<uint8_t>((cast<uint16_t>(graded(x, y, c)) * vignette(distance)) >> 8);

    input.set_estimates({{0, kWidth}, {0, kHeight}, {0, kChannels}});
    curve.set_estimates({{0, 256}, {0, kChannels}});
    output.set_estimates({{0, kWidth}, {0, kHeight}, {0, kChannels}});
  }
};

// The textbook histogram equalizer: a histogram scattered at data-dependent bins, its
// cumulative sum as a scan, then every pixel looked up in the cumulative histogram.
class HistogramEqualize : public Generator<HistogramEqualize> {
 public:
  Input<Buffer<uint8_t>> input{"input", 2};
  Output<Buffer<uint8_t>> output{"output", 2};

  void generate() {
    Var x("x"), y("y"), i("i");
    RDom pixels(0, input.width(), 0, input.height(), "pixels");
    Func hist("hist"), cdf("cdf");
    hist(i) = 0;
    hist(clamp(cast<int>(input(pixels.x, pixels.y)), 0, 255)) += 1;

    RDom bins(1, 255, "bins");
    cdf(i) = hist(i);
    cdf(bins) += cdf(bins - 1);

    Expr total = input.width() * input.height();
    output(x, y) = cast<uint8_t>(clamp(cdf(cast<int>(input(x, y))) * 255 / total, 0, 255));

    input.set_estimates({{0, kWidth}, {0, kHeight}});
    output.set_estimates({{0, kWidth}, {0, kHeight}});
  }
};

// Detail enhancement in computational photography: a three-level Gaussian pyramid,
// the Laplacian bands between its levels scaled by a gain, collapsed back to full size.
class LaplacianDetail : public Generator<LaplacianDetail> {
 public:
  Input<Buffer<float>> input{"input", 2};  // gray in [0, 1]
  Input<float> detail_gain{"detail_gain", 1.5f};
  Output<Buffer<float>> output{"output", 2};

  void generate() {
    constexpr int kLevels = 3;
    std::vector<Func> gaussian(kLevels), laplacian(kLevels), collapsed(kLevels);
    gaussian[0](x, y) = BoundaryConditions::repeat_edge(input)(x, y);
    for (int l = 1; l < kLevels; l++) gaussian[l] = downsample(gaussian[l - 1], "gaussian" + std::to_string(l));
    for (int l = 0; l + 1 < kLevels; l++) {
      laplacian[l] = Func("laplacian" + std::to_string(l));
      laplacian[l](x, y) = gaussian[l](x, y) - upsample(gaussian[l + 1], "expanded" + std::to_string(l))(x, y);
    }
    collapsed[kLevels - 1] = gaussian[kLevels - 1];
    for (int l = kLevels - 2; l >= 0; l--) {
      collapsed[l] = Func("collapsed" + std::to_string(l));
      collapsed[l](x, y) =
          detail_gain * laplacian[l](x, y) + upsample(collapsed[l + 1], "collapse_up" + std::to_string(l))(x, y);
    }
    output(x, y) = clamp(collapsed[0](x, y), 0.0f, 1.0f);

    input.set_estimates({{0, kSquare}, {0, kSquare}});
    detail_gain.set_estimate(1.5f);
    output.set_estimates({{0, kSquare}, {0, kSquare}});
  }

 private:
  Var x{"x"}, y{"y"};

  // [1 2 1] / 4 in both directions, keeping every second sample.
  Func downsample(Func f, const std::string& name) {
    Func across(name + "_x"), down(name);
    across(x, y) = 0.25f * f(2 * x - 1, y) + 0.5f * f(2 * x, y) + 0.25f * f(2 * x + 1, y);
    down(x, y) = 0.25f * across(x, 2 * y - 1) + 0.5f * across(x, 2 * y) + 0.25f * across(x, 2 * y + 1);
    return down;
  }

  // Linear interpolation to twice the size: even samples copy, odd samples average.
  Func upsample(Func f, const std::string& name) {
    Func across(name + "_x"), up(name);
    across(x, y) = 0.5f * (f(x / 2, y) + f((x + 1) / 2, y));
    up(x, y) = 0.5f * (across(x, y / 2) + across(x, (y + 1) / 2));
    return up;
  }
};

// A 3x3 convolution with bias over a (c, x, y) activation, zero padded spatially, as a user
// writes a layer when porting a small network: the weights are a Func (co, kx, ky, ci).
Func conv3x3(Func activation, int channels_in, int width, int height, Func weights, Func bias,
             const std::string& name) {
  Var c("c"), x("x"), y("y");
  Func padded = BoundaryConditions::constant_exterior(activation, 0.0f, {Range(), {0, width}, {0, height}});
  RDom r(0, 3, 0, 3, 0, channels_in, name + "_r");
  Func conv(name);
  conv(c, x, y) = bias(c);
  conv(c, x, y) += weights(c, r.x, r.y, r.z) * padded(r.z, x + r.x - 1, y + r.y - 1);
  return conv;
}

Func relu(Func f, const std::string& name) {
  Var c("c"), x("x"), y("y");
  Func out(name);
  out(c, x, y) = max(f(c, x, y), 0.0f);
  return out;
}

// A tall stack of identical layers, as in a denoising or super-resolution network: eight
// 3x3 convolutions over 16 channels, each with bias and ReLU, all weights in one buffer.
class ConvStack : public Generator<ConvStack> {
 public:
  static constexpr int kLayers = 8, kFeatures = 16, kSize = 32;
  Input<Buffer<float>> input{"input", 3};      // (c, x, y)
  Input<Buffer<float>> weights{"weights", 5};  // (co, kx, ky, ci, layer)
  Input<Buffer<float>> bias{"bias", 2};        // (co, layer)
  Output<Buffer<float>> output{"output", 3};   // (c, x, y)

  void generate() {
    Var c("c"), x("x"), y("y"), kx("kx"), ky("ky"), ci("ci");
    Func activation = input;
    for (int l = 0; l < kLayers; l++) {
      const std::string layer = "layer" + std::to_string(l);
      Func w(layer + "_weights"), b(layer + "_bias");
      w(c, kx, ky, ci) = weights(c, kx, ky, ci, l);
      b(c) = bias(c, l);
      activation = relu(conv3x3(activation, kFeatures, kSize, kSize, w, b, layer + "_conv"), layer);
    }
    output(c, x, y) = activation(c, x, y);

    input.set_estimates({{0, kFeatures}, {0, kSize}, {0, kSize}});
    weights.set_estimates({{0, kFeatures}, {0, 3}, {0, 3}, {0, kFeatures}, {0, kLayers}});
    bias.set_estimates({{0, kFeatures}, {0, kLayers}});
    output.set_estimates({{0, kFeatures}, {0, kSize}, {0, kSize}});
  }
};

// A small classification network: a stem convolution, two residual blocks (conv, ReLU,
// conv, skip add, ReLU), global average pooling and a fully connected layer to ten logits.
// `blocks=N` stacks N residual blocks instead (13 Funcs each), for measuring how the
// plugin scales with the size of the pipeline.
class ResidualNet : public Generator<ResidualNet> {
 public:
  static constexpr int kInChannels = 3, kFeatures = 16, kSize = 32, kClasses = 10;
  GeneratorParam<int> blocks{"blocks", 2};
  Input<Buffer<float>> input{"input", 3};                  // (c, x, y)
  Input<Buffer<float>> stem_weights{"stem_weights", 4};    // (co, kx, ky, ci)
  Input<Buffer<float>> stem_bias{"stem_bias", 1};          // (co)
  Input<Buffer<float>> block_weights{"block_weights", 5};  // (co, kx, ky, ci, conv)
  Input<Buffer<float>> block_bias{"block_bias", 2};        // (co, conv)
  Input<Buffer<float>> fc_weights{"fc_weights", 2};        // (class, c)
  Input<Buffer<float>> fc_bias{"fc_bias", 1};              // (class)
  Output<Buffer<float>> logits{"logits", 1};               // (class)

  void generate() {
    Var c("c"), x("x"), y("y"), kx("kx"), ky("ky"), ci("ci"), k("k");
    const int kBlocks = blocks;
    Func features = relu(conv3x3(input, kInChannels, kSize, kSize, stem_weights, stem_bias, "stem_conv"), "stem");
    for (int b = 0; b < kBlocks; b++) {
      const std::string block = "block" + std::to_string(b);
      auto conv = [&](Func in, int index, const std::string& name) {
        Func w(name + "_weights"), bias(name + "_bias");
        w(c, kx, ky, ci) = block_weights(c, kx, ky, ci, index);
        bias(c) = block_bias(c, index);
        return conv3x3(in, kFeatures, kSize, kSize, w, bias, name);
      };
      Func inner = relu(conv(features, 2 * b, block + "_conv_a"), block + "_relu_a");
      Func second = conv(inner, 2 * b + 1, block + "_conv_b");
      Func sum(block + "_sum");
      sum(c, x, y) = second(c, x, y) + features(c, x, y);
      features = relu(sum, block);
    }

    RDom spatial(0, kSize, 0, kSize, "spatial");
    Func pooled("pooled");
    pooled(c) = 0.0f;
    pooled(c) += features(c, spatial.x, spatial.y) / float(kSize * kSize);

    RDom channel(0, kFeatures, "channel");
    Func dense("dense");
    dense(k) = fc_bias(k);
    dense(k) += fc_weights(k, channel) * pooled(channel);
    logits(k) = dense(k);

    input.set_estimates({{0, kInChannels}, {0, kSize}, {0, kSize}});
    stem_weights.set_estimates({{0, kFeatures}, {0, 3}, {0, 3}, {0, kInChannels}});
    stem_bias.set_estimates({{0, kFeatures}});
    block_weights.set_estimates({{0, kFeatures}, {0, 3}, {0, 3}, {0, kFeatures}, {0, 2 * kBlocks}});
    block_bias.set_estimates({{0, kFeatures}, {0, 2 * kBlocks}});
    fc_weights.set_estimates({{0, kClasses}, {0, kFeatures}});
    fc_bias.set_estimates({{0, kClasses}});
    logits.set_estimates({{0, kClasses}});
  }
};

// A BLAS port: SGEMM, C = alpha * A * B + beta * C, column-major (the row index first).
class Sgemm : public Generator<Sgemm> {
 public:
  static constexpr int kN = 256;
  Input<float> alpha{"alpha", 1.0f};
  Input<float> beta{"beta", 1.0f};
  Input<Buffer<float>> a{"a", 2};  // (i, k)
  Input<Buffer<float>> b{"b", 2};  // (k, j)
  Input<Buffer<float>> c{"c", 2};  // (i, j)
  Output<Buffer<float>> result{"result", 2};

  void generate() {
    Var i("i"), j("j");
    RDom k(0, a.dim(1).extent(), "k");
    Func product("product");
    product(i, j) = 0.0f;
    product(i, j) += a(i, k) * b(k, j);
    result(i, j) = alpha * product(i, j) + beta * c(i, j);

    alpha.set_estimate(1.5f);
    beta.set_estimate(0.5f);
    a.set_estimates({{0, kN}, {0, kN}});
    b.set_estimates({{0, kN}, {0, kN}});
    c.set_estimates({{0, kN}, {0, kN}});
    result.set_estimates({{0, kN}, {0, kN}});
  }
};

// An 8-bit image filter computed in float: a separable 5-tap Gaussian blur of an RGB
// image, rounded and cast back to uint8 at the end.
class BlurU8 : public Generator<BlurU8> {
 public:
  Input<Buffer<uint8_t>> input{"input", 3};  // (x, y, c)
  Output<Buffer<uint8_t>> output{"output", 3};

  void generate() {
    Var x("x"), y("y"), c("c");
    const float taps[] = {1 / 16.0f, 4 / 16.0f, 6 / 16.0f, 4 / 16.0f, 1 / 16.0f};
    Func clamped = BoundaryConditions::repeat_edge(input, {{0, input.width()}, {0, input.height()}});
    Func as_float("as_float"), blur_x("blur_x"), blur_y("blur_y");
    as_float(x, y, c) = cast<float>(clamped(x, y, c)) / 255.0f;
    Expr sum_x = 0.0f;
    for (int t = -2; t <= 2; t++) sum_x += taps[t + 2] * as_float(x + t, y, c);
    blur_x(x, y, c) = sum_x;
    Expr sum_y = 0.0f;
    for (int t = -2; t <= 2; t++) sum_y += taps[t + 2] * blur_x(x, y + t, c);
    blur_y(x, y, c) = sum_y;
    output(x, y, c) = cast<uint8_t>(clamp(round(blur_y(x, y, c) * 255.0f), 0.0f, 255.0f));

    input.set_estimates({{0, kWidth}, {0, kHeight}, {0, kChannels}});
    output.set_estimates({{0, kWidth}, {0, kHeight}, {0, kChannels}});
  }
};

// HDR display with a stage handed to existing C code (candor_corpus_extern, a tone
// mapper) in the middle: Halide sharpens its result. The extern reads the input buffer itself:
// Halide 14 rejects an extern stage that reads a Func left inline, and there is no schedule.
class ExternTonemap : public Generator<ExternTonemap> {
 public:
  Input<Buffer<float>> input{"input", 2};  // linear radiance, >= 0
  Output<Buffer<float>> output{"output", 2};

  void generate() {
    Var x("x"), y("y");
    Func tonemapped("tonemapped"), blurred("blurred");
    tonemapped.define_extern("candor_corpus_extern", {input}, Float(32), {x, y});
    Func clamped = BoundaryConditions::repeat_edge(tonemapped, {{0, input.width()}, {0, input.height()}});
    Expr sum = 0.0f;
    for (int dy = -1; dy <= 1; dy++)
      for (int dx = -1; dx <= 1; dx++) sum += clamped(x + dx, y + dy);
    blurred(x, y) = sum / 9.0f;
    output(x, y) = clamped(x, y) + 0.5f * (clamped(x, y) - blurred(x, y));

    input.set_estimates({{0, kSquare}, {0, kSquare}});
    output.set_estimates({{0, kSquare}, {0, kSquare}});
  }
};

// Texture tiling preview: one image shifted well past its edges under each of Halide's
// boundary conditions, the five copies blended. The Funcs are left unnamed, as many users do.
class BoundaryTiles : public Generator<BoundaryTiles> {
 public:
  Input<Buffer<float>> input{"input", 2};
  Output<Buffer<float>> output{"output", 2};

  void generate() {
    Var x("x"), y("y");
    Func edge = BoundaryConditions::repeat_edge(input);
    Func zero = BoundaryConditions::constant_exterior(input, 0.0f);
    Func mirror = BoundaryConditions::mirror_image(input);
    Func mirror_interior = BoundaryConditions::mirror_interior(input);
    Func tiled = BoundaryConditions::repeat_image(input);
    Func blended;
    blended(x, y) = 0.3f * edge(x - 40, y + 7) + 0.2f * zero(x + 40, y) + 0.2f * mirror(x, y - 40) +
                    0.2f * mirror_interior(x + 11, y + 40) + 0.1f * tiled(x + 128, y - 200);
    output(x, y) = blended(x, y);

    input.set_estimates({{0, kSquare}, {0, kSquare}});
    output.set_estimates({{0, kSquare}, {0, kSquare}});
  }
};

// Local contrast normalization with Tuples: each 8x8 tile's (min, max) as a Tuple-valued
// reduction and its brightest pixel with the inline argmax, which returns a Tuple; every
// pixel is stretched to its tile's range and weighted by its distance to the tile's peak.
class TileStats : public Generator<TileStats> {
 public:
  static constexpr int kTile = 8;
  Input<Buffer<float>> input{"input", 2};
  Output<Buffer<float>> output{"output", 2};

  void generate() {
    Var x("x"), y("y"), tx("tx"), ty("ty");
    RDom t(0, kTile, 0, kTile, "t");
    Expr v = input(tx * kTile + t.x, ty * kTile + t.y);
    Func range("tile_range"), peak("tile_peak");
    range(tx, ty) = Tuple(std::numeric_limits<float>::max(), std::numeric_limits<float>::lowest());
    range(tx, ty) = Tuple(min(range(tx, ty)[0], v), max(range(tx, ty)[1], v));
    peak(tx, ty) = argmax(t, v, "tile_argmax");  // (t.x, t.y, value)

    Expr lo = range(x / kTile, y / kTile)[0], hi = range(x / kTile, y / kTile)[1];
    Expr dx = x % kTile - peak(x / kTile, y / kTile)[0];
    Expr dy = y % kTile - peak(x / kTile, y / kTile)[1];
    Expr weight = 1.0f / (1.0f + cast<float>(dx * dx + dy * dy) / 16.0f);
    output(x, y) = weight * (input(x, y) - lo) / (hi - lo + 1e-6f);

    input.set_estimates({{0, kSquare}, {0, kSquare}});
    output.set_estimates({{0, kSquare}, {0, kSquare}});
  }
};

// The front end of an edge detector with two outputs sharing the Sobel gradients: the
// gradient magnitude (float) and the orientation quantized to eight bins (uint8).
class GradientOutputs : public Generator<GradientOutputs> {
 public:
  Input<Buffer<uint8_t>> input{"input", 2};
  Output<Buffer<float>> magnitude{"magnitude", 2};
  Output<Buffer<uint8_t>> orientation{"orientation", 2};

  void generate() {
    Var x("x"), y("y");
    Func gray("gray"), gx("gx"), gy("gy");
    gray(x, y) = cast<int16_t>(BoundaryConditions::repeat_edge(input)(x, y));
    auto column = [&](Expr at) { return gray(at, y - 1) + 2 * gray(at, y) + gray(at, y + 1); };
    auto row = [&](Expr at) { return gray(x - 1, at) + 2 * gray(x, at) + gray(x + 1, at); };
    gx(x, y) = column(x + 1) - column(x - 1);
    gy(x, y) = row(y + 1) - row(y - 1);
    Expr gx32 = cast<int>(gx(x, y)), gy32 = cast<int>(gy(x, y));
    magnitude(x, y) = sqrt(cast<float>(gx32 * gx32 + gy32 * gy32));
    const float pi = 3.14159265f;
    Expr angle = atan2(cast<float>(gy32), cast<float>(gx32));  // [-pi, pi]
    orientation(x, y) = cast<uint8_t>(clamp(cast<int>(floor((angle + pi) * (8 / (2 * pi)))), 0, 7));

    input.set_estimates({{0, kWidth}, {0, kHeight}});
    magnitude.set_estimates({{0, kWidth}, {0, kHeight}});
    orientation.set_estimates({{0, kWidth}, {0, kHeight}});
  }
};

// Edge-aware smoothing with a bilateral grid: pixels scattered into an (x, y, intensity)
// grid at data-dependent cells, the grid blurred in all three dimensions, then sliced back
// with data-dependent trilinear reads. The intensity bins follow a scalar range sigma.
class BilateralGrid : public Generator<BilateralGrid> {
 public:
  static constexpr int kCell = 8;
  Input<Buffer<float>> input{"input", 2};  // gray in [0, 1]
  Input<float> range_sigma{"range_sigma", 0.1f, 0.02f, 1.0f};
  Output<Buffer<float>> output{"output", 2};

  void generate() {
    Var x("x"), y("y"), z("z"), c("c");
    Func clamped("clamped");
    clamped(x, y) = clamp(BoundaryConditions::repeat_edge(input)(x, y), 0.0f, 1.0f);
    Expr bins = cast<int>(ceil(1.0f / range_sigma));

    // c = 0 sums the intensities, c = 1 counts them.
    RDom cell(0, kCell, 0, kCell, "cell");
    Expr v = clamped(x * kCell + cell.x - kCell / 2, y * kCell + cell.y - kCell / 2);
    Expr bin = clamp(cast<int>(round(v / range_sigma)), 0, bins);
    Func grid("grid");
    grid(x, y, z, c) = 0.0f;
    grid(x, y, bin, c) += select(c == 0, v, 1.0f);

    Func blur_z("blur_z"), blur_x("blur_x"), blur_y("blur_y");
    // Range blur wider than the spatial ones: binomial 1-4-6-4-1 along z.
    blur_z(x, y, z, c) = grid(x, y, z - 2, c) + grid(x, y, z + 2, c) +
                         4.0f * (grid(x, y, z - 1, c) + grid(x, y, z + 1, c)) + 6.0f * grid(x, y, z, c);
    blur_x(x, y, z, c) = blur_z(x - 1, y, z, c) + 2.0f * blur_z(x, y, z, c) + blur_z(x + 1, y, z, c);
    blur_y(x, y, z, c) = blur_x(x, y - 1, z, c) + 2.0f * blur_x(x, y, z, c) + blur_x(x, y + 1, z, c);

    // Pixel p lies at grid coordinate (p + 0.5) / kCell; its intensity at v / range_sigma.
    Expr gxf = (x + 0.5f) / kCell, gyf = (y + 0.5f) / kCell, gzf = clamped(x, y) / range_sigma;
    Expr gxi = cast<int>(floor(gxf)), gyi = cast<int>(floor(gyf));
    Expr gzi = clamp(cast<int>(floor(gzf)), 0, bins - 1);
    Expr fx = gxf - gxi, fy = gyf - gyi, fz = gzf - gzi;
    auto corner = [&](int dx, int dy, int dz) { return blur_y(gxi + dx, gyi + dy, gzi + dz, c); };
    Func sliced("sliced");
    auto bilinear_at = [&](int dz) {
      return lerp(lerp(corner(0, 0, dz), corner(1, 0, dz), fx), lerp(corner(0, 1, dz), corner(1, 1, dz), fx), fy);
    };
    sliced(x, y, c) = lerp(bilinear_at(0), bilinear_at(1), fz);
    output(x, y) = sliced(x, y, 0) / max(sliced(x, y, 1), 1e-6f);

    input.set_estimates({{0, kSquare}, {0, kSquare}});
    range_sigma.set_estimate(0.1f);
    output.set_estimates({{0, kSquare}, {0, kSquare}});
  }
};

// Digital zoom: a crop window given by integer offsets and a float scale (scalar inputs
// with estimates) in the index arithmetic of a bilinear resampler of a uint8 RGB image.
class Zoom : public Generator<Zoom> {
 public:
  Input<Buffer<uint8_t>> input{"input", 3};  // (x, y, c)
  Input<int> left{"left", 0};
  Input<int> top{"top", 0};
  Input<float> scale{"scale", 1.0f, 0.25f, 4.0f};
  Output<Buffer<float>> output{"output", 3};

  void generate() {
    Var x("x"), y("y"), c("c");
    Func as_float("as_float");
    Func clamped = BoundaryConditions::repeat_edge(input, {{0, input.width()}, {0, input.height()}});
    as_float(x, y, c) = cast<float>(clamped(x, y, c)) / 255.0f;
    Expr sx = left + (x + 0.5f) / scale - 0.5f, sy = top + (y + 0.5f) / scale - 0.5f;
    Expr ix = cast<int>(floor(sx)), iy = cast<int>(floor(sy));
    Expr fx = sx - ix, fy = sy - iy;
    Func resampled("resampled");
    resampled(x, y, c) = lerp(lerp(as_float(ix, iy, c), as_float(ix + 1, iy, c), fx),
                              lerp(as_float(ix, iy + 1, c), as_float(ix + 1, iy + 1, c), fx), fy);
    output(x, y, c) = resampled(x, y, c);

    input.set_estimates({{0, kWidth}, {0, kHeight}, {0, kChannels}});
    left.set_estimate(64);
    top.set_estimate(32);
    scale.set_estimate(1.5f);
    output.set_estimates({{0, kSquare}, {0, kSquare}, {0, kChannels}});
  }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(ColorGrade, corpus_color_grade)
HALIDE_REGISTER_GENERATOR(HistogramEqualize, corpus_histogram_equalize)
HALIDE_REGISTER_GENERATOR(LaplacianDetail, corpus_laplacian_detail)
HALIDE_REGISTER_GENERATOR(ConvStack, corpus_conv_stack)
HALIDE_REGISTER_GENERATOR(ResidualNet, corpus_residual_net)
HALIDE_REGISTER_GENERATOR(Sgemm, corpus_sgemm)
HALIDE_REGISTER_GENERATOR(BlurU8, corpus_blur_u8)
HALIDE_REGISTER_GENERATOR(ExternTonemap, corpus_extern_tonemap)
HALIDE_REGISTER_GENERATOR(BoundaryTiles, corpus_boundary_tiles)
HALIDE_REGISTER_GENERATOR(TileStats, corpus_tile_stats)
HALIDE_REGISTER_GENERATOR(GradientOutputs, corpus_gradient_outputs)
HALIDE_REGISTER_GENERATOR(BilateralGrid, corpus_bilateral_grid)
HALIDE_REGISTER_GENERATOR(Zoom, corpus_zoom)
