// The one exception type the bridge throws for what it cannot handle (missing estimates,
// extern stages, invalid schedules, Halide errors it wraps). Callers catch it and report a
// clear message instead of crashing.
#pragma once

#include <stdexcept>
#include <string>

namespace candor::halide_bridge {

struct BridgeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace candor::halide_bridge
