// Halide's own record of how a pipeline is scheduled (compute/store levels, splits, loop
// order and types, memory types), as text with canonical names, so that two instances
// scheduled by different code paths can be compared without compiling them.
#pragma once

#include <string>
#include <vector>

#include <Halide.h>

namespace candor::halide_bridge::testing {

std::string applied_schedule_text(const std::vector<Halide::Func>& outputs);

}  // namespace candor::halide_bridge::testing
