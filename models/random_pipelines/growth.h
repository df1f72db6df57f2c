// What both generators (random_pipelines.h, layer_pipelines.h) do the same way while they grow
// a pipeline: pick the next operand, and give the finished instance its reference schedule.
#pragma once

#include <vector>

#include "halide_bridge/app.h"
#include "rng.h"

namespace candor::models::random_pipelines {

// The operand of the next pattern among `values` (each with a `consumed` flag): usually the
// newest value, sometimes an older one not yet consumed (so the graph branches and joins).
template <class Value>
int pick_primary(const std::vector<Value>& values, Rng& rng) {
  const int newest = int(values.size()) - 1;
  if (rng.chance(65)) return newest;
  std::vector<int> open;
  for (int k = 0; k < newest; ++k)
    if (!values[k].consumed) open.push_back(k);
  if (!open.empty() && rng.chance(60)) return open[rng.below(int(open.size()))];
  return rng.below(newest + 1);
}

// The reference schedule of a generated pipeline (there is no expert): every Func at the root.
inline void compute_everything_at_root(halide_bridge::AppInstance& inst) {
  inst.apply_expert_schedule = [funcs = inst.funcs](const Halide::Target&) mutable {
    for (auto& [name, f] : funcs) f.compute_root();
  };
}

}  // namespace candor::models::random_pipelines
