// The search engines, built by name from a spec string.
//
//   make_search("beam")                        beam search with its defaults
//   make_search("beam:width=32,passes=3")      options as key=value, comma separated
//   make_search("mb2fbs:beta1=28,beta2=4,beta=32")
//   make_search("mcts:iterations=200,c=1.4,ensemble=4")
//
// Every engine implements candor::Search (search.h), honours the Budget (wall time, nodes
// expanded, candidates kept, seed), is deterministic for a seed when no time limit is hit,
// and fills SearchStats the same way:
//   created          children produced by applying a decision (failed ones included)
//   expanded         candidates whose decisions were asked from the Brancher
//   failed           children whose propagation failed (plus complete candidates that a
//                    full Space::satisfies_all check rejected; those are never returned)
//   pruned_by_bound  candidates discarded because lower bound >= best cost found so far
//   complete         implementations reached (each one costed once)
//   best_over_time   (seconds since start, cost) at each improvement
// The returned best is always complete and passes Space::satisfies_all.
//
// When a budget limit stops an engine before it reached any implementation, the result has
// no best (engines never overrun the budget to finish a dive).
//
// The engines ("NAME": options, see search_help()):
//   dfbb        depth-first branch-and-bound (children in the brancher's order by default)
//   bfbb        best-first branch-and-bound on the lower bound, after one greedy dive
//   greedy      one dive on the best estimate (Objective::estimate_batch), backtracking on failure
//   beam        beam search with coarse-to-fine passes (Adams 2019); anytime: more rounds
//               (wider, then randomised) until a time or node limit is hit
//   mb2fbs      memory-bounded best-first beam search (β1, β2, β)
//   mcts        UCT with an ensemble of trees, random/greedy simulations, best-cost root choice
//   random      random dives
//   exhaustive  every implementation, no bound
// Only dfbb, bfbb, exhaustive and beam (when its first pass never dropped a child) can
// report optimal=true. Budget::max_kept bounds: bfbb's
// open list (else its max_open; dropping any forfeits the proof), beam's width, mb2fbs's
// open list (M), mcts's tree nodes (else its max_nodes). The depth-first engines (dfbb,
// exhaustive, greedy, random) hold depth x branching candidates and ignore it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "search.h"

namespace candor {

// Builds an engine from "NAME" or "NAME:key=value,...". Throws std::invalid_argument with a
// message naming the valid engines (unknown NAME) or the valid options (unknown key, bad
// value).
std::unique_ptr<Search> make_search(const std::string& spec);

// The engine names make_search accepts, in a stable order.
std::vector<std::string> search_names();

// One option of an engine: its key, default (as text) and a one-line description.
struct SearchOptionInfo {
  std::string key;
  std::string default_value;
  std::string help;
};
// The options of engine `name` (throws std::invalid_argument for an unknown name).
std::vector<SearchOptionInfo> search_options(const std::string& name);
// A human-readable summary of every engine and its options (for --help texts).
std::string search_help();

}  // namespace candor
