// Every search engine, on every example app, with a small budget: the schedule it returns
// compiles and matches the reference output; branch-and-bound reports how much of the
// tree its bound pruned.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <set>

#include "apps.h"
#include "halide_bridge/compile.h"
#include "halide_bridge/directives.h"
#include "models/halide/machine.h"
#include "scheduler.h"

namespace {

namespace hb = candor::halide_bridge;

const candor::models::halide::MachineDescription& machine() {
  static const auto m = candor::models::halide::load_or_calibrate(candor::models::halide::default_machine_path());
  return m;
}

// Pinned decisions hold in the schedule the search returns; a pin naming no choice, or a
// value the space does not allow, is an error that names it.
TEST(SchedulerPins, PinnedDecisionsHoldAndBadPinsAreNamed) {
  const hb::App* app = candor::apps::find_app("matmul");
  ASSERT_NE(app, nullptr);
  const hb::KernelDescription kd = hb::describe_app(app->build(), hb::host_target());
  candor::scheduler::ScheduleRequest request;
  request.search = "greedy";
  request.budget.max_expanded = 200;
  request.pins = {{"location(dot)", "ROOT"}, {"tile(dot.update(0).x)", "16"}};
  const auto outcome = candor::scheduler::schedule_kernel(kd, machine(), request);
  ASSERT_FALSE(outcome.candidates.empty());
  const hb::FuncSchedule& dot = outcome.candidates[0].schedule.funcs.at("dot");
  EXPECT_EQ(dot.compute.kind, hb::Location::Kind::Root);
  ASSERT_GE(dot.stages.size(), 2u);
  ASSERT_FALSE(dot.stages[1].splits.empty());
  EXPECT_EQ(dot.stages[1].splits[0].var, "x");
  EXPECT_EQ(dot.stages[1].splits[0].factor, 16);

  auto error_of = [&](std::vector<std::pair<std::string, std::string>> pins) {
    request.pins = std::move(pins);
    try {
      candor::scheduler::schedule_kernel(kd, machine(), request);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error_of({{"tile(nothing.x)", "8"}}).find("no choice 'tile(nothing.x)'"), std::string::npos);
  EXPECT_NE(error_of({{"location(matmul)", "INLINE"}}).find("location(matmul)=INLINE is not allowed"),
            std::string::npos);
  // In the domain, but unrolling the unvectorized innermost loop bounds its extent.
  EXPECT_NE(error_of({{"vectorize(matmul)", "NO"}, {"unroll(matmul)", "YES"}, {"subtile(matmul.x)", "64"}})
                .find("subtile(matmul.x)=64 leaves no schedule with the earlier pins"),
            std::string::npos);
}

// bilateral_grid's splat (an update storing at data-dependent addresses) computed per tile of
// blur_x, whose 16-column tiles Halide 14 shifts inwards over a region of 10: unguarded, the
// splat stored far outside the grid (an MCTS pick that segfaulted). A Func's tile splits
// guard their tails where other Funcs are computed in its tiles, unless the Func is at the
// root and every split is exact (relu's 32 channels in one tile: a guard there sizes conv's
// buffer at run time, and its register tile, 2.3x slower).
TEST(SchedulerPins, TilesHostingFuncsGuardTheirTailsUnlessExactAtTheRoot) {
  const hb::App* app = candor::apps::find_app("bilateral_grid");
  ASSERT_NE(app, nullptr);
  const Halide::Target target = hb::host_target();
  const hb::KernelDescription kd = hb::describe_app(app->build(), target);
  candor::scheduler::ScheduleRequest request;
  request.search = "greedy";
  request.budget.max_expanded = 500;
  request.pins = {{"location(input_clamped)", "ROOT"}, {"location(interpolated)", "ROOT"},
                  {"tile(interpolated.x)", "64"},       {"tile(interpolated.y)", "128"},
                  {"location(blur_y)", "TILE"},         {"host(blur_y)", "interpolated"},
                  {"location(blur_x)", "TILE"},         {"host(blur_x)", "interpolated"},
                  {"tile(blur_x.x)", "16"},             {"subtile(blur_x.x)", "16"},
                  {"location(blur_z)", "TILE"},         {"host(blur_z)", "blur_x"},
                  {"location(grid)", "TILE"},           {"host(grid)", "blur_x"}};
  const auto outcome = candor::scheduler::schedule_kernel(kd, machine(), request);
  ASSERT_FALSE(outcome.candidates.empty());
  const hb::Schedule& schedule = outcome.candidates[0].schedule;
  auto x_tile_tail = [&](const std::string& func) {  // the split of x its hosted Funcs sit in
    for (const hb::Split& split : schedule.funcs.at(func).stages.at(0).splits)
      if (split.var == "x") return split.tail;
    ADD_FAILURE() << func << " does not split x";
    return Halide::TailStrategy::Auto;
  };
  EXPECT_EQ(x_tile_tail("blur_x"), Halide::TailStrategy::GuardWithIf);
  hb::RunOptions options;
  options.warmup_runs = 0;
  options.timed_runs = 1;
  const hb::EvalResult result =
      hb::evaluate_schedule(*app, schedule, kd, hb::reference_outputs(*app, target), target, options);
  EXPECT_TRUE(result.ok) << result.failed_step << ": " << result.error << "\n" << hb::print_schedule(schedule, kd);

  const hb::App* conv_relu = candor::apps::find_app("conv_relu");
  ASSERT_NE(conv_relu, nullptr);
  const hb::KernelDescription conv_kd = hb::describe_app(conv_relu->build(), target);
  request.pins = {{"location(conv)", "TILE"}, {"host(conv)", "relu"}, {"tile(relu.c)", "32"}, {"subtile(relu.c)", "32"},
                  {"tile(relu.x)", "8"},      {"subtile(relu.x)", "8"}};
  const auto exact = candor::scheduler::schedule_kernel(conv_kd, machine(), request);
  ASSERT_FALSE(exact.candidates.empty());
  for (const hb::Split& split : exact.candidates[0].schedule.funcs.at("relu").stages.at(0).splits)
    EXPECT_EQ(split.tail, Halide::TailStrategy::Auto) << "relu splits " << split.var;
}

// The neighbours autotuning measures around a schedule keep the pins, change the schedule,
// and compile and match the reference.
TEST(SchedulerNeighbours, KeepThePinsAndMatchTheReference) {
  const hb::App* app = candor::apps::find_app("unsharp_mask");
  ASSERT_NE(app, nullptr);
  const Halide::Target target = hb::host_target();
  const hb::KernelDescription kd = hb::describe_app(app->build(), target);
  const candor::scheduler::KernelScheduler scheduler(kd, machine(), {{"location(gray)", "ROOT"}});
  candor::Budget budget;
  budget.max_expanded = 200;
  const auto outcome = scheduler.search("greedy", budget);
  ASSERT_FALSE(outcome.candidates.empty());
  const auto& centre = outcome.candidates.front();
  const std::vector<candor::scheduler::ScheduledCandidate> around = scheduler.neighbours(centre);
  ASSERT_GT(around.size(), 5u);
  const std::string centre_source = hb::print_schedule(centre.schedule, kd);
  std::set<std::string> sources;
  for (const auto& n : around) {
    EXPECT_EQ(n.schedule.funcs.at("gray").compute.kind, hb::Location::Kind::Root);
    sources.insert(hb::print_schedule(n.schedule, kd));
  }
  EXPECT_EQ(sources.count(centre_source), 0u);
  EXPECT_GT(sources.size(), around.size() / 2);
  const hb::Outputs reference = hb::reference_outputs(*app, target);
  hb::RunOptions options;
  options.warmup_runs = 0;
  options.timed_runs = 1;
  for (size_t i = 0; i < 3; ++i) {
    const hb::EvalResult result = hb::evaluate_schedule(*app, around[i].schedule, kd, reference, target, options);
    EXPECT_TRUE(result.ok) << "neighbour " << i << ": " << result.failed_step << ": " << result.error;
  }
}

// Autotuning measures the model's pick first, then one schedule of each placement (where
// Funcs are computed and stored), then one of each structure (placements and parallel,
// vectorize, unroll), then the rest: every candidate is measured once, each group in the
// model's order. Past an eighth of the search's top, a placement's members only fill the
// room others leave (Budget::top_per_shape), so several placements come.
TEST(SchedulerMeasuringOrder, OneOfEachPlacementThenOfEachStructureBeforeTheRest) {
  const hb::App* app = candor::apps::find_app("unsharp_mask");
  ASSERT_NE(app, nullptr);
  const hb::KernelDescription kd = hb::describe_app(app->build(), hb::host_target());
  const candor::scheduler::KernelScheduler scheduler(kd, machine(), {});
  candor::Budget budget;
  budget.max_expanded = 20000;
  budget.keep_top = 24;
  const auto outcome = scheduler.search("beam:width=8,anytime=0", budget);
  ASSERT_GE(outcome.candidates.size(), 8u);
  const std::vector<size_t> order = scheduler.measuring_order(outcome.candidates);
  ASSERT_EQ(order.size(), outcome.candidates.size());
  EXPECT_EQ(order.front(), 0u);
  EXPECT_EQ(std::set<size_t>(order.begin(), order.end()).size(), order.size());
  // By the decisions' names: a placement is the location, host and sliding choices; a
  // structure every decision but the tile sizes.
  auto key = [&](const candor::scheduler::ScheduledCandidate& c, bool placement_only) {
    std::string s;
    for (const std::string& pin : scheduler.pins(c)) {
      const bool placement = pin.rfind("location(", 0) == 0 || pin.rfind("host(", 0) == 0 || pin.rfind("sliding(", 0) == 0;
      const bool tile = pin.rfind("tile(", 0) == 0 || pin.rfind("subtile(", 0) == 0;
      if (placement_only ? placement : !tile) s += pin + ";";
    }
    return s;
  };
  std::set<std::string> placements_met;
  for (const auto& c : outcome.candidates) placements_met.insert(key(c, true));
  EXPECT_GE(placements_met.size(), 4u);

  std::set<std::string> placements, structures;
  int group = 0;  // 0: new placements, 1: new structures, 2: the rest
  for (size_t k = 0; k < order.size(); ++k) {
    const auto& c = outcome.candidates[order[k]];
    const bool new_structure = structures.insert(key(c, false)).second;
    const int g = placements.insert(key(c, true)).second ? 0 : new_structure ? 1 : 2;
    EXPECT_GE(g, group) << "position " << k << ": a later group came before";
    // Within each group, the model's order.
    if (k > 0 && g == group) {
      EXPECT_LT(order[k - 1], order[k]) << "position " << k;
    }
    group = std::max(group, g);
  }
}

// A time limit too short for any engine to reach a schedule still gives one (a greedy dive
// completes the search, and the outcome says so); a node limit too small is an error.
// The beam's descent leaves a schedule no neighbour of which the model ranks faster, and
// the schedule still matches the reference.
TEST(SchedulerDescent, BeamEndsAtALocalMinimumOfTheModel) {
  const hb::App* app = candor::apps::find_app("unsharp_mask");
  ASSERT_NE(app, nullptr);
  const Halide::Target target = hb::host_target();
  const hb::KernelDescription kd = hb::describe_app(app->build(), target);
  const candor::scheduler::KernelScheduler scheduler(kd, machine(), {});
  candor::Budget budget;
  budget.max_expanded = 100000;  // a narrow round takes far fewer: the descent converges
  const auto plain = scheduler.search("beam:width=2,passes=1,anytime=0,descend=0", budget);
  const auto descended = scheduler.search("beam:width=2,passes=1,anytime=0,descend=1", budget);
  ASSERT_FALSE(plain.candidates.empty());
  ASSERT_FALSE(descended.candidates.empty());
  const auto& best = descended.candidates.front();
  const auto& start = plain.candidates.front();
  // Whether the beam alone already ends at a local minimum depends on the calibrated
  // machine and the target; where it does not, the descent must improve on it.
  const auto start_neighbours = scheduler.neighbours(start);
  const bool start_improvable =
      std::any_of(start_neighbours.begin(), start_neighbours.end(),
                  [&](const auto& n) { return n.predicted_seconds < start.predicted_seconds; });
  EXPECT_LE(best.predicted_seconds, start.predicted_seconds);
  if (start_improvable) {
    EXPECT_LT(best.predicted_seconds, start.predicted_seconds);
  } else {
    std::cout << "the beam alone ended at a local minimum of the model here\n";
  }
  EXPECT_LT(descended.stats.expanded, budget.max_expanded);
  for (const auto& n : scheduler.neighbours(best)) EXPECT_GE(n.predicted_seconds, best.predicted_seconds);
  const hb::Outputs reference = hb::reference_outputs(*app, target);
  hb::RunOptions options;
  options.warmup_runs = 0;
  options.timed_runs = 1;
  const hb::EvalResult result = hb::evaluate_schedule(*app, best.schedule, kd, reference, target, options);
  EXPECT_TRUE(result.ok) << result.failed_step << ": " << result.error;
}

TEST(SchedulerBudget, TimeLimitIsSoftUntilTheFirstScheduleNodeLimitIsHard) {
  const hb::App* app = candor::apps::find_app("camera_pipe");
  ASSERT_NE(app, nullptr);
  const hb::KernelDescription kd = hb::describe_app(app->build(), hb::host_target());
  for (const char* engine : {"greedy", "beam", "mcts"}) {
    candor::scheduler::ScheduleRequest request;
    request.search = engine;
    request.budget.seconds = 1e-6;
    const auto outcome = candor::scheduler::schedule_kernel(kd, machine(), request);
    ASSERT_FALSE(outcome.candidates.empty()) << engine;
    EXPECT_TRUE(outcome.completed_past_time_limit) << engine;
    EXPECT_GE(outcome.stats.complete, 1) << engine;
  }
  candor::scheduler::ScheduleRequest request;
  request.search = "greedy";
  request.budget.seconds = 1e-6;
  request.budget.max_expanded = 3;
  try {
    candor::scheduler::schedule_kernel(kd, machine(), request);
    ADD_FAILURE() << "a 3-node search of camera_pipe returned a schedule";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("raise the budget"), std::string::npos) << e.what();
  }
}

class SearchOnApps : public ::testing::TestWithParam<std::string> {};

TEST_P(SearchOnApps, EverySearchReturnsAScheduleThatMatchesTheReference) {
  const hb::App* app = candor::apps::find_app(GetParam());
  ASSERT_NE(app, nullptr);
  const Halide::Target target = hb::host_target();
  hb::KernelDescription kd = hb::describe_app(app->build(), target);
  hb::Outputs reference = hb::reference_outputs(*app, target);
  hb::RunOptions options;
  options.warmup_runs = 0;
  options.timed_runs = 1;
  std::set<std::string> verified;  // engines often agree: each distinct schedule compiles once
  for (const char* engine : {"greedy", "beam:width=4,passes=2", "mb2fbs:beta1=4", "mcts:iterations=8,ensemble=2",
                             "dfbb", "bfbb"}) {
    candor::scheduler::ScheduleRequest request;
    request.search = engine;
    request.budget.seconds = 1;
    request.budget.max_expanded = 300;
    candor::scheduler::ScheduleOutcome outcome = candor::scheduler::schedule_kernel(kd, machine(), request);
    ASSERT_FALSE(outcome.candidates.empty()) << engine;
    const auto& best = outcome.candidates.front();
    EXPECT_LE(outcome.root_lower_bound_seconds, best.predicted_seconds * (1 + 1e-9)) << engine;
    const std::string source = hb::print_schedule(best.schedule, kd);
    if (verified.insert(source).second) {
      hb::EvalResult result = hb::evaluate_schedule(*app, best.schedule, kd, reference, target, options);
      EXPECT_TRUE(result.ok) << engine << ": " << result.failed_step << ": " << result.error << "\n" << source;
    }
    if (std::string(engine) == "dfbb" || std::string(engine) == "bfbb") {
      const auto& s = outcome.stats;
      std::printf("[ bound    ] %s %s: created %lld, pruned by the bound %lld (%.1f%%)\n", GetParam().c_str(),
                  engine, static_cast<long long>(s.created), static_cast<long long>(s.pruned_by_bound),
                  s.created ? 100.0 * s.pruned_by_bound / s.created : 0.0);
    }
  }
}

std::vector<std::string> app_names() {
  std::vector<std::string> names;
  for (const hb::App& app : candor::apps::all_apps()) names.push_back(app.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(Apps, SearchOnApps, ::testing::ValuesIn(app_names()),
                         [](const auto& info) { return info.param; });

}  // namespace
