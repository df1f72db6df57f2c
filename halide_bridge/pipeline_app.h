// An App made from a pipeline that has no input data: a generator's, as the autoscheduler
// plugin receives it. Its inputs are filled with synthetic data over the region the
// estimates read, and its scalar parameters take their estimates, so that a schedule can be
// compiled, run and compared with the reference like any example app's.
#pragma once

#include <cstdint>

#include <Halide.h>

#include "app.h"
#include "kernel_description.h"

namespace candor::halide_bridge {

// Every build() is a fresh deep copy of `pipeline`'s Funcs as they are now (call it before
// scheduling them). The inputs are bound by setting the pipeline's own parameters (a
// pipeline shares its Parameters with its copies): build in a process that compiles nothing
// else from them, as the plugin's verifying child does. `kd` is the pipeline's description.
// Throws BridgeError for an input the description does not bound or a scalar estimate that
// is not a constant.
App pipeline_app(const Halide::Pipeline& pipeline, const KernelDescription& kd, uint64_t seed = 1);

}  // namespace candor::halide_bridge
