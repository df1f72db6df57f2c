// Accuracy of a cost model on measured samples: R^2 of predicted vs measured log runtime
// (pooled over samples) and pairwise ordering accuracy (pairs of schedules of one pipeline).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model_samples.h"

namespace candor::models::learned {

struct Accuracy {
  int samples = 0;
  int pipelines = 0;
  long pairs = 0;                 // pairs ordered by measurement (ties within tolerance left out)
  double r2_log = 0;              // 1 - SS_res / SS_tot of log seconds
  double pairwise = 0;            // fraction of pairs in the measured order (a predicted tie: half)
};

// R^2 of `predicted` against `measured` (both already in log space). 0 samples or a constant
// measurement: NaN.
double r2(const std::vector<double>& measured, const std::vector<double>& predicted);

// Pairs (i, j) of samples of the same pipeline (and batch, Sample::batch) whose measured runtimes differ by more than a
// factor (1 + tie_tolerance) count; a pair is right when the prediction orders it the same way.
// `predicted_s[i]` is the prediction of `samples[i]`.
Accuracy accuracy(const std::vector<const Sample*>& samples, const std::vector<double>& predicted_s,
                  double tie_tolerance);

// accuracy() of each pipeline's samples on their own, by pipeline name: an average over
// pipelines hides the one a model orders backwards.
std::map<std::string, Accuracy> accuracy_by_pipeline(const std::vector<const Sample*>& samples,
                                                     const std::vector<double>& predicted_s, double tie_tolerance);

}  // namespace candor::models::learned
