// The search engines on hand-written spaces: validity of every result, exactness of the
// branch-and-bound engines against brute force, budgets, determinism, the factory.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <set>

#include "engines.h"
#include "test_spaces.h"

namespace candor {
namespace {

using testing::AssignmentObjective;
using testing::AssignmentSpace;
using testing::BlockProblem;
using testing::random_block;

const std::vector<std::string> kSpecs = {
    "dfbb",   "dfbb:order=bound", "dfbb:order=estimate", "bfbb",   "greedy",
    "beam",   "beam:width=4,passes=1", "beam:width=8,passes=3,keep=2", "mb2fbs",
    "mb2fbs:beta1=3,beta2=2,beta=4", "mcts:iterations=20,ensemble=2", "mcts:iterations=10,ensemble=1,prune=0",
    "random", "exhaustive"};

// Checks a result: complete, valid, costed right.
void expect_valid(const BlockProblem& p, const SearchResult& r, const std::string& what) {
  ASSERT_TRUE(r.best.has_value()) << what;
  EXPECT_TRUE(p.space.is_complete(*r.best)) << what;
  EXPECT_TRUE(p.space.satisfies_all(*r.best)) << what;
  std::vector<int> order = models::issue_order(p.space, *r.best, p.space.encoding());
  ASSERT_TRUE(models::is_valid_order(p.space.block(), order)) << what;
  EXPECT_EQ(r.best_cost, models::makespan(p.space.block(), order)) << what;
  EXPECT_GE(r.stats.created, r.stats.failed) << what;
  ASSERT_FALSE(r.stats.best_over_time.empty()) << what;
  EXPECT_EQ(r.stats.best_over_time.back().second, r.best_cost) << what;
  for (size_t i = 1; i < r.stats.best_over_time.size(); ++i) {
    EXPECT_LT(r.stats.best_over_time[i].second, r.stats.best_over_time[i - 1].second) << what;
  }
}

// Three dependent instructions of the largest latency the .bb format accepts: the makespan
// (2,999,999,997 cycles) is past 2^31, which every engine must count without overflow.
TEST(SearchEngines, MakespansPastTwoToThe31AreExact) {
  BlockProblem p(models::parse_basic_block("a 999999999\nb 999999999 a\nc 999999999 b\n"));
  for (const std::string& spec : kSpecs) {
    SearchResult r = make_search(spec)->run(p.space, p.root, p.objective, p.next, Budget{});
    expect_valid(p, r, spec);
    EXPECT_EQ(r.best_cost, 2999999997.0) << spec;
    if (r.optimal) EXPECT_EQ(p.objective.lower_bound(p.space, p.root), 2999999997.0) << spec;
  }
}

// An objective whose every call keeps 4 MiB alive: the process grows with the search, so
// each engine must stop at its memory budget with the best found so far.
class GrowingObjective : public models::BasicBlockObjective {
 public:
  using models::BasicBlockObjective::BasicBlockObjective;
  double cost(const Space& space, const Candidate& c) const override {
    grow();
    return models::BasicBlockObjective::cost(space, c);
  }
  double estimate(const Space& space, const Candidate& c) const override {
    grow();
    return models::BasicBlockObjective::estimate(space, c);
  }
  double lower_bound(const Space& space, const Candidate& c) const override {
    grow();
    return models::BasicBlockObjective::lower_bound(space, c);
  }

 private:
  void grow() const { ballast_.emplace_back(4 << 20, '\1'); }  // touched, so resident
  mutable std::vector<std::string> ballast_;
};

TEST(SearchEngines, EveryEngineStopsAtItsMemoryBudgetWithTheBestSoFar) {
  BlockProblem p(random_block(3, 60, 0.3));
  for (const std::string& spec : kSpecs) {
    GrowingObjective objective(p.space.block(), p.space.encoding());
    Budget budget;
    budget.seconds = 120;  // far more than 256 MiB of ballast takes
    budget.max_memory_bytes = support::resident_bytes() + (int64_t(256) << 20);
    SearchResult r = make_search(spec)->run(p.space, p.root, objective, p.next, budget);
    EXPECT_TRUE(r.stats.memory_limit_hit) << spec << " resident " << support::resident_bytes() << " budget " << budget.max_memory_bytes << " expanded " << r.stats.expanded;
    EXPECT_FALSE(r.optimal) << spec;
    EXPECT_LT(support::resident_bytes(), budget.max_memory_bytes + (int64_t(64) << 20)) << spec;
    if (r.best) {
      std::vector<int> order = models::issue_order(p.space, *r.best, p.space.encoding());
      EXPECT_TRUE(models::is_valid_order(p.space.block(), order)) << spec;
    }
  }
}

TEST(SearchEngines, EveryEngineReturnsAValidImplementation) {
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    BlockProblem p(random_block(seed, 5 + static_cast<int>(seed % 4), 0.3));
    int optimum = models::brute_force_optimum(p.space.block())->makespan;
    for (const std::string& spec : kSpecs) {
      for (const Brancher* brancher : {static_cast<const Brancher*>(&p.next),
                                       static_cast<const Brancher*>(&p.pairs)}) {
        std::string what = spec + " seed=" + std::to_string(seed) +
                           (brancher == &p.next ? " next-instruction" : " pairs");
        Budget budget;
        budget.seed = seed;
        SearchResult r = make_search(spec)->run(p.space, p.root, p.objective, *brancher, budget);
        expect_valid(p, r, what);
        EXPECT_GE(r.best_cost, optimum) << what;
        if (r.optimal) {
        EXPECT_EQ(r.best_cost, optimum) << what;
      }
      }
    }
  }
}

TEST(SearchEngines, BranchAndBoundIsExactOnTinyBlocks) {
  int checked = 0;
  for (uint64_t seed = 100; seed < 400; ++seed) {
    int n = 3 + static_cast<int>(seed % 5);  // 3..7 instructions
    BlockProblem p(random_block(seed, n, 0.1 * (seed % 6)));
    int optimum = models::brute_force_optimum(p.space.block())->makespan;
    for (const char* spec : {"dfbb", "bfbb", "dfbb:order=estimate"}) {
      for (const Brancher* brancher : {static_cast<const Brancher*>(&p.next),
                                       static_cast<const Brancher*>(&p.pairs)}) {
        SearchResult r = make_search(spec)->run(p.space, p.root, p.objective, *brancher, Budget{});
        ASSERT_TRUE(r.best.has_value()) << spec << " seed=" << seed;
        EXPECT_TRUE(p.space.satisfies_all(*r.best)) << spec << " seed=" << seed;
        EXPECT_TRUE(r.optimal) << spec << " seed=" << seed;
        EXPECT_EQ(r.best_cost, optimum) << spec << " seed=" << seed << "\n"
                                        << models::to_text(p.space.block());
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 300 * 6);
}

TEST(SearchEngines, ExhaustiveCountsEveryImplementationAndBoundsPrune) {
  for (uint64_t seed = 7; seed < 27; ++seed) {
    BlockProblem p(random_block(seed, 6, 0.2));
    // The number of valid orders, by brute force over permutations.
    std::vector<int> perm = {0, 1, 2, 3, 4, 5};
    int64_t valid = 0;
    do valid += models::is_valid_order(p.space.block(), perm);
    while (std::next_permutation(perm.begin(), perm.end()));
    for (const Brancher* brancher : {static_cast<const Brancher*>(&p.next),
                                     static_cast<const Brancher*>(&p.pairs)}) {
      SearchResult all = make_search("exhaustive")->run(p.space, p.root, p.objective, *brancher, Budget{});
      EXPECT_TRUE(all.optimal) << seed;
      EXPECT_EQ(all.stats.complete, valid) << seed;
      EXPECT_EQ(all.stats.pruned_by_bound, 0) << seed;
      SearchResult bb = make_search("dfbb")->run(p.space, p.root, p.objective, *brancher, Budget{});
      EXPECT_EQ(bb.best_cost, all.best_cost) << seed;
      EXPECT_LE(bb.stats.expanded, all.stats.expanded) << seed;
    }
  }
}

TEST(SearchEngines, AssignmentSpaceWithMultiWordDomains) {
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    int tasks = 3 + static_cast<int>(seed % 3);
    int slots = seed % 2 ? tasks + 1 : 66;  // 66 slots: two words per domain
    if (slots == 66) tasks = 3;
    AssignmentSpace space = AssignmentSpace::random(tasks, slots, seed);
    AssignmentObjective objective;
    FirstOpenVarBrancher brancher;
    Candidate root = *space.root();
    int optimum = space.brute_force();
    for (const std::string& spec : kSpecs) {
      if (slots == 66 && spec == "exhaustive") continue;  // 66 * 65 * 64 implementations
      Budget budget;
      budget.seed = seed;
      SearchResult r = make_search(spec)->run(space, root, objective, brancher, budget);
      ASSERT_TRUE(r.best.has_value()) << spec << " seed=" << seed;
      EXPECT_TRUE(space.satisfies_all(*r.best)) << spec << " seed=" << seed;
      EXPECT_GE(r.best_cost, optimum) << spec << " seed=" << seed;
      if (spec.rfind("dfbb", 0) == 0 || spec == "bfbb" || spec == "exhaustive") {
        EXPECT_TRUE(r.optimal) << spec << " seed=" << seed;
        EXPECT_EQ(r.best_cost, optimum) << spec << " seed=" << seed;
      } else if (spec.rfind("beam", 0) == 0 && r.optimal) {
        // Beam proves optimality when its first pass never dropped a child.
        EXPECT_EQ(r.best_cost, optimum) << spec << " seed=" << seed;
      } else {
        EXPECT_FALSE(r.optimal) << spec;
      }
    }
  }
}

TEST(SearchEngines, NodeBudgetIsHonoured) {
  BlockProblem p(random_block(3, 14, 0.15));
  for (const std::string& spec : kSpecs) {
    for (int64_t limit : {1, 5, 40}) {
      Budget budget;
      budget.max_expanded = limit;
      SearchResult r = make_search(spec)->run(p.space, p.root, p.objective, p.next, budget);
      EXPECT_LE(r.stats.expanded, limit) << spec;
      EXPECT_DOUBLE_EQ(budget.share_spent(r.stats), double(r.stats.expanded) / double(limit)) << spec;
      if (limit == 1) {
        EXPECT_FALSE(r.optimal) << spec;  // (the bound is strong: 40 may suffice to prove)
      }
      if (r.best) {
        EXPECT_TRUE(p.space.satisfies_all(*r.best)) << spec;
      }
    }
  }
}

TEST(SearchEngines, ShareSpentIsTheLargerOfTimeAndNodes) {
  SearchStats stats;
  stats.seconds = 3;
  stats.expanded = 10;
  Budget budget;
  EXPECT_EQ(budget.share_spent(stats), -1);  // nothing limited: no share
  budget.seconds = 12;
  EXPECT_DOUBLE_EQ(budget.share_spent(stats), 0.25);
  budget.max_expanded = 20;
  EXPECT_DOUBLE_EQ(budget.share_spent(stats), 0.5);
}

TEST(SearchEngines, TimeBudgetIsHonoured) {
  BlockProblem p(random_block(5, 40, 0.05));
  for (const std::string& spec : kSpecs) {
    Budget budget;
    budget.seconds = 0.05;
    auto start = std::chrono::steady_clock::now();
    SearchResult r = make_search(spec)->run(p.space, p.root, p.objective, p.pairs, budget);
    double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LT(took, 0.5) << spec;
    EXPECT_LT(r.stats.seconds, 0.5) << spec;
    if (r.best) {
        EXPECT_TRUE(p.space.satisfies_all(*r.best)) << spec;
      }
  }
}

TEST(SearchEngines, DeterministicForASeed) {
  BlockProblem p(random_block(11, 9, 0.25));
  for (const std::string& spec : kSpecs) {
    for (uint64_t seed : {0ULL, 5ULL}) {
      Budget budget;
      budget.seed = seed;
      budget.max_expanded = 300;
      SearchResult a = make_search(spec)->run(p.space, p.root, p.objective, p.pairs, budget);
      SearchResult b = make_search(spec)->run(p.space, p.root, p.objective, p.pairs, budget);
      ASSERT_EQ(a.best.has_value(), b.best.has_value()) << spec;
      if (a.best) {
        EXPECT_EQ(a.best->words, b.best->words) << spec;
      }
      EXPECT_EQ(a.best_cost, b.best_cost) << spec;
      EXPECT_EQ(a.stats.created, b.stats.created) << spec;
      EXPECT_EQ(a.stats.expanded, b.stats.expanded) << spec;
      EXPECT_EQ(a.stats.failed, b.stats.failed) << spec;
      EXPECT_EQ(a.stats.pruned_by_bound, b.stats.pruned_by_bound) << spec;
      EXPECT_EQ(a.stats.complete, b.stats.complete) << spec;
      EXPECT_EQ(a.stats.best_over_time.size(), b.stats.best_over_time.size()) << spec;
    }
  }
}

TEST(SearchEngines, RandomAndMctsDependOnTheSeed) {
  BlockProblem p(random_block(13, 12, 0.1));
  for (const char* spec : {"random:dives=3", "mcts:iterations=5,ensemble=1,greedy=0"}) {
    std::set<std::vector<Word>> bests;
    for (uint64_t seed = 0; seed < 6; ++seed) {
      Budget budget;
      budget.seed = seed;
      SearchResult r = make_search(spec)->run(p.space, p.root, p.objective, p.pairs, budget);
      bests.insert(r.best->words);
    }
    EXPECT_GT(bests.size(), 1u) << spec;
  }
}

// MB2FBS with β1 = W, β2 = 0 is beam search of width W (paper, Theorem 1).
TEST(SearchEngines, Mb2fbsWithoutPushOnwardIsBeamSearch) {
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    BlockProblem p(random_block(seed, 9, 0.2));
    for (int width : {1, 3, 8}) {
      std::string w = std::to_string(width);
      SearchResult beam = make_search("beam:passes=1,prune=0,descend=0,width=" + w)
                              ->run(p.space, p.root, p.objective, p.pairs, Budget{});
      SearchResult mb = make_search("mb2fbs:beta2=0,prune=0,dive=0,beta1=" + w)
                            ->run(p.space, p.root, p.objective, p.pairs, Budget{});
      EXPECT_EQ(beam.best_cost, mb.best_cost) << seed << " " << width;
      EXPECT_EQ(beam.stats.expanded, mb.stats.expanded) << seed << " " << width;
      EXPECT_EQ(beam.best->words, mb.best->words) << seed << " " << width;
    }
  }
}

TEST(SearchEngines, MemoryBoundLimitsTheBeam) {
  BlockProblem p(random_block(2, 10, 0.2));
  Budget budget;
  budget.max_kept = 1;
  SearchResult narrow = make_search("beam:passes=1,prune=0,width=32")
                            ->run(p.space, p.root, p.objective, p.pairs, budget);
  SearchResult one = make_search("beam:passes=1,prune=0,width=1")
                         ->run(p.space, p.root, p.objective, p.pairs, Budget{});
  EXPECT_EQ(narrow.stats.expanded, one.stats.expanded);
  SearchResult mb = make_search("mb2fbs:beta1=4,beta2=4")->run(p.space, p.root, p.objective, p.pairs, budget);
  ASSERT_TRUE(mb.best.has_value());
}

TEST(SearchEngines, BestFirstProvesOptimalityUnderAMemoryBoundOnlyWhenNothingWasDropped) {
  BlockProblem p(random_block(4, 8, 0.2));
  Budget budget;
  budget.max_kept = 2;
  SearchResult r = make_search("bfbb")->run(p.space, p.root, p.objective, p.pairs, budget);
  ASSERT_TRUE(r.best.has_value());
  int optimum = models::brute_force_optimum(p.space.block())->makespan;
  if (r.optimal) {
        EXPECT_EQ(r.best_cost, optimum);
      }
}

// ProTuner-style MCTS finds the optimum of small blocks most of the time.
TEST(SearchEngines, MctsUsuallyFindsTheOptimumOfSmallBlocks) {
  int found = 0, total = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    BlockProblem p(random_block(seed, 6, 0.3));
    int optimum = models::brute_force_optimum(p.space.block())->makespan;
    Budget budget;
    budget.seed = seed;
    SearchResult r = make_search("mcts:iterations=60,ensemble=4")
                         ->run(p.space, p.root, p.objective, p.next, budget);
    found += r.best_cost == optimum;
    ++total;
  }
  EXPECT_GE(found, total * 8 / 10);
}

// The first depth-first dive with the next-instruction brancher is list scheduling.
TEST(SearchEngines, FirstDiveReproducesListScheduling) {
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    BlockProblem p(random_block(seed, 10, 0.25));
    std::vector<int> list = models::list_schedule(p.space.block());
    Candidate c = p.root;
    int steps = 0;
    while (!p.space.is_complete(c)) {
      std::vector<Decision> ds = p.next.branch(p.space, c);
      ASSERT_FALSE(ds.empty()) << seed;
      ASSERT_TRUE(p.space.apply(c, ds.front())) << seed;
      ++steps;
    }
    EXPECT_LE(steps, 9) << seed;
    EXPECT_EQ(models::issue_order(p.space, c, p.space.encoding()), list) << seed;
    // dfbb's first incumbent is at least as good (complete siblings met on the way count).
    Budget budget;
    budget.max_expanded = steps;
    SearchResult r = make_search("dfbb")->run(p.space, p.root, p.objective, p.next, budget);
    ASSERT_TRUE(r.best.has_value()) << seed;
    EXPECT_LE(r.best_cost, models::makespan(p.space.block(), list)) << seed;
  }
}

TEST(SearchEngines, BoundOfCandidatesIsAdmissibleAndExactOnImplementations) {
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    BlockProblem p(random_block(seed, 6, 0.25));
    // Walk random dives; at every node compare the bound with the subtree's brute force.
    Candidate c = p.root;
    std::mt19937_64 gen(seed);
    while (true) {
      models::PartialOrder po = models::partial_order(p.space, c, p.space.encoding());
      auto best = models::brute_force_optimum(p.space.block(), &po);
      ASSERT_TRUE(best.has_value()) << seed;
      double bound = p.objective.lower_bound(p.space, c);
      EXPECT_LE(bound, best->makespan) << seed;
      if (p.space.is_complete(c)) {
        EXPECT_EQ(bound, p.objective.cost(p.space, c)) << seed;
        break;
      }
      std::vector<Decision> ds = p.pairs.branch(p.space, c);
      Candidate next = c;
      ASSERT_TRUE(p.space.apply(next, ds[gen() % ds.size()])) << seed;
      EXPECT_GE(p.objective.lower_bound(p.space, next), bound) << "monotone, seed " << seed;
      c = next;
    }
  }
}

TEST(SearchFactory, NamesAndOptions) {
  std::vector<std::string> names = search_names();
  std::vector<std::string> expected = {"dfbb", "bfbb", "greedy", "beam", "mb2fbs", "mcts", "random", "exhaustive"};
  EXPECT_EQ(names, expected);
  for (const std::string& name : names) {
    auto s = make_search(name);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->name(), name);
  }
  EXPECT_EQ(make_search("beam:width=32,passes=3")->name(), "beam");
  EXPECT_EQ(make_search(" mb2fbs : beta1=28, beta2=4, beta=32")->name(), "mb2fbs");
  EXPECT_EQ(make_search("mcts:iterations=10,c=1.4,ensemble=4")->name(), "mcts");
  EXPECT_NE(search_help().find("beta1"), std::string::npos);
  EXPECT_FALSE(search_options("mcts").empty());
}

std::string error_of(const std::string& spec) {
  try {
    make_search(spec);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(SearchFactory, RejectsUnknownNamesAndOptions) {
  std::string unknown = error_of("astar");
  EXPECT_NE(unknown.find("unknown search 'astar'"), std::string::npos) << unknown;
  for (const std::string& name : search_names()) EXPECT_NE(unknown.find(name), std::string::npos) << unknown;
  EXPECT_NE(error_of("").find("unknown search ''"), std::string::npos);
  std::string bad_key = error_of("beam:depth=3");
  EXPECT_NE(bad_key.find("unknown option 'depth'"), std::string::npos) << bad_key;
  EXPECT_NE(bad_key.find("width"), std::string::npos) << bad_key;
  EXPECT_NE(error_of("beam:width=abc").find("needs a decimal number"), std::string::npos);
  EXPECT_NE(error_of("beam:width=0x10").find("needs a decimal number"), std::string::npos);
  EXPECT_NE(error_of("beam:width=2.5").find("integer"), std::string::npos);
  EXPECT_NE(error_of("beam:width=0").find("width"), std::string::npos);
  EXPECT_NE(error_of("beam:width").find("key=value"), std::string::npos);
  EXPECT_NE(error_of("beam:width=2,width=3").find("twice"), std::string::npos);
  EXPECT_NE(error_of("dfbb:order=random").find("brancher"), std::string::npos);
  EXPECT_NE(error_of("mcts:greedy=5,ensemble=2").find("greedy"), std::string::npos);
  EXPECT_NE(error_of("exhaustive:x=1").find("options: none"), std::string::npos);
  EXPECT_NE(error_of("mb2fbs:beta=0").find("beta"), std::string::npos);
}

}  // namespace
}  // namespace candor
