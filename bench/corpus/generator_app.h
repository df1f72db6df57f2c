// A stock Halide Generator as an App: every build() creates a fresh instance of the
// registered generator (auto_schedule=false), runs its generate(), and binds the pipeline
// to synthetic inputs over the estimates (halide_bridge/pipeline_app.h). The instance is
// unscheduled; its apply_expert_schedule runs the generator's own schedule() on it, the
// hand-written schedule the generator's author wrote.
#pragma once

#include <string>

#include "halide_bridge/app.h"

namespace candor::corpus {

// `generator` is a name given to HALIDE_REGISTER_GENERATOR in this executable. Throws
// std::invalid_argument when no such generator is registered. A build() throws
// halide_bridge::BridgeError (or Halide::Error) for a generator that cannot be described.
halide_bridge::App generator_app(const std::string& generator, const std::string& description);

}  // namespace candor::corpus
