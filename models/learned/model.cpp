#include "model.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <stdexcept>

#include "support/install_dirs.h"

namespace candor::models::learned {

namespace hb = candor::halide_bridge;

const std::vector<std::string>& cost_term_names() {
  static const std::vector<std::string> names = {
#define CANDOR_COST_TERM_NAME(name) #name,
      CANDOR_COST_TERMS(CANDOR_COST_TERM_NAME)
#undef CANDOR_COST_TERM_NAME
  };
  return names;
}

const std::string& default_weights_path() {
  static const std::string path = [] {
    // Only an installed package's own copy: a program copied elsewhere never reads a
    // weights.json that happens to lie beside its directory.
    const std::filesystem::path dir = support::installed_data_directory(support::module_prefix());
    std::error_code ec;
    return !dir.empty() && std::filesystem::exists(dir / "weights.json", ec) ? (dir / "weights.json").string()
                                                                            : std::string(CANDOR_DEFAULT_WEIGHTS);
  }();
  return path;
}

std::array<double, kNumCostTerms> cost_terms_of(const mh::StageCost& c) {
  return {
#define CANDOR_COST_TERM_VALUE(name) c.name,
      CANDOR_COST_TERMS(CANDOR_COST_TERM_VALUE)
#undef CANDOR_COST_TERM_VALUE
  };
}

namespace {

int index_of(const std::vector<std::string>& names, const std::string& name) {
  const auto it = std::find(names.begin(), names.end(), name);
  return it == names.end() ? -1 : int(it - names.begin());
}

[[noreturn]] void bad(const std::string& what) { throw std::runtime_error("learned model weights: " + what); }

std::vector<std::string> names_at(const nlohmann::json& j, const char* key) {
  if (!j.contains(key) || !j[key].is_array()) bad(std::string("missing array '") + key + "'");
  std::vector<std::string> v;
  for (const auto& x : j[key]) {
    if (!x.is_string()) bad(std::string("'") + key + "' holds a non-string");
    v.push_back(x.get<std::string>());
  }
  return v;
}

std::vector<float> numbers_at(const nlohmann::json& j, const std::string& what, size_t n) {
  if (!j.is_array() || j.size() != n) bad(what + ": expected " + std::to_string(n) + " numbers");
  std::vector<float> v;
  for (const auto& x : j) {
    if (!x.is_number() || !std::isfinite(x.get<double>())) bad(what + ": not a finite number");
    v.push_back(x.get<float>());
  }
  return v;
}

float signed_log1p(float x) { return x < 0 ? -std::log1p(-x) : std::log1p(x); }
float softplus(float x) { return x > 20 ? x : std::log1p(std::exp(x)); }

}  // namespace

PipelineRows stage_rows(const hb::KernelDescription& kd, const mh::ScheduleView& view,
                        const mh::AnalyticModel& analytic, mh::EvaluationCache* cache) {
  const mh::Prediction pred = cache ? analytic.explain(kd, view, *cache) : analytic.explain(kd, view);
  const std::vector<mh::StageFeatures> features = mh::featurize(kd, view, pred);
  // Both follow the kernel description's order; the prediction skips inlined stages.
  PipelineRows rows(features.size());
  size_t c = 0;
  for (size_t i = 0; i < features.size(); ++i) {
    rows[i].features = features[i].values;
    if (c < pred.stages.size() && pred.stages[c].func == features[i].func && pred.stages[c].stage == features[i].stage)
      rows[i].terms = cost_terms_of(pred.stages[c++]);
  }
  if (c != pred.stages.size()) throw std::logic_error("stage_rows: the analytic model's stages are out of order");
  return rows;
}

LearnedModel::Network LearnedModel::Network::from_json(const nlohmann::json& j) {
  if (!j.is_object()) bad("a network is not a JSON object");
  if (j.value("format", "") != "candor-learned-model-1")
    bad("unknown format '" + j.value("format", "") + "' (expected candor-learned-model-1 or candor-learned-ensemble-1)");
  Network m;
  m.feature_inputs = names_at(j, "feature_inputs");
  m.term_inputs = names_at(j, "term_inputs");
  for (const std::string& n : m.feature_inputs) {
    const int i = index_of(mh::feature_names(), n);
    if (i < 0) bad("input feature '" + n + "' is not in this build's feature schema; retrain the model");
    m.input_index.push_back(i);
  }
  for (const std::string& n : m.term_inputs) {
    const int i = index_of(cost_term_names(), n);
    if (i < 0) bad("input term '" + n + "' is not a StageCost term; retrain the model");
    m.input_index.push_back(mh::kNumFeatures + i);
  }
  const size_t n_in = m.input_index.size();
  if (n_in == 0) bad("no inputs");
  if (!j.contains("normalization") || !j["normalization"].is_object()) bad("missing object 'normalization'");
  for (float x : numbers_at(j["normalization"].value("scale", nlohmann::json()), "normalization.scale", n_in)) {
    if (!(x > 0)) bad("normalization.scale: not positive");
    m.input_scale.push_back(x);
  }
  m.mean = numbers_at(j["normalization"].value("mean", nlohmann::json()), "normalization.mean", n_in);
  const std::vector<float> sd = numbers_at(j["normalization"].value("std", nlohmann::json()), "normalization.std", n_in);
  for (float s : sd) {
    if (!(s > 0)) bad("normalization.std: not positive");
    m.inv_std.push_back(1.0f / s);
  }

  if (!j.contains("layers") || !j["layers"].is_array() || j["layers"].empty()) bad("missing array 'layers'");
  int in = int(n_in);
  for (size_t l = 0; l < j["layers"].size(); ++l) {
    const nlohmann::json& lj = j["layers"][l];
    const std::string what = "layers[" + std::to_string(l) + "]";
    if (!lj.is_object() || !lj.contains("weight") || !lj["weight"].is_array() || lj["weight"].empty())
      bad(what + ": missing 'weight' (out rows of in numbers)");
    Layer layer;
    layer.in = in;
    layer.out = int(lj["weight"].size());
    layer.weight_t.assign(size_t(layer.in) * size_t(layer.out), 0);
    for (int o = 0; o < layer.out; ++o) {
      const std::vector<float> row =
          numbers_at(lj["weight"][size_t(o)], what + ".weight[" + std::to_string(o) + "]", size_t(in));
      for (int i = 0; i < in; ++i) layer.weight_t[size_t(i) * size_t(layer.out) + size_t(o)] = row[size_t(i)];
    }
    layer.bias = numbers_at(lj.value("bias", nlohmann::json()), what + ".bias", size_t(layer.out));
    in = layer.out;
    m.layers.push_back(std::move(layer));
  }

  if (!j.contains("terms") || !j["terms"].is_array()) bad("missing array 'terms'");
  if (j["terms"].size() != size_t(in))
    bad("the last layer has " + std::to_string(in) + " outputs for " + std::to_string(j["terms"].size()) + " terms");
  for (const auto& tj : j["terms"]) {
    if (!tj.is_object() || !tj.contains("name") || !tj["name"].is_string()) bad("a term without a name");
    Term t;
    t.name = tj["name"].get<std::string>();
    const std::string from = tj.value("from", "");
    if (from == "terms") {
      t.index = index_of(cost_term_names(), t.name);
    } else if (from == "features") {
      t.from_features = true;
      t.index = index_of(mh::feature_names(), t.name);
    } else {
      bad("term '" + t.name + "': 'from' must be \"terms\" or \"features\"");
    }
    if (t.index < 0) bad("term '" + t.name + "' is not in this build's " + from + "; retrain the model");
    if (!tj.contains("scale") || !tj["scale"].is_number() || !(tj["scale"].get<double>() > 0))
      bad("term '" + t.name + "': 'scale' must be a positive number");
    t.scale = tj["scale"].get<double>();
    m.terms.push_back(t);
  }
  if (!j.contains("pipeline_overhead_s") || !j["pipeline_overhead_s"].is_number() ||
      !(j["pipeline_overhead_s"].get<double>() >= 0))
    bad("'pipeline_overhead_s' must be a non-negative number");
  m.pipeline_overhead_s = j["pipeline_overhead_s"].get<double>();
  return m;
}

nlohmann::json LearnedModel::Network::to_json() const {
  nlohmann::json json_layers = nlohmann::json::array();
  for (const Layer& l : layers) {
    nlohmann::json w = nlohmann::json::array();
    for (int o = 0; o < l.out; ++o) {
      nlohmann::json row = nlohmann::json::array();
      for (int i = 0; i < l.in; ++i) row.push_back(l.weight_t[size_t(i) * size_t(l.out) + size_t(o)]);
      w.push_back(row);
    }
    json_layers.push_back({{"weight", w}, {"bias", l.bias}});
  }
  std::vector<float> sd;
  for (float s : inv_std) sd.push_back(1.0f / s);
  nlohmann::json json_terms = nlohmann::json::array();
  for (const Term& t : terms)
    json_terms.push_back({{"name", t.name}, {"from", t.from_features ? "features" : "terms"}, {"scale", t.scale}});
  return {{"format", "candor-learned-model-1"},
          {"feature_inputs", feature_inputs},
          {"term_inputs", term_inputs},
          {"normalization", {{"scale", input_scale}, {"mean", mean}, {"std", sd}}},
          {"layers", json_layers},
          {"terms", json_terms},
          {"pipeline_overhead_s", pipeline_overhead_s}};
}

LearnedModel LearnedModel::from_json(const nlohmann::json& j) {
  if (!j.is_object()) bad("not a JSON object");
  LearnedModel m;
  if (j.value("format", "") == "candor-learned-ensemble-1") {
    m.ensemble_format_ = true;
    if (!j.contains("members") || !j["members"].is_array() || j["members"].empty()) bad("missing array 'members'");
    for (size_t i = 0; i < j["members"].size(); ++i) {
      try {
        m.members_.push_back(Network::from_json(j["members"][i]));
      } catch (const std::runtime_error& e) {
        throw std::runtime_error("members[" + std::to_string(i) + "]: " + e.what());
      }
    }
  } else {
    m.members_.push_back(Network::from_json(j));
  }
  if (j.contains("analytic_band")) {
    if (!j["analytic_band"].is_number() || !(j["analytic_band"].get<double>() > 1))
      bad("'analytic_band' must be a number above 1");
    m.analytic_band_ = j["analytic_band"].get<double>();
  }
  m.provenance_ = j.value("provenance", nlohmann::json::object());
  return m;
}

LearnedModel LearnedModel::load(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read learned model weights " + path);
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (j.is_discarded()) throw std::runtime_error(path + ": not JSON");
  try {
    return from_json(j);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(path + ": " + e.what());
  }
}

nlohmann::json LearnedModel::to_json() const {
  nlohmann::json j;
  if (ensemble_format_) {
    j = {{"format", "candor-learned-ensemble-1"}, {"members", nlohmann::json::array()}};
    for (const Network& n : members_) j["members"].push_back(n.to_json());
  } else {
    j = members_.front().to_json();
  }
  j["provenance"] = provenance_;
  if (analytic_band_ > 0) j["analytic_band"] = analytic_band_;
  return j;
}

void LearnedModel::Network::predict(const std::vector<const PipelineRows*>& batch, size_t n,
                                    std::vector<double>& seconds) const {
  // Inputs of every stage, normalised: n x inputs.
  const size_t n_in = input_index.size();
  std::vector<float> x(n * n_in);
  std::vector<const StageRow*> rows;
  rows.reserve(n);
  for (const PipelineRows* p : batch)
    for (const StageRow& r : *p) rows.push_back(&r);
  for (size_t s = 0; s < n; ++s) {
    for (size_t i = 0; i < n_in; ++i) {
      const int k = input_index[i];
      const double v = k < mh::kNumFeatures ? rows[s]->features[size_t(k)] : rows[s]->terms[size_t(k - mh::kNumFeatures)];
      x[s * n_in + i] = (signed_log1p(float(v * input_scale[i])) - mean[i]) * inv_std[i];
    }
  }
  // Dense layers over the whole batch (ReLU between, softplus after the last).
  std::vector<float> y;
  for (size_t l = 0; l < layers.size(); ++l) {
    const Layer& L = layers[l];
    y.assign(n * size_t(L.out), 0);
    for (size_t s = 0; s < n; ++s) {
      float* out = &y[s * size_t(L.out)];
      std::copy(L.bias.begin(), L.bias.end(), out);
      const float* in = &x[s * size_t(L.in)];
      for (int i = 0; i < L.in; ++i) {
        const float v = in[i];
        if (v == 0) continue;
        const float* w = &L.weight_t[size_t(i) * size_t(L.out)];
        for (int o = 0; o < L.out; ++o) out[o] += v * w[o];
      }
      const bool last = l + 1 == layers.size();
      for (int o = 0; o < L.out; ++o) out[o] = last ? softplus(out[o]) : std::max(out[o], 0.0f);
    }
    x.swap(y);
  }
  // Coefficients times terms, summed per pipeline.
  seconds.assign(batch.size(), pipeline_overhead_s);
  size_t s = 0;
  for (size_t b = 0; b < batch.size(); ++b) {
    for (const StageRow& r : *batch[b]) {
      const float* coef = &x[s++ * terms.size()];
      for (size_t t = 0; t < terms.size(); ++t) {
        const Term& T = terms[t];
        const double v = T.from_features ? r.features[size_t(T.index)] : r.terms[size_t(T.index)];
        seconds[b] += double(coef[t]) * T.scale * v;
      }
    }
  }
}

void LearnedModel::predict(const std::vector<const PipelineRows*>& batch, std::vector<double>& seconds) const {
  size_t n = 0;
  for (const PipelineRows* p : batch) n += p->size();
  if (members_.size() == 1) {
    members_.front().predict(batch, n, seconds);
  } else {  // the members' median
    std::vector<std::vector<double>> member(members_.size());
    for (size_t m = 0; m < members_.size(); ++m) members_[m].predict(batch, n, member[m]);
    std::vector<double> p(members_.size());
    const size_t mid = p.size() / 2;
    seconds.resize(batch.size());
    for (size_t b = 0; b < batch.size(); ++b) {
      for (size_t m = 0; m < members_.size(); ++m) p[m] = member[m][b];
      std::sort(p.begin(), p.end());
      seconds[b] = p.size() % 2 ? p[mid] : std::sqrt(p[mid - 1] * p[mid]);
    }
  }
  static const int total_term = index_of(cost_term_names(), "total_s");
  for (size_t b = 0; b < batch.size(); ++b) {
    double analytic_s = 0;
    for (const StageRow& r : *batch[b]) analytic_s += r.terms[size_t(total_term)];
    if (analytic_band_ > 0 && analytic_s > 0 && seconds[b] > 0) {
      const double s = std::log(analytic_band_);
      seconds[b] = analytic_s * std::exp(s * std::tanh(std::log(seconds[b] / analytic_s) / s));
    }
  }
}

double LearnedModel::predict(const PipelineRows& rows) const {
  std::vector<double> s;
  predict({&rows}, s);
  return s[0];
}

LearnedCostModel::LearnedCostModel(LearnedModel model, mh::MachineDescription machine)
    : model_(std::move(model)), analytic_(std::move(machine)) {}

void LearnedCostModel::predict(const hb::KernelDescription& kd, const std::vector<mh::ScheduleView>& views,
                               std::vector<double>& seconds, PredictTiming* timing,
                               mh::EvaluationCache* cache) const {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  std::optional<mh::EvaluationCache> own;
  if (!cache) cache = &own.emplace();
  std::vector<PipelineRows> rows;
  rows.reserve(views.size());
  for (const mh::ScheduleView& v : views) rows.push_back(stage_rows(kd, v, analytic_, cache));
  const auto t1 = Clock::now();
  std::vector<const PipelineRows*> batch;
  for (const PipelineRows& r : rows) batch.push_back(&r);
  model_.predict(batch, seconds);
  if (timing) {
    timing->featurize_s += std::chrono::duration<double>(t1 - t0).count();
    timing->network_s += std::chrono::duration<double>(Clock::now() - t1).count();
    timing->schedules += long(views.size());
  }
}

double LearnedCostModel::predict(const hb::KernelDescription& kd, const mh::ScheduleView& view) const {
  return model_.predict(stage_rows(kd, view, analytic_));
}

}  // namespace candor::models::learned
