// A synthetic sample file for testing the training and evaluation machinery without
// measuring: random complete candidates of real random pipelines (or example apps), in the
// dataset format (docs/DESIGN.md), whose "measured" runtime is the analytic model's
// prediction. A model that learns from these must reproduce a known, non-trivial function
// (max of compute and memory plus overheads) of its inputs.
//
//   learned_synth_samples --out FILE --seeds A:B --per-pipeline K [--apps a,b] [--machine M]
#include <fstream>
#include <iostream>
#include <random>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "apps.h"
#include "halide_bridge/compile.h"
#include "halide_cpu_space.h"
#include "model.h"
#include "random_dive.h"
#include "random_pipelines.h"

namespace {

namespace hb = candor::halide_bridge;
namespace mh = candor::models::halide;
using candor::Candidate;
using candor::HalideCpuSpace;

void write_samples(std::ostream& out, const std::string& name, std::optional<uint64_t> seed,
                   const hb::KernelDescription& kd, const mh::AnalyticModel& model, int per_pipeline,
                   std::mt19937_64& rng) {
  HalideCpuSpace space(kd);
  for (int k = 0; k < per_pipeline; ++k) {
    const std::optional<Candidate> root = space.root();
    const std::optional<Candidate> c =
        root ? candor::random_dive(space, *root, space.decision_order(), rng) : std::nullopt;
    if (!c) continue;
    const mh::ScheduleView view = space.view(*c);
    const std::vector<mh::StageFeatures> features = mh::featurize(kd, view, model.machine());
    const candor::models::learned::PipelineRows rows = candor::models::learned::stage_rows(kd, view, model);
    const double seconds = model.predict(kd, view);
    nlohmann::json decisions = nlohmann::json::array();
    for (int var = 0; var < space.num_vars(); ++var)
      decisions.push_back({space.var_name(var), space.value_name(var, space.first_value(*c, var))});
    nlohmann::json stages = nlohmann::json::array();
    for (size_t i = 0; i < features.size(); ++i) {
      nlohmann::json j = features[i];
      nlohmann::json terms = nlohmann::json::object();
      for (int t = 0; t < candor::models::learned::kNumCostTerms; ++t)
        terms[candor::models::learned::cost_term_names()[size_t(t)]] = rows[i].terms[size_t(t)];
      j["terms"] = terms;
      stages.push_back(j);
    }
    nlohmann::json sample = {{"key", name + "/" + std::to_string(std::hash<std::string>()(decisions.dump()))},
                             {"pipeline", name},
                             {"source", "random"},
                             {"ok", true},
                             {"failure", ""},
                             {"runtime_ms", seconds * 1e3},
                             {"compile_ms", 0},
                             {"predicted_s", seconds},
                             {"decisions", decisions},
                             {"stages", stages}};
    if (seed) sample["seed"] = *seed;
    out << sample.dump() << "\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Synthetic samples: random candidates with the analytic model's prediction as runtime"};
  std::string out_path, seeds = "0:10", apps, machine_path;
  int per_pipeline = 8;
  uint64_t rng_seed = 1;
  app.add_option("--out", out_path, "the JSONL file to write")->required();
  app.add_option("--seeds", seeds, "random pipelines A:B (seeds A to B-1)")->capture_default_str();
  app.add_option("--apps", apps, "example apps, comma-separated");
  app.add_option("--per-pipeline", per_pipeline, "candidates per pipeline")->capture_default_str();
  app.add_option("--rng", rng_seed, "seed of the candidate draws")->capture_default_str();
  app.add_option("--machine", machine_path, "machine description (calibrated when missing)")->required();
  CLI11_PARSE(app, argc, argv);
  const size_t colon = seeds.find(':');
  if (colon == std::string::npos) {
    std::cerr << "learned_synth_samples: error: --seeds must be A:B\n";
    return 1;
  }
  const uint64_t first = std::stoull(seeds.substr(0, colon)), last = std::stoull(seeds.substr(colon + 1));
  std::ofstream out(out_path);
  if (!out) {
    std::cerr << "learned_synth_samples: error: cannot write " << out_path << "\n";
    return 1;
  }
  const mh::AnalyticModel model(mh::load_or_calibrate(machine_path));
  const Halide::Target target = hb::host_target();
  std::mt19937_64 rng(rng_seed);
  for (uint64_t seed = first; seed < last; ++seed) {
    const hb::App a = candor::models::random_pipelines::random_pipeline(seed);
    write_samples(out, "random_" + std::to_string(seed), seed, hb::describe_app(a.build(), target), model,
                  per_pipeline, rng);
  }
  std::stringstream names(apps);
  for (std::string name; std::getline(names, name, ',');) {
    const hb::App* a = candor::apps::find_app(name);
    if (!a) {
      std::cerr << "learned_synth_samples: error: unknown app " << name << "\n";
      return 1;
    }
    write_samples(out, name, std::nullopt, hb::describe_app(a->build(), target), model, per_pipeline, rng);
  }
  return 0;
}
