// Neighbours of a complete candidate (neighbours.h), the moves of autotuning's measured local
// search: one decision changed, the rest kept where the space allows, the order of measuring.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>
#include <set>
#include <stdexcept>

#include "neighbours.h"
#include "random_dive.h"
#include "test_spaces.h"

namespace candor {
namespace {

using testing::AssignmentObjective;
using testing::AssignmentSpace;
using testing::TilingObjective;
using testing::TilingSpace;

std::vector<int> every_var(const Space& space) {
  std::vector<int> order;
  for (int v = 0; v < space.num_vars(); ++v) order.push_back(v);
  return order;
}

std::vector<int> changed_vars(const Space& space, const Candidate& a, const Candidate& b) {
  std::vector<int> out;
  for (int v = 0; v < space.num_vars(); ++v)
    if (space.first_value(a, v) != space.first_value(b, v)) out.push_back(v);
  return out;
}

TEST(Neighbours, ChangeOneDecisionEnumsToEveryValueIntegersToTheNextOnes) {
  const TilingSpace space(/*enums=*/4, /*ints=*/5, /*seed=*/3);
  const TilingObjective objective;
  const Candidate root = *space.root();
  std::mt19937_64 rng(11);
  const Candidate centre = *random_dive(space, root, every_var(space), rng);

  const std::vector<Neighbour> around = neighbours(space, objective, root, centre, every_var(space));
  size_t expected = 0;
  for (int v = 0; v < space.num_vars(); ++v) {
    if (space.is_enum_var(v)) expected += 2;  // three values
    else expected += (space.first_value(centre, v) == 0 || space.first_value(centre, v) == 3) ? 1 : 2;
  }
  EXPECT_EQ(around.size(), expected);
  std::set<std::vector<Word>> distinct;
  for (const Neighbour& n : around) {
    EXPECT_TRUE(space.is_complete(n.candidate));
    EXPECT_TRUE(distinct.insert(n.candidate.words).second);
    EXPECT_EQ(changed_vars(space, centre, n.candidate), std::vector<int>{n.var});
    EXPECT_EQ(space.first_value(n.candidate, n.var), n.value);
    EXPECT_DOUBLE_EQ(n.cost, objective.cost(space, n.candidate));
    if (!space.is_enum_var(n.var)) {
      EXPECT_EQ(std::abs(n.value - space.first_value(centre, n.var)), 1);
    }
  }
}

TEST(Neighbours, CategoricalIntegersMoveToEveryValue) {
  // Their integers are labels (which Func hosts a stage): the nearest label is no nearer in
  // any other sense, so every other allowed value is a move.
  const TilingSpace space(/*enums=*/2, /*ints=*/5, /*seed=*/3, /*categorical=*/true);
  const TilingObjective objective;
  const Candidate root = *space.root();
  std::mt19937_64 rng(11);
  const Candidate centre = *random_dive(space, root, every_var(space), rng);

  const std::vector<Neighbour> around = neighbours(space, objective, root, centre, every_var(space));
  std::map<int, std::set<int>> moved_to;
  for (const Neighbour& n : around) moved_to[n.var].insert(n.value);
  for (int v = 0; v < space.num_vars(); ++v) {
    EXPECT_FALSE(space.has_ordered_values(v));
    std::set<int> others;
    for (int value = 0; value < space.universe_size(v); ++value)
      if (value != space.first_value(centre, v)) others.insert(value);
    EXPECT_EQ(moved_to[v], others) << space.var_name(v);
  }
}

TEST(Neighbours, EachDecisionsCheapestMoveComesBeforeAnySecondMove) {
  const TilingSpace space(/*enums=*/6, /*ints=*/6, /*seed=*/5);
  const TilingObjective objective;
  const Candidate root = *space.root();
  std::mt19937_64 rng(2);
  const Candidate centre = *random_dive(space, root, every_var(space), rng);

  const std::vector<Neighbour> around = neighbours(space, objective, root, centre, every_var(space));
  std::map<int, int> moves_of;
  for (const Neighbour& n : around) ++moves_of[n.var];
  const size_t first_round = moves_of.size();
  ASSERT_LT(first_round, around.size());
  std::set<int> seen;
  for (size_t i = 0; i < around.size(); ++i) {
    EXPECT_EQ(i < first_round, seen.insert(around[i].var).second) << "move " << i;
    if (i + 1 != first_round && i + 1 < around.size()) {
      EXPECT_LE(around[i].cost, around[i + 1].cost) << "move " << i;
    }
  }
  // A decision's second move costs no less than its first.
  std::map<int, double> first_cost;
  for (const Neighbour& n : around) {
    if (first_cost.count(n.var)) {
      EXPECT_GE(n.cost, first_cost[n.var]);
    } else {
      first_cost[n.var] = n.cost;
    }
  }
}

TEST(Neighbours, AMoveThatRulesOutAnotherDecisionCompletesItOnTheEstimate) {
  // All different: moving task t to the slot of task u frees u, which takes its cheapest
  // slot left; every other task keeps its slot.
  const AssignmentSpace space = AssignmentSpace::random(/*tasks=*/4, /*slots=*/6, /*seed=*/9);
  const AssignmentObjective objective;
  const Candidate root = *space.root();
  std::mt19937_64 rng(4);
  const Candidate centre = *random_dive(space, root, every_var(space), rng);

  const std::vector<Neighbour> around = neighbours(space, objective, root, centre, every_var(space));
  ASSERT_FALSE(around.empty());
  int displacing = 0;
  for (const Neighbour& n : around) {
    EXPECT_TRUE(space.satisfies_all(n.candidate));
    EXPECT_EQ(space.first_value(n.candidate, n.var), n.value);
    const std::vector<int> changed = changed_vars(space, centre, n.candidate);
    int displaced = -1;
    for (int t = 0; t < space.tasks(); ++t)
      if (t != n.var && space.first_value(centre, t) == n.value) displaced = t;
    if (displaced < 0) {
      EXPECT_EQ(changed, std::vector<int>{n.var});
      continue;
    }
    ++displacing;
    ASSERT_EQ(changed.size(), 2u);
    int cheapest_left = 1 << 30;
    for (int s = 0; s < space.slots(); ++s) {
      bool taken = s == n.value;
      for (int t = 0; t < space.tasks(); ++t)
        if (t != displaced && t != n.var && space.first_value(centre, t) == s) taken = true;
      if (!taken) cheapest_left = std::min(cheapest_left, space.cost_of(displaced, s));
    }
    EXPECT_EQ(space.cost_of(displaced, space.first_value(n.candidate, displaced)), cheapest_left);
  }
  EXPECT_GT(displacing, 0);
}

TEST(Descend, ReachesALocalMinimumNoWorseThanTheStart) {
  const TilingSpace space(/*enums=*/6, /*ints=*/6, /*seed=*/5);
  const TilingObjective objective;
  const Candidate root = *space.root();
  std::mt19937_64 rng(2);
  const Candidate start = *random_dive(space, root, every_var(space), rng);

  const Descent d = descend(space, objective, root, start, every_var(space), Budget{});
  ASSERT_TRUE(d.converged);
  EXPECT_GT(d.moves, 0);
  EXPECT_LT(d.cost, objective.cost(space, start));
  EXPECT_DOUBLE_EQ(d.cost, objective.cost(space, d.best));
  EXPECT_TRUE(space.satisfies_all(d.best));
  for (const Neighbour& n : neighbours(space, objective, root, d.best, every_var(space)))
    EXPECT_GE(n.cost, d.cost) << "a cheaper neighbour changes var " << n.var;
}

// Per object, a placement (root or inside) then a tile size: a tile good at the root is bad
// inside, so moving the placement alone never pays, and moving it with its tile does.
class PlacementSpace : public Space {
 public:
  explicit PlacementSpace(int objects) {
    for (int o = 0; o < objects; ++o) {
      VarLayout place;
      place.decl = 0;
      place.args = {o};
      place.universe_size = 2;
      add_var(place);
      VarLayout tile;
      tile.decl = 1;
      tile.args = {o};
      tile.is_enum = false;
      tile.universe_size = 4;
      tile.ints = {1, 2, 4, 8};
      add_var(tile);
    }
    finish_layout();
  }
  static constexpr int kRoot = 0, kInside = 1;
  // Root: 10 at tile 2, one more per halving or doubling. Inside: 2 at tile 8, six more per halving.
  static double cost_of(int place, int64_t tile) {
    const double steps = std::log2(static_cast<double>(tile));
    return place == kRoot ? 10 + std::abs(steps - 1) : 2 + 6 * std::abs(steps - 3);
  }

 protected:
  std::string decl_name(int decl) const override { return decl == 0 ? "place" : "tile"; }
  std::string counter_decl_name(int) const override { return "none"; }
  std::string object_name(int, int, int object) const override { return "f" + std::to_string(object); }
  std::string enum_value_name(int, int value) const override { return value == kRoot ? "root" : "inside"; }
  std::string counter_object_name(int, int, int) const override { return "?"; }
  void post(PropagationContext&) const override {}
  void on_change(PropagationContext&, int) const override {}
  bool check_clauses(const Candidate&) const override { return true; }
};

// Per object, the cheapest placement and tile its domains still allow.
class PlacementObjective : public Objective {
 public:
  double cost(const Space& space, const Candidate& c) const override { return lower_bound(space, c); }
  double lower_bound(const Space& space, const Candidate& c) const override {
    double sum = 0;
    for (int place_var = 0; place_var < space.num_vars(); place_var += 2) {
      double best = std::numeric_limits<double>::infinity();
      for (int place : space.values(c, place_var))
        for (int tile : space.values(c, place_var + 1))
          best = std::min(best, PlacementSpace::cost_of(place, space.value_int(place_var + 1, tile)));
      sum += best;
    }
    return sum;
  }
};

Candidate every_object_at_the_root_with_tile_2(const PlacementSpace& space) {
  Candidate start = *space.root();
  for (int place_var = 0; place_var < space.num_vars(); place_var += 2) {
    if (!space.fix(start, place_var, PlacementSpace::kRoot) || !space.fix(start, place_var + 1, 1))
      throw std::logic_error("PlacementSpace: cannot fix the start");
  }
  return start;
}

TEST(Descend, MovesAChoiceTogetherWithTheDecisionsThatGoWithIt) {
  const PlacementSpace space(2);
  const PlacementObjective objective;
  const Candidate root = *space.root();
  const Candidate start = every_object_at_the_root_with_tile_2(space);
  ASSERT_DOUBLE_EQ(objective.cost(space, start), 20);
  // One decision changed, the rest kept: nothing cheaper (inside with tile 2 costs 14).
  for (const Neighbour& n : neighbours(space, objective, root, start, every_var(space)))
    EXPECT_GE(n.cost, 20) << "var " << n.var;

  const Descent d = descend(space, objective, root, start, every_var(space), Budget{});
  EXPECT_TRUE(d.converged);
  EXPECT_EQ(d.moves, 2);
  EXPECT_DOUBLE_EQ(d.cost, 4);  // both inside, tile 8
  for (int place_var = 0; place_var < space.num_vars(); place_var += 2) {
    EXPECT_EQ(space.first_value(d.best, place_var), PlacementSpace::kInside);
    EXPECT_EQ(space.value_int(place_var + 1, space.first_value(d.best, place_var + 1)), 8);
  }
}

// Two objects of PlacementSpace coupled: object 0 (a host: 5 at tile 2, one more per halving
// or doubling, +100 inside) and object 1, which pays inside only once the host's tile is 8
// (+5 per halving below it). The start, both at the root with tile 2 (15), is a local minimum
// even for block moves: object 1 inside with its tile re-made costs 17. Descending from that
// kick widens the host's tile: 13 at tile 4, 9 at tile 8.
class CoupledObjective : public Objective {
 public:
  double cost(const Space& space, const Candidate& c) const override { return lower_bound(space, c); }
  double lower_bound(const Space& space, const Candidate& c) const override {
    double best = std::numeric_limits<double>::infinity();
    for (int host_place : space.values(c, 0))
      for (int host_tile : space.values(c, 1))
        for (int place : space.values(c, 2))
          for (int tile : space.values(c, 3))
            best = std::min(best, of(host_place, space.value_int(1, host_tile), place, space.value_int(3, tile)));
    return best;
  }
  static double of(int host_place, int64_t host_tile, int place, int64_t tile) {
    const double host_steps = std::log2(static_cast<double>(host_tile)), steps = std::log2(static_cast<double>(tile));
    const double host = 5 + std::abs(host_steps - 1) + (host_place == PlacementSpace::kInside ? 100 : 0);
    if (place == PlacementSpace::kRoot) return host + 10 + std::abs(steps - 1);
    return host + 2 + 6 * std::abs(steps - 3) + 5 * (3 - host_steps);
  }
};

TEST(IteratedDescent, KicksAPlacementOutOfALocalMinimumThatDescentKeeps) {
  const PlacementSpace space(2);
  const CoupledObjective objective;
  const Candidate root = *space.root();
  const Candidate start = every_object_at_the_root_with_tile_2(space);
  ASSERT_DOUBLE_EQ(objective.cost(space, start), 15);

  const Descent local = descend(space, objective, root, start, every_var(space), Budget{});
  EXPECT_TRUE(local.converged);
  EXPECT_DOUBLE_EQ(local.cost, 15);

  const Descent d = iterated_descent(space, objective, root, start, every_var(space), Budget{});
  EXPECT_TRUE(d.converged);
  EXPECT_DOUBLE_EQ(d.cost, 9);
  EXPECT_EQ(space.first_value(d.best, 2), PlacementSpace::kInside);
  EXPECT_EQ(space.value_int(1, space.first_value(d.best, 1)), 8);
  EXPECT_EQ(space.value_int(3, space.first_value(d.best, 3)), 8);
}

TEST(Descend, StopsAtTheNodeLimit) {
  const TilingSpace space(/*enums=*/6, /*ints=*/6, /*seed=*/5);
  const TilingObjective objective;
  const Candidate root = *space.root();
  std::mt19937_64 rng(2);
  const Candidate start = *random_dive(space, root, every_var(space), rng);
  Budget budget;
  budget.max_expanded = 3;

  const Descent d = descend(space, objective, root, start, every_var(space), budget);
  EXPECT_FALSE(d.converged);
  EXPECT_LE(d.stats.expanded, 3);
  EXPECT_LE(d.cost, objective.cost(space, start));
}

}  // namespace
}  // namespace candor
