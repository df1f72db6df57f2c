// The analytic cost model of the Halide CPU space: predicts the runtime of complete and
// partial candidates (ScheduleViews) from the kernel description and the measured machine
// description. Partial candidates are completed optimistically: undecided choices take the
// value that makes their own stage cheapest (where, parallel, vectorize, tiles; each Func in
// turn from the outputs, its tile sizes one loop at a time, outermost first, priced whole).
//
// Per stage (one named term each, see StageCost):
//  * points computed: the stage's region at the root; inside its consumer, the consumer's
//    tile footprint (access Jacobians and offsets) times the number of tiles, so overlap
//    is recomputed; a sliding window (storage one level coarser) removes the recompute;
//    split loops compute whole tiles (a tile of 1024 rows over 1032 computes 2048);
//  * compute: operations per point (its own plus those of Funcs inlined into it, per call)
//    at the measured rate of each operation type, vectorized (lanes used vs the natural
//    width, tails of the inner extent) or scalar, on the cores its parallel loop occupies
//    (load imbalance when iterations do not divide evenly); an update whose accumulators
//    stay in registers across its reduction at the rate calibrated for register tiles of
//    as many accumulators and as many loads per step (one or two vectors wide);
//  * memory: bytes of producers read per tile (footprints) from the level that holds them
//    (a root Func or an input streams from the level that holds every buffer a run streams
//    through, the inputs and the root Funcs, since the pipeline touches all of them between
//    two passes over one; a Func computed inside its consumer from L1/L2), loads served by
//    L1 (gathers, data-dependent loads in vectorized code, lane by lane at the calibrated
//    gather rate), and bytes written; at the bandwidth
//    measured for that level with the cores in use; an access whose stride along the
//    loop innermost in the emitted order (the vectorized innermost pure loop when
//    vectorized: RDom loops run outside the inner band) is at least a cache line loads a whole
//    line per point, from the level that holds the lines that loop touches; and lines that
//    a walk down the columns of a root buffer fetches again in short runs because L2 lost
//    them between passes (traversal.h) cost a latency each, at the measured column-walk rate;
//  * overheads: parallel loop launches and tasks, allocations, innermost loop iterations
//    (divided by the unroll factor).
// stage time = max(compute, memory) + a share of the shorter of the two (overlap is not
// complete) + overheads; pipeline time = sum over stages.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "kernel_description.h"
#include "machine.h"
#include "schedule_view.h"

namespace candor::models::halide {

// Hand-designed coefficients of the model (not machine numbers: those come from the
// machine description). A learned model predicts its own coefficients instead.
struct AnalyticModelOptions {
  double index_op_weight = 0.25;  // int32 (index) operations, mostly folded into addressing
  double loop_iteration_ops = 2;  // scalar operations per innermost loop iteration
  double min_parallel_tasks_per_core = 2;  // optimistic tile choice aims at this many tasks
  // Share of an unvectorized stage's work LLVM auto-vectorizes (at the machine's
  // `unvectorized` rate); the rest runs at the truly scalar rate.
  double autovectorized_share = 0.5;
  int cache_line_bytes = 64;
  // Vector registers of the register file an update's register tile leaves to the loads of
  // its other operands; its accumulators may use the rest (AVX2: 12 of 16, AVX-512: 28 of 32).
  // With 12 on AVX-512, conv_relu's 2 x 8 tile (16 accumulators) was priced as spilling, 2.3x
  // its 2 x 4 pick, and ran 0.82-0.83 of it (Xeon, side by side).
  int operand_registers = 4;
  // Largest stride (elements) between vector lanes that Halide still loads densely (then shuffles).
  double dense_vector_stride = 4;
  // Vectors along the vector loop of a register tile that stay in registers: the CPU space
  // unrolls a vector band this short (HalideCpuSpace::kUnrolledVectors).
  int vector_loop_unrolled = 4;
  // A rolled loop of a register tile's inner band this short counts as unrolled: LLVM unrolls
  // a constant 2-trip loop itself (depthwise_separable_conv's pointwise tile of 4 vectors x 2
  // pixels ran alike with the pixel loop rolled and unrolled, 1.002 and 0.997 side by side).
  // One such loop only: two nested ones are a loop inside the reduction.
  int llvm_unrolled_trips = 2;
  // Halide gives a buffer of constant size up to this many bytes stack space (its
  // runtime's maximum_stack_allocation_bytes) instead of a heap allocation.
  double stack_allocation_bytes = 16384;
  // Scalar-operation times of a small heap allocation and its free: a buffer sized at run
  // time goes to the heap however small (a copy of a clamped input per guarded 64 x 2 tile
  // ran 1.7x as long heap-allocated as with store_in(MemoryType::Stack), about 12 ns more
  // per allocation on a Zen 4 core, whose scalar rate is 9 G int32 ops/s).
  double small_heap_allocation_ops = 100;
  // Share of the shorter of a stage's compute and memory times that the other does not hide:
  // out-of-order cores overlap loads with arithmetic, but not all of it (0 = perfect overlap,
  // 1 = none). Without it, saving memory traffic in a compute-bound stage counts for nothing.
  double unhidden_overlap_share = 0.3;
  // Scalar-operation times per accumulator vector per sweep of a register tile's reduction
  // when the tile's buffer is not held in registers (its accumulators are loaded before the
  // sweep and stored after it), spent beside the arithmetic. depthwise_separable_conv's
  // pointwise (32-step sweeps, 16 accumulators) per block of 4 and 16 tiles took about 1-1.4 ns
  // more per accumulator vector than one tile held in registers (8 at the Xeon's 6.8 G scalar
  // ops/s), beside the initialization and ReLU passes, on one thread
  // (bench/head_to_head_results/2026-12-05_s61/microbench/).
  double accumulator_round_trip_ops = 8;
};

struct StageCost {
  std::string func;
  int stage = 0;
  Where where = Where::Root;  // as resolved (optimistically, when undecided)
  bool parallel = false, vectorize = false, unroll = false, sliding = false;
  bool unfolded = false;         // a sliding window Halide does not fold: one allocation per coarser tile
  bool in_registers = false;    // its buffer lives in vector registers: stored and read without memory
  double productions = 1;      // times a region of it is computed
  double points_computed = 0;  // in total, recomputation included
  double tail_waste = 1;       // whole tiles computed per point needed (split tails)
  double recompute = 1;        // points_computed / the stage's points
  double ops_per_point = 0;    // weighted, inlined Funcs included
  double vector_efficiency = 1;  // useful lanes / lanes computed
  double cores_used = 1;
  double footprint_bytes = 0;  // bytes read from producers per production
  double compute_s = 0;
  double column_walk_lines = 0;  // lines fetched in short runs down columns (traversal.h)
  double load_s = 0;       // producers' bytes from their level + L1 loads + column walks
  // load_s by cause (they sum to it): producers' lines from the level holding them, strided
  // innermost reads (a line a point), every load instruction through L1, lane-by-lane
  // gathers, and column walks (`candor search --explain` prints them).
  struct LoadParts {
    double levels_s = 0, strided_s = 0, l1_s = 0, gathers_s = 0, column_walk_s = 0;
  } load_parts;
  double store_s = 0;
  // Of load_s and store_s, the lines that come one by one because the walk keeps more rows
  // open than the prefetchers follow: the core waits for them (not overlapped).
  double stall_s = 0;
  double parallel_s = 0;   // launches + tasks
  double allocation_s = 0;
  double loop_s = 0;
  // max(compute, load + store - stall) + unhidden share of the min + stall + overheads
  double total_s = 0;
  // The resolved schedule behind these terms (read by the featurization, features.h).
  double realizations = 1;     // allocations of the Func's buffer (stage 0 carries them)
  double buffer_bytes = 0;     // bytes of one allocation
  double parallel_tasks = 0;   // iterations of the parallel loop (0: not parallel)
  double loads_per_point = 0;  // producer loads per point, through inlined Funcs
  double innermost_iterations = 0;  // innermost loop iterations (vectors, unroll folded)
  int vector_width = 1;
  // Loop indices (innermost first; -1: none): the loop vectorized (the innermost pure
  // loop), the loop unrolled, and the loop innermost in the emitted order, whose part in
  // the emitted nest runs innermost_extent iterations.
  int vector_loop = -1, unroll_loop = -1, innermost_loop = 0;
  int third_loop = -1;  // the third pure loop, unrolled with the second (-1: not unrolled)
  double innermost_extent = 1;
  std::vector<double> extents;     // per production, per loop (innermost first)
  std::vector<double> inner_tile;  // the inner band's lengths per loop (innermost tile)
};

struct Prediction {
  double seconds = 0;
  std::vector<StageCost> stages;  // non-inlined stages, the kernel description's order
};

class AnalyticModel;

// What one model's evaluations of one kernel's views share: an integer index of the kernel,
// the Funcs placed at the root, completed and priced, and what a stage's price takes from
// which Funcs are inlined or at the root, each kept under everything it depends on (so a
// cached evaluation equals a fresh one). Bounded; one per thread.
class EvaluationCache {
 public:
  EvaluationCache();
  ~EvaluationCache();
  EvaluationCache(const EvaluationCache&) = delete;
  EvaluationCache& operator=(const EvaluationCache&) = delete;

  struct Shared;
  // What the evaluations of `kd` by `model` share (reset when given another kernel or model).
  Shared& shared_for(const halide_bridge::KernelDescription& kd, const AnalyticModel& model);

 private:
  std::unique_ptr<Shared> shared_;
};

class AnalyticModel {
 public:
  explicit AnalyticModel(MachineDescription machine, AnalyticModelOptions options = {});

  Prediction explain(const halide_bridge::KernelDescription& kd, const ScheduleView& view) const;
  // The same, reusing what `cache` holds from earlier views of the same kernel.
  Prediction explain(const halide_bridge::KernelDescription& kd, const ScheduleView& view,
                     EvaluationCache& cache) const;
  double predict(const halide_bridge::KernelDescription& kd, const ScheduleView& view) const;
  // Batched: seconds[i] for views[i].
  void predict(const halide_bridge::KernelDescription& kd, const std::vector<ScheduleView>& views,
               std::vector<double>& seconds) const;

  const MachineDescription& machine() const { return machine_; }
  const AnalyticModelOptions& options() const { return options_; }

 private:
  MachineDescription machine_;
  AnalyticModelOptions options_;
};

// Extent of each producer dimension that `e` reads when the consumer's loops cover `len`
// points each (by consumer loop index), clamped to what is required of the producer.
std::vector<double> access_footprint(const halide_bridge::Edge& e, const std::vector<double>& len);

// The batched API with an explicit machine description.
void predict(const halide_bridge::KernelDescription& kd, const std::vector<ScheduleView>& views,
             const MachineDescription& machine, std::vector<double>& seconds);

}  // namespace candor::models::halide
