// Property tests of generated spaces against brute force, one spec per construct family,
// hundreds of random tiny instances each. A failure prints the seed that replays it.
#include <gtest/gtest.h>

#include <random>

#include "coloring.gen.h"
#include "ordering.gen.h"
#include "property_harness.h"
#include "threads.gen.h"
#include "tiling.gen.h"

namespace {

using candor::testing::Assignment;
using candor::testing::check_against_brute_force;

constexpr int kInstances = 150;

bool coin(std::mt19937_64& rng, double p) {
  return std::uniform_real_distribution<double>(0, 1)(rng) < p;
}

TEST(GeneratedSpaceProperties, ColoringEnumsAliasesRelations) {
  namespace sp = candor::spaces::coloring;
  for (uint64_t seed = 0; seed < kInstances; ++seed) {
    std::mt19937_64 rng(seed);
    sp::Input in;
    in.node_count = 2 + static_cast<int>(rng() % 4);
    for (int a = 0; a < in.node_count; ++a) {
      if (coin(rng, 0.3)) in.warm_only.push_back({a});
      for (int b = 0; b < in.node_count; ++b) {
        if (coin(rng, 0.3)) in.edge.push_back({a, b});
        if (coin(rng, 0.1)) in.same.push_back({a, b});
      }
    }
    sp::GeneratedSpace space(in);
    auto has = [](const std::vector<std::vector<int>>& facts, std::vector<int> t) {
      return std::find(facts.begin(), facts.end(), t) != facts.end();
    };
    auto solution = [&](const Assignment& x) {
      auto color = [&](int n) { return x[space.color_ref(n).var]; };
      for (int a = 0; a < in.node_count; ++a) {
        if (has(in.warm_only, {a}) && color(a) == sp::Color::BLUE) return false;
        for (int b = 0; b < in.node_count; ++b) {
          if (a != b && has(in.edge, {a, b}) && color(a) == color(b)) return false;
          if (has(in.same, {a, b}) && color(a) != color(b)) return false;
          if (a != b && color(a) == sp::Color::BLUE && color(b) == sp::Color::BLUE &&
              !has(in.edge, {a, b}) && !has(in.edge, {b, a}))
            return false;
        }
      }
      return true;
    };
    std::string failure = check_against_brute_force(space, solution, seed);
    ASSERT_EQ(failure, "") << "seed " << seed;
  }
}

TEST(GeneratedSpaceProperties, OrderingSymmetryAndTransitivity) {
  namespace sp = candor::spaces::ordering;
  for (uint64_t seed = 0; seed < kInstances; ++seed) {
    std::mt19937_64 rng(seed);
    sp::Input in;
    in.item_count = 2 + static_cast<int>(rng() % 3);
    for (int a = 0; a < in.item_count; ++a) {
      for (int b = 0; b < in.item_count; ++b) {
        if (a != b && coin(rng, 0.15)) in.before.push_back({a, b});
      }
    }
    sp::GeneratedSpace space(in);
    const int n = in.item_count;
    auto solution = [&](const Assignment& x) {
      auto before = [&](int a, int b) {
        sp::ChoiceRef r = space.order_ref(a, b);
        int v = x[r.var];
        return (r.mirrored ? 1 - v : v) == sp::Order::BEFORE;
      };
      auto together = [&](int a, int b) { return x[space.together_ref(a, b).var] == sp::Bool::YES; };
      for (const auto& t : in.before) {
        if (!before(t[0], t[1])) return false;
      }
      for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b)
          for (int c = 0; c < n; ++c) {
            if (a == b || b == c || a == c) continue;
            if (before(a, b) && before(b, c) && !before(a, c)) return false;
            if (together(a, b) && together(b, c) && !together(a, c)) return false;
            if (together(a, b) && before(a, c) && !before(b, c)) return false;
          }
      return true;
    };
    std::string failure = check_against_brute_force(space, solution, seed);
    ASSERT_EQ(failure, "") << "seed " << seed;
  }
}

TEST(GeneratedSpaceProperties, TilingIntegersParamsParameterisedSets) {
  namespace sp = candor::spaces::tiling;
  for (uint64_t seed = 0; seed < kInstances; ++seed) {
    std::mt19937_64 rng(seed);
    sp::Input in;
    in.stage_count = 1 + static_cast<int>(rng() % 2);
    in.loop_count = 2 + static_cast<int>(rng() % 3);
    in.limit = 2 + static_cast<int>(rng() % 6);
    in.loops.assign(in.stage_count, {});
    for (int l = 0; l < in.loop_count; ++l) {
      in.loops[rng() % in.stage_count].push_back(l);
      in.extent[{l}] = 1 + static_cast<int>(rng() % 10);
      std::vector<int64_t> sizes;
      for (int64_t s : {1, 2, 4, 8}) {
        if (coin(rng, 0.7)) sizes.push_back(s);
      }
      if (sizes.empty()) sizes.push_back(1);
      in.sizes[{l}] = sizes;
      for (int m = 0; m < in.loop_count; ++m) {
        if (l != m && coin(rng, 0.2)) in.inner.push_back({l, m});
      }
    }
    sp::GeneratedSpace space(in);
    auto solution = [&](const Assignment& x) {
      auto tile = [&](int l) {
        int var = space.tile_ref(l).var;
        return space.value_int(var, x[var]);
      };
      auto kind = [&](int l) { return x[space.kind_ref(l).var]; };
      for (int l = 0; l < in.loop_count; ++l) {
        if (tile(l) > in.extent[{l}]) return false;
        if (kind(l) == sp::Kind::VECTOR && tile(l) != 4 && tile(l) != 8) return false;
        if (in.extent[{l}] < *in.limit && kind(l) != sp::Kind::SERIAL) return false;
      }
      for (const auto& t : in.inner) {
        if (tile(t[0]) > tile(t[1])) return false;
        if (tile(t[0]) == in.extent[{t[1]}] && kind(t[1]) != sp::Kind::SERIAL) return false;
      }
      for (const auto& loops : in.loops) {
        int parallel = 0;
        for (int l : loops) parallel += kind(l) == sp::Kind::PARALLEL;
        if (parallel > 1) return false;
      }
      return true;
    };
    std::string failure = check_against_brute_force(space, solution, seed);
    ASSERT_EQ(failure, "") << "seed " << seed;
  }
}

TEST(GeneratedSpaceProperties, ThreadsCounters) {
  namespace sp = candor::spaces::threads;
  for (uint64_t seed = 0; seed < kInstances; ++seed) {
    std::mt19937_64 rng(seed);
    sp::Input in;
    in.kernel_count = 1 + static_cast<int>(rng() % 2);
    in.dim_count = 2 + static_cast<int>(rng() % 3);
    in.max_threads = 4 + static_cast<int>(rng() % 60);
    in.dims.assign(in.kernel_count, {});
    for (int d = 0; d < in.dim_count; ++d) {
      if (coin(rng, 0.9)) in.dims[rng() % in.kernel_count].push_back(d);
      in.cost[{d}] = 1 + static_cast<int>(rng() % 4);
      std::vector<int64_t> sizes;
      for (int64_t s : {1, 2, 4, 8, 16, 32}) {
        if (coin(rng, 0.5)) sizes.push_back(s);
      }
      if (sizes.empty()) sizes.push_back(2);
      if (sizes.size() > 3) sizes.resize(3);
      in.sizes[{d}] = sizes;
    }
    sp::GeneratedSpace space(in);
    auto solution = [&](const Assignment& x) {
      for (const auto& dims : in.dims) {
        int64_t threads = 1, thread_dims = 0, big = 0;
        for (int d : dims) {
          int size_var = space.size_ref(d).var;
          int64_t size = space.value_int(size_var, x[size_var]);
          if (x[space.kind_ref(d).var] == sp::Kind::THREAD) {
            threads *= size;
            ++thread_dims;
          }
          if (in.cost[{d}] > 1 && size >= 4) big += in.cost[{d}];
        }
        if (threads > *in.max_threads || thread_dims > 2 || big > 5) return false;
      }
      return true;
    };
    std::string failure = check_against_brute_force(space, solution, seed);
    ASSERT_EQ(failure, "") << "seed " << seed;
  }
}

TEST(GeneratedSpaceInput, BadInputIsRejectedWithAClearMessage) {
  namespace sp = candor::spaces::tiling;
  sp::Input in;
  in.stage_count = 1;
  in.loop_count = 2;
  in.limit = 3;
  in.loops = {{0, 5}};
  try {
    sp::GeneratedSpace space(in);
    FAIL() << "accepted an object outside its set";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("outside set 'loop'"), std::string::npos) << e.what();
  }
  in.loops = {{0, 1}};
  in.extent[{0}] = 4;  // extent of loop 1 missing
  try {
    sp::GeneratedSpace space(in);
    FAIL() << "accepted a missing param";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("param 'extent' has no value"), std::string::npos) << e.what();
  }
}

}  // namespace

namespace {

TEST(GeneratedSpacePrinting, PrintsEveryChoiceWithItsRemainingValues) {
  namespace sp = candor::spaces::ordering;
  sp::Input in;
  in.item_count = 3;
  in.item_names = {"load", "mul", "store"};
  in.before = {{0, 1}, {1, 2}};
  sp::GeneratedSpace space(in);
  std::optional<candor::Candidate> root = space.root();
  ASSERT_TRUE(root);
  const std::string text = space.print(*root);
  // Dependencies and transitivity fix the order; `together` stays open.
  EXPECT_NE(text.find("order(load, mul) = {BEFORE}\n"), std::string::npos) << text;
  EXPECT_NE(text.find("order(load, store) = {BEFORE}\n"), std::string::npos) << text;
  EXPECT_NE(text.find("together(mul, store) = {NO, YES}\n"), std::string::npos) << text;
}

}  // namespace
