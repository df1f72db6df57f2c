// What searches optimise on the Halide CPU space: a cost model's predicted seconds (cost of
// complete candidates, ranking of partial ones, batched) and the admissible lower bound, both
// read through the candidate's ScheduleView.
//
// The cost model is the learned one (models/learned/model.h) when weights are shipped
// (models/learned/weights.json), else the analytic model; CANDOR_MODEL=analytic or
// CANDOR_MODEL=PATH (a weights file) overrides. The lower bound stays the analytic one, so
// pruning stays admissible whichever model ranks.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "halide_cpu_space.h"
#include "models/halide/analytic_model.h"
#include "models/halide/lower_bound.h"
#include "models/learned/model.h"
#include "search.h"

namespace candor::scheduler {

// The learned model CANDOR_MODEL selects: none for "analytic"; the weights at a path; unset,
// the shipped weights when the file exists. Throws std::runtime_error for weights that do
// not load (a bad file is an error, never a silent fallback).
std::shared_ptr<const models::learned::LearnedModel> learned_model_from_environment();

class CpuObjective : public Objective {
 public:
  // The model chosen by learned_model_from_environment().
  explicit CpuObjective(models::halide::MachineDescription machine);
  // An explicit choice: `learned` null means the analytic model.
  CpuObjective(models::halide::MachineDescription machine,
               std::shared_ptr<const models::learned::LearnedModel> learned);

  double cost(const Space& space, const Candidate& c) const override;
  double lower_bound(const Space& space, const Candidate& c) const override;
  double estimate(const Space& space, const Candidate& c) const override;
  void estimate_batch(const Space& space, const std::vector<const Candidate*>& batch,
                      std::vector<double>& out) const override;

  // The analytic model's terms per stage (what `candor search --explain` prints), whichever
  // model ranks.
  models::halide::Prediction explain(const Space& space, const Candidate& c) const;

  const models::halide::MachineDescription& machine() const { return machine_; }
  // Threads estimate_batch spreads a batch over (each predicts its share of the candidates,
  // which are independent: the results do not depend on the count). Default: every core,
  // since nearly all of a search's time is spent there.
  void set_threads(int threads);
  // "learned" or "analytic".
  std::string cost_model_name() const { return learned_ ? "learned" : "analytic"; }
  // Time the learned model spent (featurization vs network) over this objective's life.
  const models::learned::PredictTiming& learned_timing() const { return timing_; }

 private:
  models::halide::MachineDescription machine_;
  models::halide::AnalyticModel model_;
  std::optional<models::learned::LearnedCostModel> learned_;
  int threads_;
  mutable models::learned::PredictTiming timing_;  // searches call the objective from one thread
  // What a thread's evaluations of the search's views share, by the share of a batch it
  // predicts (the first also for single candidates).
  mutable std::vector<std::unique_ptr<models::halide::EvaluationCache>> caches_;
  models::halide::EvaluationCache& cache(size_t share) const;

  // Views and predictions of batch[begin, end) into out[begin, end) (out already sized).
  void estimate_range(const Space& space, const std::vector<const Candidate*>& batch, size_t begin, size_t end,
                      std::vector<double>& out, models::learned::PredictTiming& timing,
                      models::halide::EvaluationCache& cache) const;
};

}  // namespace candor::scheduler
