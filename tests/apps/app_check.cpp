#include "app_check.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>

namespace candor::apps::check {

using namespace Halide;

// Float tolerance (kFloatTolerance = 1e-3 of max(|a|, |b|, 1)): expert schedules vectorize
// and reorder float arithmetic, and Halide lets LLVM contract a*b+c into FMAs and use
// reciprocal approximations in vector code, so results drift by a few ulps per operation;
// chained stages (pyramids, recursive filters, normalizations by small sums) amplify this
// to around 1e-5..1e-4. 1e-3 is loose enough for that and still catches any real
// scheduling bug (wrong tap, wrong boundary, missing update), which produces errors of
// order the signal itself.

namespace {

double value_at(const Buffer<>& b, const int* pos) {
  const Type t = b.type();
  if (t == Float(32)) return b.as<float>()(pos);
  if (t == Float(64)) return b.as<double>()(pos);
  if (t == UInt(8)) return b.as<uint8_t>()(pos);
  if (t == UInt(16)) return b.as<uint16_t>()(pos);
  if (t == UInt(32)) return b.as<uint32_t>()(pos);
  if (t == Int(8)) return b.as<int8_t>()(pos);
  if (t == Int(16)) return b.as<int16_t>()(pos);
  if (t == Int(32)) return b.as<int32_t>()(pos);
  throw std::runtime_error("app_check: unsupported output type");
}

std::vector<Buffer<>> allocate_outputs(const halide_bridge::AppInstance& inst) {
  std::vector<Buffer<>> outs;
  for (size_t i = 0; i < inst.outputs.size(); i++) {
    outs.emplace_back(inst.outputs[i].output_types()[0], inst.output_sizes[i]);
  }
  return outs;
}

}  // namespace

std::vector<Buffer<>> realize(Pipeline& p, const halide_bridge::AppInstance& inst,
                              const Target& target) {
  std::vector<Buffer<>> outs = allocate_outputs(inst);
  p.realize(Realization(outs), target);
  return outs;
}

double time_realize(Pipeline& p, const halide_bridge::AppInstance& inst, const Target& target,
                    int runs) {
  std::vector<Buffer<>> outs = allocate_outputs(inst);
  Realization r(outs);
  p.realize(r, target);  // warm-up
  std::vector<double> times;
  for (int i = 0; i < runs; i++) {
    auto t0 = std::chrono::steady_clock::now();
    p.realize(r, target);
    auto t1 = std::chrono::steady_clock::now();
    times.push_back(std::chrono::duration<double>(t1 - t0).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

Comparison compare(const Buffer<>& expected, const Buffer<>& actual, double tolerance) {
  Comparison c;
  if (expected.type() != actual.type() || expected.dimensions() != actual.dimensions()) return c;
  for (int d = 0; d < expected.dimensions(); d++) {
    if (expected.dim(d).min() != actual.dim(d).min() ||
        expected.dim(d).extent() != actual.dim(d).extent()) {
      return c;
    }
  }
  c.same_shape = true;
  const bool is_float = expected.type().is_float();
  expected.for_each_element([&](const int* pos) {
    double a = value_at(expected, pos), b = value_at(actual, pos);
    double diff = std::abs(a - b);
    if (std::isnan(a) != std::isnan(b)) diff = INFINITY;
    double rel = diff / std::max({std::abs(a), std::abs(b), 1.0});
    c.max_abs_diff = std::max(c.max_abs_diff, diff);
    c.max_rel_diff = std::max(c.max_rel_diff, rel);
    bool bad = is_float ? !(rel <= tolerance) : diff != 0;
    if (bad) {
      if (c.mismatches == 0) {
        std::ostringstream s;
        s << "(";
        for (int d = 0; d < expected.dimensions(); d++) s << (d ? ", " : "") << pos[d];
        s << "): expected " << a << ", got " << b;
        c.first_mismatch = s.str();
      }
      c.mismatches++;
    }
  });
  return c;
}

}  // namespace candor::apps::check
