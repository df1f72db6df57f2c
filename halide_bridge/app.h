// The contract between example apps (examples/apps) and the Halide bridge.
//
// An app is a recipe that builds a fresh, unscheduled Halide pipeline every time it is
// called: schedules mutate Funcs, so every schedule (reference, expert, random, searched)
// starts from its own instance.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include <Halide.h>

namespace candor::halide_bridge {

struct AppInstance {
  // Every Func of the pipeline by its unique name (outputs included), so that schedules,
  // the kernel description and printed schedule source can refer to stages by name.
  std::map<std::string, Halide::Func> funcs;
  // The pipeline's outputs, each with estimates set on all its dimensions.
  std::vector<Halide::Func> outputs;
  // Input images, with estimates set, already bound to concrete input buffers
  // (deterministic contents from a fixed seed).
  std::vector<Halide::ImageParam> inputs;
  // Scalar parameters, with estimates set and values bound.
  std::vector<Halide::Internal::Parameter> scalar_params;
  // The sizes to realize each output at (one vector of extents per output, same order).
  std::vector<std::vector<int>> output_sizes;
  // Where each output's region starts (same shape as output_sizes); empty: at 0.
  std::vector<std::vector<int>> output_mins;
  // Applies the hand-written expert schedule for `target` to `funcs`.
  std::function<void(const Halide::Target& target)> apply_expert_schedule;

  Halide::Pipeline pipeline() const { return Halide::Pipeline(outputs); }
};

struct App {
  std::string name;
  std::string description;
  // Builds a fresh unscheduled instance.
  std::function<AppInstance()> build;
};

}  // namespace candor::halide_bridge
