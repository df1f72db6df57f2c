#include "cpu_objective.h"

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <thread>

namespace candor::scheduler {
namespace {

const HalideCpuSpace& cpu(const Space& space) { return static_cast<const HalideCpuSpace&>(space); }

int every_core() { return int(std::max(1u, std::thread::hardware_concurrency())); }

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
    : machine_(std::move(machine)), model_(machine_), threads_(every_core()) {
  if (learned) learned_.emplace(*learned, machine_);
}

void CpuObjective::set_threads(int threads) {
  threads_ = threads > 0 ? threads : every_core();
}

models::halide::EvaluationCache& CpuObjective::cache(size_t share) const {
  if (caches_.size() <= share) caches_.resize(share + 1);
  if (!caches_[share]) caches_[share] = std::make_unique<models::halide::EvaluationCache>();
  return *caches_[share];
}

double CpuObjective::cost(const Space& space, const Candidate& c) const {
  if (!learned_) return model_.explain(cpu(space).kernel(), cpu(space).view(c), cache(0)).seconds;
  std::vector<double> out;
  learned_->predict(cpu(space).kernel(), {cpu(space).view(c)}, out, &timing_, &cache(0));
  return out[0];
}

models::halide::Prediction CpuObjective::explain(const Space& space, const Candidate& c) const {
  return model_.explain(cpu(space).kernel(), cpu(space).view(c));
}

double CpuObjective::lower_bound(const Space& space, const Candidate& c) const {
  return models::halide::lower_bound_seconds(cpu(space).kernel(), cpu(space).view(c), machine_);
}

double CpuObjective::estimate(const Space& space, const Candidate& c) const { return cost(space, c); }

void CpuObjective::estimate_range(const Space& space, const std::vector<const Candidate*>& batch, size_t begin,
                                  size_t end, std::vector<double>& out, models::learned::PredictTiming& timing,
                                  models::halide::EvaluationCache& cache) const {
  std::vector<models::halide::ScheduleView> views;
  views.reserve(end - begin);
  for (size_t i = begin; i < end; ++i) views.push_back(cpu(space).view(*batch[i]));
  std::vector<double> part;
  if (learned_) {
    learned_->predict(cpu(space).kernel(), views, part, &timing, &cache);
  } else {
    for (const models::halide::ScheduleView& v : views)
      part.push_back(model_.explain(cpu(space).kernel(), v, cache).seconds);
  }
  std::copy(part.begin(), part.end(), out.begin() + std::ptrdiff_t(begin));
}

void CpuObjective::estimate_batch(const Space& space, const std::vector<const Candidate*>& batch,
                                  std::vector<double>& out) const {
  out.assign(batch.size(), 0.0);
  // Contiguous shares, the caller's thread taking the first; a share of a few candidates is
  // not worth a thread.
  constexpr size_t kMinShare = 4;
  const size_t shares = std::max<size_t>(1, std::min<size_t>(size_t(threads_), batch.size() / kMinShare));
  std::vector<models::learned::PredictTiming> timings(shares);
  std::vector<std::exception_ptr> errors(shares);
  for (size_t k = 0; k < shares; ++k) cache(k);  // made here: the threads only read caches_
  std::vector<std::thread> helpers;
  auto bounds = [&](size_t k) { return std::make_pair(batch.size() * k / shares, batch.size() * (k + 1) / shares); };
  for (size_t k = 1; k < shares; ++k)
    helpers.emplace_back([&, k] {
      try {
        const auto [begin, end] = bounds(k);
        estimate_range(space, batch, begin, end, out, timings[k], *caches_[k]);
      } catch (...) {
        errors[k] = std::current_exception();
      }
    });
  try {
    const auto [begin, end] = bounds(0);
    estimate_range(space, batch, begin, end, out, timings[0], *caches_[0]);
  } catch (...) {
    errors[0] = std::current_exception();
  }
  for (std::thread& t : helpers) t.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
  for (const models::learned::PredictTiming& t : timings) {
    timing_.featurize_s += t.featurize_s;
    timing_.network_s += t.network_s;
    timing_.schedules += t.schedules;
  }
}

}  // namespace candor::scheduler
