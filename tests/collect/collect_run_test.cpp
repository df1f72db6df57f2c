// candor_collect end to end under `mpirun -np 2`, on tiny random pipelines: the merged
// dataset holds every expected key once; a run killed mid-way (SIGKILL of a rank after some
// samples were written) and a torn last line, then rerun, end with every key exactly once.
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>

#include "dataset.h"
#include "random_pipelines.h"

namespace candor::collect {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr int kSchedules = 2;

// The first `count` seeds whose pipelines have the fewest stages (2): quick to compile.
std::string tiny_pipelines(int count) {
  std::string list;
  for (uint64_t seed = 0; count > 0; ++seed) {
    if (models::random_pipelines::random_pipeline_info(seed).stages.size() > 2) continue;
    list += (list.empty() ? "" : ",") + std::to_string(seed);
    --count;
  }
  return list;
}

std::vector<std::string> collect_command(const std::string& out, const std::string& pipelines, int ranks,
                                         const std::string& worker = "") {
  std::vector<std::string> argv;
  if (ranks > 0)
    argv = {CANDOR_MPIRUN, "-np", std::to_string(ranks), "--allow-run-as-root", "--oversubscribe"};
  for (const char* a : {CANDOR_COLLECT, "--out"}) argv.push_back(a);
  argv.push_back(out);
  for (const std::string& a : {std::string("--pipelines"), pipelines, std::string("--schedules-per-pipeline"),
                               std::to_string(kSchedules), std::string("--runs"), std::string("1"),
                               std::string("--timeout"), std::string("60"), std::string("--machine"),
                               std::string(CANDOR_MACHINE_FILE),
                               // A lock of its own: the machine-wide one is shared with any
                               // real collection or `flock -s` build running beside the tests.
                               std::string("--timing-lock"), out + ".lock"})
    argv.push_back(a);
  if (!worker.empty()) {
    argv.push_back("--worker");
    argv.push_back(worker);
  }
  return argv;
}

// Starts argv in its own process group, output to `log`.
pid_t start(const std::vector<std::string>& argv, const std::string& log) {
  pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    FILE* f = std::freopen(log.c_str(), "a", stdout);
    if (f) dup2(fileno(stdout), STDERR_FILENO);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  return pid;
}

// Waits for pid; kills its group and fails after `seconds`. Returns its exit status.
int wait_for(pid_t pid, double seconds) {
  const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (Clock::now() > deadline) {
      kill(-pid, SIGKILL);
      waitpid(pid, &status, 0);
      ADD_FAILURE() << "the run took more than " << seconds << " s";
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string log_of(const std::string& log) {
  std::ifstream in(log);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Complete lines over every shard, and the keys of the whole folder (shards and merged).
size_t shard_lines(const std::string& dir) {
  size_t lines = 0;
  for (const std::string& path : shard_paths(dir)) lines += read_records(path).size();
  return lines;
}

std::vector<pid_t> children_of(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/task/" + std::to_string(pid) + "/children");
  std::vector<pid_t> children;
  for (pid_t child; in >> child;) children.push_back(child);
  return children;
}

class CollectRun : public ::testing::Test {
 protected:
  void SetUp() override {
    char name[] = "/tmp/candor_collect_run_XXXXXX";
    dir_ = mkdtemp(name);
    log_ = dir_ + ".log";
  }
  void TearDown() override {
    if (HasFailure()) std::cerr << "collector output:\n" << log_of(log_);
    fs::remove_all(dir_);
    fs::remove(log_);
    fs::remove(dir_ + ".lock");
  }
  // Every key of the merged dataset, checking each record's shape.
  std::map<std::string, int> merged_keys() const {
    std::map<std::string, int> keys;
    for (const nlohmann::json& r : read_records(merged_path(dir_))) {
      ++keys[r["key"].get<std::string>()];
      EXPECT_TRUE(r.contains("ok") && r.contains("failure") && r.contains("runtime_ms") && r.contains("seed"));
      EXPECT_FALSE(r["decisions"].empty());
      EXPECT_FALSE(r["stages"].empty());
      for (const nlohmann::json& s : r["stages"])
        EXPECT_TRUE(s.contains("func") && s.contains("features") && s["terms"].contains("compute_s"));
    }
    return keys;
  }
  std::string dir_, log_;
};

TEST_F(CollectRun, TwoRanksMergeEveryKeyOnce) {
  const std::string pipelines = tiny_pipelines(3);
  ASSERT_EQ(wait_for(start(collect_command(dir_, pipelines, 2), log_), 200), 0);
  EXPECT_EQ(shard_paths(dir_).size(), 2u);
  const std::map<std::string, int> keys = merged_keys();
  EXPECT_EQ(keys.size(), 3u * kSchedules);
  EXPECT_EQ(shard_lines(dir_), keys.size());
  // Rerunning finds everything done: nothing is measured again.
  const size_t lines = shard_lines(dir_);
  ASSERT_EQ(wait_for(start(collect_command(dir_, pipelines, 0), log_), 120), 0);  // one rank, no mpirun
  EXPECT_EQ(shard_lines(dir_), lines);
  EXPECT_EQ(merged_keys(), keys);
}

TEST_F(CollectRun, KilledRankAndTornLineResumeWithoutLossOrDuplicates) {
  const std::string pipelines = tiny_pipelines(4);
  const pid_t mpirun = start(collect_command(dir_, pipelines, 2), log_);
  const auto deadline = Clock::now() + std::chrono::seconds(200);
  while (shard_lines(dir_) < 2 && Clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const std::vector<pid_t> ranks = children_of(mpirun);
  ASSERT_FALSE(ranks.empty());
  kill(ranks.front(), SIGKILL);  // mpirun then ends the job
  wait_for(mpirun, 60);
  const size_t before = shard_lines(dir_);
  EXPECT_LT(before, 4u * kSchedules) << "the run ended before it was killed: nothing to resume";
  // A kill during a write leaves a torn last line: make sure there is one.
  { std::ofstream(shard_path(dir_, 0), std::ios::app) << R"({"key": "random_0/00000000)"; }

  ASSERT_EQ(wait_for(start(collect_command(dir_, pipelines, 2), log_), 200), 0);
  const std::map<std::string, int> keys = merged_keys();
  EXPECT_EQ(keys.size(), 4u * kSchedules);
  for (const auto& [key, count] : keys) EXPECT_EQ(count, 1) << key;
  EXPECT_EQ(shard_lines(dir_), keys.size()) << "a sample was measured twice";
  const std::string shard0 = log_of(shard_path(dir_, 0));
  EXPECT_EQ(shard0.find("00000000\""), std::string::npos);
  EXPECT_EQ(shard0.find("random_0/00000000{"), std::string::npos) << "a record was appended to the torn line";
}

// mpirun binds each rank to one core; the children that time schedules must not inherit
// that. A stand-in worker reports how many CPUs it may run on as each schedule's runtime.
TEST_F(CollectRun, MeasuringChildrenMayUseEveryCore) {
  cpu_set_t ours;
  ASSERT_EQ(sched_getaffinity(0, sizeof ours, &ours), 0);
  if (CPU_COUNT(&ours) < 2) GTEST_SKIP() << "one CPU: nothing to bind away";
  const std::string worker = dir_ + "/count_cpus.sh";
  std::ofstream(worker) << R"(#!/bin/sh
prev=; for a in "$@"; do [ "$prev" = --schedules ] && path=$a; prev=$a; done
n=$(nproc)
while IFS= read -r line; do echo "{\"verified\": true, \"runtime_ms\": $n}"; done < "$path"
)";
  fs::permissions(worker, fs::perms::owner_all);
  ASSERT_EQ(wait_for(start(collect_command(dir_, tiny_pipelines(2), 2, worker), log_), 200), 0);
  const std::vector<nlohmann::json> records = read_records(merged_path(dir_));
  ASSERT_EQ(records.size(), 2u * kSchedules);
  for (const nlohmann::json& r : records) EXPECT_EQ(r["runtime_ms"].get<double>(), CPU_COUNT(&ours)) << r["key"];
}

}  // namespace
}  // namespace candor::collect
