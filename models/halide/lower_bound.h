// An admissible, monotone lower bound on the runtime of every schedule a (partial)
// candidate of the Halide CPU space still allows (thesis, ch. 5: an optimistic model of
// partially specified implementations). Branch-and-bound discards a candidate whose bound
// is not below the best runtime found so far, so the bound must never exceed the runtime
// of any completion; it grows as choices get fixed.
//
// bound = max(compute, memory):
//  * compute: the arithmetic no schedule can avoid, at the best rate the schedule can
//    still reach. Only stages that cannot be inlined (every allowed Where computes the Func
//    into its own buffer) count, each at least over its whole region, with only the
//    operations on its values (see `certain_ops`); the rate is the measured SIMD peak of its
//    operation types (whatever vectorize says: see assumption 7), on as many cores as its
//    parallel loop can occupy (all when undecided; one when parallel is fixed to NO at the
//    root; fewer when the parallel loop has fewer iterations than cores).
//  * memory: the bytes that must move (inputs read once, outputs written once) at the
//    fastest measured read bandwidth of a level that can hold them all (benchmarks rerun
//    the pipeline, so small data stays in cache); or, when larger, the writes of the
//    buffers of Funcs fixed at the root, each at the bandwidth of a level that holds it.
//
// Assumptions that make it admissible, in full:
//  1. The machine description's peaks are attainable maxima: no Halide schedule runs an
//     operation type faster than the calibration's independent-chain kernels, nor streams
//     data faster than its read kernels (both measured with Halide-generated code).
//  2. Index arithmetic is free: operations of type int32 (Halide's index type) are not
//     counted, since they may fold into addressing or be hoisted out of loops; neither are
//     casts (widening loads and narrowing stores may absorb them).
//  3. Common subexpressions may be computed once: the kernel description counts every node
//     of the expression tree, so only a fraction `kCseShare` of the remaining operations is
//     counted.
//  4. Operation types may overlap on different execution units: a stage takes at least the
//     time of its slowest type alone, and at least the time of all its operations at the
//     fastest rate of any type.
//  5. Inlined Funcs contribute no work of their own (their work may merge into the
//     consumer's, be simplified away or CSE'd), and a Func that may still be inlined
//     contributes nothing.
//  6. Stages run one after another or share the same cores (no async producers), so their
//     minimum times add up.
//  7. vectorize = NO does not mean scalar code: LLVM auto-vectorizes Halide's unvectorized
//     loops when it can (checked on Halide 14's output: ymm code for an unvectorized stage),
//     so every stage is bounded at SIMD rates. 32-bit float operations are bounded by the
//     faster of the measured float32 and int32 SIMD rates (same pipes, same lanes).
//  8. Operations whose value does not vary along a loop (a boundary condition's tests of y
//     with the vector along x or channels) may run once per vector of that loop: each type
//     counts only its operations that vary along the loop leaving it the fewest.
//  9. Input/output traffic and the writes of root buffers may overlap in time; only the
//     larger of the two counts.
#pragma once

#include <string>
#include <vector>

#include "kernel_description.h"
#include "machine.h"
#include "schedule_view.h"

namespace candor::models::halide {

// The share of a stage's counted value operations the bound assumes must execute
// (assumption 3).
inline constexpr double kCseShare = 0.5;

struct StageBound {
  std::string func;
  int stage = 0;
  double points = 0;        // points it computes at least
  double ops_per_point = 0; // certain value operations per point
  double cores = 0;         // most cores it can use
  bool vector = true;       // may still be vectorized
  double seconds = 0;
};

struct LowerBoundTerms {
  double compute_s = 0;
  double memory_s = 0;
  double bytes = 0;         // must move: inputs once + outputs once
  std::string level;        // the level whose bandwidth the memory term uses
  std::vector<StageBound> stages;  // the stages that count
  double seconds() const { return compute_s > memory_s ? compute_s : memory_s; }
};

LowerBoundTerms lower_bound_terms(const halide_bridge::KernelDescription& kd, const ScheduleView& view,
                                  const MachineDescription& machine);

// Seconds; admissible and monotone (see above).
double lower_bound_seconds(const halide_bridge::KernelDescription& kd, const ScheduleView& view,
                           const MachineDescription& machine);

// Certain value operations per point by element type: the stage's arithmetic without index
// (int32) operations and casts, scaled by kCseShare. Exposed for tests and the model.
std::vector<std::pair<std::string, double>> certain_ops(const halide_bridge::OpCounts& ops);

}  // namespace candor::models::halide
