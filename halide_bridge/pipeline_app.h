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
// Each output's extent per dimension, in the order of Pipeline::outputs(); an output's
// region starts where its estimate does.
using OutputSizes = std::vector<std::vector<int>>;

// The outputs' sizes over their estimates.
OutputSizes estimated_output_sizes(const Halide::Pipeline& pipeline, const KernelDescription& kd);
// Two other sizes to check schedules at, where the estimates hold a dimension of at least 8:
// each such extent times 3/4, plus one (smaller, and a multiple of no tile the estimate's
// is), and plus 13 (a prime past the estimate: a tail in every tiled loop). Shorter
// dimensions (channels, taps) keep their extent. Empty when no dimension is that long.
std::vector<OutputSizes> other_output_sizes(const OutputSizes& estimated);

// Halide's bounds query of the pipeline under the reference schedule, for its outputs over
// their estimates, each input's region united with what the description reads of it (or
// its estimate). Data-dependent reads are bounded as Halide bounds them (by a clamp, or the
// index's type). Compiles the pipeline; throws BridgeError when the query fails.
InputShapes queried_input_shapes(const Halide::Pipeline& pipeline, const KernelDescription& kd);
// The same at each of `sizes`, compiling once; a size whose query fails gets no shapes and
// its error in errors[k] ("" for the others).
std::vector<InputShapes> queried_input_shapes(const Halide::Pipeline& pipeline, const KernelDescription& kd,
                                              const std::vector<OutputSizes>& sizes, std::vector<std::string>& errors);

// Every build() is a fresh deep copy of `pipeline`'s Funcs as they are now (call it before
// scheduling them). The inputs are bound by setting the pipeline's own parameters (a
// pipeline shares its Parameters with its copies): build in a process that compiles nothing
// else from them, as the plugin's verifying child does. The first build() in a process
// compiles the pipeline once for Halide's bounds query unless `shapes` (from
// queried_input_shapes) are given. `kd` is the pipeline's description.
// build() throws BridgeError for an input the description does not know, a scalar estimate
// that is not a constant, or a failed bounds query. With `sizes`, the outputs are realized at
// those sizes rather than over their estimates (`shapes` must then be queried at them).
App pipeline_app(const Halide::Pipeline& pipeline, const KernelDescription& kd, const InputShapes& shapes = {},
                 uint64_t seed = 1, const OutputSizes& sizes = {});

// An instance made of `pipeline`'s own Funcs (no copy), bound as pipeline_app's builds are:
// for a pipeline built fresh for this one instance, such as a generator's, whose own
// schedule() may then schedule the instance's Funcs. Empty `shapes`: queried here (the
// query compiles the pipeline once).
AppInstance pipeline_instance(const Halide::Pipeline& pipeline, const KernelDescription& kd,
                              const InputShapes& shapes = {}, uint64_t seed = 1);

// Rebinds an instance of pipeline_app (scheduled, even compiled) to another size: its
// inputs to fresh synthetic data over `shapes` (the same data as pipeline_app's with these
// shapes and seed gives) and its outputs to `sizes`. A compiled pipeline then runs at the
// new size without compiling again.
void resize_instance(AppInstance& inst, const KernelDescription& kd, const InputShapes& shapes,
                     const OutputSizes& sizes, uint64_t seed = 1);

}  // namespace candor::halide_bridge
