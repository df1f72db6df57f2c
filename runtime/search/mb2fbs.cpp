// MB2FBS, memory-bounded best-first beam search (Algorithm 2 of the MB2FBS paper).
//
// Each iteration looks at the β1 + β2 best open candidates (by estimate; deeper first on
// ties, then creation order): the β1 best are expanded ("pushed forward"), the next β2 are
// carried over unexpanded ("pushed onward", so a promising sibling left behind can come
// back), and every other open candidate is dropped. With β finite (the controlled variant),
// at most β candidates are expanded per depth; a candidate popped at a depth whose quota is
// spent is dropped. The open list is bounded by M = Budget::max_kept (unset: unbounded, which
// the paper notes is safe since β1, β2 and β already bound it); the worst are dropped.
//
// Special cases (paper, Table 1): β1 = W, β2 = 0 is beam search of width W; β1 = 1, β2 = 0
// is greedy; β1 = 1, β2 = ∞ is (memory-bounded) best-first search.
//
// Differences from the pseudocode: implementations are costed when created rather than when
// popped (they never occupy the open list), with prune=1 open candidates whose lower bound
// is not below the incumbent are discarded, and with dive=1 a greedy dive first gives an
// incumbent (an answer under any budget that allows one dive, and a bound to prune with).
#include <algorithm>
#include <cmath>
#include <tuple>

#include "run.h"

namespace candor::search_detail {

namespace {

struct Open {
  Candidate candidate;
  double estimate = 0;
  double bound = std::nan("");  // computed on demand
  int depth = 0;
  uint64_t sequence = 0;
};

bool better(const Open& a, const Open& b) {
  return std::make_tuple(a.estimate, -a.depth, a.sequence) <
         std::make_tuple(b.estimate, -b.depth, b.sequence);
}

class Mb2fbs : public Search {
 public:
  Mb2fbs(int64_t beta1, int64_t beta2, int64_t beta, bool prune, bool dive_first)
      : beta1_(beta1), beta2_(beta2), beta_(beta), prune_(prune), dive_first_(dive_first) {}
  std::string name() const override { return "mb2fbs"; }

  SearchResult run(const Space& space, const Candidate& root, const Objective& objective,
                   const Brancher& brancher, const Budget& budget) override {
    Run run(space, objective, brancher, budget);
    if (space.is_complete(root)) {
      run.offer(root);
      return run.finish(false);
    }
    if (dive_first_) dive(run, root, DivePolicy::Greedy, run.rng);
    const int64_t memory = budget.max_kept > 0 ? budget.max_kept : -1;
    // β1 + β2 (-1: unbounded, when β2 = ∞).
    const int64_t window = beta2_ < 0 ? -1 : beta1_ + beta2_;
    uint64_t sequence = 0;
    std::vector<int64_t> pops;  // expansions per depth
    std::vector<Open> queue, next;
    queue.push_back({root, objective.estimate(space, root), std::nan(""), 0, sequence++});
    std::vector<const Candidate*> batch;
    std::vector<double> keys;

    auto pruned = [&](Open& o) {
      if (!prune_ || run.best_cost() == kInf) return false;
      if (std::isnan(o.bound)) o.bound = objective.lower_bound(space, o.candidate);
      return !run.survives_bound(o.bound);
    };

    while (!queue.empty() && !run.stop()) {
      next.clear();
      std::vector<Open> carried;
      int64_t i = 0;
      for (Open& s : queue) {
        if (window >= 0 && i >= window) break;
        ++i;
        if (pruned(s)) continue;
        if (i > beta1_) {
          carried.push_back(std::move(s));
          continue;
        }
        if (static_cast<size_t>(s.depth) >= pops.size()) pops.resize(s.depth + 1, 0);
        if (beta_ >= 0 && pops[s.depth] >= beta_) continue;
        if (run.stop()) break;
        ++pops[s.depth];
        for (Candidate& kid : run.expand(s.candidate)) {
          if (space.is_complete(kid)) {
            run.offer(kid);
            continue;
          }
          Open o{std::move(kid), 0, std::nan(""), s.depth + 1, sequence++};
          if (pruned(o)) continue;
          next.push_back(std::move(o));
        }
      }
      if (run.budget_hit()) break;
      // One batched estimate for every child of the iteration.
      batch.clear();
      for (const Open& o : next) batch.push_back(&o.candidate);
      objective.estimate_batch(space, batch, keys);
      for (size_t k = 0; k < next.size(); ++k) next[k].estimate = keys[k];
      for (Open& c : carried) next.push_back(std::move(c));
      std::sort(next.begin(), next.end(), better);
      if (memory > 0 && static_cast<int64_t>(next.size()) > memory) next.resize(memory);
      std::swap(queue, next);
    }
    return run.finish(false);
  }

 private:
  int64_t beta1_, beta2_, beta_;
  bool prune_;
  bool dive_first_;
};

}  // namespace

EngineEntry mb2fbs_entry() {
  return {"mb2fbs",
          "memory-bounded best-first beam search (beta1 expanded, beta2 carried onward per "
          "iteration, at most beta expansions per depth; open list bounded by Budget::max_kept)",
          {{"beta1", "28", "candidates expanded per iteration (push forward)"},
           {"beta2", "4", "next-best candidates carried over unexpanded (push onward; inf allowed)"},
           {"beta", "inf", "expansions allowed per depth (inf: uncontrolled variant)"},
           {"prune", "1", "1: discard candidates whose lower bound >= the incumbent"},
           {"dive", "1", "1: start with one greedy dive for an incumbent"}},
          [](const Options& o) -> std::unique_ptr<Search> {
            int64_t beta1 = o.integer("beta1"), beta2 = o.integer("beta2"), beta = o.integer("beta");
            if (beta1 < 1) throw std::invalid_argument("search 'mb2fbs': beta1 must be >= 1");
            if (beta2 < -1 || (beta2 == -1 && o.number("beta2") != kInf)) {
              throw std::invalid_argument("search 'mb2fbs': beta2 must be >= 0 (or inf)");
            }
            if (beta == 0 || (beta == -1 && o.number("beta") != kInf) || beta < -1) {
              throw std::invalid_argument("search 'mb2fbs': beta must be >= 1 (or inf)");
            }
            return std::make_unique<Mb2fbs>(beta1, beta2, beta, o.flag("prune"), o.flag("dive"));
          }};
}

}  // namespace candor::search_detail
