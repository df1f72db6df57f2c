// Drawing schedules of one pipeline from the Halide CPU space for sample collection (Adams
// et al. 2019 §5): the best pairwise-different implementations of a beam search with the
// analytic model (the candidates a search chooses among: a model that steers searches must
// rank these right, and dropout descents rarely reach them), a greedy descent over
// decision_order() guided by the analytic model with dropout (at each open decision it takes
// the model's best child with probability 1 - p, else a random allowed child), and pure
// random descents (p = 1: every decision a random allowed value, uniform per decision).
// Seeded: the same space, model, seed and options give the same schedules in the same order.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "halide_cpu_space.h"
#include "models/halide/analytic_model.h"

namespace candor::collect {

struct DrawOptions {
  int schedules = 8;            // distinct schedules wanted
  double beam_share = 0.25;     // of them the best of a beam search
  double random_share = 0.25;   // of them drawn by pure random descents
  // The beam search's width: one round of coarse-to-fine passes, with no time limit (which
  // keeps the draw reproducible).
  int beam_width = 8;
  // Dropout probabilities of the greedy descents, cycled over; the first greedy descent
  // has none (the model's own greedy choice).
  std::vector<double> dropouts = {0.02, 0.05, 0.1, 0.2, 0.35};
  int attempts_per_schedule = 4;  // descents tried per wanted schedule (duplicates, failures)
};

struct DrawnSchedule {
  std::string source;  // "beam", "dropout_greedy" or "random"
  double dropout = 0;  // the descent's p (1 for "random")
  Candidate candidate;
  halide_bridge::Schedule schedule;
  // Every variable (decision order first, then the rest) as (variable name, value name).
  std::vector<std::pair<std::string, std::string>> decisions;
};

// Up to options.schedules distinct schedules (by their JSON), fewer when the descents keep
// meeting the same ones or failing.
std::vector<DrawnSchedule> draw_schedules(const HalideCpuSpace& space, const models::halide::AnalyticModel& model,
                                          uint64_t seed, const DrawOptions& options = {});

}  // namespace candor::collect
