// (Named stage_features.h, not features.h: this directory is on the include path, and a
// features.h here would shadow glibc's <features.h>.)
//
// Featurization of a (partial) Halide CPU schedule for the learned cost model (Adams et al.
// 2019 §4, Anderson et al. 2021 §5): one row of named features per stage of the kernel
// description, never a positional array read in an agreed order.
//
// The schema is the X-macro list below: the enum `Feature`, the names (`feature_names()`)
// and the JSON form all come from it, so a feature is added in one place.
//
// Algorithm features read the kernel description only (op counts per point, access
// patterns from the access Jacobians, footprint widths). Schedule features read the
// analytic model's resolution of the view (analytic_model.h): the same points computed,
// productions, footprints, cores and vectorization the model's terms use.
//
// Partial views: undecided choices take the analytic model's optimistic completion (each
// Func placed and each stage's parallel / vectorize / unroll / tiles chosen to make its
// stage cheapest). On top of that, when a Func's placement (where or sliding), or that of
// any Func downstream of it, is still open, the counts that grow with recomputation take
// an optimistic value: points_computed, productions, realizations, recompute and
// allocation_bytes are 0 when it may still be inlined, else at most those of one
// production of its region. (The analytic model can count a Func computed inside a consumer
// below its region; those completions are not bounded by this.) A Func the resolution
// inlines has its schedule features at 0 (its work is in its consumers' rows,
// `ops_with_inlined`). A complete view's features are exactly its resolution's.
#pragma once

#include <array>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analytic_model.h"
#include "kernel_description.h"
#include "machine.h"
#include "schedule_view.h"

namespace candor::models::halide {

// X(name): every feature, in schema order. Values are per stage; "per point" means per
// point of the stage's loop nest.
#define CANDOR_STAGE_FEATURES(X)                                                          \
  /* --- algorithm: the stage ------------------------------------------------------ */ \
  X(is_update)              /* 1 for an update definition */                              \
  X(is_output)                                                                            \
  X(can_inline)                                                                           \
  X(loops)                  /* loops of the stage */                                      \
  X(rvars)                  /* of which RDom loops */                                     \
  X(serial_rvars)           /* RDom loops that must run in order */                       \
  X(stage_points)           /* the stage's region, in points */                           \
  X(bytes_per_point)        /* of the Func's value */                                     \
  X(natural_vector_width)                                                                 \
  /* --- algorithm: operations per point (OpCounts) ------------------------------- */   \
  X(op_add) X(op_mul) X(op_div) X(op_minmax) X(op_compare) X(op_logic) X(op_select)      \
  X(op_cast) X(op_transcendental) X(op_intrinsic)                                         \
  X(ops_float)              /* arithmetic by result type: float32/64 */                   \
  X(ops_int32)              /* int32/uint32 (mostly index arithmetic) */                  \
  X(ops_int16)              /* int16/uint16 */                                            \
  X(ops_int8)               /* int8/uint8/bool */                                         \
  X(ops_total)                                                                            \
  /* --- algorithm: accesses (from the Jacobians), loads per point ----------------- */  \
  X(loads_func) X(loads_input)                                                            \
  X(loads_pointwise)        /* unit Jacobian, one point per call */                       \
  X(loads_stencil)          /* unit Jacobian, a window wider than one */                  \
  X(loads_strided)          /* a coefficient other than 0 or +-1 (down/upsampling) */      \
  X(loads_transposed)       /* the innermost pure loop moves a non-innermost dimension */ \
  X(loads_broadcast)        /* a pure loop moves no producer dimension (reuse) */        \
  X(loads_data_dependent)   /* non-affine: gathers, lookups, histograms */                \
  X(loads_self)             /* an update reading its own Func */                          \
  X(footprint_width_max)    /* widest window in one dimension, per point */               \
  X(footprint_points)       /* producer points read per point (window areas) */           \
  /* --- schedule: placement, as resolved --------------------------------------- */     \
  X(inlined) X(at_root) X(at_tile) X(at_subtile) X(sliding)                               \
  X(placement_open)         /* where or sliding still undecided */                        \
  X(parallel) X(vectorized) X(unrolled)                                                   \
  /* --- schedule: counts -------------------------------------------------------- */     \
  X(points_computed)        /* recomputation included */                                  \
  X(recompute)              /* points_computed / stage_points */                          \
  X(productions)            /* regions of it computed */                                  \
  X(realizations)           /* allocations of its buffer */                               \
  X(vector_iterations)      /* vectors computed (0 when scalar) */                        \
  X(scalar_iterations)      /* points computed one at a time (0 when vectorized) */       \
  X(vector_efficiency)      /* useful lanes / lanes computed */                           \
  X(innermost_iterations)   /* innermost loop trips (vectors, unrolling folded) */        \
  X(loads_per_iteration)    /* loads per vector (or per scalar iteration) */              \
  X(ops_with_inlined)       /* per point, inlined producers' operations included */       \
  /* --- schedule: memory ------------------------------------------------------- */     \
  X(footprint_bytes)        /* producer bytes read per production (compute level) */     \
  X(working_set_bytes)      /* footprint + bytes written per production */                \
  X(inner_footprint_bytes)  /* producer bytes read per innermost tile */                  \
  X(inner_working_set_bytes)                                                              \
  X(allocation_bytes)       /* bytes per realization */                                   \
  /* --- schedule: parallelism and loops --------------------------------------- */      \
  X(parallel_tasks)         /* iterations of its parallel loop */                         \
  X(cores_used)             /* cores times load balance */                                \
  X(inner_extent)           /* innermost loop's inner-band extent */                      \
  X(unroll_factor)          /* 1 when not unrolled */

enum class Feature {
#define CANDOR_FEATURE_ENUM(name) name,
  CANDOR_STAGE_FEATURES(CANDOR_FEATURE_ENUM)
#undef CANDOR_FEATURE_ENUM
  Count
};
inline constexpr int kNumFeatures = int(Feature::Count);

// The names, in schema order (feature_names()[int(Feature::x)] == "x").
const std::vector<std::string>& feature_names();
const char* feature_name(Feature f);

struct StageFeatures {
  std::string func;
  int stage = 0;
  std::array<double, kNumFeatures> values{};

  double& operator[](Feature f) { return values[size_t(f)]; }
  double operator[](Feature f) const { return values[size_t(f)]; }
  // By name; throws std::out_of_range for an unknown name.
  double get(const std::string& name) const;
};

// {"func": ..., "stage": ..., "features": {"name": value, ...}}
void to_json(nlohmann::json& j, const StageFeatures& f);

// One row per stage of `kd`, in its order (producers first; a Func's stages in order).
std::vector<StageFeatures> featurize(const halide_bridge::KernelDescription& kd, const ScheduleView& view,
                                     const MachineDescription& machine);
// The same from the analytic model's resolution of `view` (AnalyticModel::explain), for
// callers that need the prediction too and should not resolve the view twice.
std::vector<StageFeatures> featurize(const halide_bridge::KernelDescription& kd, const ScheduleView& view,
                                     const Prediction& pred);

}  // namespace candor::models::halide
