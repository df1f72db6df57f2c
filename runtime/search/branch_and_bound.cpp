// Complete tree searches: depth-first branch-and-bound, best-first branch-and-bound and the
// plain exhaustive enumeration (no bound).
//
// Pruning is sound only because Objective::lower_bound is admissible: a child whose bound
// is not below the incumbent's cost holds nothing better, so discarding it keeps the proof of
// optimality. `optimal` is reported only when the whole tree was exhausted (nothing dropped
// for memory, no budget limit hit).
#include <algorithm>
#include <map>
#include <tuple>

#include "run.h"

namespace candor::search_detail {

namespace {

enum class ChildOrder { Brancher, Bound, Estimate };

// Depth-first search with an explicit stack of child lists. With `use_bound`, children are
// pruned when created and again when their turn comes (the incumbent may have improved).
class DepthFirst : public Search {
 public:
  DepthFirst(std::string name, bool use_bound, ChildOrder order)
      : name_(std::move(name)), use_bound_(use_bound), order_(order) {}
  std::string name() const override { return name_; }

  SearchResult run(const Space& space, const Candidate& root, const Objective& objective,
                   const Brancher& brancher, const Budget& budget) override {
    Run run(space, objective, brancher, budget);
    if (space.is_complete(root)) {
      run.offer(root);
      return run.finish(true);
    }
    struct Entry {
      Candidate candidate;
      double bound;
    };
    struct Frame {
      std::vector<Entry> kids;
      size_t next = 0;
    };
    std::vector<Frame> stack;
    std::vector<const Candidate*> batch;
    std::vector<double> keys;

    auto push_children = [&](const Candidate& c) {
      Frame frame;
      for (Candidate& kid : run.expand(c)) {
        if (space.is_complete(kid)) {
          run.offer(kid);
          continue;
        }
        double bound = -kInf;
        if (use_bound_ || order_ == ChildOrder::Bound) bound = objective.lower_bound(space, kid);
        if (use_bound_ && !run.survives_bound(bound)) continue;
        frame.kids.push_back({std::move(kid), bound});
      }
      if (order_ == ChildOrder::Estimate && frame.kids.size() > 1) {
        batch.clear();
        for (const Entry& e : frame.kids) batch.push_back(&e.candidate);
        objective.estimate_batch(space, batch, keys);
      } else if (order_ == ChildOrder::Bound) {
        keys.clear();
        for (const Entry& e : frame.kids) keys.push_back(e.bound);
      }
      if (order_ != ChildOrder::Brancher && frame.kids.size() > 1) {
        std::vector<size_t> idx(frame.kids.size());
        for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
        std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return keys[a] < keys[b]; });
        std::vector<Entry> sorted;
        sorted.reserve(idx.size());
        for (size_t i : idx) sorted.push_back(std::move(frame.kids[i]));
        frame.kids = std::move(sorted);
      }
      if (!frame.kids.empty()) stack.push_back(std::move(frame));
    };

    if (!run.stop()) push_children(root);
    while (!stack.empty()) {
      Frame& frame = stack.back();
      if (frame.next == frame.kids.size()) {
        stack.pop_back();
        continue;
      }
      Entry& entry = frame.kids[frame.next];
      if (use_bound_ && !run.survives_bound(entry.bound)) {
        ++frame.next;
        continue;
      }
      if (run.stop()) break;
      ++frame.next;
      Candidate c = std::move(entry.candidate);  // `frame` may move when the stack grows
      push_children(c);
    }
    return run.finish(stack.empty());
  }

 private:
  std::string name_;
  bool use_bound_;
  ChildOrder order_;
};

// Best-first on the lower bound (deeper first among equal bounds, then creation order), after
// one greedy dive for an incumbent (dive=1). The first popped candidate whose bound is not
// below the incumbent proves the incumbent optimal: every open candidate has a bound at least
// as large. The open list is bounded (Budget::max_kept, else max_open): dropping the worst
// candidates keeps the search going but forfeits the proof.
class BestFirst : public Search {
 public:
  BestFirst(int64_t default_max_open, bool dive_first)
      : default_max_open_(default_max_open), dive_first_(dive_first) {}
  std::string name() const override { return "bfbb"; }

  SearchResult run(const Space& space, const Candidate& root, const Objective& objective,
                   const Brancher& brancher, const Budget& budget) override {
    Run run(space, objective, brancher, budget);
    if (space.is_complete(root)) {
      run.offer(root);
      return run.finish(true);
    }
    // Best-first alone may expand many candidates before reaching any implementation; one
    // greedy dive first gives an incumbent to prune with (and an answer under any budget).
    if (dive_first_) dive(run, root, DivePolicy::Greedy, run.rng);
    const int64_t max_open = budget.max_kept > 0 ? budget.max_kept : default_max_open_;
    using Key = std::tuple<double, int, uint64_t>;  // bound, -depth, sequence
    std::map<Key, Candidate> open;
    uint64_t sequence = 0;
    bool dropped = false;
    open.emplace(Key{objective.lower_bound(space, root), 0, sequence++}, root);

    while (!open.empty()) {
      auto it = open.begin();
      if (!(std::get<0>(it->first) < run.best_cost())) {
        run.stats.pruned_by_bound += static_cast<int64_t>(open.size());
        open.clear();
        break;
      }
      if (run.stop()) break;
      int depth = -std::get<1>(it->first);
      Candidate c = std::move(it->second);
      open.erase(it);
      for (Candidate& kid : run.expand(c)) {
        if (space.is_complete(kid)) {
          run.offer(kid);
          continue;
        }
        double bound = objective.lower_bound(space, kid);
        if (!run.survives_bound(bound)) continue;
        open.emplace(Key{bound, -(depth + 1), sequence++}, std::move(kid));
      }
      while (max_open > 0 && static_cast<int64_t>(open.size()) > max_open) {
        open.erase(std::prev(open.end()));
        dropped = true;
      }
    }
    return run.finish(open.empty() && !dropped);
  }

 private:
  int64_t default_max_open_;
  bool dive_first_;
};

ChildOrder parse_order(const Options& options) {
  std::string order = options.word("order", {"brancher", "bound", "estimate"});
  if (order == "bound") return ChildOrder::Bound;
  if (order == "estimate") return ChildOrder::Estimate;
  return ChildOrder::Brancher;
}

}  // namespace

EngineEntry dfbb_entry() {
  return {"dfbb",
          "depth-first branch-and-bound; prunes children whose lower bound >= best cost; "
          "optimal=true when the tree is exhausted",
          {{"order", "brancher", "child order: brancher (its preferred order), bound, estimate"}},
          [](const Options& o) -> std::unique_ptr<Search> {
            return std::make_unique<DepthFirst>("dfbb", true, parse_order(o));
          }};
}

EngineEntry bfbb_entry() {
  return {"bfbb",
          "best-first branch-and-bound on the lower bound; proves optimality when the best "
          "open bound reaches the incumbent",
          {{"max_open", "1000000",
            "open candidates kept when Budget::max_kept is unset (dropping any loses the proof)"},
           {"dive", "1", "1: start with one greedy dive for an incumbent"}},
          [](const Options& o) -> std::unique_ptr<Search> {
            int64_t max_open = o.integer("max_open");
            if (max_open < 1) throw std::invalid_argument("search 'bfbb': max_open must be >= 1");
            return std::make_unique<BestFirst>(max_open, o.flag("dive"));
          }};
}

EngineEntry exhaustive_entry() {
  return {"exhaustive",
          "depth-first enumeration of every implementation, no bound (tests, measurements)",
          {},
          [](const Options&) -> std::unique_ptr<Search> {
            return std::make_unique<DepthFirst>("exhaustive", false, ChildOrder::Brancher);
          }};
}

}  // namespace candor::search_detail
