// The host's data cache sizes and geometry, read from every source the machine offers: the
// kernel's sysfs cache directory, x86 CPUID, glibc's sysconf and, for what none of them
// knows, a pointer-chase latency sweep. No source is required: virtual machines often have
// no sysfs cache directory, and non-x86 hosts have no CPUID.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "machine.h"

namespace candor::models::halide {

// One cache level as one source reports it.
struct CacheLevel {
  int64_t bytes = 0;        // per core for L1d and L2, as the source reports it; 0: unknown
  CacheGeometry geometry;   // ways 0: unknown
  std::string source;       // "sysfs", "cpuid", "sysconf" or "measured"; empty when unknown
};

struct HostCaches {
  CacheLevel l1d, l2, l3;
};

// Parsed from `cpu_dir`/cpu0/cache/index*/ (or the first cpuN with a cache directory), where
// `cpu_dir` stands for /sys/devices/system/cpu. Instruction caches are skipped.
HostCaches caches_from_sysfs(const std::string& cpu_dir);
// x86 CPUID deterministic cache leaves: 0x8000001D on AMD and Hygon (when TOPOEXT is set),
// else leaf 4. Empty on other architectures or when the leaves are absent. Under a
// hypervisor the L3 may be the whole host's.
HostCaches caches_from_cpuid();
// glibc's sysconf(_SC_LEVEL{1_D,2_,3_}CACHE_{SIZE,ASSOC,LINESIZE}); empty where it reports 0.
HostCaches caches_from_sysconf();

// The measured fallback: ns per dependent load of a chase through a random cyclic permutation
// of 64-byte lines, for buffers from min_bytes doubling up to max_bytes.
struct LatencySweepOptions {
  int64_t min_bytes = 4 << 10;
  int64_t max_bytes = 64 << 20;
  // The latency ratio to a level's plateau that marks the next level: the steps from one
  // cache level to the next are 2x to 4x, those of TLB misses (past the L1 TLB's reach,
  // which a hypervisor's small pages shrink) about 1.2x to 1.45x.
  double jump = 1.5;
};
struct LatencyPoint {
  int64_t bytes = 0;
  double ns_per_load = 0;
};
std::vector<LatencyPoint> latency_sweep(const LatencySweepOptions& o = {});
// The cache sizes a sweep shows, ascending: each the last size before the latency rises to at
// least `jump` times the plateau's lowest latency and stays there at the next size (at the
// last size, which has no next, a rise of jump squared counts alone).
std::vector<int64_t> cache_boundaries(const std::vector<LatencyPoint>& sweep, double jump = 1.5);

// Every source combined, per level: the size of the first source that knows it (sysfs, CPUID,
// sysconf), its geometry completed by a later source that reports the same size (or its sets
// derived from ways and line), and a measured size only for levels no source knows. Never
// throws; on x86-64 Linux L1d and L2 are always known, L3 is 0 when nothing shows one.
HostCaches host_caches();
// Measured boundaries assigned to the levels `known` lacks, each above the level below it and
// below the known level above it (the combining step of host_caches, exposed for tests).
HostCaches fill_unknown_levels(HostCaches known, const std::vector<int64_t>& boundaries);
// $CANDOR_SYSFS_CPU_DIR when set and non-empty, else /sys/devices/system/cpu.
std::string sysfs_cpu_dir();

}  // namespace candor::models::halide
