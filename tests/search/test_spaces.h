// Hand-written spaces for testing the search engines without dslc: they derive from
// candor::Space and implement post / on_change / check_clauses and the naming hooks by
// hand, which also shows that the Space base works without generated code.
//
//   OrderSpace       basic-block scheduling: one order variable per pair of instructions
//                    (value 0: the lower-numbered instruction first), dependencies posted at
//                    the root, transitivity propagated incrementally.
//   TilingSpace      unconstrained enum "layout" choices and integer "tile" choices (powers
//                    of two) with a random cost per (choice, value): exercises Budget's
//                    rule of near-duplicate implementations (search.h, alike()).
//   AssignmentSpace  n tasks to m >= n slots, all different (forward checking), with a cost
//                    per (task, slot); m > 64 exercises multi-word domains.
//   BlockProblem     an OrderSpace with its objective and branchers (random_block() makes
//                    the block).
#pragma once

#include <algorithm>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "basic_block.h"
#include "basic_block_search.h"
#include "propagation.h"
#include "search.h"
#include "space.h"

namespace candor::testing {

class OrderSpace : public Space {
 public:
  explicit OrderSpace(models::BasicBlock block) : block_(std::move(block)) {
    const int n = block_.size();
    var_.assign(static_cast<size_t>(n) * n, -1);
    for (int a = 0; a < n; ++a) {
      for (int b = a + 1; b < n; ++b) {
        VarLayout layout;
        layout.decl = 0;
        layout.args = {a, b};
        layout.universe_size = 2;
        int v = add_var(layout);
        var_[a * n + b] = var_[b * n + a] = v;
        pairs_.push_back({a, b});
      }
    }
    finish_layout();
  }

  const models::BasicBlock& block() const { return block_; }
  int n() const { return block_.size(); }
  // The variable of the pair {a, b} and the value meaning "a before b".
  int pair_var(int a, int b) const { return var_[a * n() + b]; }
  int before_value(int a, int b) const { return a < b ? 0 : 1; }
  models::OrderEncoding encoding() const {
    return models::OrderEncoding(n(), [this](int a, int b) {
      return std::make_pair(pair_var(a, b), before_value(a, b));
    });
  }

 protected:
  std::string decl_name(int) const override { return "order"; }
  std::string counter_decl_name(int) const override { return "none"; }
  std::string object_name(int, int, int object) const override { return block_.names[object]; }
  std::string enum_value_name(int, int value) const override {
    return value == 0 ? "BEFORE" : "AFTER";
  }
  std::string counter_object_name(int, int, int) const override { return "?"; }

  void post(PropagationContext& ctx) const override {
    for (int b = 0; b < n(); ++b) {
      for (int a : block_.deps[b]) {
        if (!ctx.keep_only(pair_var(a, b), before_value(a, b))) return;
      }
    }
  }

  // Known "x before y" (the variable of the pair is fixed that way).
  bool known_before(const PropagationContext& ctx, int x, int y) const {
    Word dom = ctx.domain(pair_var(x, y))[0];
    return dom == (Word{1} << before_value(x, y));
  }

  void on_change(PropagationContext& ctx, int var) const override {
    Word dom = ctx.domain(var)[0];
    if (dom != 1 && dom != 2) return;
    auto [a, b] = pairs_[var];
    int x = dom == 1 ? a : b, y = dom == 1 ? b : a;  // x before y
    for (int c = 0; c < n(); ++c) {
      if (c == x || c == y) continue;
      if (known_before(ctx, c, x) && !ctx.keep_only(pair_var(c, y), before_value(c, y))) return;
      if (known_before(ctx, y, c) && !ctx.keep_only(pair_var(x, c), before_value(x, c))) return;
    }
  }

  bool check_clauses(const Candidate& c) const override {
    auto before = [&](int x, int y) { return first_value(c, pair_var(x, y)) == before_value(x, y); };
    for (int b = 0; b < n(); ++b) {
      for (int a : block_.deps[b]) {
        if (!before(a, b)) return false;
      }
    }
    for (int x = 0; x < n(); ++x) {
      for (int y = 0; y < n(); ++y) {
        for (int z = 0; z < n(); ++z) {
          if (x != y && y != z && x != z && before(x, y) && before(y, z) && !before(x, z)) {
            return false;
          }
        }
      }
    }
    return true;
  }

 private:
  models::BasicBlock block_;
  std::vector<int> var_;
  std::vector<std::pair<int, int>> pairs_;
};

class AssignmentSpace : public Space {
 public:
  // cost[i][s]: the cost of task i in slot s.
  explicit AssignmentSpace(std::vector<std::vector<int>> cost) : cost_(std::move(cost)) {
    for (size_t i = 0; i < cost_.size(); ++i) {
      VarLayout layout;
      layout.decl = 0;
      layout.args = {static_cast<int>(i)};
      layout.universe_size = static_cast<int>(cost_[i].size());
      add_var(layout);
    }
    finish_layout();
  }
  static AssignmentSpace random(int tasks, int slots, uint64_t seed) {
    std::mt19937_64 gen(seed);
    std::vector<std::vector<int>> cost(tasks, std::vector<int>(slots));
    for (auto& row : cost) {
      for (int& x : row) x = 1 + static_cast<int>(gen() % 20);
    }
    return AssignmentSpace(std::move(cost));
  }
  int tasks() const { return static_cast<int>(cost_.size()); }
  int slots() const { return cost_.empty() ? 0 : static_cast<int>(cost_[0].size()); }
  int cost_of(int task, int slot) const { return cost_[task][slot]; }

  // The optimum by enumerating every injective assignment.
  int brute_force() const {
    std::vector<char> used(slots(), 0);
    int best = std::numeric_limits<int>::max();
    std::vector<int> stack;
    auto rec = [&](auto&& self, int task, int sum) -> void {
      if (task == tasks()) {
        best = std::min(best, sum);
        return;
      }
      for (int s = 0; s < slots(); ++s) {
        if (used[s]) continue;
        used[s] = 1;
        self(self, task + 1, sum + cost_[task][s]);
        used[s] = 0;
      }
    };
    rec(rec, 0, 0);
    return best;
  }

 protected:
  std::string decl_name(int) const override { return "slot"; }
  std::string counter_decl_name(int) const override { return "none"; }
  std::string object_name(int, int, int object) const override { return "t" + std::to_string(object); }
  std::string enum_value_name(int, int value) const override { return "s" + std::to_string(value); }
  std::string counter_object_name(int, int, int) const override { return "?"; }

  void post(PropagationContext& ctx) const override {
    for (int v = 0; v < num_vars(); ++v) ctx.touch(v);
  }
  void on_change(PropagationContext& ctx, int var) const override {
    if (domain_size(ctx.candidate(), var) != 1) return;
    int value = first_value(ctx.candidate(), var);
    for (int other = 0; other < num_vars(); ++other) {
      if (other != var && !ctx.remove_value(other, value)) return;
    }
  }
  bool check_clauses(const Candidate& c) const override {
    std::vector<char> used(slots(), 0);
    for (int v = 0; v < num_vars(); ++v) {
      int s = first_value(c, v);
      if (used[s]) return false;
      used[s] = 1;
    }
    return true;
  }

 private:
  std::vector<std::vector<int>> cost_;
};

class TilingSpace : public Space {
 public:
  // With `categorical`, the integer choices label alternatives (see Space::has_ordered_values).
  TilingSpace(int enums, int ints, uint64_t seed, bool categorical = false) {
    std::mt19937_64 gen(seed);
    for (int i = 0; i < enums + ints; ++i) {
      VarLayout layout;
      layout.decl = i < enums ? 0 : 1;
      layout.args = {i};
      layout.is_enum = i < enums;
      layout.universe_size = layout.is_enum ? 3 : 4;
      if (!layout.is_enum) layout.ints = {1, 2, 4, 8};
      layout.categorical = !layout.is_enum && categorical;
      add_var(layout);
      cost_.emplace_back();
      for (int v = 0; v < layout.universe_size; ++v) cost_.back().push_back(1 + static_cast<int>(gen() % 9));
    }
    finish_layout();
  }
  int cost_of(int var, int value) const { return cost_[var][value]; }

 protected:
  std::string decl_name(int decl) const override { return decl == 0 ? "layout" : "tile"; }
  std::string counter_decl_name(int) const override { return "none"; }
  std::string object_name(int, int, int object) const override { return "x" + std::to_string(object); }
  std::string enum_value_name(int, int value) const override { return "v" + std::to_string(value); }
  std::string counter_object_name(int, int, int) const override { return "?"; }
  void post(PropagationContext&) const override {}
  void on_change(PropagationContext&, int) const override {}
  bool check_clauses(const Candidate&) const override { return true; }

 private:
  std::vector<std::vector<int>> cost_;
};

// Sum of the chosen values' costs; the bound adds each open choice's cheapest value.
class TilingObjective : public Objective {
 public:
  double cost(const Space& space, const Candidate& c) const override { return lower_bound(space, c); }
  double lower_bound(const Space& space, const Candidate& c) const override {
    const auto& s = static_cast<const TilingSpace&>(space);
    double sum = 0;
    for (int v = 0; v < s.num_vars(); ++v) {
      int best = std::numeric_limits<int>::max();
      for (int value : s.values(c, v)) best = std::min(best, s.cost_of(v, value));
      sum += best;
    }
    return sum;
  }
};

// Sum of the slot costs; the bound adds each open task's cheapest remaining slot.
class AssignmentObjective : public Objective {
 public:
  double cost(const Space& space, const Candidate& c) const override {
    const auto& s = static_cast<const AssignmentSpace&>(space);
    double sum = 0;
    for (int t = 0; t < s.tasks(); ++t) sum += s.cost_of(t, s.first_value(c, t));
    return sum;
  }
  double lower_bound(const Space& space, const Candidate& c) const override {
    const auto& s = static_cast<const AssignmentSpace&>(space);
    double sum = 0;
    for (int t = 0; t < s.tasks(); ++t) {
      int best = std::numeric_limits<int>::max();
      for (int v : s.values(c, t)) best = std::min(best, s.cost_of(t, v));
      sum += best;
    }
    return sum;
  }
};

// A random basic block of n instructions (edge probability p, latencies 1-5).
inline models::BasicBlock random_block(uint64_t seed, int n, double p) {
  models::RandomBlockOptions o;
  o.size = n;
  o.edge_probability = p;
  o.min_latency = 1;
  o.max_latency = 5;
  o.seed = seed;
  return models::random_basic_block(o);
}

// One basic-block problem: the space, its objective and both branchers.
struct BlockProblem {
  explicit BlockProblem(models::BasicBlock b)
      : space(b), objective(b, space.encoding()), next(b, space.encoding()), root(*space.root()) {}
  OrderSpace space;
  models::BasicBlockObjective objective;
  models::NextInstructionBrancher next;
  FirstOpenVarBrancher pairs;
  Candidate root;
};

}  // namespace candor::testing
