// Checks run in forked children: the first candidate that passes is found past candidates
// that fail, throw, crash or hang, and a failed preparation checks nothing.
#include <gtest/gtest.h>

#include <csignal>
#include <limits>
#include <optional>
#include <thread>

#include "child_checks.h"
#include "child_process.h"

namespace candor::scheduler {
namespace {

TEST(RunInChild, CapturesOutputAndSurvivesACrash) {
  const ChildResult ok = run_in_child([] {
    std::cout << "a\nb" << std::endl;
    return 3;
  }, 30);
  EXPECT_EQ(ok.output, "a\nb\n");
  EXPECT_EQ(ok.exit_status, 3);
  EXPECT_FALSE(ok.crashed);
  const ChildResult crash = run_in_child([] {
    std::raise(SIGSEGV);
    return 0;
  }, 30);
  EXPECT_TRUE(crash.crashed);
  const ChildResult hang = run_in_child([] {
    std::this_thread::sleep_for(std::chrono::seconds(30));
    return 0;
  }, 30, 0.5);
  EXPECT_TRUE(hang.timed_out);
}

TEST(ChildChecks, TheFirstPassingComesAfterFailuresCrashesAndHangs) {
  int prepared_value = 0;  // set in the child: a check sees what its own child prepared
  const auto checks = first_passing_in_child(
      6, [&] { prepared_value = 7; },
      [&](size_t i) -> std::string {
        if (prepared_value != 7) return "not prepared";
        switch (i) {
          case 0: return "wrong output";
          case 1: std::raise(SIGSEGV); return "unreachable";
          case 2: throw std::runtime_error("bad schedule");
          case 3: std::this_thread::sleep_for(std::chrono::seconds(30)); return "unreachable";
          default: return "";
        }
      },
      1.0);
  ASSERT_TRUE(checks.passed().has_value());
  EXPECT_EQ(*checks.passed(), 4u);
  ASSERT_EQ(checks.verdicts.size(), 5u);  // none past the first that passed
  EXPECT_EQ(checks.verdicts[0], "wrong output");
  EXPECT_EQ(checks.verdicts[1], "crashed (killed by a signal)");
  EXPECT_EQ(checks.verdicts[2], "bad schedule");
  EXPECT_EQ(checks.verdicts[3], "hung: no result within 1 s");
  EXPECT_EQ(checks.verdicts[4], "");
  EXPECT_TRUE(checks.unchecked.empty());
  EXPECT_EQ(prepared_value, 0);  // the parent's copy is untouched
}

TEST(ChildChecks, NonePassingOrNothingCheckable) {
  const auto none = first_passing_in_child(
      3, [] {}, [](size_t i) { return "fails " + std::to_string(i); }, 10);
  EXPECT_FALSE(none.passed().has_value());
  EXPECT_EQ(none.verdicts, (std::vector<std::string>{"fails 0", "fails 1", "fails 2"}));
  const auto unprepared = first_passing_in_child(
      3, [] { throw std::runtime_error("no reference:\nout of bounds"); }, [](size_t) { return std::string(); }, 10);
  EXPECT_FALSE(unprepared.passed().has_value());
  EXPECT_EQ(unprepared.unchecked, "no reference: out of bounds");
  const auto crashed = first_passing_in_child(
      3, [] { std::raise(SIGABRT); }, [](size_t) { return std::string(); }, 10);
  EXPECT_FALSE(crashed.passed().has_value());
  EXPECT_TRUE(crashed.verdicts.empty());
  EXPECT_EQ(crashed.unchecked, "preparing the checks crashed (killed by a signal)");
}

// The total limit stops the checks without a verdict: out of time, not a failure of the
// candidate being checked.
TEST(ChildChecks, TheTotalLimitStopsThemOutOfTime) {
  const auto checks = first_passing_in_child(
      3, [] {},
      [](size_t i) -> std::string {
        if (i == 0) return "wrong output";
        std::this_thread::sleep_for(std::chrono::seconds(30));
        return "";
      },
      20, 1.0);
  EXPECT_FALSE(checks.passed().has_value());
  EXPECT_TRUE(checks.out_of_time);
  EXPECT_EQ(checks.verdicts, (std::vector<std::string>{"wrong output"}));
}

// The first `check_all` are all checked, passing or not; past them the first pass stops.
TEST(ChildChecks, TheFirstCheckAllAreEachChecked) {
  const auto checks = first_passing_in_child(
      6, [] {}, [](size_t i) -> std::string { return i == 2 ? "wrong output" : ""; }, 10,
      std::numeric_limits<double>::infinity(), 4);
  EXPECT_EQ(checks.verdicts, (std::vector<std::string>{"", "", "wrong output", "", ""}));
  EXPECT_EQ(checks.passed(), std::optional<size_t>(0));
}

// A background child runs while its parent works, and is collected later; one never waited
// for is killed with its owner.
TEST(BackgroundChild, RunsWhileTheParentWorksAndTimesOutFromTheWait) {
  BackgroundChild child([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    std::cout << "done" << std::endl;
    return 0;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // the parent's own work
  const ChildResult r = child.wait(0.1);  // counted from the wait: the child is long done
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.output, "done\n");
  EXPECT_EQ(r.exit_status, 0);
  BackgroundChild sleeper([] {
    std::this_thread::sleep_for(std::chrono::seconds(30));
    return 0;
  });
  EXPECT_TRUE(sleeper.wait(0.3).timed_out);
  const auto start = std::chrono::steady_clock::now();
  { BackgroundChild abandoned([] {
      std::this_thread::sleep_for(std::chrono::seconds(30));
      return 0;
    }); }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));  // killed, not awaited
}

}  // namespace
}  // namespace candor::scheduler
