// The learned model's contracts: weights load, round-trip and are checked against the schema;
// the prediction is the documented sum of coefficients times terms; batched equals single;
// the sample reader and the accuracy metrics on hand-made files; the objective's choice.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>

#include <gtest/gtest.h>

#include "cpu_objective.h"
#include "halide_bridge/compile.h"
#include "halide_cpu_space.h"
#include "model.h"
#include "model_eval.h"
#include "model_samples.h"
#include "random_pipelines.h"
#include "tests/machines/recorded_machines.h"

namespace {

namespace hb = candor::halide_bridge;
namespace mh = candor::models::halide;
using namespace candor::models::learned;
using nlohmann::json;

const mh::MachineDescription& machine() { return candor::testing::recorded_machine_for_host(); }

json random_matrix(int rows, int cols, std::mt19937_64& rng) {
  std::normal_distribution<double> n(0, 0.5);
  json m = json::array();
  for (int r = 0; r < rows; ++r) {
    json row = json::array();
    for (int c = 0; c < cols; ++c) row.push_back(n(rng));
    m.push_back(row);
  }
  return m;
}

// A small, valid weights file: 4 features and 2 terms in, 5 hidden, 7 cost terms out.
json small_weights(uint64_t seed) {
  std::mt19937_64 rng(seed);
  const int in = 6, hidden = 5;
  json terms = json::array();
  for (const std::string& t : cost_term_names()) terms.push_back({{"name", t}, {"from", "terms"}, {"scale", 1.0}});
  terms.push_back({{"name", "points_computed"}, {"from", "features"}, {"scale", 1e-9}});
  const int out = int(terms.size());
  return {{"format", "candor-learned-model-1"},
          {"feature_inputs", {"points_computed", "ops_total", "inlined", "vectorized"}},
          {"term_inputs", {"compute_s", "load_s"}},
          {"normalization",
           {{"scale", {1, 1, 1, 1, 1e9, 1e9}}, {"mean", {10, 2, 0.5, 0.5, 5, 5}}, {"std", {3, 1, 0.5, 0.5, 2, 2}}}},
          {"layers",
           {{{"weight", random_matrix(hidden, in, rng)}, {"bias", random_matrix(1, hidden, rng)[0]}},
            {{"weight", random_matrix(out, hidden, rng)}, {"bias", random_matrix(1, out, rng)[0]}}}},
          {"terms", terms},
          {"pipeline_overhead_s", 2e-6},
          {"provenance", {{"command", "test"}}}};
}

// Rows of random complete candidates of a real random pipeline.
std::vector<PipelineRows> real_rows(uint64_t pipeline_seed, int n) {
  const hb::KernelDescription kd =
      hb::describe_app(candor::models::random_pipelines::random_pipeline(pipeline_seed).build(), hb::host_target());
  const candor::HalideCpuSpace space(kd);
  const mh::AnalyticModel analytic(machine());
  std::mt19937_64 rng(3);
  std::vector<PipelineRows> out;
  while (int(out.size()) < n) {
    std::optional<candor::Candidate> c = space.root();
    for (int var : space.decision_order()) {
      while (c && !space.is_fixed(*c, var)) {
        const std::vector<int> values = space.values(*c, var);
        candor::Candidate next = *c;
        const int value = values[rng() % values.size()];
        if (space.fix(next, var, value)) {
          *c = next;
        } else if (!space.remove(*c, var, value)) {
          c.reset();
        }
      }
    }
    if (c) out.push_back(stage_rows(kd, space.view(*c), analytic));
  }
  return out;
}

std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

void expect_error(const json& j, const std::string& words) {
  try {
    LearnedModel::from_json(j);
    ADD_FAILURE() << "no error; expected one about: " << words;
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
  }
}

TEST(LearnedModel, WeightsRoundTrip) {
  const LearnedModel a = LearnedModel::from_json(small_weights(1));
  const LearnedModel b = LearnedModel::from_json(a.to_json());
  EXPECT_EQ(a.to_json(), b.to_json());
  const std::string path = write_temp("weights.json", a.to_json().dump());
  const LearnedModel c = LearnedModel::load(path);
  EXPECT_EQ(c.provenance()["command"], "test");
  for (const PipelineRows& rows : real_rows(3, 4)) EXPECT_EQ(a.predict(rows), c.predict(rows));
}

TEST(LearnedModel, BadWeightsGiveErrors) {
  EXPECT_THROW(LearnedModel::load(::testing::TempDir() + "no-such-weights.json"), std::runtime_error);
  EXPECT_THROW(LearnedModel::load(write_temp("garbage.json", "{not json")), std::runtime_error);
  json j = small_weights(1);
  j["format"] = "other";
  expect_error(j, "unknown format");
  j = small_weights(1);
  j["feature_inputs"][0] = "no_such_feature";
  expect_error(j, "no_such_feature");
  j = small_weights(1);
  j["term_inputs"][0] = "points_computed";
  expect_error(j, "not a StageCost term");
  j = small_weights(1);
  j["layers"][0]["weight"][0].erase(0);
  expect_error(j, "layers[0].weight[0]");
  j = small_weights(1);
  j["terms"].erase(0);
  expect_error(j, "outputs for");
  j = small_weights(1);
  j["normalization"]["std"][2] = 0;
  expect_error(j, "not positive");
  j = small_weights(1);
  j["terms"][0]["from"] = "elsewhere";
  expect_error(j, "'from'");
  j = small_weights(1);
  j.erase("pipeline_overhead_s");
  expect_error(j, "pipeline_overhead_s");
  j = small_weights(1);
  j["analytic_band"] = 0.8;
  expect_error(j, "analytic_band");
}

// With an analytic band k every prediction lies within a factor k of the analytic model's (the
// sum of the stages' total_s), as A * exp(s * tanh(log(p / A) / s)) of the free prediction p.
TEST(LearnedModel, AnAnalyticBandHoldsPredictionsNearTheAnalyticModel) {
  json j = small_weights(4);
  const LearnedModel free_model = LearnedModel::from_json(j);
  j["analytic_band"] = 1.25;
  const LearnedModel banded = LearnedModel::from_json(j);
  EXPECT_EQ(LearnedModel::from_json(banded.to_json()).to_json(), banded.to_json());
  const auto& names = cost_term_names();
  const size_t total = size_t(std::find(names.begin(), names.end(), "total_s") - names.begin());
  ASSERT_LT(total, names.size());
  const double s = std::log(1.25);
  int outside = 0;
  for (const PipelineRows& rows : real_rows(5, 8)) {
    double analytic = 0;
    for (const StageRow& r : rows) analytic += r.terms[total];
    ASSERT_GT(analytic, 0);
    const double free_s = free_model.predict(rows), banded_s = banded.predict(rows);
    EXPECT_GT(banded_s, analytic / 1.25);
    EXPECT_LT(banded_s, analytic * 1.25);
    EXPECT_NEAR(std::log(banded_s / analytic), s * std::tanh(std::log(free_s / analytic) / s), 1e-9);
    outside += free_s < analytic / 1.25 || free_s > analytic * 1.25;
  }
  EXPECT_GT(outside, 0);  // the random network strays: the band did something
}

// An ensemble predicts the median of its members' predictions (of two: their geometric mean),
// then applies its band; it round-trips in its own format, and a broken member is reported by
// its index.
TEST(LearnedModel, AnEnsemblePredictsItsMembersMedian) {
  const LearnedModel a = LearnedModel::from_json(small_weights(5)), b = LearnedModel::from_json(small_weights(6));
  json j = {{"format", "candor-learned-ensemble-1"}, {"members", {small_weights(5), small_weights(6)}}};
  const LearnedModel both = LearnedModel::from_json(j);
  EXPECT_EQ(both.num_members(), 2);
  EXPECT_EQ(LearnedModel::from_json(both.to_json()).to_json(), both.to_json());
  j["analytic_band"] = 1.1;
  const LearnedModel banded = LearnedModel::from_json(j);
  const LearnedModel c = LearnedModel::from_json(small_weights(7));
  const LearnedModel three = LearnedModel::from_json(
      {{"format", "candor-learned-ensemble-1"}, {"members", {small_weights(5), small_weights(6), small_weights(7)}}});
  const auto& names = cost_term_names();
  const size_t total = size_t(std::find(names.begin(), names.end(), "total_s") - names.begin());
  const double s = std::log(1.1);
  for (const PipelineRows& rows : real_rows(9, 6)) {
    const double pa = a.predict(rows), pb = b.predict(rows), mean = std::sqrt(pa * pb);
    std::vector<double> p = {pa, pb, c.predict(rows)};
    std::sort(p.begin(), p.end());
    EXPECT_EQ(three.predict(rows), p[1]);
    EXPECT_NEAR(both.predict(rows), mean, 1e-9 * mean);
    EXPECT_NE(pa, pb);  // the members differ: the mean is not one of them
    double analytic = 0;
    for (const StageRow& r : rows) analytic += r.terms[total];
    EXPECT_NEAR(std::log(banded.predict(rows) / analytic), s * std::tanh(std::log(mean / analytic) / s), 1e-9);
  }
  json broken = j;
  broken["members"][1].erase("layers");
  try {
    LearnedModel::from_json(broken);
    ADD_FAILURE() << "a member without layers loaded";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("members[1]"), std::string::npos) << e.what();
  }
  broken = j;
  broken["members"] = json::array();
  EXPECT_THROW(LearnedModel::from_json(broken), std::runtime_error);
}

TEST(LearnedModel, PredictsCoefficientsTimesTerms) {
  // A zero last layer with bias log(e - 1): every coefficient is softplus(b) = 1, so the
  // prediction is the overhead plus the scaled sum of the terms, whatever the inputs.
  json j = small_weights(2);
  for (auto& row : j["layers"][1]["weight"])
    for (auto& w : row) w = 0.0;
  for (auto& b : j["layers"][1]["bias"]) b = std::log(std::exp(1.0) - 1);
  const LearnedModel m = LearnedModel::from_json(j);
  for (const PipelineRows& rows : real_rows(5, 3)) {
    double expected = 2e-6;
    for (const StageRow& r : rows) {
      for (double t : r.terms) expected += t;
      expected += 1e-9 * r.features[size_t(mh::Feature::points_computed)];
    }
    EXPECT_NEAR(m.predict(rows), expected, 1e-6 * expected);
  }
}

TEST(LearnedModel, BatchedEqualsSingle) {
  const LearnedModel m = LearnedModel::from_json(small_weights(3));
  std::vector<PipelineRows> rows = real_rows(7, 6);
  const std::vector<PipelineRows> more = real_rows(11, 6);  // another pipeline in the same batch
  rows.insert(rows.end(), more.begin(), more.end());
  std::vector<const PipelineRows*> batch;
  for (const PipelineRows& r : rows) batch.push_back(&r);
  std::vector<double> seconds;
  m.predict(batch, seconds);
  ASSERT_EQ(seconds.size(), rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(seconds[i], m.predict(rows[i])) << i;
    EXPECT_GT(seconds[i], 0);
  }
}

TEST(LearnedModel, ViewsPredictLikeTheirRows) {
  const hb::KernelDescription kd =
      hb::describe_app(candor::models::random_pipelines::random_pipeline(13).build(), hb::host_target());
  const candor::HalideCpuSpace space(kd);
  const LearnedModel m = LearnedModel::from_json(small_weights(4));
  const LearnedCostModel model(m, machine());
  const mh::ScheduleView root = space.view(*space.root());
  std::vector<double> seconds;
  PredictTiming timing;
  model.predict(kd, {root, root}, seconds, &timing);
  EXPECT_EQ(seconds[0], m.predict(stage_rows(kd, root, mh::AnalyticModel(machine()))));
  EXPECT_EQ(seconds[0], model.predict(kd, root));
  EXPECT_EQ(timing.schedules, 2);
}

// Three samples of pipeline a, two of b, one failed; a duplicate key; a torn last line.
const char* kSamples =
    R"({"key":"a/1","pipeline":"a","seed":5,"ok":true,"runtime_ms":1,"predicted_s":0.002,"stages":[]})" "\n"
    R"({"key":"a/2","pipeline":"a","seed":5,"ok":true,"runtime_ms":2,"predicted_s":0.001,"stages":[]})" "\n"
    R"({"key":"a/3","pipeline":"a","seed":5,"ok":true,"runtime_ms":4,"predicted_s":0.004,"stages":[]})" "\n"
    R"({"key":"a/2","pipeline":"a","seed":5,"ok":true,"runtime_ms":9,"predicted_s":0.009,"stages":[]})" "\n"
    R"({"key":"b/1","pipeline":"b","ok":true,"runtime_ms":1,"predicted_s":0.001,"stages":[]})" "\n"
    R"({"key":"b/2","pipeline":"b","ok":true,"runtime_ms":8,"predicted_s":0.008,"stages":[]})" "\n"
    R"({"key":"b/3","pipeline":"b","ok":false,"failure":"timeout","stages":[]})" "\n"
    R"({"key":"b/4","pipeline":"b","ok":tr)";

TEST(Samples, ReadDedupeAndTornLastLine) {
  const SampleFile f = read_samples(write_temp("samples.jsonl", kSamples));
  ASSERT_EQ(f.samples.size(), 6u);
  EXPECT_EQ(f.duplicates, 1);
  EXPECT_TRUE(f.torn_last_line);
  EXPECT_EQ(f.samples[1].runtime_ms, 2);  // the first of a duplicated key is kept
  EXPECT_TRUE(held_out(f.samples[0]));
  EXPECT_FALSE(f.samples[3].seed.has_value());
  EXPECT_FALSE(f.samples[5].ok);
  // A malformed line that is not the last is an error naming the line.
  std::string broken = kSamples;
  broken.insert(broken.find('\n') + 1, "{oops\n");
  try {
    read_samples(write_temp("broken.jsonl", broken));
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(":2: not JSON"), std::string::npos) << e.what();
  }
  EXPECT_THROW(read_samples(::testing::TempDir() + "no-such.jsonl"), std::runtime_error);
}

TEST(Samples, StagesReadByName) {
  const std::string line =
      R"({"key":"k","pipeline":"random_3","seed":3,"ok":true,"runtime_ms":1,"stages":[{"func":"f","stage":0,)"
      R"("features":{"ops_total":7,"unknown_feature":1},"terms":{"compute_s":1,"load_s":2,"store_s":3,)"
      R"("parallel_s":4,"allocation_s":5,"loop_s":6,"total_s":7}}]})";
  const SampleFile f = read_samples(write_temp("stages.jsonl", line + "\n"));
  ASSERT_EQ(f.samples[0].rows.size(), 1u);
  const StageRow& r = f.samples[0].rows[0];
  EXPECT_EQ(r.features[size_t(mh::Feature::ops_total)], 7);
  EXPECT_EQ(r.features[size_t(mh::Feature::points_computed)], 0);
  EXPECT_EQ(r.terms[5], 6);
  EXPECT_EQ(r.terms[6], 7);
  EXPECT_EQ(f.missing_features.size(), size_t(mh::kNumFeatures - 1));
}

// The verified samples of `f` and their recorded predictions.
void verified_with_predictions(const SampleFile& f, std::vector<const Sample*>& s, std::vector<double>& predicted) {
  for (const Sample& x : f.samples) {
    if (!x.ok) continue;
    s.push_back(&x);
    predicted.push_back(x.predicted_s);
  }
}

TEST(Metrics, R2AndPairwiseByHand) {
  const SampleFile f = read_samples(write_temp("metrics.jsonl", kSamples));
  std::vector<const Sample*> s;
  std::vector<double> predicted;
  verified_with_predictions(f, s, predicted);
  const Accuracy a = accuracy(s, predicted, 0.05);
  EXPECT_EQ(a.samples, 5);
  EXPECT_EQ(a.pipelines, 2);
  // Pipeline a: (1,2) wrong, (1,3) right, (2,3) right; pipeline b: (1,2) right.
  EXPECT_EQ(a.pairs, 4);
  EXPECT_DOUBLE_EQ(a.pairwise, 0.75);
  // log-space residuals: only a/1 and a/2 are off, each by log 2.
  std::vector<double> y;
  for (double ms : {1.0, 2.0, 4.0, 1.0, 8.0}) y.push_back(std::log(ms * 1e-3));
  double mean = 0, tot = 0;
  for (double v : y) mean += v / 5;
  for (double v : y) tot += (v - mean) * (v - mean);
  EXPECT_NEAR(a.r2_log, 1 - 2 * std::log(2.0) * std::log(2.0) / tot, 1e-12);
  // A measured tie within the tolerance is not a pair; a predicted tie counts half.
  const Accuracy b = accuracy({s[0], s[1]}, {1.0, 1.0}, 0.0);
  EXPECT_EQ(b.pairs, 1);
  EXPECT_DOUBLE_EQ(b.pairwise, 0.5);
  EXPECT_EQ(accuracy({s[0], s[1]}, {1.0, 2.0}, 1.5).pairs, 0);
}

// Per pipeline, each pipeline's pairs on their own: pipeline a (1 of 3 pairs wrong) and b (right).
TEST(Metrics, AccuracyByPipeline) {
  const SampleFile f = read_samples(write_temp("by_pipeline.jsonl", kSamples));
  std::vector<const Sample*> s;
  std::vector<double> predicted;
  verified_with_predictions(f, s, predicted);
  const std::map<std::string, Accuracy> by = accuracy_by_pipeline(s, predicted, 0.05);
  ASSERT_EQ(by.size(), 2u);
  EXPECT_EQ(by.at("a").samples, 3);
  EXPECT_EQ(by.at("a").pairs, 3);
  EXPECT_DOUBLE_EQ(by.at("a").pairwise, 2.0 / 3);
  EXPECT_EQ(by.at("b").pairs, 1);
  EXPECT_DOUBLE_EQ(by.at("b").pairwise, 1.0);
  EXPECT_THROW(accuracy_by_pipeline(s, {1.0}, 0.05), std::invalid_argument);
}

// Samples timed side by side in different processes (autotuning's batches) are ordered
// within their batch only: a schedule measured in a slow process is not compared with one
// measured in a fast process.
TEST(Metrics, PairsStayWithinABatch) {
  const std::string lines =
      R"({"key": "app/1@p", "pipeline": "app", "batch": "p", "ok": true, "runtime_ms": 1.0, "predicted_s": 1e-3, "stages": []})"
      "\n"
      R"({"key": "app/2@p", "pipeline": "app", "batch": "p", "ok": true, "runtime_ms": 2.0, "predicted_s": 2e-3, "stages": []})"
      "\n"
      R"({"key": "app/1@q", "pipeline": "app", "batch": "q", "ok": true, "runtime_ms": 3.0, "predicted_s": 1e-3, "stages": []})"
      "\n"
      R"({"key": "app/2@q", "pipeline": "app", "batch": "q", "ok": true, "runtime_ms": 6.0, "predicted_s": 2e-3, "stages": []})"
      "\n";
  const SampleFile f = read_samples(write_temp("batches.jsonl", lines));
  ASSERT_EQ(f.samples.size(), 4u);
  EXPECT_EQ(f.samples[2].batch, "q");
  std::vector<const Sample*> s;
  std::vector<double> predicted;
  for (const Sample& x : f.samples) {
    s.push_back(&x);
    predicted.push_back(x.predicted_s);
  }
  // Within p and within q the model is right; across them (app/2@p at 2 ms against app/1@q
  // at 3 ms) it would be wrong, but that pair is not formed.
  const Accuracy a = accuracy(s, predicted, 0.05);
  EXPECT_EQ(a.pipelines, 1);
  EXPECT_EQ(a.pairs, 2);
  EXPECT_DOUBLE_EQ(a.pairwise, 1.0);
}

TEST(CpuObjective, ModelFromEnvironment) {
  setenv("CANDOR_MODEL", "analytic", 1);
  EXPECT_EQ(candor::scheduler::learned_model_from_environment(), nullptr);
  EXPECT_EQ(candor::scheduler::CpuObjective(machine()).cost_model_name(), "analytic");
  const std::string path = write_temp("env_weights.json", small_weights(5).dump());
  setenv("CANDOR_MODEL", path.c_str(), 1);
  EXPECT_EQ(candor::scheduler::CpuObjective(machine()).cost_model_name(), "learned");
  setenv("CANDOR_MODEL", (::testing::TempDir() + "missing.json").c_str(), 1);
  EXPECT_THROW(candor::scheduler::learned_model_from_environment(), std::runtime_error);
  unsetenv("CANDOR_MODEL");
}

// The shipped weights name only features and terms this build computes (load checks every
// name, so a featurization change without retraining fails here), and every search ranks with
// them unless CANDOR_MODEL says otherwise.
TEST(CpuObjective, ShippedWeightsMatchThisBuildAndAreTheDefault) {
  ASSERT_TRUE(std::filesystem::exists(default_weights_path())) << default_weights_path();
  const LearnedModel shipped = LearnedModel::load(default_weights_path());
  EXPECT_TRUE(shipped.provenance().contains("command"));
  unsetenv("CANDOR_MODEL");
  const candor::scheduler::CpuObjective objective(machine());
  EXPECT_EQ(objective.cost_model_name(), "learned");
  const hb::KernelDescription kd =
      hb::describe_app(candor::models::random_pipelines::random_pipeline(17).build(), hb::host_target());
  const candor::HalideCpuSpace space(kd);
  const double seconds = objective.estimate(space, *space.root());
  EXPECT_TRUE(std::isfinite(seconds) && seconds > 0) << seconds;
}

TEST(CpuObjective, LearnedRanksCandidates) {
  const hb::KernelDescription kd =
      hb::describe_app(candor::models::random_pipelines::random_pipeline(17).build(), hb::host_target());
  const candor::HalideCpuSpace space(kd);
  auto m = std::make_shared<const LearnedModel>(LearnedModel::from_json(small_weights(6)));
  const candor::scheduler::CpuObjective objective(machine(), m);
  const candor::Candidate root = *space.root();
  std::vector<double> out;
  objective.estimate_batch(space, {&root, &root}, out);
  EXPECT_EQ(out[0], objective.estimate(space, root));
  EXPECT_EQ(out[0], LearnedCostModel(*m, machine()).predict(kd, space.view(root)));
  EXPECT_EQ(objective.learned_timing().schedules, 3);
}

// A batch spread over threads is predicted as on one thread, candidate by candidate, with
// either model; every candidate is counted once.
TEST(CpuObjective, ThreadsShareABatchWithoutChangingIt) {
  const hb::KernelDescription kd =
      hb::describe_app(candor::models::random_pipelines::random_pipeline(17).build(), hb::host_target());
  const candor::HalideCpuSpace space(kd);
  std::mt19937_64 rng(5);
  std::vector<candor::Candidate> candidates;  // partial and complete
  while (candidates.size() < 37) {
    std::optional<candor::Candidate> c = space.root();
    const std::vector<int>& order = space.decision_order();
    const size_t depth = rng() % (order.size() + 1);
    for (size_t k = 0; k < depth && c; ++k) {
      const int var = order[k];
      if (space.is_fixed(*c, var)) continue;
      const std::vector<int> values = space.values(*c, var);
      if (!space.fix(*c, var, values[rng() % values.size()])) c.reset();
    }
    if (c) candidates.push_back(*c);
  }
  std::vector<const candor::Candidate*> batch;
  for (const candor::Candidate& c : candidates) batch.push_back(&c);
  for (auto learned : {std::shared_ptr<const LearnedModel>(),
                       std::make_shared<const LearnedModel>(LearnedModel::from_json(small_weights(6)))}) {
    candor::scheduler::CpuObjective one(machine(), learned), three(machine(), learned);
    one.set_threads(1);
    three.set_threads(3);
    std::vector<double> alone, shared;
    one.estimate_batch(space, batch, alone);
    three.estimate_batch(space, batch, shared);
    ASSERT_EQ(shared.size(), batch.size());
    EXPECT_EQ(alone, shared);
    EXPECT_EQ(shared[20], one.estimate(space, *batch[20]));
    if (learned) {
      EXPECT_EQ(three.learned_timing().schedules, long(batch.size()));
    }
  }
}

}  // namespace
