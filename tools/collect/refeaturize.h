// Recomputing what the models say about already measured samples: a sample's `decisions`
// are replayed into a fresh candidate of today's Halide CPU space, and its `predicted_s` and
// per-stage features and cost terms are written anew with today's analytic model. The
// measurement (ok, runtime_ms, ...) is kept. This lets the dataset outlive changes to the
// featurization and the analytic model: retrain after refeaturizing, never remeasure.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "models/halide/machine.h"

namespace candor::collect {

struct RefeaturizeStats {
  size_t read = 0;
  size_t written = 0;
  size_t unknown_pipeline = 0;  // neither an app nor a random pipeline
  size_t stale = 0;             // decisions no longer replay to the schedule that was measured
};

// Rewrites every record of `input` replayable today into `output` (atomically: a temporary
// file renamed into place). A record whose decisions name variables or values the space no
// longer has, fail to propagate, or give a schedule other than the measured one (tail
// strategies aside) is dropped (counted as stale): its runtime belongs to a schedule today's
// space cannot describe. A kept record keeps the schedule that was measured. Pipelines are
// described for `machine`'s Halide target (the host's when it names none), so a dataset
// measured on another machine class replays on this one.
RefeaturizeStats refeaturize(const std::string& input, const std::string& output,
                             const models::halide::MachineDescription& machine);

}  // namespace candor::collect
