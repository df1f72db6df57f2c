// Checks a schedule against the kernel description and the target before anything is
// compiled, so that schedules Halide would reject (or, for GPUs, accept and then fail to
// launch) are refused with a message that names the stage and the rule.
#pragma once

#include <string>
#include <vector>

#include <Halide.h>

#include "kernel_description.h"
#include "schedule.h"

namespace candor::halide_bridge {

struct GpuLimits {
  int max_threads_per_block = 1024;
  int max_block_dims = 3;
  int max_thread_dims = 3;
  int64_t max_shared_bytes = 48 * 1024;  // static shared memory per block
};

// Every problem found, one message each; empty when the schedule is valid.
std::vector<std::string> schedule_problems(const Schedule& schedule, const KernelDescription& kd,
                                           const Halide::Target& target,
                                           const GpuLimits& limits = GpuLimits{});

// Throws BridgeError listing the problems, if any.
void validate_schedule(const Schedule& schedule, const KernelDescription& kd, const Halide::Target& target,
                       const GpuLimits& limits = GpuLimits{});

// What a schedule written to be measured as it stands leaves to Halide's defaults: a Func of
// the pipeline it does not list (input aliases may be left out: they stay inline), or a Func
// computed somewhere with another number of stage schedules than it has stages. One message
// each; empty when every decision is written out (as in every schedule candor emits).
std::vector<std::string> missing_decisions(const Schedule& schedule, const KernelDescription& kd);

// Bytes of `producer` allocated per iteration of the loop it is stored at, estimated from
// the access footprint of its consumer stage (-1 when it cannot be estimated: stored at
// the root, or read only through inlined Funcs).
int64_t estimated_allocation_bytes(const Schedule& schedule, const KernelDescription& kd,
                                   const std::string& producer);

}  // namespace candor::halide_bridge
