// Beam search with coarse-to-fine passes, after Adams et al. 2019 (§3.2), transposed to
// candidate trees.
//
// A pass is a level-synchronous beam of at most `width` candidates: every candidate of the
// beam is expanded, implementations among the children are costed, identical children are
// merged (hash of the words, then a word comparison), and the `width` best by estimate form
// the next beam. Passes differ in what they let in:
//   - Pass 0 (only when passes > 1) is one greedy dive: an incumbent, and the depth D of the
//     tree, from which the coarse depths L_p = ceil(p * D / passes) are derived.
//   - Diversity: in pass p, a child whose ancestor at depth L_p is shared with a better-ranked
//     child of the same level is a duplicate; duplicates rank after every non-duplicate (the
//     beam keeps many coarse alternatives, Adams' penalisation).
//   - Restriction: pass p > 1 only admits candidates at depth <= L_{p-1} that contain one of
//     the permitted implementations: the `keep` best implementations found so far. Containing
//     an implementation (every domain includes its value) means being its ancestor, so the
//     pass explores only the coarse valleys where the earlier passes found good answers, and
//     refines them.
//   - With prune=1, once an incumbent exists children whose lower bound is not below it are
//     discarded (counted as pruned_by_bound).
// Memory: at most `width` candidates between levels (width is clamped to Budget::max_kept),
// plus the children of one level.
#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "run.h"

namespace candor::search_detail {

namespace {

struct Node {
  Candidate candidate;
  uint64_t hash = 0;
  uint64_t coarse = 0;  // hash of the ancestor at the pass's coarse depth
  int depth = 0;
};

// The values of a complete candidate, for containment tests.
struct Implementation {
  Candidate candidate;
  double cost = 0;
  std::vector<int> values;
};

bool contains(const Space& space, const Candidate& c, const Implementation& impl) {
  for (int v = 0; v < space.num_vars(); ++v) {
    if (!space.contains(c, v, impl.values[v])) return false;
  }
  return true;
}

class Beam : public Search {
 public:
  Beam(int64_t width, int64_t passes, int64_t keep, bool prune)
      : width_(width), passes_(passes), keep_(keep), prune_(prune) {}
  std::string name() const override { return "beam"; }

  SearchResult run(const Space& space, const Candidate& root, const Objective& objective,
                   const Brancher& brancher, const Budget& budget) override {
    Run run(space, objective, brancher, budget);
    if (space.is_complete(root)) {
      run.offer(root);
      return run.finish(false);
    }
    const size_t width = static_cast<size_t>(
        budget.max_kept > 0 ? std::min<int64_t>(width_, budget.max_kept) : width_);

    int depth_estimate = 1;
    if (passes_ > 1) {
      int steps = 0;
      if (dive(run, root, DivePolicy::Greedy, run.rng, nullptr, &steps) < kInf) {
        depth_estimate = std::max(1, steps);
      }
    }

    // The best implementations found so far (at most keep_), best first.
    std::vector<Implementation> top;
    auto remember = [&](const Candidate& c, double cost) {
      if (cost == kInf) return;
      if (!top.empty() && static_cast<int64_t>(top.size()) >= keep_ && !(cost < top.back().cost)) return;
      for (const Implementation& t : top) {
        if (t.candidate == c) return;
      }
      Implementation impl{c, cost, {}};
      impl.values.resize(space.num_vars());
      for (int v = 0; v < space.num_vars(); ++v) impl.values[v] = space.first_value(c, v);
      auto at = std::upper_bound(top.begin(), top.end(), cost,
                                 [](double x, const Implementation& t) { return x < t.cost; });
      top.insert(at, std::move(impl));
      if (static_cast<int64_t>(top.size()) > keep_) top.pop_back();
    };
    if (run.best()) remember(*run.best(), run.best_cost());

    int restrict_depth = -1;  // candidates at depth <= this must contain a permitted one
    std::vector<Implementation> permitted;
    std::vector<Node> beam, pool;
    std::vector<const Candidate*> batch;
    std::vector<double> keys;
    std::unordered_map<uint64_t, std::vector<size_t>> seen;

    for (int64_t pass = 1; pass <= passes_ && !run.stop(); ++pass) {
      const int coarse_depth =
          pass < passes_ ? static_cast<int>(std::ceil(double(pass) * depth_estimate / passes_))
                         : std::numeric_limits<int>::max();
      beam.clear();
      beam.push_back({root, hash_words(root), hash_words(root), 0});
      while (!beam.empty() && !run.stop()) {
        pool.clear();
        seen.clear();
        for (const Node& node : beam) {
          if (run.stop()) break;
          for (Candidate& kid : run.expand(node.candidate)) {
            if (space.is_complete(kid)) {
              remember(kid, run.offer(kid));
              continue;
            }
            Node child;
            child.depth = node.depth + 1;
            if (child.depth <= restrict_depth) {
              bool ok = false;
              for (const Implementation& p : permitted) ok = ok || contains(space, kid, p);
              if (!ok) continue;
            }
            child.hash = hash_words(kid);
            auto& same = seen[child.hash];
            bool duplicate = false;
            for (size_t i : same) duplicate = duplicate || pool[i].candidate == kid;
            if (duplicate) continue;
            same.push_back(pool.size());
            child.coarse = child.depth <= coarse_depth ? child.hash : node.coarse;
            child.candidate = std::move(kid);
            pool.push_back(std::move(child));
          }
        }
        if (run.budget_hit()) break;
        // Prune by the bound once an incumbent exists.
        if (prune_ && run.best_cost() < kInf) {
          size_t kept = 0;
          for (size_t i = 0; i < pool.size(); ++i) {
            if (run.survives_bound(objective.lower_bound(space, pool[i].candidate))) {
              if (kept != i) pool[kept] = std::move(pool[i]);
              ++kept;
            }
          }
          pool.resize(kept);
        }
        batch.clear();
        for (const Node& n : pool) batch.push_back(&n.candidate);
        objective.estimate_batch(space, batch, keys);
        // Rank: non-duplicates (first of their coarse ancestor) by estimate, then duplicates.
        std::vector<size_t> order = sorted_indices(keys);
        std::vector<size_t> firsts, dups;
        std::unordered_map<uint64_t, char> coarse_seen;
        for (size_t i : order) {
          if (coarse_seen.emplace(pool[i].coarse, 1).second) {
            firsts.push_back(i);
          } else {
            dups.push_back(i);
          }
        }
        beam.clear();
        for (const std::vector<size_t>* list : {&firsts, &dups}) {
          for (size_t i : *list) {
            if (beam.size() == width) break;
            beam.push_back(std::move(pool[i]));
          }
        }
      }
      // The next pass refines the valleys of the best implementations found so far.
      permitted = top;
      restrict_depth = pass < passes_ ? coarse_depth : -1;
      if (permitted.empty()) restrict_depth = -1;
    }
    return run.finish(false);
  }

 private:
  int64_t width_, passes_, keep_;
  bool prune_;
};

}  // namespace

EngineEntry beam_entry() {
  return {"beam",
          "beam search with coarse-to-fine passes (Adams 2019); dedupes identical candidates",
          {{"width", "32", "candidates kept per level (clamped to Budget::max_kept)"},
           {"passes", "3", "coarse-to-fine passes (1: plain beam search)"},
           {"keep", "4", "best implementations whose valleys the next pass refines"},
           {"prune", "1", "1: discard children whose lower bound >= the incumbent"}},
          [](const Options& o) -> std::unique_ptr<Search> {
            int64_t width = o.integer("width"), passes = o.integer("passes"), keep = o.integer("keep");
            if (width < 1 || passes < 1 || keep < 1) {
              throw std::invalid_argument("search 'beam': width, passes and keep must be >= 1");
            }
            return std::make_unique<Beam>(width, passes, keep, o.flag("prune"));
          }};
}

}  // namespace candor::search_detail
