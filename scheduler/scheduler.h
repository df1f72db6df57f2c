// The product's main job: schedule a Halide pipeline (its kernel description) for this CPU
// by searching the Halide CPU space with the analytic model and the lower bound.
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "cpu_objective.h"
#include "halide_bridge/kernel_description.h"
#include "halide_bridge/schedule.h"
#include "halide_cpu_space.h"
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

// A schedule and what the cost model and the bound say of it: what the plugin checks and
// emits, whether one search or several (groups.h) made it.
struct PricedSchedule {
  halide_bridge::Schedule schedule;
  double predicted_seconds = 0;
  double lower_bound_seconds = 0;
};

struct ScheduledCandidate {
  Candidate decisions;  // in the space of the KernelScheduler that made it
  halide_bridge::Schedule schedule;
  double predicted_seconds = 0;
  double lower_bound_seconds = 0;  // of this complete candidate
  models::halide::Prediction analytic;  // the analytic model's terms per stage
};

struct ScheduleOutcome {
  // The best first; then the other best candidates met, pairwise different under
  // candor::alike (search.h) and emitting different schedules: at most Budget::keep_top.
  std::vector<ScheduledCandidate> candidates;
  double root_lower_bound_seconds = 0;  // no schedule of the space can beat it
  SearchStats stats;
  bool optimal = false;  // proved optimal for the model
  // The time limit ran out before the engine reached any implementation, and one greedy dive
  // past the time limit (within the node limit) supplied the schedules.
  bool completed_past_time_limit = false;
};

// One pipeline's space, cost model and pins, kept for a search and then for the neighbours
// that autotuning measures around the fastest schedule.
class KernelScheduler {
 public:
  // Throws std::invalid_argument for a bad pin, std::runtime_error when the space has no
  // schedule for the pipeline.
  // `model_threads`: threads the cost model's batches are spread over (0: every core; see
  // CpuObjective::set_threads).
  KernelScheduler(const halide_bridge::KernelDescription& kd, const models::halide::MachineDescription& machine,
                  const std::vector<std::pair<std::string, std::string>>& pins, int model_threads = 0);
  KernelScheduler(const KernelScheduler&) = delete;
  KernelScheduler& operator=(const KernelScheduler&) = delete;

  // A wall-clock limit is soft until the first schedule: when it stops the engine before any
  // implementation (a large pipeline, a loaded machine), one greedy dive completes the search,
  // so the same request does not fail or succeed by the machine's load, up to `hard_seconds`
  // from the start. Throws std::invalid_argument for a bad search spec, std::runtime_error
  // when the node limit or `hard_seconds` stopped the search (or the dive) before any
  // implementation.
  ScheduleOutcome search(const std::string& engine, const Budget& budget,
                         double hard_seconds = std::numeric_limits<double>::infinity()) const;
  // The neighbours of a candidate this scheduler returned (one decision changed, the pins
  // kept; see candor::neighbours), in the order to measure them, each schedule once and none
  // the centre's.
  std::vector<ScheduledCandidate> neighbours(const ScheduledCandidate& centre) const;
  // A candidate's decisions as `--pin` arguments, CHOICE=VALUE (HalideCpuSpace::decisions).
  std::vector<std::string> pins(const ScheduledCandidate& c) const;
  // The order in which autotuning measures candidates of this scheduler (given best first):
  // the first, then the first of each placement not met before it (where each Func is
  // computed and stored), then the first of each structure (every choice but the tile sizes:
  // placements and which stages run parallel, vectorized, unrolled), then the rest, each group
  // in the given order. The top of a search is mostly one structure's tile sizes, which the
  // model ranks close and measure within a few percent of each other (on lens_blur,
  // local_laplacian and bilateral_grid, 0.97-1.02 of the first); another
  // structure, above all another placement, is where the model errs most.
  std::vector<size_t> measuring_order(const std::vector<ScheduledCandidate>& candidates) const;
  // The space its candidates live in (to describe them as dataset samples).
  const HalideCpuSpace& space() const { return space_; }
  // "learned" or "analytic": the model that ranks its candidates (CpuObjective).
  std::string cost_model_name() const { return objective_.cost_model_name(); }

 private:
  ScheduledCandidate scheduled(const Candidate& c, double predicted_seconds) const;
  // The values a complete candidate takes on `vars`.
  std::vector<int> values_of(const Candidate& c, const std::vector<int>& vars) const;

  HalideCpuSpace space_;
  CpuObjective objective_;
  Candidate root_;  // the pins applied
  std::vector<int> placement_vars_;  // every location, host and sliding choice
  std::vector<int> structure_vars_;  // every choice but the tile sizes
};

// A KernelScheduler's search with the request's pins, engine and budget.
ScheduleOutcome schedule_kernel(const halide_bridge::KernelDescription& kd,
                                const models::halide::MachineDescription& machine,
                                const ScheduleRequest& request);

}  // namespace candor::scheduler
