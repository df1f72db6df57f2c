// The generated basic-block space against brute force, and the searches on it: exact
// optima on small random blocks, and valid orders within budget on a 120-instruction block.
#include <gtest/gtest.h>

#include "../dslc/property_harness.h"
#include "basic_block_space.h"
#include "engines.h"

namespace {

using candor::BasicBlockSpace;
using candor::Candidate;
using candor::testing::Assignment;
namespace models = candor::models;

models::BasicBlock random_block(int size, uint64_t seed, double edges = 0.3) {
  models::RandomBlockOptions options;
  options.size = size;
  options.edge_probability = edges;
  options.seed = seed;
  return models::random_basic_block(options);
}

// A complete assignment of the pairwise choices is a solution exactly when it is a total
// order (transitive) that puts every dependency first.
TEST(BasicBlockSpace, AgreesWithBruteForceOnTinyBlocks) {
  for (uint64_t seed = 0; seed < 300; ++seed) {
    models::BasicBlock block = random_block(2 + static_cast<int>(seed % 4), seed);
    BasicBlockSpace space(block);
    const auto& enc = space.encoding();
    const int n = block.size();
    auto solution = [&](const Assignment& x) {
      auto before = [&](int a, int b) { return x[enc.var(a, b)] == enc.before_value(a, b); };
      for (int i = 0; i < n; ++i)
        for (int d : block.deps[i])
          if (!before(d, i)) return false;
      for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b)
          for (int c = 0; c < n; ++c)
            if (a != b && b != c && a != c && before(a, b) && before(b, c) && !before(a, c)) return false;
      return true;
    };
    std::string failure = candor::testing::check_against_brute_force(space, solution, seed);
    ASSERT_EQ(failure, "") << "seed " << seed << "\n" << models::to_text(block);
  }
}

TEST(BasicBlockSpace, BranchAndBoundFindsTheBruteForceOptimum) {
  for (const char* engine : {"dfbb", "bfbb"}) {
    for (uint64_t seed = 0; seed < 60; ++seed) {
      models::BasicBlock block = random_block(4 + static_cast<int>(seed % 7), seed, 0.25);
      BasicBlockSpace space(block);
      models::BasicBlockObjective objective(block, space.encoding());
      models::NextInstructionBrancher brancher(block, space.encoding());
      std::optional<Candidate> root = space.root();
      ASSERT_TRUE(root);
      candor::SearchResult result = candor::make_search(engine)->run(space, *root, objective, brancher, {});
      std::optional<models::Schedule> best = models::brute_force_optimum(block);
      ASSERT_TRUE(best && result.best) << engine << " seed " << seed;
      EXPECT_TRUE(result.optimal) << engine << " seed " << seed;
      EXPECT_EQ(result.best_cost, best->makespan) << engine << " seed " << seed << "\n" << models::to_text(block);
      EXPECT_TRUE(space.satisfies_all(*result.best));
    }
  }
}

// Along random dives, the bound of every candidate stays at or below the best completion of
// that candidate (the optimum of its subtree).
TEST(BasicBlockSpace, LowerBoundNeverExceedsTheSubtreeOptimum) {
  for (uint64_t seed = 0; seed < 80; ++seed) {
    models::BasicBlock block = random_block(4 + static_cast<int>(seed % 5), seed, 0.3);
    BasicBlockSpace space(block);
    models::BasicBlockObjective objective(block, space.encoding());
    std::optional<Candidate> c = space.root();
    ASSERT_TRUE(c);
    std::mt19937_64 rng(seed);
    while (true) {
      models::PartialOrder order = models::partial_order(space, *c, space.encoding());
      std::optional<models::Schedule> best = models::brute_force_optimum(block, &order);
      ASSERT_TRUE(best) << "seed " << seed;
      ASSERT_LE(objective.lower_bound(space, *c), best->makespan) << "seed " << seed;
      std::vector<int> open = space.open_vars(*c);
      if (open.empty()) break;
      int var = open[rng() % open.size()];
      std::vector<int> values = space.values(*c, var);
      // A failed decision leaves no completion to compare with: the dive ends there.
      if (!space.fix(*c, var, values[rng() % values.size()])) break;
    }
  }
}

TEST(BasicBlockSpace, EverySearchReturnsAValidOrderOnA120InstructionBlock) {
  models::BasicBlock block = random_block(120, 42, 0.04);
  BasicBlockSpace space(block);
  models::BasicBlockObjective objective(block, space.encoding());
  models::NextInstructionBrancher brancher(block, space.encoding());
  std::optional<Candidate> root = space.root();
  ASSERT_TRUE(root);
  const models::Cycles list_makespan = models::makespan(block, models::list_schedule(block));
  for (const std::string& engine : candor::search_names()) {
    if (engine == "exhaustive") continue;  // unbounded enumeration; its budget is the test
    candor::Budget budget;
    budget.seconds = 10;
    auto start = std::chrono::steady_clock::now();
    candor::SearchResult result = candor::make_search(engine)->run(space, *root, objective, brancher, budget);
    double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_TRUE(result.best) << engine;
    std::vector<int> order = models::issue_order(space, *result.best, space.encoding());
    EXPECT_TRUE(models::is_valid_order(block, order)) << engine;
    EXPECT_TRUE(space.satisfies_all(*result.best)) << engine;
    EXPECT_LT(elapsed, budget.seconds + 2.0) << engine << " overran its budget";
    if (engine == "dfbb" || engine == "bfbb") {
      EXPECT_LE(models::makespan(block, order), list_makespan) << engine;
    }
  }
}

}  // namespace

namespace {

// Budget::keep_top: the best distinct implementations, cheapest first, the best among them.
TEST(BasicBlockSpace, SearchesKeepTheirBestDistinctImplementations) {
  models::BasicBlock block = random_block(6, 3, 0.2);
  BasicBlockSpace space(block);
  models::BasicBlockObjective objective(block, space.encoding());
  models::NextInstructionBrancher brancher(block, space.encoding());
  candor::Budget budget;
  budget.keep_top = 5;
  candor::SearchResult r = candor::make_search("exhaustive")->run(space, *space.root(), objective, brancher, budget);
  ASSERT_EQ(r.top.size(), 5u);
  EXPECT_EQ(r.top.front().first, r.best_cost);
  for (size_t i = 0; i < r.top.size(); ++i) {
    EXPECT_TRUE(space.satisfies_all(r.top[i].second));
    EXPECT_EQ(objective.cost(space, r.top[i].second), r.top[i].first);
    for (size_t j = i + 1; j < r.top.size(); ++j) {
      EXPECT_LE(r.top[i].first, r.top[j].first);
      EXPECT_FALSE(r.top[i].second == r.top[j].second);
    }
  }
}

}  // namespace
