#include "model_eval.h"

#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>

namespace candor::models::learned {

double r2(const std::vector<double>& measured, const std::vector<double>& predicted) {
  if (measured.size() != predicted.size()) throw std::invalid_argument("r2: sizes differ");
  if (measured.empty()) return std::numeric_limits<double>::quiet_NaN();
  double mean = 0;
  for (double y : measured) mean += y;
  mean /= double(measured.size());
  double ss_res = 0, ss_tot = 0;
  for (size_t i = 0; i < measured.size(); ++i) {
    ss_res += (measured[i] - predicted[i]) * (measured[i] - predicted[i]);
    ss_tot += (measured[i] - mean) * (measured[i] - mean);
  }
  return ss_tot > 0 ? 1 - ss_res / ss_tot : std::numeric_limits<double>::quiet_NaN();
}

Accuracy accuracy(const std::vector<const Sample*>& samples, const std::vector<double>& predicted_s,
                  double tie_tolerance) {
  if (samples.size() != predicted_s.size()) throw std::invalid_argument("accuracy: sizes differ");
  Accuracy a;
  a.samples = int(samples.size());
  std::vector<double> measured_log, predicted_log;
  std::set<std::string> pipelines;
  std::map<std::string, std::vector<size_t>> by_group;  // pairs are ordered within a group
  for (size_t i = 0; i < samples.size(); ++i) {
    measured_log.push_back(std::log(samples[i]->runtime_ms * 1e-3));
    predicted_log.push_back(std::log(std::max(predicted_s[i], 1e-30)));
    pipelines.insert(samples[i]->pipeline);
    by_group[samples[i]->pipeline + "#" + samples[i]->batch].push_back(i);
  }
  a.pipelines = int(pipelines.size());
  a.r2_log = r2(measured_log, predicted_log);

  const double tie = std::log1p(tie_tolerance);
  double right = 0;
  for (const auto& [name, idx] : by_group) {
    for (size_t x = 0; x < idx.size(); ++x) {
      for (size_t y = x + 1; y < idx.size(); ++y) {
        const size_t i = idx[x], j = idx[y];
        const double dm = measured_log[j] - measured_log[i];
        if (std::fabs(dm) <= tie) continue;
        const double dp = predicted_s[j] - predicted_s[i];
        ++a.pairs;
        right += dp == 0 ? 0.5 : (dp > 0) == (dm > 0) ? 1 : 0;
      }
    }
  }
  a.pairwise = a.pairs ? right / double(a.pairs) : std::numeric_limits<double>::quiet_NaN();
  return a;
}

std::map<std::string, Accuracy> accuracy_by_pipeline(const std::vector<const Sample*>& samples,
                                                     const std::vector<double>& predicted_s, double tie_tolerance) {
  if (samples.size() != predicted_s.size()) throw std::invalid_argument("accuracy_by_pipeline: sizes differ");
  std::map<std::string, std::pair<std::vector<const Sample*>, std::vector<double>>> by_pipeline;
  for (size_t i = 0; i < samples.size(); ++i) {
    auto& [of_pipeline, predicted] = by_pipeline[samples[i]->pipeline];
    of_pipeline.push_back(samples[i]);
    predicted.push_back(predicted_s[i]);
  }
  std::map<std::string, Accuracy> out;
  for (const auto& [name, group] : by_pipeline) out[name] = accuracy(group.first, group.second, tie_tolerance);
  return out;
}

}  // namespace candor::models::learned
