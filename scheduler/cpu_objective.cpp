#include "cpu_objective.h"

namespace candor::scheduler {
namespace {

const HalideCpuSpace& cpu(const Space& space) { return static_cast<const HalideCpuSpace&>(space); }

}  // namespace

CpuObjective::CpuObjective(models::halide::MachineDescription machine)
    : machine_(std::move(machine)), model_(machine_) {}

double CpuObjective::cost(const Space& space, const Candidate& c) const {
  return model_.predict(cpu(space).kernel(), cpu(space).view(c));
}

double CpuObjective::lower_bound(const Space& space, const Candidate& c) const {
  return models::halide::lower_bound_seconds(cpu(space).kernel(), cpu(space).view(c), machine_);
}

double CpuObjective::estimate(const Space& space, const Candidate& c) const { return cost(space, c); }

void CpuObjective::estimate_batch(const Space& space, const std::vector<const Candidate*>& batch,
                                  std::vector<double>& out) const {
  std::vector<models::halide::ScheduleView> views;
  views.reserve(batch.size());
  for (const Candidate* c : batch) views.push_back(cpu(space).view(*c));
  model_.predict(cpu(space).kernel(), views, out);
}

}  // namespace candor::scheduler
