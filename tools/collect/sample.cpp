#include "sample.h"

#include <map>
#include <utility>

#include "dataset.h"
#include "models/halide/stage_features.h"
#include "models/learned/model.h"

namespace candor::collect {

nlohmann::json describe_sample(const SampleContext& context, const DrawnSchedule& drawn) {
  namespace mh = models::halide;
  const halide_bridge::KernelDescription& kd = context.space->kernel();
  const mh::ScheduleView view = context.space->view(drawn.candidate);
  const mh::Prediction prediction = context.model->explain(kd, view);
  std::map<std::pair<std::string, int>, const mh::StageCost*> costs;
  for (const mh::StageCost& s : prediction.stages) costs[{s.func, s.stage}] = &s;

  nlohmann::json stages = nlohmann::json::array();
  for (const mh::StageFeatures& f : mh::featurize(kd, view, prediction)) {
    nlohmann::json stage = f;
    auto it = costs.find({f.func, f.stage});
    const mh::StageCost none;  // a stage the model inlines costs nothing of its own
    const mh::StageCost& cost = it == costs.end() ? none : *it->second;
    const auto values = models::learned::cost_terms_of(cost);
    for (size_t t = 0; t < values.size(); ++t) stage["terms"][models::learned::cost_term_names()[t]] = values[t];
    stages.push_back(std::move(stage));
  }
  nlohmann::json record = {{"key", sample_key(context.pipeline, drawn.schedule)},
                           {"pipeline", context.pipeline}};
  if (context.random) {
    if (context.random->family != PipelineFamily::Image) record["family"] = family_name(context.random->family);
    record["seed"] = context.random->seed;
    if (context.random->size != default_size(context.random->family)) record["size"] = context.random->size;
  }
  record["source"] = drawn.source;
  record["dropout"] = drawn.dropout;
  record["predicted_s"] = prediction.seconds;
  record["decisions"] = drawn.decisions;
  record["schedule"] = drawn.schedule;
  record["stages"] = std::move(stages);
  return record;
}

void add_measurement(nlohmann::json& record, const ChildMeasurement& m) {
  record["ok"] = m.ok;
  record["failure"] = m.failure;
  record["runtime_ms"] = m.runtime_ms;
  record["compile_ms"] = m.compile_ms;
  record["wall_s"] = m.wall_seconds;
}

}  // namespace candor::collect
