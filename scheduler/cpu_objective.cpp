#include "cpu_objective.h"

#include <cstdlib>
#include <filesystem>

namespace candor::scheduler {
namespace {

const HalideCpuSpace& cpu(const Space& space) { return static_cast<const HalideCpuSpace&>(space); }

}  // namespace

std::shared_ptr<const models::learned::LearnedModel> learned_model_from_environment() {
  using models::learned::LearnedModel;
  const char* env = std::getenv("CANDOR_MODEL");
  const std::string choice = env ? env : "";
  if (choice == "analytic") return nullptr;
  if (!choice.empty()) return std::make_shared<const LearnedModel>(LearnedModel::load(choice));
  const std::string& shipped = models::learned::default_weights_path();
  if (!std::filesystem::exists(shipped)) return nullptr;
  return std::make_shared<const LearnedModel>(LearnedModel::load(shipped));
}

CpuObjective::CpuObjective(models::halide::MachineDescription machine)
    : CpuObjective(std::move(machine), learned_model_from_environment()) {}

CpuObjective::CpuObjective(models::halide::MachineDescription machine,
                           std::shared_ptr<const models::learned::LearnedModel> learned)
    : machine_(std::move(machine)), model_(machine_) {
  if (learned) learned_.emplace(*learned, machine_);
}

double CpuObjective::cost(const Space& space, const Candidate& c) const {
  if (!learned_) return model_.predict(cpu(space).kernel(), cpu(space).view(c));
  std::vector<double> out;
  learned_->predict(cpu(space).kernel(), {cpu(space).view(c)}, out, &timing_);
  return out[0];
}

models::halide::Prediction CpuObjective::explain(const Space& space, const Candidate& c) const {
  return model_.explain(cpu(space).kernel(), cpu(space).view(c));
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
  if (learned_) {
    learned_->predict(cpu(space).kernel(), views, out, &timing_);
  } else {
    model_.predict(cpu(space).kernel(), views, out);
  }
}

}  // namespace candor::scheduler
