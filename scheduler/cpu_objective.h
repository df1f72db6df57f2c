// What searches optimise on the Halide CPU space: the analytic model's predicted seconds
// (cost of complete candidates, ranking of partial ones, batched) and the admissible lower
// bound, both read through the candidate's ScheduleView.
#pragma once

#include "halide_cpu_space.h"
#include "models/halide/analytic_model.h"
#include "models/halide/lower_bound.h"
#include "search.h"

namespace candor::scheduler {

class CpuObjective : public Objective {
 public:
  explicit CpuObjective(models::halide::MachineDescription machine);

  double cost(const Space& space, const Candidate& c) const override;
  double lower_bound(const Space& space, const Candidate& c) const override;
  double estimate(const Space& space, const Candidate& c) const override;
  void estimate_batch(const Space& space, const std::vector<const Candidate*>& batch,
                      std::vector<double>& out) const override;

  const models::halide::MachineDescription& machine() const { return machine_; }

 private:
  models::halide::MachineDescription machine_;
  models::halide::AnalyticModel model_;
};

}  // namespace candor::scheduler
