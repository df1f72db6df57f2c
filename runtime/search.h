// Search engines behind one interface. A search explores the candidates below a root by
// applying decisions from a Brancher, ranks them with an Objective's estimate, prunes with
// its lower bound, and reports the same statistics as every other engine.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "candidate.h"
#include "space.h"
#include "support/memory.h"

namespace candor {

// Limits of one search run; a search stops at the first limit reached. Deterministic for a
// given seed when no wall-time limit is hit.
struct Budget {
  double seconds = std::numeric_limits<double>::infinity();
  int64_t max_expanded = -1;  // nodes expanded; -1: unlimited
  int64_t max_kept = -1;      // candidates alive at once (memory); -1: engine's default
  // The process's resident memory at which the search stops with the best found so far;
  // -1: unlimited. Default: half of what the machine (or its limits) gives the process.
  int64_t max_memory_bytes = support::default_memory_budget();
  uint64_t seed = 0;
  // How many of the best implementations SearchResult::top keeps (autotuning benchmarks
  // several of them); they are pairwise different, see alike().
  int keep_top = 1;
  // Integer choices two implementations with the same enum values must differ in to count
  // as different (default 3: one loop's tile and subtile changing is a near-duplicate).
  int top_min_int_changes = 3;
  // Past its first `top_per_shape` members (0: no cap), a shape's members only fill room the
  // other shapes leave in top, and give way first. A shape is a key the caller computes from an
  // implementation (the Halide scheduler: where each Func is computed and stored).
  // Near-duplicates that differ in a tile size or an unroll flag otherwise fill top with one
  // structure, and the cost model errs most between structures: the 64 best of max_filter's
  // 30 s search all placed its Funcs alike, and one placed otherwise, priced 1% dearer, ran
  // 1.25x faster.
  int top_per_shape = 0;
  std::function<uint64_t(const Candidate&)> top_shape;
  // Called about twice a second while the search runs (a progress line), when set.
  std::function<void(const struct SearchStats& stats, double best_cost)> progress;

  // The share of the time or node limit a search has spent, whichever is larger; -1 when
  // neither is limited.
  double share_spent(const struct SearchStats& stats) const;
};

struct SearchStats {
  int64_t created = 0;          // candidates created by a decision (failed ones included)
  int64_t expanded = 0;         // candidates whose children were generated
  int64_t failed = 0;           // children that failed propagation
  int64_t pruned_by_bound = 0;  // children discarded because lower bound >= best cost
  int64_t complete = 0;         // complete candidates (implementations) reached
  bool memory_limit_hit = false;  // stopped at Budget::max_memory_bytes
  double seconds = 0;
  // (seconds since start, best cost) each time the best cost improved.
  std::vector<std::pair<double, double>> best_over_time;

  // Adds another run's counts and seconds (a search made of several runs).
  void add_counts(const SearchStats& other) {
    created += other.created;
    expanded += other.expanded;
    failed += other.failed;
    pruned_by_bound += other.pruned_by_bound;
    complete += other.complete;
    memory_limit_hit = memory_limit_hit || other.memory_limit_hit;
    seconds += other.seconds;
  }
};

inline double Budget::share_spent(const SearchStats& stats) const {
  double share = -1;
  if (seconds < std::numeric_limits<double>::infinity() && seconds > 0) share = stats.seconds / seconds;
  if (max_expanded > 0) share = std::max(share, double(stats.expanded) / double(max_expanded));
  return share;
}

struct SearchResult {
  std::optional<Candidate> best;
  double best_cost = std::numeric_limits<double>::infinity();
  bool optimal = false;  // true only when the search proved no better implementation exists
  SearchStats stats;
  // The best pairwise different implementations met, cheapest first (at most
  // Budget::keep_top; the first is the best); see alike().
  std::vector<std::pair<double, Candidate>> top;
};

// The rule that keeps SearchResult::top diverse. Two complete candidates are alike
// (near-duplicates) when they take the same value on every enum and categorical integer
// choice and differ in fewer than `min_int_changes` other integer choices. On the Halide CPU
// space, different means: another location, host or storage of a Func, another parallel /
// vectorize / unroll of a stage, or other tile sizes on at least `min_int_changes` tile and
// subtile choices. Among alike implementations met, top keeps only the cheapest.
bool alike(const Space& space, const Candidate& a, const Candidate& b, int min_int_changes);

// What a search optimises: the cost of implementations (exact or predicted), an admissible
// lower bound for partial candidates, and a ranking estimate (lower is better).
class Objective {
 public:
  virtual ~Objective() = default;
  // The cost of a complete candidate.
  virtual double cost(const Space& space, const Candidate& c) const = 0;
  // A bound no completion of c can beat. Default: no information.
  virtual double lower_bound(const Space& space, const Candidate& c) const;
  // Ranking of a partial candidate, lower is better. Default: the lower bound.
  virtual double estimate(const Space& space, const Candidate& c) const;
  // Batched ranking; the default calls estimate() on each.
  virtual void estimate_batch(const Space& space, const std::vector<const Candidate*>& batch,
                              std::vector<double>& out) const;
};

// Splits a candidate into children whose implementations partition its own.
class Brancher {
 public:
  virtual ~Brancher() = default;
  // The decisions to try, in preferred order; empty when c is complete.
  virtual std::vector<Decision> branch(const Space& space, const Candidate& c) const = 0;
  // The variables in the order this brancher decides them, where it is static (a local
  // search re-applies kept decisions in it); by default the space's stable order.
  virtual std::vector<int> var_order(const Space& space) const;
};

// The default: the first open variable in the space's stable order, one child per value.
class FirstOpenVarBrancher : public Brancher {
 public:
  std::vector<Decision> branch(const Space& space, const Candidate& c) const override;
};

// The first open variable of a given order (then any other open variable in the space's
// stable order), one child per value: lets a space say which decisions come first.
class VarOrderBrancher : public Brancher {
 public:
  explicit VarOrderBrancher(std::vector<int> order) : order_(std::move(order)) {}
  std::vector<Decision> branch(const Space& space, const Candidate& c) const override;
  std::vector<int> var_order(const Space& space) const override;

 private:
  std::vector<int> order_;
};

class Search {
 public:
  virtual ~Search() = default;
  virtual std::string name() const = 0;
  virtual SearchResult run(const Space& space, const Candidate& root, const Objective& objective,
                           const Brancher& brancher, const Budget& budget) = 0;
};

}  // namespace candor
