// The learned cost model of the Halide CPU space (Adams et al. 2019 §4: a small network that
// predicts the coefficients of hand-designed cost terms, not the runtime itself).
//
// Per stage: named inputs (features of the featurization, stage_features.h, and the analytic
// model's StageCost terms) -> scaled (seconds to ~nanoseconds) -> signed log1p -> standardised with the training set's statistics
// -> an MLP (ReLU hidden layers) -> softplus -> one non-negative coefficient per cost term.
// A stage's time is sum_t coef_t * scale_t * value_t, where each cost term is a StageCost term
// (seconds) or a raw count of the featurization (scaled to ~seconds); a pipeline's time is a
// learned non-negative overhead plus the sum over its stages. Non-negative coefficients keep
// the prediction monotone in every term, so more work never predicts a faster schedule.
//
// Weights are JSON (models/learned/weights.json, written by models/learned/train.py):
//   {"format": "candor-learned-model-1",
//    "feature_inputs": [names], "term_inputs": [names],   // MLP inputs, in this order
//    "normalization": {"scale": [...], "mean": [...], "std": [...]},  // per input:
//                     (slog1p(x * scale) - mean) / std
//    "layers": [{"weight": [[in] x out], "bias": [out]}, ...],  // ReLU between, softplus last
//    "terms": [{"name": ..., "from": "terms"|"features", "scale": s}, ...],  // one per output
//    "pipeline_overhead_s": s,
//    "analytic_band": k,        // optional, > 1: see below
//    "provenance": {...}}
// or an ensemble of such networks (models/learned/ensemble.py):
//   {"format": "candor-learned-ensemble-1", "members": [one network's object, ...],
//    "analytic_band": k, "provenance": {...}}
// whose prediction is the median of its members' (before the band; the geometric mean of the
// middle two for an even count). Networks trained from different seeds order the same pairs
// differently by several points, and a search exploits the errors of the model that steers it:
// a median follows no single member's error, where a mean is pulled by an outlier.
// With an analytic band k, a pipeline's prediction p is held smoothly within (A / k, A * k), A the
// analytic model's (the sum of its stages' total_s): A * exp(s * tanh(log(p / A) / s)), s = log k,
// monotone in p and close to it near A (train.py's printed metrics apply the same; its loss
// sees the free p). The network re-ranks what the analytic model prices within that factor, and
// a search cannot chase the network's errors far from it (the learned model's searches found
// schedules it priced below the analytic model's pick that ran 1.5-2.6x slower: a region none of
// its training pairs visit).
// Names are checked against this build's schema on load: a weights file that names a feature
// or a term this build lacks is an error (retrain), never a silently shifted input.
#pragma once

#include <array>
#include <chrono>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analytic_model.h"
#include "kernel_description.h"
#include "machine.h"
#include "schedule_view.h"
#include "stage_features.h"

namespace candor::models::learned {

namespace mh = candor::models::halide;

// The StageCost terms the learned model reads (AnalyticModel::explain), by name.
// total_s is the analytic model's own stage time (max(compute, load + store) + a share of the
// min + overheads): coefficient 1 on it and 0 elsewhere is the analytic model, where training starts.
#define CANDOR_COST_TERMS(X) \
  X(compute_s) X(load_s) X(store_s) X(parallel_s) X(allocation_s) X(loop_s) X(total_s)
inline constexpr int kNumCostTerms = 7;
const std::vector<std::string>& cost_term_names();
// A stage's values of those terms, in cost_term_names()'s order.
std::array<double, kNumCostTerms> cost_terms_of(const mh::StageCost& c);

// What the model reads of one stage: its features and the analytic model's terms (all 0 for
// a stage the analytic model inlines).
struct StageRow {
  std::array<double, mh::kNumFeatures> features{};
  std::array<double, kNumCostTerms> terms{};
};
using PipelineRows = std::vector<StageRow>;

// One row per stage of `kd` (featurize's order), the terms joined by (func, stage); the
// analytic terms reuse `cache` when given.
PipelineRows stage_rows(const halide_bridge::KernelDescription& kd, const mh::ScheduleView& view,
                        const mh::AnalyticModel& analytic, mh::EvaluationCache* cache = nullptr);

// The shipped weights: an installed package's copy (P/share/candor/weights.json, found from
// the module this code is linked into, support/install_dirs.h), else the repository's
// models/learned/weights.json (the path is compiled in).
const std::string& default_weights_path();

class LearnedModel {
 public:
  // Throws std::runtime_error with what is wrong (shape, unknown name, non-finite value).
  static LearnedModel from_json(const nlohmann::json& j);
  // Also throws when the file cannot be read or is not JSON; messages name the file.
  static LearnedModel load(const std::string& path);
  nlohmann::json to_json() const;

  // Predicted seconds of each pipeline; every stage of every pipeline goes through the
  // network in one batch.
  void predict(const std::vector<const PipelineRows*>& batch, std::vector<double>& seconds) const;
  double predict(const PipelineRows& rows) const;

  int num_members() const { return int(members_.size()); }
  const nlohmann::json& provenance() const { return provenance_; }

 private:
  struct Layer {
    int in = 0, out = 0;
    std::vector<float> weight_t;  // in x out (transposed: the inner loop runs over outputs)
    std::vector<float> bias;
  };
  struct Term {
    std::string name;
    bool from_features = false;
    int index = 0;  // into StageRow::features or StageRow::terms
    double scale = 1;
  };
  // One trained network: its inputs, layers and cost terms.
  struct Network {
    // Input i reads features[index] (index < kNumFeatures) or terms[index - kNumFeatures].
    std::vector<int> input_index;
    std::vector<std::string> feature_inputs, term_inputs;
    std::vector<double> input_scale;
    std::vector<float> mean, inv_std;
    std::vector<Layer> layers;
    std::vector<Term> terms;
    double pipeline_overhead_s = 0;

    static Network from_json(const nlohmann::json& j);
    nlohmann::json to_json() const;
    // Predicted seconds of each pipeline of the batch (`stages` rows in all), before any band.
    void predict(const std::vector<const PipelineRows*>& batch, size_t stages, std::vector<double>& seconds) const;
  };
  std::vector<Network> members_;
  bool ensemble_format_ = false;  // read as candor-learned-ensemble-1 (written back the same way)
  double analytic_band_ = 0;      // 0: none
  nlohmann::json provenance_;
};

// Where prediction time goes (featurization + analytic terms vs the network), for the
// throughput report.
struct PredictTiming {
  double featurize_s = 0;
  double network_s = 0;
  long schedules = 0;
};

// The learned model on views of one pipeline: batched featurization, then one network batch.
class LearnedCostModel {
 public:
  LearnedCostModel(LearnedModel model, mh::MachineDescription machine);

  // `cache`: what earlier batches of the same kernel left (null: a batch of its own).
  void predict(const halide_bridge::KernelDescription& kd, const std::vector<mh::ScheduleView>& views,
               std::vector<double>& seconds, PredictTiming* timing = nullptr,
               mh::EvaluationCache* cache = nullptr) const;
  double predict(const halide_bridge::KernelDescription& kd, const mh::ScheduleView& view) const;

  const LearnedModel& model() const { return model_; }

 private:
  LearnedModel model_;
  mh::AnalyticModel analytic_;
};

}  // namespace candor::models::learned
