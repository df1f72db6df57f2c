// Shared machinery of the search engines (internal to candor_search): the budget clock, the
// statistics, the incumbent, child generation, hashing of candidates, a seeded generator and
// the option parser used by the factory.
#pragma once

#include <chrono>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "engines.h"
#include "search.h"

namespace candor::search_detail {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Deterministic across platforms: mt19937_64 is fully specified by the standard; the
// reductions below avoid the implementation-defined std distributions.
class Rng {
 public:
  explicit Rng(uint64_t seed) : gen_(seed) {}
  uint64_t next() { return gen_(); }
  // Uniform in [0, n), n > 0.
  size_t below(size_t n) { return static_cast<size_t>(gen_() % n); }
  // Uniform in [0, 1).
  double unit() { return static_cast<double>(gen_() >> 11) * 0x1.0p-53; }
  template <class T>
  void shuffle(std::vector<T>& v) {
    for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[below(i)]);
  }

 private:
  std::mt19937_64 gen_;
};

// A 64-bit hash of a candidate's words (used to detect identical candidates).
uint64_t hash_words(const Candidate& c);

// The state of one search run.
class Run {
 public:
  Run(const Space& space, const Objective& objective, const Brancher& brancher,
      const Budget& budget);

  const Space& space;
  const Objective& objective;
  const Brancher& brancher;
  const Budget& budget;
  SearchStats stats;
  Rng rng;

  // True once a budget limit (time, nodes expanded or memory) has been reached; sticky.
  // Engines call it before every expansion (a steady_clock read, negligible next to an
  // expansion; the resident memory is read every few milliseconds, and sooner when the
  // candidates created since the last read could have outgrown the margin).
  bool stop();
  bool budget_hit() const { return budget_hit_; }
  double elapsed() const;
  // Seconds left in the time budget (infinity when unlimited).
  double seconds_left() const;
  bool time_limited() const { return budget.seconds < kInf; }

  // The decisions below c (counts one expansion).
  std::vector<Decision> decisions(const Candidate& c);
  // Applies one decision to a copy of c; counts created (and failed). False on failure.
  bool child(const Candidate& c, const Decision& d, Candidate& out);
  // Expands c: every surviving child, in the brancher's order.
  std::vector<Candidate> expand(const Candidate& c);

  // A complete candidate reached: costs it, counts it, and keeps it when it improves the
  // incumbent (after a full satisfies_all check). Returns its cost (infinity when rejected).
  double offer(const Candidate& complete);
  double best_cost() const { return best_cost_; }
  const std::optional<Candidate>& best() const { return best_; }
  // Members of the top-K so far (pairwise different, see alike()); 0 while keep_top is 1.
  size_t top_size() const { return top_.size(); }
  // Whether a candidate with this lower bound may still hold something better than the
  // incumbent; counts a pruned candidate when not.
  bool survives_bound(double lower_bound) {
    if (lower_bound < best_cost_) return true;
    ++stats.pruned_by_bound;
    return false;
  }

  // The result; `proved` says the engine exhausted its tree (optimal only then, and only when
  // no budget limit stopped it and an implementation was found).
  SearchResult finish(bool proved);

 private:
  std::chrono::steady_clock::time_point start_;
  bool budget_hit_ = false;
  bool memory_exhausted();
  double next_memory_check_ = 0;
  int64_t bytes_since_memory_check_ = 0;  // candidate bytes created since the last read
  // Whether a complete candidate of this cost could enter the top (before its full check).
  bool may_join_top(double cost, const Candidate& complete, size_t keep) const;
  void remember_top(double cost, const Candidate& complete, size_t keep);

  double best_cost_ = kInf;
  std::optional<Candidate> best_;
  std::vector<std::pair<double, Candidate>> top_;
  std::vector<uint64_t> top_shapes_;  // Budget::top_shape of each member of top_ (when capped)
  double next_progress_ = 0;
};

// Dives from `start` to an implementation, backtracking when a child fails (or is
// rejected). Random: a uniformly random decision at each step. Greedy: the child with the
// best rank, where partial children are ranked by Objective::estimate_batch and complete ones
// by their cost (every complete child met is offered). The implementation reached is offered
// to the run; returns its cost, or infinity when the subtree holds none or the budget
// stopped the dive. `steps` (optional) receives the depth of the implementation below start.
enum class DivePolicy { Random, Greedy };
double dive(Run& run, const Candidate& start, DivePolicy policy, Rng& rng,
            Candidate* reached = nullptr, int* steps = nullptr);

// Indices 0..n-1 sorted by key (stable, so ties keep the brancher's order).
std::vector<size_t> sorted_indices(const std::vector<double>& keys);

// Options of one engine, parsed from "key=value,key=value". Every key must be declared by
// the engine (with its default and help); values are numbers ("inf" allowed) or words,
// checked when the engine reads them (at construction, so make_search reports them).
class Options {
 public:
  Options(std::string engine, std::vector<SearchOptionInfo> declared);
  void parse(const std::string& text);  // throws std::invalid_argument
  bool given(const std::string& key) const;
  double number(const std::string& key) const;
  int64_t integer(const std::string& key) const;  // rejects non-integers
  bool flag(const std::string& key) const;        // 0 or 1
  // A value from a fixed list of words.
  std::string word(const std::string& key, const std::vector<std::string>& allowed) const;

 private:
  std::string engine_;
  std::vector<SearchOptionInfo> declared_;
  std::map<std::string, std::string> given_;
  const std::string& raw(const std::string& key) const;
};

// One engine as the factory knows it.
struct EngineEntry {
  std::string name;
  std::string summary;
  std::vector<SearchOptionInfo> options;
  std::unique_ptr<Search> (*make)(const Options& options);
};

EngineEntry dfbb_entry();
EngineEntry bfbb_entry();
EngineEntry greedy_entry();
EngineEntry beam_entry();
EngineEntry mb2fbs_entry();
EngineEntry mcts_entry();
EngineEntry random_entry();
EngineEntry exhaustive_entry();

}  // namespace candor::search_detail
