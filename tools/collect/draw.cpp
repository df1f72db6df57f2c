#include "draw.h"

#include <optional>
#include <random>
#include <set>

#include <nlohmann/json.hpp>

#include "engines.h"
#include "scheduler/cpu_objective.h"

namespace candor::collect {
namespace {

// One descent: each open variable of decision_order() (then any left open) is fixed to the
// model's best allowed value, or with probability `dropout` to a random one. A value whose
// propagation fails is never chosen; nullopt when every value of some variable fails.
std::optional<Candidate> descend(const HalideCpuSpace& space, const models::halide::AnalyticModel& model,
                                 const Candidate& root, double dropout, std::mt19937_64& rng) {
  Candidate c = root;
  std::uniform_real_distribution<double> coin(0, 1);
  auto decide = [&](int var) {
    std::vector<Candidate> children;
    for (int value : space.values(c, var)) {
      Candidate child = c;
      if (space.fix(child, var, value)) children.push_back(std::move(child));
    }
    if (children.empty()) return false;
    size_t pick = 0;
    if (coin(rng) < dropout) {
      pick = std::uniform_int_distribution<size_t>(0, children.size() - 1)(rng);
    } else if (children.size() > 1) {
      std::vector<models::halide::ScheduleView> views;
      for (const Candidate& child : children) views.push_back(space.view(child));
      std::vector<double> seconds;
      model.predict(space.kernel(), views, seconds);
      for (size_t i = 1; i < seconds.size(); ++i)
        if (seconds[i] < seconds[pick]) pick = i;
    }
    c = std::move(children[pick]);
    return true;
  };
  for (int var : space.decision_order())
    if (!space.is_fixed(c, var) && !decide(var)) return std::nullopt;
  for (int var = space.first_open_var(c); var >= 0; var = space.first_open_var(c))
    if (!decide(var)) return std::nullopt;
  return c;
}

// The `wanted` best pairwise-different implementations of a beam search ranked by the
// analytic model, best first.
std::vector<Candidate> beam_best(const HalideCpuSpace& space, const models::halide::AnalyticModel& model,
                                 const Candidate& root, int wanted, int width) {
  if (wanted <= 0) return {};
  const scheduler::CpuObjective objective(model.machine(), nullptr);
  VarOrderBrancher brancher(space.decision_order());
  Budget budget;
  budget.keep_top = wanted;
  budget.top_min_int_changes = 1;  // a tile size apart is a sample worth having
  const SearchResult result =
      make_search("beam:anytime=0,width=" + std::to_string(width))->run(space, root, objective, brancher, budget);
  std::vector<Candidate> best;
  for (const auto& [cost, candidate] : result.top) best.push_back(candidate);
  return best;
}

}  // namespace

std::vector<DrawnSchedule> draw_schedules(const HalideCpuSpace& space, const models::halide::AnalyticModel& model,
                                          uint64_t seed, const DrawOptions& options) {
  std::vector<DrawnSchedule> drawn;
  std::optional<Candidate> root = space.root();
  if (!root || options.schedules <= 0) return drawn;
  const int random_wanted = static_cast<int>(options.schedules * options.random_share + 0.5);
  const int beam_wanted = std::min(options.schedules - random_wanted,
                                   static_cast<int>(options.schedules * options.beam_share + 0.5));
  std::mt19937_64 rng(seed);
  std::set<std::string> seen;
  auto add = [&](const std::string& source, double dropout, const Candidate& c) {
    halide_bridge::Schedule schedule = space.to_schedule(c);
    if (!seen.insert(nlohmann::json(schedule).dump()).second) return false;
    drawn.push_back({source, dropout, c, std::move(schedule), space.decisions(c, false)});
    return true;
  };
  // Different implementations may emit one schedule (a descent's move to an equivalent
  // decision): twice as many are asked for, and the first that emit different ones kept.
  int beam_added = 0;
  for (const Candidate& c : beam_best(space, model, *root, 2 * beam_wanted, options.beam_width))
    if (beam_added < beam_wanted && add("beam", 0, c)) ++beam_added;
  // The greedy descents make up for a beam search that found fewer.
  const int greedy_wanted = options.schedules - random_wanted - static_cast<int>(drawn.size());
  auto draw_some = [&](int wanted, bool random) {
    int got = 0, greedy_index = 0;
    for (int attempt = 0; got < wanted && attempt < wanted * options.attempts_per_schedule; ++attempt) {
      double dropout = 1;
      if (!random) {
        dropout = greedy_index == 0 || options.dropouts.empty()
                      ? 0
                      : options.dropouts[(greedy_index - 1) % options.dropouts.size()];
        ++greedy_index;
      }
      std::optional<Candidate> c = descend(space, model, *root, dropout, rng);
      if (c && add(random ? "random" : "dropout_greedy", dropout, *c)) ++got;
    }
  };
  draw_some(greedy_wanted, false);
  draw_some(random_wanted, true);
  return drawn;
}

}  // namespace candor::collect
