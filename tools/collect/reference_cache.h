// The reference outputs of a pipeline (every Func at the root), cached on disk: sample
// collection measures many schedules of one pipeline, each in its own process, and the
// reference is the same for all of them, so only the first process computes it.
//
// File format (native byte order; the cache is local to one machine): "CANDORREF1", the
// number of outputs (uint32), then per output its type (code, bits, lanes: uint8, uint8,
// uint16), its dimensions (uint32), each extent (int32; mins are 0), and its dense data.
#pragma once

#include <string>

#include "halide_bridge/compile.h"

namespace candor::collect {

// The reference outputs of `app`, read from `dir`/<app.name>.ref when present and intact,
// else computed and written there (atomically: a temporary file renamed into place, so
// concurrent processes never read a partial file). An empty `dir` disables the cache.
// Throws halide_bridge::BridgeError when the reference cannot be computed.
halide_bridge::Outputs cached_reference_outputs(const halide_bridge::App& app, const Halide::Target& target,
                                                const std::string& dir);

// The two halves, exposed for tests. read_outputs returns false for a missing, truncated
// or foreign file.
bool write_outputs(const halide_bridge::Outputs& outputs, const std::string& path);
bool read_outputs(const std::string& path, halide_bridge::Outputs& outputs);

}  // namespace candor::collect
