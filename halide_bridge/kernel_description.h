// The kernel description: everything the decision spaces, cost models and schedule
// sampler need to know about a pipeline, computed once from Halide's own analyses
// (bounds inference on the estimates, the accesses each stage makes, op counts, types).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <Halide.h>
#include <nlohmann/json.hpp>

#include "app.h"
#include "error.h"
#include "expr_analysis.h"

namespace candor::halide_bridge {

struct Range {
  int64_t min = 0;
  int64_t max = -1;
  int64_t extent() const { return max - min + 1; }
  bool operator==(const Range& o) const { return min == o.min && max == o.max; }
};

// One loop of a stage, before any scheduling.
struct LoopInfo {
  std::string var;  // canonical loop name ("x", or "k_x" for RDom variable "k$x"; naming.h)
  bool is_rvar = false;
  int arg_index = -1;   // a pure variable: its position in the Func's arguments
  int rvar_index = -1;  // an RDom variable: its position in the stage's RDom
  bool same_in_halide = true;  // the canonical name is this instance's Halide name too
  // Iterations may run in any order (a pure var, or an RVar Halide proved race-free).
  // Only pure loops may be parallelized, vectorized or reordered across other loops.
  bool is_pure = true;
  int64_t min = 0;
  int64_t extent = 1;
};

// How a consumer stage reads one producer dimension, per point of the consumer:
// producer_coord = sum_i coeffs[i] * loop_i + c, c in [min_offset, max_offset].
// When the access is not affine (data-dependent, products of loop vars), `affine` is
// false, coeffs are all zero and [min_offset, max_offset] is the absolute region read.
struct AccessDim {
  // One affine map of the consumer's loops serves every call site. When call sites map
  // differently (non_local_means reads clamped(x, y) and clamped(x + dx, y + dy)), the
  // footprint is the whole region read, and `coeffs` are zero.
  bool affine = true;
  // Some call site's coordinate is not affine in the loops: a data-dependent lookup.
  bool lookup = false;
  std::vector<Rational> coeffs;  // by the consumer stage's loops, same order as `loops`
  int64_t min_offset = 0;
  int64_t max_offset = 0;
  // Clamped by a boundary condition (boundary_clamp) at some call site; `clamped_everywhere`:
  // at a call site whose clamp loop partitioning cannot drop from the interior.
  bool boundary = false;
  bool clamped_everywhere = false;
  int64_t width() const { return max_offset - min_offset + 1; }
};

struct Edge {
  std::string producer;  // a Func or an input; equals `consumer` for an update reading itself
  bool producer_is_input = false;
  std::string consumer;
  int consumer_stage = 0;  // 0: the pure definition; k: update k-1
  int calls = 0;           // call sites per consumer point
  std::vector<AccessDim> footprint;  // per producer dimension
  std::vector<Range> required;       // producer region read over the whole consumer stage
  // Some producer coordinate it reads is not affine in the consumer's loops (a lookup).
  bool data_dependent() const;
  // Some footprint dimension has no single affine map (a lookup, or call sites that differ).
  bool irregular() const;
};

struct StageInfo {
  std::string func;
  int index = 0;                // 0: pure definition, k: update definition k-1
  std::vector<LoopInfo> loops;  // innermost first (Halide's default order)
  OpCounts ops;                 // per point
  // Per loop (same order): the share of `ops` whose value does not vary along that loop
  // (count_ops_uniform_along).
  std::vector<OpCounts> ops_uniform_along;
  // Some coordinate it stores at (an update's arguments) or loads at is not affine in its
  // loops: data-dependent (a splat, a histogram, a lookup) or a product of loops. Points
  // computed past the required region (an update's RoundUp tail) read values never computed
  // there, and a data-dependent address made of them stores or loads anywhere.
  bool non_affine_addresses = false;
  int64_t points() const;
  const LoopInfo* find_loop(const std::string& var) const;
};

struct FuncInfo {
  std::string name;         // canonical (naming.h): equal across instances of one app
  std::string halide_name;  // this instance's Halide name, e.g. "blur$2"
  std::vector<std::string> args;  // canonical pure variables, innermost storage dimension first
  std::vector<Halide::Type> types;
  std::vector<Range> region;  // from bounds inference over the output estimates
  bool is_output = false;
  bool can_inline = false;  // no update definitions, not an output
  // The Func an ImageParam stands for ("in_im"): a copy of the input. Kept inline:
  // Halide 14 miscompiles some schedules of it (nested GuardWithIf splits corrupt memory);
  // schedule a user Func that reads the input instead.
  bool is_input_alias = false;
  // Defined by define_extern: a C function computes it, over whatever region Halide's
  // bounds query asks. Computed at the root, its one stage has no loops to schedule, and the
  // Funcs it reads cannot be inlined (`read_by_extern`).
  bool is_extern = false;
  bool read_by_extern = false;
  int vector_width = 1;     // target.natural_vector_size of the widest output type
  int bytes_per_point = 0;  // sum over tuple elements
  std::vector<StageInfo> stages;
  std::vector<std::string> consumers;  // other Funcs reading this one (not itself)
  int64_t points() const;
};

struct InputInfo {
  std::string name;
  Halide::Type type;
  bool is_constant = false;     // a Buffer<> embedded in the pipeline, not an ImageParam
  std::vector<Range> estimate;  // the declared estimate (or the constant buffer's shape)
  std::vector<Range> required;  // what the pipeline reads of it at the output estimates
  int vector_width = 1;
  // The region the models assume it has: what is read of it, else its estimate.
  const std::vector<Range>& shape() const { return required.empty() ? estimate : required; }
};

struct KernelDescription {
  std::string target;
  std::vector<FuncInfo> funcs;  // topological order: producers before consumers
  std::vector<InputInfo> inputs;
  std::vector<Edge> edges;
  std::vector<std::string> outputs;
  std::map<std::string, std::string> scalar_params;  // name -> estimate, as text

  const FuncInfo* find_func(const std::string& name) const;
  const FuncInfo& func(const std::string& name) const;  // throws BridgeError
  const InputInfo* find_input(const std::string& name) const;
  // Edges whose consumer is (func, stage); self edges of updates included.
  std::vector<const Edge*> edges_into(const std::string& func, int stage) const;
  // Edges reading `producer` from another Func.
  std::vector<const Edge*> edges_from(const std::string& producer) const;
  // paths[a][b] (by position in `funcs`): a path of reads leads from Func a to Func b.
  std::vector<std::vector<char>> read_paths() const;
};

// Throws BridgeError for what it cannot describe: a missing estimate on an output,
// input or scalar parameter; a region it cannot bound. An extern stage is assumed to read
// each Func or buffer it is given over its own region in the dimensions they share (the
// first ones), and a buffer's estimate otherwise.
KernelDescription describe_pipeline(const Halide::Pipeline& pipeline, const Halide::Target& target);
KernelDescription describe_app(const AppInstance& app, const Halide::Target& target);

// The parameters a pipeline reads, by name: input buffers (ImageParams) and scalars.
struct PipelineParameters {
  std::map<std::string, Halide::Internal::Parameter> buffers;
  std::map<std::string, Halide::Internal::Parameter> scalars;
};
PipelineParameters pipeline_parameters(const std::vector<Halide::Func>& outputs);

// Every Func reachable from `outputs`, by canonical name (including wrappers such as
// boundary conditions that an app may not have named).
std::map<std::string, Halide::Func> pipeline_funcs(const std::vector<Halide::Func>& outputs);

void to_json(nlohmann::json& j, const Range& r);
void to_json(nlohmann::json& j, const LoopInfo& l);
void to_json(nlohmann::json& j, const AccessDim& a);
void to_json(nlohmann::json& j, const Edge& e);
void to_json(nlohmann::json& j, const StageInfo& s);
void to_json(nlohmann::json& j, const FuncInfo& f);
void to_json(nlohmann::json& j, const InputInfo& i);
void to_json(nlohmann::json& j, const KernelDescription& k);

}  // namespace candor::halide_bridge
