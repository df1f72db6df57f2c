// Basic-block models: the .bb parser and its diagnostics, the issue model, brute force, list
// scheduling, and the admissibility / exactness / monotonicity of the lower bound.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <numeric>
#include <random>

#include "basic_block.h"

namespace candor::models {
namespace {

std::string parse_error(const std::string& text, const std::string& file = "<input>") {
  try {
    parse_basic_block(text, file);
  } catch (const ParseError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(BasicBlockParser, ParsesInstructionsCommentsAndBlankLines) {
  BasicBlock b = parse_basic_block(
      "# a small block\n"
      "\n"
      "load_a 4            # reads memory\n"
      "load_b\t4\r\n"
      "  mul 3 load_a load_b\n"
      "add 1 mul load_a mul   # mul twice counts once\n");
  ASSERT_EQ(b.size(), 4);
  EXPECT_EQ(b.names, (std::vector<std::string>{"load_a", "load_b", "mul", "add"}));
  EXPECT_EQ(b.latency, (std::vector<int>{4, 4, 3, 1}));
  EXPECT_EQ(b.deps[2], (std::vector<int>{0, 1}));
  EXPECT_EQ(b.deps[3], (std::vector<int>{2, 0}));
  BasicBlock again = parse_basic_block(to_text(b));
  EXPECT_EQ(again.names, b.names);
  EXPECT_EQ(again.latency, b.latency);
  EXPECT_EQ(again.deps, b.deps);
}

TEST(BasicBlockParser, ErrorsAreLocated) {
  struct Case {
    std::string text, expected;
  };
  std::vector<Case> cases = {
      {"1abc 3\n", "<input>:1:1: error: invalid instruction name '1abc'"},
      {"a 1\n  b$ 2\n", "<input>:2:3: error: invalid instruction name 'b$'"},
      {"a 0\n", "<input>:1:3: error: latency must be positive, got '0'"},
      {"a -2\n", "<input>:1:3: error: latency must be positive, got '-2'"},
      {"a x\n", "<input>:1:3: error: latency must be a positive integer, got 'x'"},
      {"a 2.5\n", "<input>:1:3: error: latency must be a positive integer, got '2.5'"},
      {"a 99999999999\n", "<input>:1:3: error: latency '99999999999' is too large"},
      {"a\n", "<input>:1:2: error: expected a latency after 'a'"},
      {"a # 3\n", "<input>:1:2: error: expected a latency after 'a'"},
      {"a 1\nb 2 c\n", "<input>:2:5: error: unknown instruction 'c'"},
      {"a 1 b\nb 2\n", "<input>:1:5: error: dependency 'b' is defined later (line 2)"},
      {"a 1\nb 1 a\na 2\n", "<input>:3:1: error: duplicate instruction 'a' (first defined at line 1)"},
      {"a 1 a\n", "<input>:1:5: error: instruction 'a' cannot depend on itself"},
      {"a 1\nb 1   a-1\n", "<input>:2:7: error: invalid dependency name 'a-1'"},
      {"", "<input>:1:1: error: no instructions (the basic block is empty)"},
      {"# nothing here\n\n   \n", "<input>:1:1: error: no instructions"},
  };
  for (const Case& c : cases) {
    std::string error = parse_error(c.text);
    EXPECT_EQ(error.rfind(c.expected, 0), 0u) << "input:\n" << c.text << "got: " << error;
  }
  EXPECT_EQ(parse_error("a 1\nb 1 c\n", "blocks/x.bb").rfind("blocks/x.bb:2:5: error:", 0), 0u);
}

TEST(BasicBlockParser, ReadsFiles) {
  std::string path = ::testing::TempDir() + "candor_test_block.bb";
  {
    std::ofstream out(path);
    out << "a 2\nb 3 a\n";
  }
  BasicBlock b = read_basic_block(path);
  EXPECT_EQ(b.size(), 2);
  try {
    read_basic_block(path + ".missing");
    FAIL() << "no error for a missing file";
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot read file"), std::string::npos);
  }
  {
    std::ofstream out(path);
    out << "a 2\nb 0 a\n";
  }
  EXPECT_EQ(std::string([&] {
              try {
                read_basic_block(path);
              } catch (const ParseError& e) {
                return std::string(e.what());
              }
              return std::string();
            }()).rfind(path + ":2:3: error:", 0),
            0u);
}

TEST(BasicBlockModel, MakespanOfAHandComputedExample) {
  BasicBlock b = parse_basic_block("a 3\nb 1 a\nc 2\nd 1 b c\n");
  // a c b d: a@0, c@1, b@max(2, 0+3)=3, d@max(4, 3+1, 1+2)=4; ends max(3, 3, 4, 5) = 5.
  EXPECT_EQ(issue_times(b, {0, 2, 1, 3}), (std::vector<Cycles>{0, 3, 1, 4}));
  EXPECT_EQ(makespan(b, {0, 2, 1, 3}), 5);
  // a b c d: a@0, b@3, c@4, d@max(5, 4, 6)=6; ends 7.
  EXPECT_EQ(makespan(b, {0, 1, 2, 3}), 7);
  // c a b d: c@0, a@1, b@4, d@max(5, 5, 2)=5; ends 6.
  EXPECT_EQ(makespan(b, {2, 0, 1, 3}), 6);
  EXPECT_FALSE(is_valid_order(b, {1, 0, 2, 3}));
  EXPECT_FALSE(is_valid_order(b, {0, 0, 2, 3}));
  EXPECT_FALSE(is_valid_order(b, {0, 2, 1}));
  EXPECT_THROW(makespan(b, {1, 0, 2, 3}), std::invalid_argument);
  auto best = brute_force_optimum(b);
  ASSERT_TRUE(best.has_value());
  EXPECT_EQ(best->makespan, 5);
  EXPECT_EQ(list_schedule(b), (std::vector<int>{0, 2, 1, 3}));
  EXPECT_EQ(lower_bound(b, PartialOrder(4)), 5);
  EXPECT_EQ(critical_path_priority(b), (std::vector<Cycles>{5, 2, 3, 1}));
}

BasicBlock random_block(std::mt19937_64& gen, int n) {
  RandomBlockOptions o;
  o.size = n;
  o.edge_probability = 0.1 * static_cast<double>(gen() % 6);
  o.min_latency = 1;
  o.max_latency = 1 + static_cast<int>(gen() % 8);
  o.seed = gen();
  return random_basic_block(o);
}

TEST(BasicBlockModel, RandomBlocksAreDeterministicAndWellFormed) {
  RandomBlockOptions o;
  o.size = 30;
  o.edge_probability = 0.2;
  o.min_latency = 2;
  o.max_latency = 5;
  o.seed = 42;
  BasicBlock a = random_basic_block(o), b = random_basic_block(o);
  EXPECT_EQ(to_text(a), to_text(b));
  o.seed = 43;
  EXPECT_NE(to_text(a), to_text(random_basic_block(o)));
  for (int i = 0; i < a.size(); ++i) {
    EXPECT_GE(a.latency[i], 2);
    EXPECT_LE(a.latency[i], 5);
    for (int d : a.deps[i]) EXPECT_LT(d, i);
  }
  EXPECT_EQ(to_text(parse_basic_block(to_text(a))), to_text(a));
}

TEST(BasicBlockModel, BruteForceMatchesEnumeratingPermutations) {
  std::mt19937_64 gen(7);
  for (int trial = 0; trial < 60; ++trial) {
    int n = 2 + trial % 6;
    BasicBlock b = random_block(gen, n);
    std::vector<int> perm(n);
    std::iota(perm.begin(), perm.end(), 0);
    Cycles best = Cycles(1) << 40;
    do {
      if (is_valid_order(b, perm)) best = std::min(best, makespan(b, perm));
    } while (std::next_permutation(perm.begin(), perm.end()));
    auto bf = brute_force_optimum(b);
    ASSERT_TRUE(bf.has_value());
    EXPECT_EQ(bf->makespan, best) << to_text(b);
    EXPECT_EQ(makespan(b, bf->order), best);
  }
}

TEST(BasicBlockModel, ListSchedulingProducesValidOrders) {
  std::mt19937_64 gen(11);
  for (int trial = 0; trial < 200; ++trial) {
    int n = 1 + static_cast<int>(gen() % 60);
    BasicBlock b = random_block(gen, n);
    std::vector<int> order = list_schedule(b);
    ASSERT_TRUE(is_valid_order(b, order)) << to_text(b);
    EXPECT_GE(makespan(b, order), lower_bound(b, PartialOrder(n)));
    if (n <= 8) {
      EXPECT_GE(makespan(b, order), brute_force_optimum(b)->makespan);
    }
    // With constraints: a completion of them.
    PartialOrder p(n);
    const std::vector<int>& topo = order;
    for (int k = 0; k < n; ++k) {
      int a = static_cast<int>(gen() % n), c = static_cast<int>(gen() % n);
      int pa = std::find(topo.begin(), topo.end(), a) - topo.begin();
      int pc = std::find(topo.begin(), topo.end(), c) - topo.begin();
      if (pa < pc) p.set_before(a, c);
    }
    std::vector<int> constrained = list_schedule(b, &p);
    ASSERT_TRUE(is_valid_order(b, constrained));
    for (int x = 0; x < n; ++x) {
      for (int y = 0; y < n; ++y) {
        if (p.before(x, y)) {
          EXPECT_LT(std::find(constrained.begin(), constrained.end(), x),
                    std::find(constrained.begin(), constrained.end(), y));
        }
      }
    }
  }
  // A cyclic constraint has no completion.
  BasicBlock b = parse_basic_block("a 1\nb 1\n");
  PartialOrder p(2);
  p.set_before(1, 0);
  EXPECT_EQ(list_schedule(b, &p), (std::vector<int>{1, 0}));
  BasicBlock dep = parse_basic_block("a 1\nb 1 a\n");
  EXPECT_TRUE(list_schedule(dep, &p).empty());
}

// A random partial order: some pairs of a valid total order (consistent), or some pairs
// with random directions (possibly contradicting each other or the dependencies).
PartialOrder random_partial(std::mt19937_64& gen, const BasicBlock& b, bool consistent) {
  const int n = b.size();
  PartialOrder p(n);
  std::vector<int> total;
  if (consistent) {
    PartialOrder shuffled(n);
    std::vector<int> keys(n);
    for (int& k : keys) k = static_cast<int>(gen() % 1000);
    for (int x = 0; x < n; ++x) {
      for (int y = 0; y < n; ++y) {
        if (x != y && keys[x] < keys[y]) shuffled.set_before(x, y);
      }
    }
    total = list_schedule(b, nullptr);
    // A random valid order: list scheduling constrained by random keys where consistent.
    std::vector<int> random_valid = list_schedule(b, &shuffled);
    if (!random_valid.empty()) total = random_valid;
  }
  double density = static_cast<double>(gen() % 101) / 100.0;
  for (int x = 0; x < n; ++x) {
    for (int y = x + 1; y < n; ++y) {
      if (static_cast<double>(gen() % 1000) / 1000.0 >= density) continue;
      if (consistent) {
        int px = std::find(total.begin(), total.end(), x) - total.begin();
        int py = std::find(total.begin(), total.end(), y) - total.begin();
        if (px < py) {
          p.set_before(x, y);
        } else {
          p.set_before(y, x);
        }
      } else if (gen() % 2) {
        p.set_before(x, y);
      } else {
        p.set_before(y, x);
      }
    }
  }
  return p;
}

TEST(BasicBlockBound, AdmissibleOnRandomPartialOrders) {
  std::mt19937_64 gen(2024);
  int checked = 0, infeasible = 0, tight = 0;
  for (int trial = 0; trial < 1500; ++trial) {
    int n = 2 + trial % 7;  // 2..8
    BasicBlock b = random_block(gen, n);
    bool consistent = trial % 3 != 0;
    PartialOrder p = random_partial(gen, b, consistent);
    BoundDetail detail;
    Cycles bound = lower_bound(b, p, &detail);
    auto best = brute_force_optimum(b, &p);
    if (!best) {
      EXPECT_EQ(bound, kInfeasible) << "trial " << trial << "\n" << to_text(b);
      ++infeasible;
      continue;
    }
    ASSERT_LE(bound, best->makespan) << "trial " << trial << "\n" << to_text(b);
    EXPECT_LE(detail.critical_path, bound);
    tight += bound == best->makespan;
    ++checked;
  }
  EXPECT_GT(checked, 1000);
  EXPECT_GT(infeasible, 10);
  // Informative: how often the bound is exact on these random subtrees.
  std::cout << "[          ] bound exact on " << tight << " of " << checked << " subtrees\n";
}

TEST(BasicBlockBound, ExactOnCompleteOrdersAndMonotone) {
  std::mt19937_64 gen(99);
  for (int trial = 0; trial < 300; ++trial) {
    int n = 1 + static_cast<int>(gen() % 25);
    BasicBlock b = random_block(gen, n);
    // A random valid order, grown pair by pair: the bound never decreases.
    PartialOrder keys(n);
    std::vector<int> rank(n);
    for (int& r : rank) r = static_cast<int>(gen() % 1000);
    for (int x = 0; x < n; ++x) {
      for (int y = 0; y < n; ++y) {
        if (x != y && rank[x] < rank[y]) keys.set_before(x, y);
      }
    }
    std::vector<int> order = list_schedule(b, &keys);
    if (order.empty()) order = list_schedule(b);
    ASSERT_TRUE(is_valid_order(b, order));
    EXPECT_EQ(lower_bound(b, PartialOrder::from_total(order)), makespan(b, order))
        << "trial " << trial << "\n" << to_text(b);
    std::vector<std::pair<int, int>> pairs;
    for (int x = 0; x < n; ++x) {
      for (int y = x + 1; y < n; ++y) pairs.push_back({order[x], order[y]});
    }
    std::shuffle(pairs.begin(), pairs.end(), gen);
    PartialOrder p(n);
    Cycles previous = lower_bound(b, p);
    for (auto [x, y] : pairs) {
      p.set_before(x, y);
      Cycles now = lower_bound(b, p);
      ASSERT_GE(now, previous) << "trial " << trial;
      previous = now;
    }
    EXPECT_EQ(previous, makespan(b, order));
  }
}

}  // namespace
}  // namespace candor::models
