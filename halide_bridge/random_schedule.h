// Seeded random schedules, valid by construction (and checked by the validator), for
// tests now and cost-model training data later. The same kernel description and seed
// always give the same schedule.
#pragma once

#include <cstdint>

#include "kernel_description.h"
#include "schedule.h"
#include "validate.h"

namespace candor::halide_bridge {

// Probabilities of the sampler's choices; the defaults spread samples over the whole
// CPU space (every kind of location, tiling depth, annotation).
struct SamplerOptions {
  double p_inline = 0.3;          // of inlining a Func that can be inlined
  double p_compute_at = 0.45;     // of computing inside its consumer, when it has exactly one
  double p_store_coarser = 0.35;  // of storing at a coarser level than computed (sliding window)
  double p_vectorize = 0.7;       // of a vectorized innermost loop
  double p_split = 0.5;           // of tiling each pure loop (then again, nested, at half that)
  double p_split_rvar = 0.2;      // of splitting each RDom loop
  double p_reorder = 0.4;         // of a random loop order
  double p_parallel = 0.75;       // of a parallel outer loop (root-level stages)
  double p_unroll = 0.3;          // of unrolling a small constant inner loop
  int max_unroll = 8;
  int attempts = 16;  // resamples (from derived seeds) before giving up on a valid schedule
};

// A random valid CPU schedule. Throws BridgeError if none is found in `attempts` tries.
Schedule random_cpu_schedule(const KernelDescription& kd, uint64_t seed, const SamplerOptions& options = {});

// A random valid GPU schedule for a CUDA target: root-level stages tiled into GPU blocks
// and threads (at most `limits.max_threads_per_block` threads), producers inlined, at the
// root, or computed per block (shared memory) or per thread.
Schedule random_gpu_schedule(const KernelDescription& kd, uint64_t seed, const Halide::Target& target,
                             const GpuLimits& limits = GpuLimits{}, const SamplerOptions& options = {});

}  // namespace candor::halide_bridge
