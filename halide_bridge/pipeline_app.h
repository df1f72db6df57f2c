// An App made from a pipeline that has no input data: a generator's, as the autoscheduler
// plugin receives it. Its inputs are filled with synthetic data over the region Halide's
// bounds inference requires at the output estimates (and at least the region the kernel
// description reads), and its scalar parameters take their estimates, so that a schedule
// can be compiled, run and compared with the reference like any example app's.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <Halide.h>

#include "app.h"
#include "kernel_description.h"

namespace candor::halide_bridge {

// The region of each input to fill with synthetic data, by name.
using InputShapes = std::map<std::string, std::vector<Range>>;

// Halide's bounds query of the pipeline under the reference schedule, for its outputs over
// their estimates, each input's region united with what the description reads of it (or
// its estimate). Data-dependent reads are bounded as Halide bounds them (by a clamp, or the
// index's type). Compiles the pipeline; throws BridgeError when the query fails.
InputShapes queried_input_shapes(const Halide::Pipeline& pipeline, const KernelDescription& kd);

// Every build() is a fresh deep copy of `pipeline`'s Funcs as they are now (call it before
// scheduling them). The inputs are bound by setting the pipeline's own parameters (a
// pipeline shares its Parameters with its copies): build in a process that compiles nothing
// else from them, as the plugin's verifying child does. The first build() in a process
// compiles the pipeline once for Halide's bounds query unless `shapes` (from
// queried_input_shapes) are given. `kd` is the pipeline's description.
// build() throws BridgeError for an input the description does not know, a scalar estimate
// that is not a constant, or a failed bounds query.
App pipeline_app(const Halide::Pipeline& pipeline, const KernelDescription& kd, const InputShapes& shapes = {},
                 uint64_t seed = 1);

}  // namespace candor::halide_bridge
