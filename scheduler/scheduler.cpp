#include "scheduler.h"

#include <stdexcept>

#include "cpu_objective.h"
#include "engines.h"
#include "halide_cpu_space.h"

namespace candor::scheduler {

ScheduleOutcome schedule_kernel(const halide_bridge::KernelDescription& kd,
                                const models::halide::MachineDescription& machine,
                                const ScheduleRequest& request) {
  std::unique_ptr<Search> search = make_search(request.search);
  HalideCpuSpace space(kd);
  CpuObjective objective(machine);
  VarOrderBrancher brancher(space.decision_order());
  std::optional<Candidate> root = space.root();
  if (!root) throw std::runtime_error("the Halide CPU space has no schedule for this pipeline");
  for (const auto& [choice, value] : request.pins) {
    const int var = space.var_named(choice);
    if (var < 0) throw std::invalid_argument("pin: the space has no choice '" + choice + "'");
    std::string allowed;
    for (int x : space.values(*root, var)) allowed += (allowed.empty() ? "" : ", ") + space.value_label(var, x);
    const int x = space.value_labelled(*root, var, value);
    if (x < 0 || !space.fix(*root, var, x))
      throw std::invalid_argument("pin: " + choice + "=" + value + " is not allowed (with the earlier pins) here; " +
                                  "allowed: " + allowed);
  }

  SearchResult result = search->run(space, *root, objective, brancher, request.budget);
  if (!result.best) {
    throw std::runtime_error("search '" + search->name() +
                             "' found no complete schedule within its budget; raise the budget");
  }
  ScheduleOutcome out;
  out.root_lower_bound_seconds = objective.lower_bound(space, *root);
  out.stats = result.stats;
  out.optimal = result.optimal;
  for (const auto& [cost, candidate] : result.top) {
    out.candidates.push_back({space.to_schedule(candidate), cost, objective.lower_bound(space, candidate),
                              objective.explain(space, candidate)});
  }
  return out;
}

}  // namespace candor::scheduler
