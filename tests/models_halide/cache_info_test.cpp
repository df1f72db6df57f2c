// Tests of the host cache readers (models/halide/cache_info.h): sysfs parsing on fake trees,
// the combining of sources, the latency-sweep boundary rule on synthetic sweeps, and on this
// host the agreement of the real sources and of the measured L1d.
#include "cache_info.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>

#include "tests/scoped_env.h"

namespace {

using namespace candor::models::halide;
namespace fs = std::filesystem;

const char* const kSys = "/sys/devices/system/cpu";

// A temporary directory standing for /sys/devices/system/cpu, removed at the end.
class FakeCpuDir {
 public:
  FakeCpuDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    root_ = fs::temp_directory_path() /
            ("candor_cache_info_" + std::to_string(getpid()) + "_" + info->name());
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  ~FakeCpuDir() {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  // cpuN/cache/indexI with one file per entry of `files`.
  void add_index(int cpu, int index, const std::map<std::string, std::string>& files) {
    const fs::path dir = root_ / ("cpu" + std::to_string(cpu)) / "cache" / ("index" + std::to_string(index));
    fs::create_directories(dir);
    for (const auto& [name, value] : files) std::ofstream(dir / name) << value << "\n";
  }
  std::string path() const { return root_.string(); }

 private:
  fs::path root_;
};

using candor::testing::ScopedEnv;

bool is_x86() {
#if defined(__x86_64__) || defined(__i386__)
  return true;
#else
  return false;
#endif
}

TEST(CacheInfo, SysfsParsesFakeTree) {
  FakeCpuDir d;
  d.add_index(0, 0, {{"level", "1"}, {"type", "Data"}, {"size", "48K"}, {"ways_of_associativity", "12"},
                     {"number_of_sets", "64"}, {"coherency_line_size", "64"}});
  d.add_index(0, 1, {{"level", "1"}, {"type", "Instruction"}, {"size", "64K"}, {"ways_of_associativity", "8"},
                     {"number_of_sets", "128"}, {"coherency_line_size", "64"}});
  d.add_index(0, 2, {{"level", "2"}, {"type", "Unified"}, {"size", "2048K"}, {"ways_of_associativity", "16"},
                     {"number_of_sets", "2048"}, {"coherency_line_size", "64"}});
  d.add_index(0, 3, {{"level", "3"}, {"type", "Unified"}, {"size", "260M"}, {"ways_of_associativity", "20"},
                     {"number_of_sets", "212992"}, {"coherency_line_size", "64"}});
  const HostCaches h = caches_from_sysfs(d.path());
  EXPECT_EQ(h.l1d.bytes, 48 << 10);
  EXPECT_EQ(h.l1d.geometry.ways, 12);
  EXPECT_EQ(h.l1d.geometry.sets, 64);
  EXPECT_EQ(h.l1d.geometry.line_bytes, 64);
  EXPECT_EQ(h.l1d.source, "sysfs");
  EXPECT_EQ(h.l2.bytes, 2048 << 10);
  EXPECT_EQ(h.l2.geometry.ways, 16);
  EXPECT_EQ(h.l2.geometry.sets, 2048);
  EXPECT_EQ(h.l2.geometry.line_bytes, 64);
  EXPECT_EQ(h.l2.source, "sysfs");
  EXPECT_EQ(h.l3.bytes, int64_t{260} << 20);
  EXPECT_EQ(h.l3.geometry.ways, 20);
  EXPECT_EQ(h.l3.geometry.sets, 212992);
  EXPECT_EQ(h.l3.source, "sysfs");
}

// An instruction cache listed first is skipped, not taken for the L1d; sizes in any unit.
TEST(CacheInfo, SysfsSkipsInstructionCachesAndReadsUnits) {
  FakeCpuDir d;
  d.add_index(0, 0, {{"level", "1"}, {"type", "Instruction"}, {"size", "64K"}});
  d.add_index(0, 1, {{"level", "1"}, {"type", "Data"}, {"size", "32K"}});
  d.add_index(0, 2, {{"level", "2"}, {"type", "Unified"}, {"size", "2M"}});
  d.add_index(0, 3, {{"level", "3"}, {"type", "Unified"}, {"size", "32768K"}});
  const HostCaches h = caches_from_sysfs(d.path());
  EXPECT_EQ(h.l1d.bytes, 32 << 10);
  EXPECT_EQ(h.l2.bytes, 2 << 20);
  EXPECT_EQ(h.l3.bytes, 32 << 20);
}

TEST(CacheInfo, SysfsWithoutGeometryKnowsSizeOnly) {
  FakeCpuDir d;
  d.add_index(0, 0, {{"level", "1"}, {"type", "Data"}, {"size", "32K"}});
  d.add_index(0, 2, {{"level", "2"}, {"type", "Unified"}, {"size", "1024K"}});
  const HostCaches h = caches_from_sysfs(d.path());
  EXPECT_EQ(h.l1d.bytes, 32 << 10);
  EXPECT_EQ(h.l1d.geometry.ways, 0);
  EXPECT_EQ(h.l1d.geometry.sets, 0);
  EXPECT_EQ(h.l1d.geometry.line_bytes, 64);
  EXPECT_EQ(h.l2.bytes, 1 << 20);
  EXPECT_EQ(h.l2.geometry.ways, 0);
  EXPECT_EQ(h.l3.bytes, 0);
  EXPECT_EQ(h.l3.source, "");
}

// Ways and line without sets: the sets follow from the size.
TEST(CacheInfo, SysfsDerivesSetsFromWaysAndLine) {
  FakeCpuDir d;
  d.add_index(0, 0, {{"level", "2"}, {"type", "Unified"}, {"size", "1280K"}, {"ways_of_associativity", "10"},
                     {"coherency_line_size", "64"}});
  const HostCaches h = caches_from_sysfs(d.path());
  EXPECT_EQ(h.l2.bytes, 1280 << 10);
  EXPECT_EQ(h.l2.geometry.ways, 10);
  EXPECT_EQ(h.l2.geometry.sets, 2048);
}

TEST(CacheInfo, SysfsFallsBackToAnotherCpuAndNeverFails) {
  FakeCpuDir d;
  EXPECT_EQ(caches_from_sysfs(d.path()).l1d.bytes, 0);
  EXPECT_EQ(caches_from_sysfs(d.path() + "/does-not-exist").l2.bytes, 0);
  d.add_index(3, 0, {{"level", "1"}, {"type", "Data"}, {"size", "16K"}});
  d.add_index(2, 0, {{"level", "1"}, {"type", "Data"}, {"size", "8K"}});
  EXPECT_EQ(caches_from_sysfs(d.path()).l1d.bytes, 8 << 10);  // the lowest-numbered cpu
}

TEST(CacheInfo, SysfsDirectoryFollowsEnvironment) {
  {
    ScopedEnv env("CANDOR_SYSFS_CPU_DIR", "/tmp/elsewhere");
    EXPECT_EQ(sysfs_cpu_dir(), "/tmp/elsewhere");
  }
  ScopedEnv env("CANDOR_SYSFS_CPU_DIR", nullptr);
  EXPECT_EQ(sysfs_cpu_dir(), kSys);
}

// A flat sweep shows no cache; steps of 3x do, each at the last size before the step.
TEST(CacheInfo, BoundariesAtLatencySteps) {
  std::vector<LatencyPoint> flat, steps;
  for (int64_t b = 4 << 10, i = 0; b <= 64 << 20; b *= 2, ++i) {
    flat.push_back({b, 1.0 + 0.01 * (i % 3)});
    const double ns = b <= (32 << 10) ? 1.1 : b <= (1 << 20) ? 3.8 : b <= (16 << 20) ? 13 : 120;
    steps.push_back({b, ns});
  }
  EXPECT_TRUE(cache_boundaries(flat).empty());
  EXPECT_EQ(cache_boundaries(steps), (std::vector<int64_t>{32 << 10, 1 << 20, 16 << 20}));
}

// One slow size is noise, not a level; a rise over two sizes is one level, not two; a small
// drift (TLB misses) is none.
TEST(CacheInfo, BoundariesIgnoreSpikesAndDrift) {
  const std::vector<LatencyPoint> sweep = {
      {4 << 10, 1.0}, {8 << 10, 1.0},  {16 << 10, 2.5},  // spike
      {32 << 10, 1.0}, {64 << 10, 2.0}, {128 << 10, 4.0},  // two-size rise
      {256 << 10, 4.0}, {512 << 10, 4.8}, {1 << 20, 5.2},  // drift
      {2 << 20, 5.0},  {4 << 20, 5.1}};
  EXPECT_EQ(cache_boundaries(sweep), (std::vector<int64_t>{32 << 10}));
}

// At the last size a rise counts alone only when it is large.
TEST(CacheInfo, BoundaryAtLastSizeNeedsALargeRise) {
  std::vector<LatencyPoint> sweep = {{4 << 10, 1.0}, {8 << 10, 1.0}, {16 << 10, 1.0}, {32 << 10, 1.6}};
  EXPECT_TRUE(cache_boundaries(sweep).empty());
  sweep.back().ns_per_load = 3.0;
  EXPECT_EQ(cache_boundaries(sweep), (std::vector<int64_t>{16 << 10}));
}

// Measured boundaries go to the unknown levels only, each above the level below and below
// the known level above.
TEST(CacheInfo, FillUnknownLevelsRespectsKnownLevels) {
  HostCaches known;
  known.l1d.bytes = 32 << 10;
  known.l1d.source = "cpuid";
  known.l2.bytes = 1 << 20;
  known.l2.source = "cpuid";
  const HostCaches a = fill_unknown_levels(known, {32 << 10, 1 << 20, 16 << 20});
  EXPECT_EQ(a.l1d.bytes, 32 << 10);
  EXPECT_EQ(a.l1d.source, "cpuid");
  EXPECT_EQ(a.l2.bytes, 1 << 20);
  EXPECT_EQ(a.l3.bytes, 16 << 20);
  EXPECT_EQ(a.l3.source, "measured");
  EXPECT_EQ(a.l3.geometry.ways, 0);
  EXPECT_EQ(a.l3.geometry.line_bytes, 64);
  // A boundary near the known L2 is the L2 seen again, not an L3.
  EXPECT_EQ(fill_unknown_levels(known, {32 << 10, 1 << 20}).l3.bytes, 0);

  HostCaches only_l3;
  only_l3.l3.bytes = 32 << 20;
  const HostCaches b = fill_unknown_levels(only_l3, {48 << 10, 2 << 20, 24 << 20});
  EXPECT_EQ(b.l1d.bytes, 48 << 10);
  EXPECT_EQ(b.l2.bytes, 2 << 20);
  EXPECT_EQ(b.l3.bytes, 32 << 20);
}

// With no sysfs cache directory (as in some virtual machines), the other sources still give
// L1d and L2, with their full geometry on x86 (CPUID).
TEST(CacheInfo, HostCachesWithoutSysfs) {
  FakeCpuDir empty;
  ScopedEnv env("CANDOR_SYSFS_CPU_DIR", empty.path().c_str());
  const HostCaches h = host_caches();
  for (const CacheLevel* l : {&h.l1d, &h.l2}) {
    EXPECT_GT(l->bytes, 0);
    EXPECT_NE(l->source, "sysfs");
    EXPECT_FALSE(l->source.empty());
    if (is_x86()) {
      EXPECT_GT(l->geometry.ways, 0);
      EXPECT_GT(l->geometry.sets, 0);
      EXPECT_GT(l->geometry.line_bytes, 0);
      EXPECT_EQ(int64_t{l->geometry.ways} * l->geometry.sets * l->geometry.line_bytes, l->bytes);
    }
  }
  EXPECT_LT(h.l1d.bytes, h.l2.bytes);
  if (h.l3.bytes > 0) { EXPECT_GT(h.l3.bytes, h.l2.bytes); }
}

// A sysfs size without geometry takes the geometry of a later source of the same size.
TEST(CacheInfo, HostCachesCompletesGeometryFromCpuid) {
  const HostCaches cpuid = caches_from_cpuid();
  if (cpuid.l1d.bytes <= 0 || cpuid.l1d.geometry.ways <= 0) GTEST_SKIP() << "no CPUID cache leaves";
  FakeCpuDir d;
  d.add_index(0, 0, {{"level", "1"}, {"type", "Data"}, {"size", std::to_string(cpuid.l1d.bytes >> 10) + "K"}});
  d.add_index(0, 1, {{"level", "2"}, {"type", "Unified"}, {"size", std::to_string(cpuid.l2.bytes * 2 >> 10) + "K"}});
  ScopedEnv env("CANDOR_SYSFS_CPU_DIR", d.path().c_str());
  const HostCaches h = host_caches();
  EXPECT_EQ(h.l1d.source, "sysfs");
  EXPECT_EQ(h.l1d.bytes, cpuid.l1d.bytes);
  EXPECT_EQ(h.l1d.geometry.ways, cpuid.l1d.geometry.ways);
  EXPECT_EQ(h.l1d.geometry.sets, cpuid.l1d.geometry.sets);
  // An L2 of another size keeps its geometry unknown rather than borrow a wrong one.
  EXPECT_EQ(h.l2.source, "sysfs");
  EXPECT_EQ(h.l2.bytes, 2 * cpuid.l2.bytes);
  EXPECT_EQ(h.l2.geometry.ways, 0);
}

TEST(CacheInfo, HostCachesMatchSysfsOnThisHost) {
  ScopedEnv env("CANDOR_SYSFS_CPU_DIR", nullptr);
  const HostCaches sys = caches_from_sysfs(kSys);
  if (sys.l1d.bytes <= 0 || sys.l2.bytes <= 0) GTEST_SKIP() << "no sysfs cache directory";
  const HostCaches h = host_caches();
  EXPECT_EQ(h.l1d.bytes, sys.l1d.bytes);
  EXPECT_EQ(h.l2.bytes, sys.l2.bytes);
  EXPECT_EQ(h.l1d.source, "sysfs");
  EXPECT_EQ(h.l2.source, "sysfs");
  if (sys.l3.bytes > 0) { EXPECT_EQ(h.l3.bytes, sys.l3.bytes); }
}

TEST(CacheInfo, CpuidAgreesWithSysfs) {
  const HostCaches sys = caches_from_sysfs(kSys), cpuid = caches_from_cpuid();
  if (sys.l1d.bytes <= 0 || sys.l2.bytes <= 0) GTEST_SKIP() << "no sysfs cache directory";
  if (cpuid.l1d.bytes <= 0 || cpuid.l2.bytes <= 0) GTEST_SKIP() << "no CPUID cache leaves";
  EXPECT_EQ(cpuid.l1d.bytes, sys.l1d.bytes);
  EXPECT_EQ(cpuid.l2.bytes, sys.l2.bytes);
  if (sys.l1d.geometry.ways > 0) { EXPECT_EQ(cpuid.l1d.geometry.ways, sys.l1d.geometry.ways); }
  if (sys.l2.geometry.ways > 0) { EXPECT_EQ(cpuid.l2.geometry.ways, sys.l2.geometry.ways); }
}

TEST(CacheInfo, SysconfAgreesWithSysfsOnL1d) {
  const HostCaches sys = caches_from_sysfs(kSys), sc = caches_from_sysconf();
  if (sys.l1d.bytes <= 0 || sc.l1d.bytes <= 0) GTEST_SKIP() << "sysfs or sysconf reports no L1d";
  EXPECT_EQ(sc.l1d.bytes, sys.l1d.bytes);
  EXPECT_EQ(sc.l1d.source, "sysconf");
}

// The sweep's first level is the L1d (its latency step is the largest relative one); a
// sibling hyperthread sharing the L1d can halve what a sweep sees, hence the factor 2.
TEST(CacheInfo, MeasuredFirstLevelIsL1d) {
  const int64_t l1d = host_caches().l1d.bytes;
  ASSERT_GT(l1d, 0);
  LatencySweepOptions o;
  o.max_bytes = std::max<int64_t>(16 * l1d, 1 << 20);
  const std::vector<LatencyPoint> sweep = latency_sweep(o);
  ASSERT_FALSE(sweep.empty());
  EXPECT_EQ(sweep.front().bytes, 4 << 10);
  EXPECT_EQ(sweep.back().bytes, o.max_bytes);
  const std::vector<int64_t> b = cache_boundaries(sweep, o.jump);
  std::string shown;
  for (const LatencyPoint& p : sweep) shown += std::to_string(p.bytes >> 10) + "K:" + std::to_string(p.ns_per_load) + " ";
  ASSERT_FALSE(b.empty()) << shown;
  EXPECT_GE(b.front(), l1d / 2) << shown;
  EXPECT_LE(b.front(), l1d * 2) << shown;
  const HostCaches m = fill_unknown_levels(HostCaches{}, b);
  EXPECT_EQ(m.l1d.source, "measured");
  EXPECT_EQ(m.l1d.geometry.ways, 0);
  EXPECT_GE(m.l1d.bytes, l1d / 2);
  EXPECT_LE(m.l1d.bytes, l1d * 2);
}

}  // namespace
