// One record of the sample dataset (docs/dataset.md): the drawn schedule, what the models
// say about it (the analytic prediction, per-stage features and cost terms) and how it
// measured.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "draw.h"
#include "measure_child.h"
#include "pipelines.h"
#include "models/halide/analytic_model.h"

namespace candor::collect {

struct SampleContext {
  std::string pipeline;         // "random_17", "layers_17" or an app's name
  std::optional<RandomPipelineSpec> random;  // generated pipelines only: family, seed and size
  const HalideCpuSpace* space = nullptr;
  const models::halide::AnalyticModel* model = nullptr;
};

// The record without the measurement: key, pipeline, (for generated pipelines) family when not
// "random", seed, and size when not the family's default, source, dropout, predicted_s,
// decisions, schedule, stages.
nlohmann::json describe_sample(const SampleContext& context, const DrawnSchedule& drawn);

// Adds ok, failure, runtime_ms, compile_ms and wall_s to `record`.
void add_measurement(nlohmann::json& record, const ChildMeasurement& m);

}  // namespace candor::collect
