// The pipelines sample collection measures, by name: an example app ("unsharp_mask") or a
// random pipeline ("random:17", which is called "random_17" in the dataset; at another output
// size, "random:17@1024", called "random_17_1024").
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "halide_bridge/app.h"
#include "models/random_pipelines/random_pipelines.h"

namespace candor::collect {

// What "random:SEED[@SIZE]" names: the generator's seed and the output's size (width and
// height; the generator's default when the spec gives none).
struct RandomPipelineSpec {
  uint64_t seed = 0;
  int size = models::random_pipelines::RandomPipelineOptions{}.size;
};

// "random:SEED" for the random pipeline of that seed at the default size, else
// "random:SEED@SIZE".
std::string random_pipeline_spec(uint64_t seed, int size = RandomPipelineSpec{}.size);

// The seed and size `spec` names; nullopt unless it is "random:" followed by a non-negative
// integer and, optionally, "@" and a power of two from 16 to 4096.
std::optional<RandomPipelineSpec> parse_random_pipeline_spec(const std::string& spec);

// The app or random pipeline `spec` names; nullopt when it names neither.
std::optional<halide_bridge::App> find_pipeline(const std::string& spec);

}  // namespace candor::collect
