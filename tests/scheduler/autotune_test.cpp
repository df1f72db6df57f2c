// Autotuning against a stand-in for `candor measure` (a shell script): a crashing and a hanging
// candidate are recorded and skipped, a runtime that only one process measured does not win
// against one that repeats, a rerun with the journal measures nothing again, and the local
// search moves to a neighbour measured faster than its centre side by side, and measures no
// schedule twice.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <thread>

#include "autotune.h"
#include "child_process.h"
#include "halide_bridge/timing_lock.h"

namespace {

namespace fs = std::filesystem;
namespace hb = candor::halide_bridge;
using candor::scheduler::AutotuneOptions;
using candor::scheduler::AutotuneResult;

// A schedule told apart by the name of its one Func.
hb::Schedule schedule_named(const std::string& name) {
  hb::Schedule s;
  s.funcs[name] = hb::FuncSchedule();
  return s;
}

class Autotune : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("candor_autotune_test_" + std::to_string(getpid()));
    fs::create_directories(dir_);
    // Arguments: measure APP --schedules FILE --json ... (one schedule a line; several are
    // measured side by side). Every schedule measured is logged in calls.log. "lucky" measures
    // 1 ms in its first process only, then 10 ms; "steady" always 2 ms. A file "drift" holding
    // a factor scales every time its process measures (the machine's load changing).
    // "stuck_compiling" never reports its compile step as over, as a schedule whose compile
    // takes minutes.
    worker_ = (dir_ / "worker.sh").string();
    std::ofstream(worker_) << "#!/bin/sh\n"
                           << "log=" << (dir_ / "calls.log").string() << "\n"
                           << "echo \"$*\" >> " << (dir_ / "args.log").string() << "\n"
                           << "first=\n"
                           << "i=0\n"
                           << "echo '{\"step\": \"reference\"}'\n"
                           << "while IFS= read -r s || [ -n \"$s\" ]; do\n"
                           << "echo \"$s\" >> \"$log\"\n"
                           << "case \"$s\" in *stuck_compiling*) sleep 30 ;; esac\n"
                           << "echo \"{\\\"step\\\": \\\"compiled\\\", \\\"index\\\": $i}\"\n"
                           << "i=$((i + 1))\n"
                           << "case \"$s\" in\n"
                           << "  *crash*) kill -SEGV $$ ;;\n"
                           << "  *hang*) sleep 30 ;;\n"
                           << "  *lucky*) n=$(grep -c lucky \"$log\"); "
                           << "if [ \"$n\" -eq 1 ]; then t=1.0; else t=10.0; fi ;;\n"
                           << "  *fastest*) t=1.0 ;;\n"
                           << "  *near*) t=1.96 ;;\n"
                           << "  *faster*) t=1.5 ;;\n"
                           << "  *slow*) t=3.0 ;;\n"
                           << "  *) t=2.0 ;;\n"
                           << "esac\n"
                           << "[ -f " << (dir_ / "drift").string() << " ] && t=$(awk \"BEGIN { print $t * $(cat "
                           << (dir_ / "drift").string() << ") }\")\n"
                           << "[ -z \"$first\" ] && first=$t\n"
                           << "r=$(awk \"BEGIN { print $t / $first }\")\n"
                           << "echo \"{\\\"verified\\\": true, \\\"runtime_ms\\\": $t, \\\"ratio_to_first\\\": $r}\"\n"
                           << "done < \"$4\"\n";
    fs::permissions(worker_, fs::perms::owner_all);
  }
  void TearDown() override { fs::remove_all(dir_); }

  int calls() const {
    std::ifstream in(dir_ / "calls.log");
    int n = 0;
    for (std::string line; std::getline(in, line);) ++n;
    return n;
  }

  AutotuneOptions options() const {
    AutotuneOptions o;
    o.worker = worker_;
    o.timeout_seconds = 2;
    o.journal = (dir_ / "journal.jsonl").string();
    return o;
  }

  fs::path dir_;
  std::string worker_;
};

// The measuring processes are told the machine's timing lock, under which they time.
TEST_F(Autotune, MeasuringProcessesTimeUnderTheTimingLock) {
  AutotuneOptions o = options();
  o.timing_lock = (dir_ / "timing.lock").string();
  candor::scheduler::measure_together("app", {schedule_named("steady")}, o);
  o.timing_lock.clear();
  candor::scheduler::measure_together("app", {schedule_named("slow")}, o);
  std::ifstream in(dir_ / "args.log");
  std::string with_lock, without_lock;
  std::getline(in, with_lock);
  std::getline(in, without_lock);
  EXPECT_NE(with_lock.find("--timing-lock " + (dir_ / "timing.lock").string()), std::string::npos) << with_lock;
  EXPECT_EQ(without_lock.find("--timing-lock"), std::string::npos) << without_lock;
}

TEST_F(Autotune, KeepsTheFastestThatRepeatsAndSkipsCrashesAndHangs) {
  const std::vector<hb::Schedule> schedules = {schedule_named("crash"), schedule_named("lucky"),
                                               schedule_named("hang"), schedule_named("steady")};
  const AutotuneResult r = candor::scheduler::autotune("app", schedules, options(), 0, 3, 2);
  EXPECT_EQ(r.measured, 4u);
  ASSERT_EQ(r.failures.size(), 2u);
  EXPECT_EQ(r.failures[0].first, 0u);
  EXPECT_EQ(r.failures[0].second, "crash");
  EXPECT_EQ(r.failures[1].first, 2u);
  EXPECT_EQ(r.failures[1].second, "timeout");
  // lucky: 1, 10, 10 (median 10); steady: 2, 2, 2.
  EXPECT_EQ(r.chosen, 3);
  EXPECT_DOUBLE_EQ(r.runtime_ms, 2.0);
  // The four in one process, which crashed at the first; then one a process; then the two
  // finalists twice.
  const int first_run = calls();
  EXPECT_EQ(first_run, 1 + 4 + 2 * 2);

  // The journal holds every measurement, repeats included: nothing runs again.
  const AutotuneResult again = candor::scheduler::autotune("app", schedules, options(), 0, 3, 2);
  EXPECT_EQ(calls(), first_run);
  EXPECT_EQ(again.chosen, 3);
}

// Model only: the model's order is kept, a failing pick (a crash here; a miscompiled schedule
// in practice) gives way to the next, and nothing after the first that verifies is measured,
// even a faster one.
TEST_F(Autotune, ModelOnlyTakesTheFirstScheduleThatVerifies) {
  const std::vector<hb::Schedule> schedules = {schedule_named("crash"), schedule_named("slow"),
                                               schedule_named("fastest")};
  std::vector<size_t> reported;
  const AutotuneResult r = candor::scheduler::first_verified(
      "app", schedules, options(), [&](size_t i, int, const candor::scheduler::Measurement&) { reported.push_back(i); });
  EXPECT_EQ(r.chosen, 1);
  EXPECT_DOUBLE_EQ(r.runtime_ms, 3.0);
  EXPECT_EQ(r.measured, 2u);
  ASSERT_EQ(r.failures.size(), 1u);
  EXPECT_EQ(r.failures[0].first, 0u);
  EXPECT_EQ(r.failures[0].second, "crash");
  EXPECT_EQ(reported, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(calls(), 2);
  // None verifies: none chosen, each failure recorded.
  const AutotuneResult none = candor::scheduler::first_verified("app", {schedule_named("crash_again")}, options());
  EXPECT_EQ(none.chosen, -1);
  EXPECT_EQ(none.failures.size(), 1u);
}

// A compile that overruns the step limit fails that schedule alone: the others of its
// process are measured again together, still on the first one's scale, and the journal
// answers a rerun. A pick stuck compiling gives way to the next in model-only mode.
TEST_F(Autotune, ACompileOverTheStepLimitFailsOnlyItsSchedule) {
  AutotuneOptions o = options();
  o.step_timeout_seconds = 1;
  o.timeout_seconds = 10;  // the whole process would wait this long per schedule
  const std::vector<hb::Schedule> together = {schedule_named("steady"), schedule_named("stuck_compiling"),
                                              schedule_named("faster")};
  const auto start = std::chrono::steady_clock::now();
  const std::vector<candor::scheduler::Measurement> ms = candor::scheduler::measure_together("app", together, o);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 10);
  ASSERT_EQ(ms.size(), 3u);
  EXPECT_TRUE(ms[0].ok);
  EXPECT_FALSE(ms[1].ok);
  EXPECT_EQ(ms[1].failure, "compile over 1 s");
  EXPECT_TRUE(ms[2].ok);
  EXPECT_DOUBLE_EQ(ms[2].ratio_to_first, 0.75);
  // The first process reached the stuck schedule; the second measured the two others.
  EXPECT_EQ(calls(), 2 + 2);
  const std::vector<candor::scheduler::Measurement> again = candor::scheduler::measure_together("app", together, o);
  EXPECT_EQ(calls(), 4);
  EXPECT_EQ(again[1].failure, "compile over 1 s");
  EXPECT_TRUE(again[2].from_journal);

  const AutotuneResult r = candor::scheduler::first_verified(
      "app", {schedule_named("stuck_compiling_pick"), schedule_named("slow")}, o);
  EXPECT_EQ(r.chosen, 1);
  ASSERT_EQ(r.failures.size(), 1u);
  EXPECT_EQ(r.failures[0].second, "compile over 1 s");
}

TEST_F(Autotune, WithoutConfirmationsTheFirstMeasurementDecides) {
  const std::vector<hb::Schedule> schedules = {schedule_named("steady"), schedule_named("lucky")};
  const AutotuneResult r = candor::scheduler::autotune("app", schedules, options(), 0, 3, 0);
  EXPECT_EQ(r.chosen, 1);
  EXPECT_DOUBLE_EQ(r.runtime_ms, 1.0);
  EXPECT_EQ(calls(), 2);
}

// The given schedules are measured three a process beside the first: a schedule measured
// while the machine ran 3x slower still wins on its ratio to the first.
TEST_F(Autotune, GivenSchedulesAreComparedOnTheFirstOnesScale) {
  const std::vector<hb::Schedule> schedules = {schedule_named("steady"), schedule_named("slow_a"),
                                               schedule_named("slow_b"), schedule_named("slow_c"),
                                               schedule_named("faster")};
  candor::scheduler::LocalSearch local;
  local.batch = 3;
  std::ofstream(dir_ / "drift") << 1;
  std::vector<double> seen_ms;
  const auto progress = [&](size_t, int, const candor::scheduler::Measurement& m) {
    seen_ms.push_back(m.runtime_ms);
    std::ofstream(dir_ / "drift") << 3;  // the second process runs on a loaded machine
  };
  const AutotuneResult r = candor::scheduler::autotune("app", schedules, options(), 0, 3, 0, progress, local);
  // steady, slow_a, slow_b in one process; steady again with slow_c and faster in another.
  EXPECT_EQ(calls(), 4 + 2);
  EXPECT_EQ(r.measured, 5u);
  ASSERT_EQ(seen_ms.size(), 5u);
  EXPECT_DOUBLE_EQ(seen_ms[4], 4.5);  // faster's own time, slower than steady's 2 ms
  EXPECT_EQ(r.chosen, 4);             // but 0.75x steady's beside it
}

// Every measuring process is reported with the schedules it timed side by side, its
// reference first, and so is its journal record when a rerun replays it.
TEST_F(Autotune, EveryProcessIsReportedWithTheSchedulesItTimedTogether) {
  const std::vector<hb::Schedule> schedules = {schedule_named("steady"), schedule_named("slow_a"),
                                               schedule_named("slow_b"), schedule_named("slow_c"),
                                               schedule_named("faster")};
  candor::scheduler::LocalSearch local;
  local.batch = 3;
  std::vector<std::string> keys;
  std::vector<std::vector<size_t>> groups;
  std::vector<std::vector<double>> ratios;
  const auto processes = [&](const std::string& key, const std::vector<size_t>& indices,
                             const std::vector<candor::scheduler::Measurement>& ms) {
    keys.push_back(key);
    groups.push_back(indices);
    ratios.emplace_back();
    for (const auto& m : ms) ratios.back().push_back(m.ratio_to_first);
  };
  candor::scheduler::autotune("app", schedules, options(), 0, 3, 1, {}, local, processes);
  // The first three together; the next two beside the first; the finalists (the model's
  // pick first, then by their estimates) once more.
  const std::vector<std::vector<size_t>> expected = {{0, 1, 2}, {0, 3, 4}, {0, 4, 1}};
  EXPECT_EQ(groups, expected);
  ASSERT_EQ(ratios.size(), 3u);
  EXPECT_EQ(ratios[1], (std::vector<double>{1.0, 1.5, 0.75}));
  EXPECT_EQ(std::set<std::string>(keys.begin(), keys.end()).size(), 3u);

  const std::vector<std::string> first_keys = keys;
  keys.clear();
  groups.clear();
  const int measured = calls();
  candor::scheduler::autotune("app", schedules, options(), 0, 3, 1, {}, local, processes);
  EXPECT_EQ(calls(), measured);
  EXPECT_EQ(groups, expected);
  EXPECT_EQ(keys, first_keys);
}

// The model's pick stays unless a finalist beats it side by side by the local search's
// improvement (5%): 2% faster is not enough, 25% is.
TEST_F(Autotune, TheModelsPickStaysUnlessAFinalistIsClearlyFaster) {
  const AutotuneResult kept =
      candor::scheduler::autotune("app", {schedule_named("steady"), schedule_named("near")}, options(), 0, 3, 2);
  EXPECT_EQ(kept.chosen, 0);
  const AutotuneResult moved = candor::scheduler::autotune(
      "app", {schedule_named("steady"), schedule_named("near"), schedule_named("faster")}, options(), 0, 3, 2);
  EXPECT_EQ(moved.chosen, 2);
}

TEST_F(Autotune, LocalSearchMovesToFasterNeighboursAndMeasuresNoScheduleTwice) {
  // steady (2 ms) -> neighbours slow (3), faster (1.5) -> neighbours fastest (1), steady again.
  std::vector<size_t> centres;
  candor::scheduler::LocalSearch local;
  local.batch = 3;
  local.propose = [&](size_t centre) -> std::vector<hb::Schedule> {
    centres.push_back(centre);
    if (centres.size() == 1) return {schedule_named("slow"), schedule_named("faster")};
    if (centres.size() == 2) return {schedule_named("fastest"), schedule_named("steady")};
    return {};
  };
  const AutotuneResult r =
      candor::scheduler::autotune("app", {schedule_named("steady")}, options(), 60, 3, 0, {}, local);
  // Indices: 0 steady (given), 1 slow, 2 faster, 3 fastest, 4 steady (not measured again).
  EXPECT_EQ(centres, (std::vector<size_t>{0, 2, 3}));
  EXPECT_EQ(r.chosen, 3);
  EXPECT_DOUBLE_EQ(r.runtime_ms, 1.0);
  EXPECT_EQ(r.measured, 4u);
  EXPECT_EQ(r.proposed_measured, 3u);
  EXPECT_EQ(r.centre_moves, 2);
  // steady alone; then slow and faster in one process with steady; fastest with faster.
  EXPECT_EQ(calls(), 1 + 3 + 2);
}

// A child that prints one result a line and then hangs is killed by the time allowed per line,
// well before its overall limit, and keeps the lines it printed.
TEST(ChildProcess, AChildSilentForTooLongAfterALineIsKilled) {
  using candor::scheduler::run_child;
  const auto r = run_child({"/bin/sh", "-c", "echo a; sleep 0.2; echo b; sleep 30"}, 60, 1.5);
  EXPECT_TRUE(r.timed_out);
  EXPECT_EQ(r.output, "a\nb\n");
  EXPECT_LT(r.seconds, 10);
  const auto done = run_child({"/bin/sh", "-c", "echo a; sleep 0.5; echo b"}, 60, 1.5);
  EXPECT_FALSE(done.timed_out);
  EXPECT_EQ(done.exit_status, 0);
  EXPECT_EQ(done.output, "a\nb\n");
}

// A child waiting for the timing lock stops both clocks (halide_bridge/timing_lock.h): the
// wait counts against neither limit, and the clock lines are not part of its output. After
// the clock starts again the limits apply as before.
TEST(ChildProcess, TimeBetweenClockLinesIsNotCharged) {
  using candor::scheduler::run_child;
  const std::string stop = candor::halide_bridge::kClockStopLine, go = candor::halide_bridge::kClockStartLine;
  const auto waited = run_child(
      {"/bin/sh", "-c", "echo a; echo '" + stop + "'; sleep 2.5; echo '" + go + "'; sleep 0.3; echo b"}, 2, 1.5);
  EXPECT_FALSE(waited.timed_out);
  EXPECT_EQ(waited.output, "a\nb\n");
  EXPECT_GT(waited.seconds, 2.5);
  const auto hung = run_child({"/bin/sh", "-c", "echo '" + stop + "'; sleep 0.5; echo '" + go + "'; sleep 30"}, 60, 1.5);
  EXPECT_TRUE(hung.timed_out);
  EXPECT_EQ(hung.output, "");
  EXPECT_LT(hung.seconds, 10);
}

// A child does not outlive the process that started it: killed with it, it cannot run on
// with nobody enforcing its time limit.
TEST(ChildProcess, AChildDiesWithItsParent) {
  char dir_template[] = "/tmp/candor_child_test_XXXXXX";
  const std::string dir = mkdtemp(dir_template);
  const std::string pid_file = dir + "/child.pid";
  const pid_t parent = fork();
  ASSERT_GE(parent, 0);
  if (parent == 0) {
    candor::scheduler::run_child({"/bin/sh", "-c", "echo $$ > " + pid_file + ".tmp; mv " + pid_file + ".tmp " +
                                                       pid_file + "; exec sleep 60"},
                                 120, 120);
    _exit(0);
  }
  pid_t child = 0;
  for (int i = 0; i < 100 && child == 0; ++i) {
    std::ifstream(pid_file) >> child;
    if (child == 0) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_GT(child, 0) << "the child never started";
  kill(parent, SIGKILL);
  waitpid(parent, nullptr, 0);
  auto alive = [&] {
    std::ifstream stat("/proc/" + std::to_string(child) + "/stat");
    std::string pid, name, state;
    return stat >> pid >> name >> state && state != "Z";
  };
  for (int i = 0; i < 40 && alive(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(alive()) << "the child outlived its parent";
  std::filesystem::remove_all(dir);
}

}  // namespace
