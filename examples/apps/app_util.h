// Helpers shared by the example apps: deterministic inputs, estimates, boundary
// conditions with readable Func names, and the per-app factory declarations.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include <Halide.h>

#include "halide_bridge/app.h"

namespace candor::apps::detail {

using halide_bridge::App;
using halide_bridge::AppInstance;

// A small, portable PRNG (splitmix64): the same inputs on every platform and standard
// library, unlike std::uniform_*_distribution.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next_u64() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1) with 24 bits, so exactly representable as a float.
  float next_unit() { return static_cast<float>(next_u64() >> 40) / 16777216.0f; }
  uint32_t next_below(uint32_t n) { return static_cast<uint32_t>(next_u64() % n); }

 private:
  uint64_t state_;
};

// A natural-looking test image: smooth value noise at a few scales plus fine grain, in
// [0, 1], quantized to multiples of 1/256 (so thresholds and bin indices computed from it
// never sit within rounding error of a boundary). `sizes` is {width, height[, channels]}.
Halide::Buffer<float> natural_image(const std::vector<int>& sizes, uint64_t seed);

// Same image as 8- or 16-bit integers (scaled to [0, max_value]).
Halide::Buffer<uint8_t> natural_image_u8(const std::vector<int>& sizes, uint64_t seed);
Halide::Buffer<uint16_t> natural_image_u16(const std::vector<int>& sizes, uint64_t seed,
                                           int max_value);

// Uniform random floats in [lo, hi), any dimensionality.
Halide::Buffer<float> uniform_buffer(const std::vector<int>& sizes, uint64_t seed, float lo,
                                     float hi);

// Binds `buffer` to `param` and sets the param's estimates to the buffer's shape.
template <typename T>
void bind_input(Halide::ImageParam& param, const Halide::Buffer<T>& buffer) {
  param.set(buffer);
  Halide::Region region;
  for (int d = 0; d < buffer.dimensions(); d++) {
    region.emplace_back(buffer.dim(d).min(), buffer.dim(d).extent());
  }
  param.set_estimates(region);
}

// Sets estimates [0, size) on every dimension of `output`.
void set_output_estimates(Halide::Func output, const std::vector<int>& sizes);

// `input` extended beyond its first two dimensions by repeating the edge (the same
// semantics as BoundaryConditions::repeat_edge, but the Func gets a readable name of our
// choosing instead of "repeat_edge$N"). Other dimensions pass through.
Halide::Func repeat_edge_xy(const Halide::ImageParam& input, const std::string& name);

// `input` extended with zeros outside its first two dimensions' bounds (zero padding for
// convolutions), likewise with a readable name. `x_dim` / `y_dim` name which dimensions.
Halide::Func zero_pad(const Halide::ImageParam& input, int x_dim, int y_dim,
                      const std::string& name);

// The name an app gave `f`. Halide 14 makes Func names unique per process: the second
// Func("blur_x") ever created is really named "blur_x$1". Every build() of an app creates
// its Funcs anew, so only the first instance has the plain names; the keys of
// AppInstance::funcs are these stable names (the Func's name up to any '$').
std::string stable_name(const Halide::Func& f);

// Adds every Func in `funcs` to `inst.funcs` under its stable name (must be unique).
void register_funcs(AppInstance& inst, std::initializer_list<Halide::Func> funcs);
void register_funcs(AppInstance& inst, const std::vector<Halide::Func>& funcs);

// Natural vector width (lanes) for `type` on `target` (8 for float on AVX2).
inline int lanes(const Halide::Target& target, const Halide::Type& type) {
  return target.natural_vector_size(type);
}

// One factory per app (each in its own .cpp); registry.cpp lists them.
App make_bgu_app();
App make_bilateral_grid_app();
App make_box_blur_app();
App make_camera_pipe_app();
App make_conv_relu_app();
App make_depthwise_separable_conv_app();
App make_harris_app();
App make_hist_eq_app();
App make_iir_blur_app();
App make_lens_blur_app();
App make_local_laplacian_app();
App make_matmul_app();
App make_max_filter_app();
App make_non_local_means_app();
App make_pyramid_interp_app();
App make_stencil_chain_app();
App make_unsharp_mask_app();

}  // namespace candor::apps::detail
