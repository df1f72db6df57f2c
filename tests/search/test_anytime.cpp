// The anytime beam search (beam:anytime=1, the default) and the diverse top-K of
// SearchResult::top (Budget::keep_top, alike() in search.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <set>
#include <string>

#include "engines.h"
#include "test_spaces.h"

namespace candor {
namespace {

using testing::AssignmentObjective;
using testing::AssignmentSpace;
using testing::BlockProblem;
using testing::random_block;
using testing::TilingObjective;
using testing::TilingSpace;

SearchResult run_spec(const std::string& spec, const BlockProblem& p, const Budget& budget) {
  return make_search(spec)->run(p.space, p.root, p.objective, p.pairs, budget);
}

// Tasks to slots: the bound ignores that slots differ, so it prunes little and large
// instances are far from exhausted by a small budget.
struct AssignmentProblem {
  AssignmentProblem(int tasks, int slots, uint64_t seed)
      : space(AssignmentSpace::random(tasks, slots, seed)), root(*space.root()) {}
  AssignmentSpace space;
  AssignmentObjective objective;
  FirstOpenVarBrancher brancher;
  Candidate root;
};

SearchResult run_spec(const std::string& spec, const AssignmentProblem& p, const Budget& budget) {
  return make_search(spec)->run(p.space, p.root, p.objective, p.brancher, budget);
}

// Ranks like AssignmentObjective but gives no bound: nothing is pruned, the tree is huge.
class RankOnlyObjective : public AssignmentObjective {
 public:
  double lower_bound(const Space& space, const Candidate& c) const override { return Objective::lower_bound(space, c); }
  double estimate(const Space& space, const Candidate& c) const override {
    return AssignmentObjective::lower_bound(space, c);
  }
};

TEST(AnytimeBeam, SpendsMostOfATimeBudgetWhenTheTreeIsNotExhausted) {
  AssignmentProblem p(16, 18, 5);
  RankOnlyObjective objective;
  Budget budget;
  budget.seconds = 0.4;
  auto start = std::chrono::steady_clock::now();
  SearchResult plain = make_search("beam:anytime=0")->run(p.space, p.root, objective, p.brancher, budget);
  SearchResult anytime = make_search("beam")->run(p.space, p.root, objective, p.brancher, budget);
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(anytime.best.has_value());
  EXPECT_TRUE(p.space.satisfies_all(*anytime.best));
  EXPECT_FALSE(anytime.optimal);
  EXPECT_GE(anytime.stats.seconds, 0.8 * budget.seconds);
  EXPECT_LT(took, 2 * budget.seconds + 1.0) << "overran the budget";
  EXPECT_GT(anytime.stats.expanded, plain.stats.expanded);
  EXPECT_LE(anytime.best_cost, plain.best_cost);
}

TEST(AnytimeBeam, StopsEarlyOnlyWhenTheTreeIsExhausted) {
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    BlockProblem p(random_block(seed, 6, 0.3));
    const int optimum = models::brute_force_optimum(p.space.block())->makespan;
    Budget budget;
    budget.seconds = 20;
    budget.seed = seed;
    SearchResult r = run_spec("beam", p, budget);
    ASSERT_TRUE(r.best.has_value()) << seed;
    EXPECT_LT(r.stats.seconds, 5.0) << seed;
    EXPECT_TRUE(r.optimal) << seed;
    EXPECT_EQ(r.best_cost, optimum) << seed;
    AssignmentProblem a(5, 6, seed);
    SearchResult ra = run_spec("beam", a, budget);
    EXPECT_LT(ra.stats.seconds, 5.0) << seed;
    EXPECT_TRUE(ra.optimal) << seed;
    EXPECT_EQ(ra.best_cost, a.space.brute_force()) << seed;
  }
}

// The first round is plain beam search: more rounds can only improve on it.
TEST(AnytimeBeam, NeverWorseThanPlainBeamWithTheSameSeed) {
  int better = 0;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    AssignmentProblem p(10, 12, seed);
    for (const char* options : {"width=2", "width=4,passes=1", "width=8,grow=1,jitter=0.5"}) {
      Budget budget;
      budget.seed = seed;
      SearchResult plain = run_spec(std::string("beam:anytime=0,") + options, p, budget);
      budget.max_expanded = 8 * plain.stats.expanded;
      SearchResult anytime = run_spec(std::string("beam:") + options, p, budget);
      ASSERT_TRUE(anytime.best.has_value()) << seed << " " << options;
      EXPECT_TRUE(p.space.satisfies_all(*anytime.best)) << seed << " " << options;
      EXPECT_LE(anytime.best_cost, plain.best_cost) << seed << " " << options;
      EXPECT_LE(anytime.stats.expanded, budget.max_expanded) << seed << " " << options;
      better += anytime.best_cost < plain.best_cost;
    }
  }
  EXPECT_GT(better, 0) << "the later rounds never found anything better";
}

TEST(AnytimeBeam, ReproducibleForASeedAndANodeBudget) {
  AssignmentProblem p(12, 14, 17);
  for (const char* spec : {"beam", "beam:grow=1", "beam:width=4,grow=3,jitter=1"}) {
    Budget budget;
    budget.seed = 9;
    budget.max_expanded = 3000;
    budget.keep_top = 4;
    SearchResult a = run_spec(spec, p, budget);
    SearchResult b = run_spec(spec, p, budget);
    ASSERT_TRUE(a.best && b.best) << spec;
    EXPECT_EQ(a.best->words, b.best->words) << spec;
    EXPECT_EQ(a.stats.expanded, b.stats.expanded) << spec;
    EXPECT_EQ(a.stats.created, b.stats.created) << spec;
    EXPECT_EQ(a.stats.complete, b.stats.complete) << spec;
    ASSERT_EQ(a.top.size(), b.top.size()) << spec;
    for (size_t i = 0; i < a.top.size(); ++i) EXPECT_EQ(a.top[i].second.words, b.top[i].second.words) << spec;
  }
}

// Restarts at one width (grow=1) differ only by their randomised ranking: another seed
// takes other paths.
TEST(AnytimeBeam, RandomisedRoundsDependOnTheSeed) {
  AssignmentProblem p(12, 14, 23);
  std::set<int64_t> created;
  for (uint64_t seed = 0; seed < 4; ++seed) {
    Budget budget;
    budget.seed = seed;
    budget.max_expanded = 2000;
    created.insert(run_spec("beam:grow=1,width=4", p, budget).stats.created);
  }
  EXPECT_GT(created.size(), 1u);
}

TEST(AnytimeBeam, JitterZeroWithoutGrowthIsPlainBeam) {
  AssignmentProblem p(10, 12, 29);
  Budget budget;
  budget.max_expanded = 100000;
  SearchResult plain = run_spec("beam:anytime=0", p, budget);
  SearchResult same = run_spec("beam:grow=1,jitter=0", p, budget);
  EXPECT_EQ(plain.stats.expanded, same.stats.expanded);
  EXPECT_EQ(plain.best->words, same.best->words);
}

TEST(DiverseTop, AlikeFollowsTheDocumentedRule) {
  TilingSpace space(2, 4, 1);  // vars 0, 1: enums; 2..5: integers
  Candidate a = *space.root();
  for (int v = 0; v < space.num_vars(); ++v) ASSERT_TRUE(space.fix(a, v, 0));
  auto with = [&](std::vector<std::pair<int, int>> changes) {
    Candidate c = *space.root();
    for (int v = 0; v < space.num_vars(); ++v) {
      int value = 0;
      for (auto [var, val] : changes) value = var == v ? val : value;
      EXPECT_TRUE(space.fix(c, v, value));
    }
    return c;
  };
  EXPECT_TRUE(alike(space, a, a, 3));
  EXPECT_FALSE(alike(space, a, with({{0, 1}}), 3)) << "an enum choice differs";
  EXPECT_TRUE(alike(space, a, with({{2, 1}}), 3));
  EXPECT_TRUE(alike(space, a, with({{2, 1}, {3, 2}}), 3));
  EXPECT_FALSE(alike(space, a, with({{2, 1}, {3, 2}, {5, 3}}), 3));
  EXPECT_FALSE(alike(space, a, with({{2, 1}}), 1));
}

TEST(DiverseTop, TopHoldsPairwiseDifferentImplementationsCheapestFirst) {
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    TilingSpace space(3, 6, seed);
    TilingObjective objective;
    FirstOpenVarBrancher brancher;
    for (const char* spec : {"beam", "beam:anytime=0", "exhaustive", "dfbb", "mcts"}) {
      Budget budget;
      budget.seed = seed;
      budget.keep_top = 8;
      budget.max_expanded = 20000;
      SearchResult r = make_search(spec)->run(space, *space.root(), objective, brancher, budget);
      ASSERT_TRUE(r.best.has_value()) << spec;
      ASSERT_FALSE(r.top.empty()) << spec;
      EXPECT_EQ(r.top.front().first, r.best_cost) << spec;
      EXPECT_EQ(r.top.front().second, *r.best) << spec;
      for (size_t i = 0; i < r.top.size(); ++i) {
        EXPECT_EQ(objective.cost(space, r.top[i].second), r.top[i].first) << spec;
        for (size_t j = i + 1; j < r.top.size(); ++j) {
          EXPECT_LE(r.top[i].first, r.top[j].first) << spec;
          EXPECT_FALSE(alike(space, r.top[i].second, r.top[j].second, budget.top_min_int_changes))
              << spec << " " << i << " " << j;
        }
      }
      if (std::string(spec) == "exhaustive") {
        // Its budget reaches more than 8 of the 27 enum assignments, each one different.
        EXPECT_EQ(r.top.size(), 8u);
      }
    }
  }
}

// Budget::top_per_shape: an exhaustive search's top keeps, of each shape (here the first
// enum's value), its cheapest members up to the cap, exactly those the uncapped top lists
// first for that shape; the room they leave goes to the cheapest of the rest.
TEST(DiverseTop, AShapeKeepsItsCheapestMembersUpToTheCapAndItsSurplusFillsTheRoomLeft) {
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    TilingSpace space(3, 6, seed);
    TilingObjective objective;
    FirstOpenVarBrancher brancher;
    Budget uncapped;
    uncapped.keep_top = 1000;  // every different implementation
    const SearchResult all = make_search("exhaustive")->run(space, *space.root(), objective, brancher, uncapped);
    Budget capped = uncapped;
    capped.keep_top = 8;
    capped.top_per_shape = 2;
    capped.top_shape = [&](const Candidate& c) { return static_cast<uint64_t>(space.first_value(c, 0)); };
    const SearchResult top = make_search("exhaustive")->run(space, *space.root(), objective, brancher, capped);
    std::map<uint64_t, int> taken;
    std::vector<bool> first_of_shape(all.top.size());
    for (size_t i = 0; i < all.top.size(); ++i)
      first_of_shape[i] = taken[capped.top_shape(all.top[i].second)]++ < capped.top_per_shape;
    ASSERT_EQ(taken.size(), 3u) << "every value of the first enum is met";
    size_t room = 8 - 3 * 2;
    std::vector<std::pair<double, Candidate>> expected;
    for (size_t i = 0; i < all.top.size(); ++i) {
      if (first_of_shape[i]) {
        expected.push_back(all.top[i]);
      } else if (room > 0) {
        expected.push_back(all.top[i]);
        --room;
      }
    }
    // Implementations of equal cost may stand for each other: compare costs and shapes.
    auto costs_and_shapes = [&](const std::vector<std::pair<double, Candidate>>& members) {
      std::vector<std::pair<double, uint64_t>> out;
      for (const auto& [cost, c] : members) out.push_back({cost, capped.top_shape(c)});
      std::sort(out.begin(), out.end());
      return out;
    };
    EXPECT_EQ(costs_and_shapes(top.top), costs_and_shapes(expected));
    EXPECT_EQ(top.top.front().second, *top.best) << "the cap never hides the best";
  }
}

}  // namespace
}  // namespace candor
