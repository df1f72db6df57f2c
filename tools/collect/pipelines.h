// The pipelines sample collection measures, by name: an example app ("unsharp_mask") or a
// random pipeline ("random:17", which is called "random_17" in the dataset).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "halide_bridge/app.h"

namespace candor::collect {

// "random:SEED" for the random pipeline of that seed (default generator options).
std::string random_pipeline_spec(uint64_t seed);

// The app or random pipeline `spec` names; nullopt when it names neither (an unknown app,
// or "random:" followed by something other than a non-negative integer).
std::optional<halide_bridge::App> find_pipeline(const std::string& spec);

}  // namespace candor::collect
