// `candor model eval`: the learned cost model's accuracy on measured samples (held-out random
// pipelines and the example apps, which it never trained on), beside the analytic model's,
// and its speed: schedules per second, batched, and its share of a search's time.
#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>

#include "apps.h"
#include "commands.h"
#include "cpu_objective.h"
#include "engines.h"
#include "halide_bridge/compile.h"
#include "models/halide/machine.h"
#include "models/learned/model_eval.h"
#include "models/learned/model_samples.h"
#include "random_dive.h"

namespace candor::cli {
namespace {

namespace ml = models::learned;
namespace mh = models::halide;
using Clock = std::chrono::steady_clock;

struct EvalOptions {
  std::vector<std::string> samples;
  std::string apps_samples;
  std::string near_optimal_samples;
  std::string weights;
  std::string machine;
  double tie_tolerance = 0.05;
  std::string throughput_app = "local_laplacian";
  int throughput_schedules = 2000;
  double search_seconds = 10;
  bool skip_speed = false;
  bool per_app = false;
  bool json = false;
};

struct Split {
  std::vector<const ml::Sample*> samples;
  std::vector<double> learned_s, analytic_s;
};

Split split_of(const ml::SampleFile& file, const ml::LearnedModel& model, bool (*keep)(const ml::Sample&)) {
  Split s;
  std::vector<const ml::PipelineRows*> rows;
  for (const ml::Sample& x : file.samples) {
    if (!ml::usable(x) || !keep(x)) continue;
    s.samples.push_back(&x);
    rows.push_back(&x.rows);
    s.analytic_s.push_back(x.predicted_s);
  }
  model.predict(rows, s.learned_s);
  return s;
}

nlohmann::json accuracy_json(const ml::Accuracy& a) {
  return {{"samples", a.samples}, {"pipelines", a.pipelines}, {"pairs", a.pairs}, {"r2_log", a.r2_log},
          {"pairwise", a.pairwise}};
}

// Both models on a set of app samples: overall, and app by app ({"learned", "analytic",
// "per_app": {APP: {"learned", "analytic"}}}).
nlohmann::json both_models_json(const Split& s, double tie_tolerance) {
  nlohmann::json j = {{"learned", accuracy_json(ml::accuracy(s.samples, s.learned_s, tie_tolerance))},
                      {"analytic", accuracy_json(ml::accuracy(s.samples, s.analytic_s, tie_tolerance))}};
  const auto learned = ml::accuracy_by_pipeline(s.samples, s.learned_s, tie_tolerance);
  const auto analytic = ml::accuracy_by_pipeline(s.samples, s.analytic_s, tie_tolerance);
  j["per_app"] = nlohmann::json::object();
  for (const auto& [app, a] : learned)
    j["per_app"][app] = {{"learned", accuracy_json(a)}, {"analytic", accuracy_json(analytic.at(app))}};
  return j;
}

// A prefix of a random dive: a candidate with a random number of decisions taken (the mix of
// partial and complete candidates a search ranks).
std::optional<Candidate> random_prefix(const HalideCpuSpace& space, std::mt19937_64& rng) {
  std::optional<Candidate> root = space.root();
  if (!root) return root;
  const std::vector<int>& order = space.decision_order();
  const size_t depth = order.empty() ? 0 : rng() % (order.size() + 1);
  return random_dive(space, *root, order, rng, depth);
}

// Batched prediction of random candidates of one app, then a beam search ranked by the
// learned model: where the time goes.
nlohmann::json measure_speed(const EvalOptions& o, std::shared_ptr<const ml::LearnedModel> model) {
  namespace hb = halide_bridge;
  const hb::App* app = apps::find_app(o.throughput_app);
  if (!app) throw std::invalid_argument("unknown app '" + o.throughput_app + "' (see `candor apps`)");
  const mh::MachineDescription machine =
      mh::load_or_calibrate(o.machine.empty() ? mh::default_machine_path() : o.machine);
  const hb::KernelDescription kd = hb::describe_app(app->build(), hb::host_target());
  const HalideCpuSpace space(kd);

  std::mt19937_64 rng(1);
  std::vector<mh::ScheduleView> views;
  while (int(views.size()) < o.throughput_schedules)
    if (std::optional<Candidate> c = random_prefix(space, rng)) views.push_back(space.view(*c));
  const ml::LearnedCostModel learned(*model, machine);
  ml::PredictTiming t;
  std::vector<double> seconds;
  learned.predict(kd, views, seconds, &t);
  const mh::AnalyticModel analytic(machine);
  const auto a0 = Clock::now();
  analytic.predict(kd, views, seconds);
  const double analytic_s = std::chrono::duration<double>(Clock::now() - a0).count();

  // A search ranked by the learned model.
  scheduler::CpuObjective objective(machine, model);
  objective.set_threads(1);  // the shares below are of one thread's time
  std::unique_ptr<Search> search = make_search("beam");
  VarOrderBrancher brancher(space.decision_order());
  Budget budget;
  budget.seconds = o.search_seconds;
  const auto s0 = Clock::now();
  const SearchResult result = search->run(space, *space.root(), objective, brancher, budget);
  const double search_s = std::chrono::duration<double>(Clock::now() - s0).count();
  const ml::PredictTiming& st = objective.learned_timing();
  const double stages = double(views.front().funcs.size());
  return {{"app", o.throughput_app},
          {"funcs", stages},
          {"schedules", t.schedules},
          {"schedules_per_s", double(t.schedules) / (t.featurize_s + t.network_s)},
          {"network_schedules_per_s", double(t.schedules) / t.network_s},
          {"analytic_schedules_per_s", double(t.schedules) / analytic_s},
          {"featurize_share", t.featurize_s / (t.featurize_s + t.network_s)},
          {"network_share", t.network_s / (t.featurize_s + t.network_s)},
          {"search",
           {{"engine", "beam"},
            {"seconds", search_s},
            {"found", bool(result.best)},
            {"schedules_predicted", st.schedules},
            {"featurize_share", st.featurize_s / search_s},
            {"network_share", st.network_s / search_s}}}};
}

// A metric of the JSON report (NaN, written as null, when undefined).
double num(const nlohmann::json& x) { return x.is_number() ? x.get<double>() : std::nan(""); }

void print_text(const nlohmann::json& r, bool per_app) {
  auto pct = [](const nlohmann::json& x) { return fmt::format("{:.1f}%", 100 * num(x)); };
  const nlohmann::json& h = r["heldout"];
  const nlohmann::json& a = r["apps"];
  std::cout << fmt::format("weights: {}\n", r["weights"].get<std::string>());
  std::cout << fmt::format("                      {:>10} {:>10}\n", "learned", "analytic");
  std::cout << fmt::format("held-out R2 (log)     {:>10.3f} {:>10.3f}   ({} samples, {} pipelines)\n",
                           num(h["learned"]["r2_log"]), num(h["analytic"]["r2_log"]),
                           h["learned"]["samples"].get<int>(), h["learned"]["pipelines"].get<int>());
  std::cout << fmt::format("held-out pairwise     {:>10} {:>10}   ({} pairs)\n", pct(h["learned"]["pairwise"]),
                           pct(h["analytic"]["pairwise"]), h["learned"]["pairs"].get<long>());
  std::cout << fmt::format("apps R2 (log)         {:>10.3f} {:>10.3f}   ({} samples, {} apps)\n",
                           num(a["learned"]["r2_log"]), num(a["analytic"]["r2_log"]),
                           a["learned"]["samples"].get<int>(), a["learned"]["pipelines"].get<int>());
  std::cout << fmt::format("apps pairwise         {:>10} {:>10}   ({} pairs)\n", pct(a["learned"]["pairwise"]),
                           pct(a["analytic"]["pairwise"]), a["learned"]["pairs"].get<long>());
  if (r.contains("near_optimal")) {
    const nlohmann::json& n = r["near_optimal"];
    std::cout << fmt::format("near-optimal pairwise {:>10} {:>10}   ({} pairs, {} pipelines; schedules a tuned run timed side by side)\n",
                             pct(n["learned"]["pairwise"]), pct(n["analytic"]["pairwise"]),
                             n["learned"]["pairs"].get<long>(), n["learned"]["pipelines"].get<int>());
  }
  std::cout << fmt::format("(pairs of one pipeline's schedules measured more than {} apart)\n",
                           pct(r["tie_tolerance"]));
  if (per_app) {
    for (const char* set : {"apps", "near_optimal"}) {
      if (!r.contains(set)) continue;
      std::cout << fmt::format("{} pairwise by app:\n", set == std::string("apps") ? "apps" : "near-optimal");
      for (const auto& [app, m] : r[set]["per_app"].items())
        std::cout << fmt::format("  {:<26} {:>10} {:>10}   ({} pairs)\n", app, pct(m["learned"]["pairwise"]),
                                 pct(m["analytic"]["pairwise"]), m["learned"]["pairs"].get<long>());
    }
  }
  if (r.contains("speed")) {
    const nlohmann::json& s = r["speed"];
    std::cout << fmt::format(
        "speed on {} ({} Funcs): {:.0f} schedules/s batched (network alone {:.0f}/s; analytic model {:.0f}/s); "
        "featurization {} of it, network {}\n",
        s["app"].get<std::string>(), s["funcs"].get<double>(), s["schedules_per_s"].get<double>(),
        s["network_schedules_per_s"].get<double>(), s["analytic_schedules_per_s"].get<double>(),
        pct(s["featurize_share"]), pct(s["network_share"]));
    const nlohmann::json& b = s["search"];
    std::cout << fmt::format("beam search {:.1f} s, {} schedules predicted: featurization {}, network {} of it\n",
                             b["seconds"].get<double>(), b["schedules_predicted"].get<long>(),
                             pct(b["featurize_share"]), pct(b["network_share"]));
  }
}

int run_eval(const EvalOptions& o) {
  const std::string weights = o.weights.empty() ? ml::default_weights_path() : o.weights;
  if (o.weights.empty() && !std::filesystem::exists(weights))
    throw std::invalid_argument("no shipped weights at " + weights +
                                " (searches use the analytic model): train them with models/learned/model_ship.sh "
                                "(models/learned/README.md), or pass --weights");
  auto model = std::make_shared<const ml::LearnedModel>(ml::LearnedModel::load(weights));
  for (const std::string& path : {ml::default_samples_path(), ml::default_apps_samples_path()})
    if ((path == ml::default_samples_path() ? o.samples.empty() : o.apps_samples.empty()) &&
        !std::filesystem::exists(path))
      throw std::invalid_argument("no dataset at " + path +
                                  ": models/learned/eval_from_dataset.sh evaluates on the repository's dataset; or "
                                  "collect one (docs/dataset.md), or pass --samples / --apps-samples");
  ml::SampleFile random;
  for (const std::string& path : o.samples.empty() ? std::vector<std::string>{ml::default_samples_path()} : o.samples)
    ml::merge_samples(random, ml::read_samples(path));
  const ml::SampleFile apps = ml::read_samples(o.apps_samples.empty() ? ml::default_apps_samples_path() : o.apps_samples);

  const Split heldout = split_of(random, *model, [](const ml::Sample& s) { return ml::held_out(s); });
  const Split on_apps = split_of(apps, *model, [](const ml::Sample& s) { return !s.seed.has_value(); });
  if (heldout.samples.empty()) throw std::invalid_argument("no usable held-out samples (seed % 5 == 0)");
  if (on_apps.samples.empty()) throw std::invalid_argument("no usable app samples");
  const ml::Accuracy hl = ml::accuracy(heldout.samples, heldout.learned_s, o.tie_tolerance);
  const ml::Accuracy ha = ml::accuracy(heldout.samples, heldout.analytic_s, o.tie_tolerance);
  const nlohmann::json on_apps_json = both_models_json(on_apps, o.tie_tolerance);

  nlohmann::json r = {{"weights", weights},
                      {"heldout_r2_log", hl.r2_log},
                      {"heldout_pairwise", hl.pairwise},
                      {"apps_pairwise", on_apps_json["learned"]["pairwise"]},
                      {"apps_r2_log", on_apps_json["learned"]["r2_log"]},
                      {"tie_tolerance", o.tie_tolerance},
                      {"heldout", {{"learned", accuracy_json(hl)}, {"analytic", accuracy_json(ha)}}},
                      {"apps", on_apps_json},
                      {"analytic",
                       {{"heldout_r2_log", ha.r2_log},
                        {"heldout_pairwise", ha.pairwise},
                        {"apps_pairwise", on_apps_json["analytic"]["pairwise"]}}},
                      {"samples_read", random.samples.size() + apps.samples.size()},
                      {"missing_features", random.missing_features},
                      {"provenance", model->provenance()}};
  if (!o.near_optimal_samples.empty()) {
    const ml::SampleFile tuned = ml::read_samples(o.near_optimal_samples);
    // Apps, or held-out random pipelines: never trained on.
    const Split near = split_of(tuned, *model, [](const ml::Sample& s) {
      return !s.batch.empty() && (!s.seed.has_value() || ml::held_out(s));
    });
    if (near.samples.empty())
      throw std::invalid_argument(o.near_optimal_samples +
                                  ": no usable samples in batches of apps or held-out random pipelines (a tuned "
                                  "run's `--samples`)");
    r["near_optimal"] = both_models_json(near, o.tie_tolerance);
    r["near_optimal_pairwise"] = r["near_optimal"]["learned"]["pairwise"];
    r["analytic"]["near_optimal_pairwise"] = r["near_optimal"]["analytic"]["pairwise"];
  }
  if (!o.skip_speed) r["speed"] = measure_speed(o, model);
  if (o.json) {
    std::cout << r.dump() << std::endl;
  } else {
    print_text(r, o.per_app);
  }
  return 0;
}

}  // namespace

void register_model_command(CLI::App& app, int& exit_status) {
  CLI::App* model = app.add_subcommand("model", "The learned cost model");
  model->require_subcommand(1);
  auto o = std::make_shared<EvalOptions>();
  CLI::App* eval = model->add_subcommand(
      "eval", "Accuracy of the learned model (and of the analytic model) on measured samples, and its speed");
  eval->add_option("--samples", o->samples,
                   "random-pipeline samples, JSONL (repeatable; default: data/samples.jsonl); held out: seed % 5 == 0");
  eval->add_option("--apps-samples", o->apps_samples, "example-app samples, JSONL (default: data/apps/samples.jsonl)");
  eval->add_option("--near-optimal-samples", o->near_optimal_samples,
                   "samples a tuned run timed side by side (`candor search --autotune N --samples FILE`, "
                   "head_to_head's autotune_samples.jsonl, models/learned/collect_near_optimal.sh): pairs within a "
                   "batch, near the optimum; apps and held-out random pipelines (seed % 5 == 0) only");
  eval->add_flag("--per-app", o->per_app, "also print the pairwise accuracy of each app");
  eval->add_option("--weights", o->weights, "the model's weights (default: the shipped models/learned/weights.json)");
  eval->add_option("--tie-tolerance", o->tie_tolerance,
                   "pairs of schedules measured closer than this ratio are not ranked")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 10.0));
  eval->add_option("--speed-app", o->throughput_app, "the app the speed is measured on")->capture_default_str();
  eval->add_option("--speed-schedules", o->throughput_schedules, "random (partial) schedules predicted in one batch")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  eval->add_option("--search-seconds", o->search_seconds, "the beam search whose time is split")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  eval->add_flag("--no-speed", o->skip_speed, "accuracy only");
  eval->add_option("--machine", o->machine, "machine description (default: build/machine.json, calibrated if missing)");
  eval->add_flag("--json", o->json,
                 "one JSON object: heldout_r2_log, heldout_pairwise, apps_pairwise, near_optimal_pairwise, analytic.*, "
                 "apps.per_app, near_optimal.per_app, speed, ...");
  eval->callback([o, &exit_status]() {
    try {
      exit_status = run_eval(*o);
    } catch (const std::exception& e) {
      std::cerr << "candor model eval: error: " << e.what() << "\n";
      exit_status = 1;
    }
  });
}

}  // namespace candor::cli
