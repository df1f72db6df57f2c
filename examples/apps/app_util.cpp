#include "app_util.h"

#include <cmath>
#include <stdexcept>

namespace candor::apps::detail {

using namespace Halide;

namespace {

// Value noise on a lattice of `cell` pixels, bilinearly interpolated with a smoothstep.
struct ValueNoise {
  int cell;
  int gw, gh;
  std::vector<float> lattice;
  ValueNoise(int width, int height, int cell_size, Rng& rng)
      : cell(cell_size), gw(width / cell_size + 2), gh(height / cell_size + 2) {
    lattice.resize(static_cast<size_t>(gw) * gh);
    for (float& v : lattice) v = rng.next_unit();
  }
  float at(int x, int y) const {
    int cx = x / cell, cy = y / cell;
    float fx = static_cast<float>(x % cell) / cell, fy = static_cast<float>(y % cell) / cell;
    fx = fx * fx * (3 - 2 * fx);
    fy = fy * fy * (3 - 2 * fy);
    auto l = [&](int i, int j) { return lattice[static_cast<size_t>(j) * gw + i]; };
    float top = l(cx, cy) * (1 - fx) + l(cx + 1, cy) * fx;
    float bottom = l(cx, cy + 1) * (1 - fx) + l(cx + 1, cy + 1) * fx;
    return top * (1 - fy) + bottom * fy;
  }
};

}  // namespace

Buffer<float> natural_image(const std::vector<int>& sizes, uint64_t seed) {
  if (sizes.size() < 2 || sizes.size() > 3) throw std::invalid_argument("natural_image: 2 or 3 dims");
  const int width = sizes[0], height = sizes[1];
  const int channels = sizes.size() == 3 ? sizes[2] : 1;
  Buffer<float> out(sizes);
  Rng rng(seed);
  for (int c = 0; c < channels; c++) {
    // Three octaves: large shapes, medium texture, and per-pixel grain.
    ValueNoise coarse(width, height, 64, rng), medium(width, height, 12, rng);
    for (int y = 0; y < height; y++) {
      for (int x = 0; x < width; x++) {
        float v = 0.6f * coarse.at(x, y) + 0.3f * medium.at(x, y) + 0.1f * rng.next_unit();
        v = std::floor(v * 255.0f + 0.5f) / 256.0f;  // quantize: see header
        if (sizes.size() == 3) {
          out(x, y, c) = v;
        } else {
          out(x, y) = v;
        }
      }
    }
  }
  return out;
}

Buffer<uint8_t> natural_image_u8(const std::vector<int>& sizes, uint64_t seed) {
  Buffer<float> f = natural_image(sizes, seed);
  Buffer<uint8_t> out(sizes);
  // natural_image is in [0, 255/256] in steps of 1/256, so this is exact and <= 255.
  out.for_each_element(
      [&](const int* pos) { out(pos) = static_cast<uint8_t>(std::lround(f(pos) * 256.0f)); });
  return out;
}

Buffer<uint16_t> natural_image_u16(const std::vector<int>& sizes, uint64_t seed, int max_value) {
  Buffer<float> f = natural_image(sizes, seed);
  Buffer<uint16_t> out(sizes);
  out.for_each_element(
      [&](const int* pos) { out(pos) = static_cast<uint16_t>(std::lround(f(pos) * max_value)); });
  return out;
}

Buffer<float> uniform_buffer(const std::vector<int>& sizes, uint64_t seed, float lo, float hi) {
  Buffer<float> out(sizes);
  Rng rng(seed);
  out.for_each_element([&](const int* pos) { out(pos) = lo + (hi - lo) * rng.next_unit(); });
  return out;
}

void set_output_estimates(Func output, const std::vector<int>& sizes) {
  Region region;
  for (int s : sizes) region.emplace_back(0, s);
  output.set_estimates(region);
}

Func repeat_edge_xy(const ImageParam& input, const std::string& name) {
  std::vector<Var> args;
  std::vector<Expr> coords;
  for (int d = 0; d < input.dimensions(); d++) {
    Var v("d" + std::to_string(d));
    args.push_back(v);
    if (d < 2) {
      Expr lo = input.dim(d).min(), hi = input.dim(d).max();
      // likely(): lets Halide split loops into a clamp-free steady state and edge cases.
      coords.push_back(clamp(likely(v), lo, hi));
    } else {
      coords.push_back(v);
    }
  }
  Func f(name);
  f(args) = input(coords);
  return f;
}

Func zero_pad(const ImageParam& input, int x_dim, int y_dim, const std::string& name) {
  std::vector<Var> args;
  std::vector<Expr> coords;
  Expr inside = Internal::const_true();
  for (int d = 0; d < input.dimensions(); d++) {
    Var v("d" + std::to_string(d));
    args.push_back(v);
    if (d == x_dim || d == y_dim) {
      Expr lo = input.dim(d).min(), hi = input.dim(d).max();
      coords.push_back(clamp(v, lo, hi));
      inside = inside && v >= lo && v <= hi;
    } else {
      coords.push_back(v);
    }
  }
  Func f(name);
  f(args) = select(inside, input(coords), Internal::make_zero(input.type()));
  return f;
}

void register_funcs(AppInstance& inst, std::initializer_list<Func> funcs) {
  register_funcs(inst, std::vector<Func>(funcs));
}

std::string stable_name(const Func& f) {
  const std::string& name = f.name();
  return name.substr(0, name.find('$'));
}

void register_funcs(AppInstance& inst, const std::vector<Func>& funcs) {
  for (const Func& f : funcs) {
    if (!inst.funcs.emplace(stable_name(f), f).second) {
      throw std::logic_error("duplicate Func name in app: " + stable_name(f));
    }
  }
}

}  // namespace candor::apps::detail
