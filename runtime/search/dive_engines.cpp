// Engines made of dives: greedy (one greedy dive, backtracking only on failure) and random
// (repeated uniformly random dives until the budget or the number of dives is spent).
#include "run.h"

namespace candor::search_detail {

namespace {

class Greedy : public Search {
 public:
  std::string name() const override { return "greedy"; }
  SearchResult run(const Space& space, const Candidate& root, const Objective& objective,
                   const Brancher& brancher, const Budget& budget) override {
    Run run(space, objective, brancher, budget);
    dive(run, root, DivePolicy::Greedy, run.rng);
    return run.finish(false);
  }
};

class RandomDives : public Search {
 public:
  RandomDives(int64_t dives, bool dives_given) : dives_(dives), dives_given_(dives_given) {}
  std::string name() const override { return "random"; }
  SearchResult run(const Space& space, const Candidate& root, const Objective& objective,
                   const Brancher& brancher, const Budget& budget) override {
    Run run(space, objective, brancher, budget);
    // Without any limit the number of dives bounds the run; with a budget, the budget does
    // unless the dives were asked for explicitly.
    bool limited = budget.seconds < kInf || budget.max_expanded >= 0;
    int64_t dives = (dives_given_ || !limited) ? dives_ : -1;
    for (int64_t i = 0; dives < 0 || i < dives; ++i) {
      if (run.stop()) break;
      double cost = dive(run, root, DivePolicy::Random, run.rng);
      if (cost == kInf && !run.budget_hit()) break;  // no implementation below the root
      if (space.is_complete(root)) break;
    }
    return run.finish(false);
  }

 private:
  int64_t dives_;
  bool dives_given_;
};

}  // namespace

EngineEntry greedy_entry() {
  return {"greedy",
          "one dive taking the child with the best estimate (batched), backtracking on failure",
          {},
          [](const Options&) -> std::unique_ptr<Search> { return std::make_unique<Greedy>(); }};
}

EngineEntry random_entry() {
  return {"random",
          "uniformly random dives from the root (seeded by Budget::seed)",
          {{"dives", "64", "number of dives (default: until the budget, or 64 with no budget)"}},
          [](const Options& o) -> std::unique_ptr<Search> {
            int64_t dives = o.integer("dives");
            if (dives == 0 || dives < -1) {
              throw std::invalid_argument("search 'random': dives must be >= 1 (or inf)");
            }
            return std::make_unique<RandomDives>(dives, o.given("dives"));
          }};
}

}  // namespace candor::search_detail
