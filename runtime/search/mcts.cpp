// Monte Carlo tree search with UCT, with ProTuner's choices (Haj-Ali et al.):
//   - an ensemble of trees searching from the same root, each with its own seeded generator;
//     the first `greedy` trees simulate greedily (Objective::estimate_batch at every step),
//     the others uniformly at random (ProTuner's best mix was 15 random + 1 greedy);
//   - the tree policy is UCT on the average simulated cost (min-max normalised over the costs
//     the tree has seen, so lower cost is higher reward);
//   - a decision is taken after `iterations` iterations per tree, or after a time per
//     decision: the new root is the root child, over all trees, whose subtree holds the best
//     (minimum) cost found, not the best average; trees keep the subtree of that child;
//   - the search ends when the root is complete (or its chosen child's subtree has been
//     exhausted); the best implementation met by any simulation is returned.
// A node is expanded one child at a time (decisions in a seeded random order). With prune=1,
// a new child whose lower bound is not below the incumbent is discarded. Nodes kept across
// all trees are bounded by Budget::max_kept (default: max_nodes); when full, simulations
// start from the selected node without adding one.
#include <algorithm>
#include <cmath>

#include "run.h"

namespace candor::search_detail {

namespace {

struct Settings {
  int64_t iterations = 100;  // per tree and decision; -1: unlimited
  bool iterations_given = false;
  double c = 1.41;
  int64_t ensemble = 4;
  int64_t greedy = 1;
  double decision_seconds = kInf;
  bool decision_seconds_given = false;
  int64_t max_nodes = 200000;
  bool prune = true;
};

struct TreeNode {
  Candidate candidate;
  int parent = -1;
  std::vector<int> children;
  std::vector<Decision> untried;
  bool branched = false;
  bool exhausted = false;  // nothing left below it to explore
  int64_t visits = 0;
  int64_t finite = 0;  // simulations that reached an implementation
  double sum = 0;      // of their costs
  double best = kInf;
};

struct Tree {
  std::vector<TreeNode> nodes;
  DivePolicy policy = DivePolicy::Random;
  Rng rng{0};
  double cmin = kInf, cmax = -kInf;
  int64_t depth_sum = 0, depth_count = 0;  // simulated depths below the root, per decision

  void reset(const Candidate& root) {
    nodes.clear();
    nodes.push_back(TreeNode{});
    nodes[0].candidate = root;
  }
  // Keeps only the subtree of `new_root`, renumbered.
  void reroot(int new_root) {
    std::vector<TreeNode> kept;
    std::vector<std::pair<int, int>> todo = {{new_root, -1}};  // old index, new parent
    for (size_t k = 0; k < todo.size(); ++k) {
      auto [old, parent] = todo[k];
      TreeNode node = std::move(nodes[old]);
      node.parent = parent;
      int self = static_cast<int>(kept.size());
      for (int c : node.children) todo.push_back({c, self});
      node.children.clear();
      kept.push_back(std::move(node));
      if (parent >= 0) kept[parent].children.push_back(self);
    }
    nodes = std::move(kept);
    depth_sum = depth_count = 0;
  }
};

class Mcts : public Search {
 public:
  explicit Mcts(Settings s) : s_(s) {}
  std::string name() const override { return "mcts"; }

  SearchResult run(const Space& space, const Candidate& root, const Objective& objective,
                   const Brancher& brancher, const Budget& budget) override {
    Run run(space, objective, brancher, budget);
    if (space.is_complete(root)) {
      run.offer(root);
      return run.finish(false);
    }
    const int64_t max_nodes = budget.max_kept > 0 ? budget.max_kept : s_.max_nodes;
    std::vector<Tree> trees(s_.ensemble);
    for (int64_t t = 0; t < s_.ensemble; ++t) {
      trees[t].policy = t < s_.greedy ? DivePolicy::Greedy : DivePolicy::Random;
      trees[t].rng = Rng(budget.seed * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL * (t + 1));
      trees[t].reset(root);
    }
    // Unless asked for explicitly, a time budget replaces the iteration count.
    int64_t iterations = (run.time_limited() && !s_.iterations_given) ? -1 : s_.iterations;
    if (iterations < 0 && !run.time_limited() && !s_.decision_seconds_given &&
        budget.max_expanded < 0) {
      iterations = 100;  // nothing else would end a decision
    }
    Candidate current = root;
    while (!space.is_complete(current) && !run.stop()) {
      double per_decision = s_.decision_seconds;
      if (!s_.decision_seconds_given && run.time_limited()) {
        // Spread what is left over the decisions still ahead (estimated by the depth of the
        // simulations made from the previous root).
        int64_t sum = 0, count = 0;
        for (const Tree& tree : trees) sum += tree.depth_sum, count += tree.depth_count;
        double ahead = count > 0 ? std::max(1.0, double(sum) / count) : 8.0;
        per_decision = run.seconds_left() / ahead;
      }
      for (Tree& tree : trees) tree.depth_sum = tree.depth_count = 0;
      for (Tree& tree : trees) {
        double deadline = run.elapsed() + per_decision / s_.ensemble;
        for (int64_t it = 0; iterations < 0 || it < iterations; ++it) {
          if (run.stop() || tree.nodes[0].exhausted) break;
          if (per_decision < kInf && run.elapsed() >= deadline) break;
          iterate(run, tree, max_nodes, total_nodes(trees));
        }
      }
      if (run.budget_hit()) break;
      // Best-cost root selection across the ensemble.
      int best_tree = -1, best_child = -1;
      for (int t = 0; t < static_cast<int>(trees.size()); ++t) {
        for (int c : trees[t].nodes[0].children) {
          const TreeNode& n = trees[t].nodes[c];
          if (n.best == kInf) continue;
          if (best_tree < 0) {
            best_tree = t, best_child = c;
            continue;
          }
          const TreeNode& b = trees[best_tree].nodes[best_child];
          if (n.best < b.best || (n.best == b.best && n.visits > b.visits)) best_tree = t, best_child = c;
        }
      }
      if (best_tree < 0) break;  // nothing found below the root
      const TreeNode& chosen = trees[best_tree].nodes[best_child];
      if (chosen.exhausted) break;  // its best is known exactly (and was offered)
      current = chosen.candidate;
      for (Tree& tree : trees) {
        int match = -1;
        for (int c : tree.nodes[0].children) {
          if (tree.nodes[c].candidate == current) match = c;
        }
        if (match >= 0) {
          tree.reroot(match);
        } else {
          tree.reset(current);
        }
      }
    }
    return run.finish(false);
  }

 private:
  static int64_t total_nodes(const std::vector<Tree>& trees) {
    int64_t n = 0;
    for (const Tree& t : trees) n += static_cast<int64_t>(t.nodes.size());
    return n;
  }

  void mark_exhausted(Tree& tree, int n) {
    while (n >= 0) {
      TreeNode& node = tree.nodes[n];
      if (!node.exhausted) {
        if (!node.branched || !node.untried.empty()) return;
        for (int c : node.children) {
          if (!tree.nodes[c].exhausted) return;
        }
        node.exhausted = true;
      }
      n = node.parent;
    }
  }

  int select(const Tree& tree, const TreeNode& node) const {
    int pick = -1;
    double best_score = -kInf;
    double log_n = std::log(static_cast<double>(std::max<int64_t>(1, node.visits)));
    for (int c : node.children) {
      const TreeNode& kid = tree.nodes[c];
      if (kid.exhausted) continue;
      double exploit = 0;
      if (kid.finite > 0) {
        double mean = kid.sum / kid.finite;
        exploit = tree.cmax > tree.cmin ? (tree.cmax - mean) / (tree.cmax - tree.cmin) : 0.5;
      }
      double score = exploit + s_.c * std::sqrt(log_n / std::max<int64_t>(1, kid.visits));
      if (score > best_score) best_score = score, pick = c;
    }
    return pick;
  }

  // One selection / expansion / simulation / backpropagation.
  void iterate(Run& run, Tree& tree, int64_t max_nodes, int64_t nodes_alive) {
    int n = 0;
    int depth = 0;
    bool created = false;
    while (true) {
      TreeNode& node = tree.nodes[n];
      if (!node.branched) {
        node.untried = run.decisions(node.candidate);
        tree.rng.shuffle(node.untried);
        node.branched = true;
      }
      if (!node.untried.empty() && nodes_alive < max_nodes) {
        Candidate kid;
        while (!tree.nodes[n].untried.empty()) {
          Decision d = std::move(tree.nodes[n].untried.back());
          tree.nodes[n].untried.pop_back();
          if (!run.child(tree.nodes[n].candidate, d, kid)) continue;
          bool complete = run.space.is_complete(kid);
          if (!complete && s_.prune && run.best_cost() < kInf &&
              !run.survives_bound(run.objective.lower_bound(run.space, kid))) {
            continue;
          }
          TreeNode child;
          child.candidate = std::move(kid);
          child.parent = n;
          int index = static_cast<int>(tree.nodes.size());
          tree.nodes.push_back(std::move(child));
          tree.nodes[n].children.push_back(index);
          n = index;
          ++depth;
          created = true;
          break;
        }
        if (created) break;
      }
      const TreeNode& here = tree.nodes[n];
      if (!here.untried.empty()) break;  // no room for a new node: simulate from here
      int next = select(tree, here);
      if (next < 0) {
        mark_exhausted(tree, n);
        return;
      }
      n = next;
      ++depth;
      if (run.stop()) return;
    }
    // Simulation.
    double cost;
    int steps = 0;
    const Candidate start = tree.nodes[n].candidate;
    if (run.space.is_complete(start)) {
      cost = run.offer(start);
      tree.nodes[n].branched = true;
      tree.nodes[n].exhausted = true;
    } else {
      cost = dive(run, start, tree.policy, tree.rng, nullptr, &steps);
      if (cost == kInf && !run.budget_hit() && created) {
        // The dive backtracked through the whole subtree of a fresh node: nothing there.
        tree.nodes[n].branched = true;
        tree.nodes[n].untried.clear();
        tree.nodes[n].exhausted = true;
      }
    }
    if (cost < kInf) {
      tree.cmin = std::min(tree.cmin, cost);
      tree.cmax = std::max(tree.cmax, cost);
      tree.depth_sum += depth + steps;
      ++tree.depth_count;
    }
    for (int k = n; k >= 0; k = tree.nodes[k].parent) {
      TreeNode& node = tree.nodes[k];
      ++node.visits;
      if (cost < kInf) {
        node.sum += cost;
        ++node.finite;
        node.best = std::min(node.best, cost);
      }
    }
    if (tree.nodes[n].exhausted) mark_exhausted(tree, tree.nodes[n].parent);
  }

  Settings s_;
};

}  // namespace

EngineEntry mcts_entry() {
  return {"mcts",
          "Monte Carlo tree search (UCT) with an ensemble of trees, random or greedy "
          "simulations, and best-cost root selection (ProTuner)",
          {{"iterations", "100",
            "iterations per tree and decision (default: unlimited under a time budget)"},
           {"c", "1.41", "UCT exploration constant (rewards are normalised to [0, 1])"},
           {"ensemble", "4", "number of trees"},
           {"greedy", "1", "how many of the trees simulate greedily (at most ensemble)"},
           {"decision_seconds", "inf",
            "time per decision (default: the time budget left spread over the decisions ahead)"},
           {"max_nodes", "200000", "tree nodes kept when Budget::max_kept is unset"},
           {"prune", "1", "1: discard new children whose lower bound >= the incumbent"}},
          [](const Options& o) -> std::unique_ptr<Search> {
            Settings s;
            s.iterations = o.integer("iterations");
            s.iterations_given = o.given("iterations");
            s.c = o.number("c");
            s.ensemble = o.integer("ensemble");
            s.greedy = o.given("greedy") ? o.integer("greedy") : (s.ensemble > 1 ? 1 : 0);
            s.decision_seconds = o.number("decision_seconds");
            s.decision_seconds_given = o.given("decision_seconds");
            s.max_nodes = o.integer("max_nodes");
            s.prune = o.flag("prune");
            if (s.iterations == 0 || s.iterations < -1) {
              throw std::invalid_argument("search 'mcts': iterations must be >= 1 (or inf)");
            }
            if (!(s.c >= 0)) throw std::invalid_argument("search 'mcts': c must be >= 0");
            if (s.ensemble < 1) throw std::invalid_argument("search 'mcts': ensemble must be >= 1");
            if (s.greedy < 0 || s.greedy > s.ensemble) {
              throw std::invalid_argument("search 'mcts': greedy must be between 0 and ensemble");
            }
            if (!(s.decision_seconds > 0)) {
              throw std::invalid_argument("search 'mcts': decision_seconds must be > 0");
            }
            if (s.max_nodes < 1) throw std::invalid_argument("search 'mcts': max_nodes must be >= 1");
            return std::make_unique<Mcts>(s);
          }};
}

}  // namespace candor::search_detail
