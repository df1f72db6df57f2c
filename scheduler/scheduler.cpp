#include "scheduler.h"

#include <algorithm>
#include <limits>
#include <set>
#include <stdexcept>

#include "engines.h"
#include "neighbours.h"

namespace candor::scheduler {
namespace {

Candidate pinned_root(const HalideCpuSpace& space, const std::vector<std::pair<std::string, std::string>>& pins) {
  std::optional<Candidate> root = space.root();
  if (!root) throw std::runtime_error("the Halide CPU space has no schedule for this pipeline");
  for (const auto& [choice, value] : pins) {
    const int var = space.var_named(choice);
    if (var < 0) throw std::invalid_argument("pin: the space has no choice '" + choice + "'");
    std::string allowed;
    for (int x : space.values(*root, var)) allowed += (allowed.empty() ? "" : ", ") + space.value_label(var, x);
    const int x = space.value_labelled(*root, var, value);
    if (x < 0)
      throw std::invalid_argument("pin: " + choice + "=" + value + " is not allowed (with the earlier pins) here; " +
                                  "allowed: " + allowed);
    // Propagation is not domain-consistent: a value still in the domain can fail once fixed.
    if (!space.fix(*root, var, x))
      throw std::invalid_argument("pin: " + choice + "=" + value +
                                  " leaves no schedule with the earlier pins (propagating it fails, though its domain "
                                  "still holds " + allowed + ")");
  }
  return *root;
}

bool has_schedule(const std::vector<ScheduledCandidate>& candidates, const halide_bridge::Schedule& schedule) {
  return std::any_of(candidates.begin(), candidates.end(),
                     [&](const ScheduledCandidate& c) { return c.schedule == schedule; });
}

}  // namespace

KernelScheduler::KernelScheduler(const halide_bridge::KernelDescription& kd,
                                 const models::halide::MachineDescription& machine,
                                 const std::vector<std::pair<std::string, std::string>>& pins, int model_threads)
    : space_(kd), objective_(machine), root_(pinned_root(space_, pins)) {
  objective_.set_threads(model_threads);
  for (int v = 0; v < space_.num_vars(); ++v) {
    if (space_.is_placement(v)) placement_vars_.push_back(v);
    if (!space_.is_tile_size(v)) structure_vars_.push_back(v);
  }
}

std::vector<int> KernelScheduler::values_of(const Candidate& c, const std::vector<int>& vars) const {
  std::vector<int> out;
  out.reserve(vars.size());
  for (int v : vars) out.push_back(space_.first_value(c, v));
  return out;
}

ScheduledCandidate KernelScheduler::scheduled(const Candidate& c, double predicted_seconds) const {
  return {c, space_.to_schedule(c), predicted_seconds, objective_.lower_bound(space_, c),
          objective_.explain(space_, c)};
}

ScheduleOutcome KernelScheduler::search(const std::string& engine, const Budget& requested,
                                        double hard_seconds) const {
  std::unique_ptr<Search> search = make_search(engine);
  VarOrderBrancher brancher(space_.decision_order());
  // Candidates that differ (candor::alike) may still emit the same schedule (two of
  // unsharp_mask's top four did in a CI run): keep twice as many, offer distinct schedules.
  Budget budget = requested;
  budget.keep_top = 2 * std::max(1, requested.keep_top);
  // Past an eighth of the top, a placement's (where each Func is computed and stored)
  // members only fill the room other placements leave, so that autotuning meets up to eight
  // of them (measuring_order takes each one's best first).
  if (budget.keep_top > 1 && !budget.top_shape) {
    budget.top_per_shape = std::max(1, budget.keep_top / 8);
    budget.top_shape = [this](const Candidate& c) {
      uint64_t h = 1469598103934665603ull;  // FNV-1a over the placement values
      for (int x : values_of(c, placement_vars_)) h = (h ^ static_cast<uint64_t>(x)) * 1099511628211ull;
      return h;
    };
  }
  SearchResult result = search->run(space_, root_, objective_, brancher, budget);
  ScheduleOutcome out;
  const bool nodes_left = budget.max_expanded < 0 || result.stats.expanded < budget.max_expanded;
  if (!result.best && nodes_left && budget.seconds < std::numeric_limits<double>::infinity() &&
      result.stats.seconds < hard_seconds) {
    Budget past_time = budget;
    past_time.seconds = hard_seconds - result.stats.seconds;
    if (budget.max_expanded >= 0) past_time.max_expanded = budget.max_expanded - result.stats.expanded;
    const SearchStats engine_stats = result.stats;
    result = make_search("greedy")->run(space_, root_, objective_, brancher, past_time);
    for (auto& [seconds, cost] : result.stats.best_over_time) seconds += engine_stats.seconds;
    result.stats.add_counts(engine_stats);
    out.completed_past_time_limit = true;
  }
  if (!result.best) {
    const std::string limit = result.stats.seconds >= hard_seconds
                                  ? "its time limit (and a greedy dive within " + std::to_string(int(hard_seconds)) + " s)"
                                  : "its node limit";
    throw std::runtime_error("search '" + search->name() + "' found no complete schedule within " + limit +
                             "; raise the budget");
  }
  out.root_lower_bound_seconds = objective_.lower_bound(space_, root_);
  out.stats = result.stats;
  out.optimal = result.optimal;
  for (const auto& [cost, candidate] : result.top) {
    if (int(out.candidates.size()) >= std::max(1, requested.keep_top)) break;
    ScheduledCandidate c = scheduled(candidate, cost);
    if (!has_schedule(out.candidates, c.schedule)) out.candidates.push_back(std::move(c));
  }
  return out;
}

std::vector<std::string> KernelScheduler::pins(const ScheduledCandidate& c) const {
  std::vector<std::string> out;
  for (const auto& [choice, value] : space_.decisions(c.decisions, true)) out.push_back(choice + "=" + value);
  return out;
}

std::vector<ScheduledCandidate> KernelScheduler::neighbours(const ScheduledCandidate& centre) const {
  // Distinct candidates may emit one schedule (a decision the schedule does not show): offer
  // each schedule once, and never the centre's.
  std::vector<ScheduledCandidate> out;
  for (const Neighbour& n : candor::neighbours(space_, objective_, root_, centre.decisions, space_.decision_order())) {
    ScheduledCandidate c = scheduled(n.candidate, n.cost);
    if (!(c.schedule == centre.schedule) && !has_schedule(out, c.schedule)) out.push_back(std::move(c));
  }
  return out;
}

std::vector<size_t> KernelScheduler::measuring_order(const std::vector<ScheduledCandidate>& candidates) const {
  std::set<std::vector<int>> placements, structures;
  std::vector<size_t> first_of_placement, first_of_structure, rest;
  for (size_t i = 0; i < candidates.size(); ++i) {
    const bool new_placement = placements.insert(values_of(candidates[i].decisions, placement_vars_)).second;
    const bool new_structure = structures.insert(values_of(candidates[i].decisions, structure_vars_)).second;
    (new_placement ? first_of_placement : new_structure ? first_of_structure : rest).push_back(i);
  }
  first_of_placement.insert(first_of_placement.end(), first_of_structure.begin(), first_of_structure.end());
  first_of_placement.insert(first_of_placement.end(), rest.begin(), rest.end());
  return first_of_placement;
}

ScheduleOutcome schedule_kernel(const halide_bridge::KernelDescription& kd,
                                const models::halide::MachineDescription& machine,
                                const ScheduleRequest& request) {
  return KernelScheduler(kd, machine, request.pins).search(request.search, request.budget);
}

}  // namespace candor::scheduler
