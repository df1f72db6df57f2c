// Brute-force checks of generated propagators, in the style of Gecode's test harness: a
// test gives an independent predicate saying which complete assignments are solutions, and
// the harness checks on a random instance that
//   - a complete assignment is accepted (fixing every variable propagates without failure,
//     and satisfies_all holds) exactly when the predicate holds;
//   - propagation after random partial decisions never removes a value that some solution
//     consistent with those decisions uses, and fails only when there is no such solution.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <string>
#include <vector>

#include "space.h"

namespace candor::testing {

// A complete assignment: one value index per variable.
using Assignment = std::vector<int>;
using SolutionPredicate = std::function<bool(const Assignment&)>;

inline std::vector<Assignment> all_assignments(const Space& space, size_t limit = 200000) {
  std::vector<Assignment> out;
  Assignment current(space.num_vars(), 0);
  size_t total = 1;
  for (int v = 0; v < space.num_vars(); ++v) total *= space.universe_size(v);
  if (total > limit) return out;
  for (size_t n = 0; n < total; ++n) {
    out.push_back(current);
    for (int v = 0; v < space.num_vars(); ++v) {
      if (++current[v] < space.universe_size(v)) break;
      current[v] = 0;
    }
  }
  return out;
}

// Returns a failure message, or "" when every check passes on this instance.
inline std::string check_against_brute_force(const Space& space, const SolutionPredicate& is_solution,
                                             uint64_t seed, int partial_trials = 20) {
  std::vector<Assignment> assignments = all_assignments(space);
  if (assignments.empty() && space.num_vars() > 0) return "";  // too large to enumerate
  std::vector<Assignment> solutions;
  for (const Assignment& a : assignments) {
    if (is_solution(a)) solutions.push_back(a);
  }
  std::optional<Candidate> root = space.root();
  if (!root) {
    return solutions.empty() ? "" : "root failed but " + std::to_string(solutions.size()) + " solutions exist";
  }
  // Every complete assignment: accepted exactly when it is a solution.
  for (const Assignment& a : assignments) {
    Candidate c = *root;
    bool ok = true;
    for (int v = 0; v < space.num_vars() && ok; ++v) {
      if (!space.contains(c, v, a[v])) ok = false;
      else ok = space.fix(c, v, a[v]);
    }
    bool expected = is_solution(a);
    if (ok != expected) {
      std::string text = "assignment [";
      for (int v = 0; v < space.num_vars(); ++v) text += space.var_name(v) + "=" + space.value_name(v, a[v]) + " ";
      return text + "] accepted=" + std::to_string(ok) + " but solution=" + std::to_string(expected);
    }
    if (ok && !space.satisfies_all(c)) return "satisfies_all rejects a solution";
  }
  // Random partial decisions: no solution value is ever removed.
  std::mt19937_64 rng(seed);
  for (int trial = 0; trial < partial_trials; ++trial) {
    Candidate c = *root;
    std::vector<std::pair<int, int>> fixed;
    bool alive = true;
    int decisions = space.num_vars() ? static_cast<int>(rng() % (space.num_vars() + 1)) : 0;
    for (int d = 0; d < decisions && alive; ++d) {
      int var = static_cast<int>(rng() % space.num_vars());
      int value = static_cast<int>(rng() % space.universe_size(var));
      if (!space.contains(c, var, value)) continue;
      fixed.push_back({var, value});
      alive = space.fix(c, var, value);
    }
    bool any = false;
    for (const Assignment& s : solutions) {
      bool consistent = true;
      for (auto [var, value] : fixed) consistent &= s[var] == value;
      if (!consistent) continue;
      any = true;
      if (!alive) return "propagation failed although a solution agrees with the decisions";
      for (int v = 0; v < space.num_vars(); ++v) {
        if (!space.contains(c, v, s[v])) {
          return "propagation removed " + space.var_name(v) + "=" + space.value_name(v, s[v]) +
                 " used by a solution";
        }
      }
    }
    (void)any;
  }
  return "";
}

}  // namespace candor::testing
