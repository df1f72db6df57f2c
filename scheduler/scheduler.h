// The product's main job: schedule a Halide pipeline (its kernel description) for this CPU
// by searching the Halide CPU space with the analytic model and the lower bound.
#pragma once

#include <string>
#include <vector>

#include "halide_bridge/kernel_description.h"
#include "halide_bridge/schedule.h"
#include "models/halide/analytic_model.h"
#include "models/halide/machine.h"
#include "search.h"

namespace candor::scheduler {

struct ScheduleRequest {
  // An engine spec for make_search; beam is anytime by default: it spends a time budget.
  std::string search = "beam";
  Budget budget;
  // Decisions fixed before the search, as (choice, value) by their names in the space
  // (`tile(dot.x)`, `8`): the search explores the rest.
  std::vector<std::pair<std::string, std::string>> pins;
};

struct ScheduledCandidate {
  halide_bridge::Schedule schedule;
  double predicted_seconds = 0;
  double lower_bound_seconds = 0;  // of this complete candidate
  models::halide::Prediction analytic;  // the analytic model's terms per stage
};

struct ScheduleOutcome {
  // The best first; then the other best candidates met, pairwise different under
  // candor::alike (search.h): at most Budget::keep_top.
  std::vector<ScheduledCandidate> candidates;
  double root_lower_bound_seconds = 0;  // no schedule of the space can beat it
  SearchStats stats;
  bool optimal = false;  // proved optimal for the model
};

// Throws std::invalid_argument for a bad search spec or pin, std::runtime_error when the
// search found no complete schedule within its budget.
ScheduleOutcome schedule_kernel(const halide_bridge::KernelDescription& kd,
                                const models::halide::MachineDescription& machine,
                                const ScheduleRequest& request);

}  // namespace candor::scheduler
