// Shared by the app tests and the naive-vs-expert benchmark: realize an app instance on
// the host and compare two outputs.
#pragma once

#include <string>
#include <vector>

#include <Halide.h>

#include "halide_bridge/app.h"

namespace candor::apps::check {

// Realizes `pipeline` (built from `inst`; JIT-compiled for `target` on first use) at the
// instance's output sizes.
std::vector<Halide::Buffer<>> realize(Halide::Pipeline& pipeline,
                                      const halide_bridge::AppInstance& inst,
                                      const Halide::Target& target);

// Median wall time in seconds of `runs` realizations (after one warm-up run, which also
// compiles) of `pipeline` into preallocated outputs.
double time_realize(Halide::Pipeline& pipeline, const halide_bridge::AppInstance& inst,
                    const Halide::Target& target, int runs);

struct Comparison {
  bool same_shape = false;
  double max_abs_diff = 0;   // over all elements
  double max_rel_diff = 0;   // |a - b| / max(|a|, |b|, 1): relative, floored at absolute 1
  long mismatches = 0;       // elements over tolerance
  std::string first_mismatch;  // "(x, y, ...): expected vs got"
};

// Integer outputs must match exactly; float outputs within `tolerance` of
// max(|a|, |b|, 1) (a relative tolerance that becomes absolute below magnitude 1).
Comparison compare(const Halide::Buffer<>& expected, const Halide::Buffer<>& actual,
                   double tolerance);

// The float tolerance the suite uses, and why: see app_check.cpp.
constexpr double kFloatTolerance = 1e-3;

}  // namespace candor::apps::check
