// Pipelines by name. Sample collection measures an example app ("unsharp_mask") or a
// generated pipeline of one of two families: an image pipeline ("random:17", called
// "random_17" in the dataset; at another output size, "random:17@1024", called
// "random_17_1024") or a DNN-layer pipeline ("layers:17", "layers_17"; "layers:17@128",
// "layers_17_128").
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "halide_bridge/app.h"

namespace candor::collect {

// The generators: models/random_pipelines/random_pipelines.h (2-D image patterns) and
// layer_pipelines.h (channel-shaped layers).
enum class PipelineFamily { Image, Layers };

// "random" or "layers": the spec's prefix, the pipeline name's prefix and the dataset's
// "family" field.
const char* family_name(PipelineFamily family);
std::optional<PipelineFamily> parse_family(const std::string& name);

// The generator's default size of a family's pipelines (128 for images, 64 for layers).
int default_size(PipelineFamily family);

// What "random:SEED[@SIZE]" or "layers:SEED[@SIZE]" names.
struct RandomPipelineSpec {
  uint64_t seed = 0;
  int size = default_size(PipelineFamily::Image);
  PipelineFamily family = PipelineFamily::Image;
};

// "FAMILY:SEED" at the family's default size, else "FAMILY:SEED@SIZE".
std::string random_pipeline_spec(const RandomPipelineSpec& spec);

// What `spec` names; nullopt unless it is "random:" or "layers:" followed by a non-negative
// integer and, optionally, "@" and a power of two from 16 to 4096.
std::optional<RandomPipelineSpec> parse_random_pipeline_spec(const std::string& spec);

// The app, generated pipeline or held-out corpus generator (bench/corpus) `spec` names;
// nullopt when it names none of them.
std::optional<halide_bridge::App> find_pipeline(const std::string& spec);

// The same without the held-out corpus, which no sample for training may come from: what
// collection and refeaturization measure.
std::optional<halide_bridge::App> find_training_pipeline(const std::string& spec);

}  // namespace candor::collect
