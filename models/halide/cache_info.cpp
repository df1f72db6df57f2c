#include "cache_info.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <numeric>
#include <random>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#ifdef __linux__
#include <sys/mman.h>
#endif

namespace candor::models::halide {

namespace {

namespace fs = std::filesystem;

// The level `level` of `h` stands for (1: L1d, 2: L2, 3: L3); nullptr for any other level.
CacheLevel* level_of(HostCaches& h, int level) {
  return level == 1 ? &h.l1d : level == 2 ? &h.l2 : level == 3 ? &h.l3 : nullptr;
}
const CacheLevel* level_of(const HostCaches& h, int level) { return level_of(const_cast<HostCaches&>(h), level); }

// Sets from size, ways and line where a source gives no sets.
void derive_sets(CacheLevel& l) {
  CacheGeometry& g = l.geometry;
  if (g.line_bytes <= 0) g.line_bytes = 64;
  if (l.bytes > 0 && g.ways > 0 && g.sets <= 0) g.sets = static_cast<int>(l.bytes / (int64_t{g.ways} * g.line_bytes));
}

// Sets a level once: the first report of a level wins (a CPU may list several caches of
// one level, e.g. L1 instruction and data).
void report(HostCaches& h, int level, int64_t bytes, CacheGeometry g, const char* source) {
  CacheLevel* l = level_of(h, level);
  if (!l || l->bytes > 0 || bytes <= 0) return;
  l->bytes = bytes;
  l->geometry = g;
  l->source = source;
  derive_sets(*l);
}

std::string read_word(const fs::path& p) {
  std::ifstream in(p);
  std::string s;
  in >> s;
  return s;
}

int read_int(const fs::path& p) {
  const std::string s = read_word(p);
  return s.empty() ? 0 : std::atoi(s.c_str());
}

// A sysfs size: plain bytes or with a K, M or G suffix ("32K", "2048K", "2M"); 0 if unparsable.
int64_t parse_size(const std::string& s) {
  char* end = nullptr;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (end == s.c_str() || v <= 0) return 0;
  switch (std::toupper(static_cast<unsigned char>(*end))) {
    case 'K': return v << 10;
    case 'M': return v << 20;
    case 'G': return v << 30;
    case '\0': return v;
    default: return 0;
  }
}

// cpu_dir/cpu0/cache, or the cache directory of the lowest-numbered cpuN that has one.
fs::path sysfs_cache_dir(const std::string& cpu_dir) {
  std::error_code ec;
  const fs::path cpu0 = fs::path(cpu_dir) / "cpu0" / "cache";
  if (fs::is_directory(cpu0, ec)) return cpu0;
  int best = -1;
  fs::path found;
  for (fs::directory_iterator it(cpu_dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() < 4 || name.compare(0, 3, "cpu") != 0 ||
        !std::all_of(name.begin() + 3, name.end(), [](unsigned char c) { return std::isdigit(c); }))
      continue;
    const int n = std::atoi(name.c_str() + 3);
    std::error_code ec2;
    if ((best < 0 || n < best) && fs::is_directory(it->path() / "cache", ec2)) best = n, found = it->path() / "cache";
  }
  return found;
}

// A level the latency sweep shows: its size only (ways 0: unknown), 64-byte lines.
CacheLevel measured_level(int64_t bytes) {
  CacheLevel l;
  l.bytes = bytes;
  l.geometry = CacheGeometry{};
  l.geometry.line_bytes = 64;
  l.source = "measured";
  return l;
}

// One 64-byte line of the chase: the next line's address, then padding.
struct alignas(64) ChaseLine {
  ChaseLine* next;
  char pad[64 - sizeof(ChaseLine*)];
};

ChaseLine* chase(ChaseLine* p, int64_t loads) {
  for (int64_t i = 0; i < loads; ++i) p = p->next;
  return p;
}

}  // namespace

HostCaches caches_from_sysfs(const std::string& cpu_dir) {
  HostCaches h;
  const fs::path dir = sysfs_cache_dir(cpu_dir);
  if (dir.empty()) return h;
  for (int i = 0; i < 64; ++i) {
    const fs::path idx = dir / ("index" + std::to_string(i));
    std::error_code ec;
    if (!fs::is_directory(idx, ec)) continue;
    const std::string type = read_word(idx / "type");
    if (type != "Data" && type != "Unified") continue;  // instruction caches hold no data
    CacheGeometry g;
    g.ways = std::max(0, read_int(idx / "ways_of_associativity"));
    g.sets = std::max(0, read_int(idx / "number_of_sets"));
    const int line = read_int(idx / "coherency_line_size");
    if (line > 0) g.line_bytes = line;
    report(h, read_int(idx / "level"), parse_size(read_word(idx / "size")), g, "sysfs");
  }
  return h;
}

HostCaches caches_from_cpuid() {
  HostCaches h;
#if defined(__x86_64__) || defined(__i386__)
  unsigned a = 0, b = 0, c = 0, d = 0;
  const unsigned max_basic = __get_cpuid_max(0, nullptr);
  const unsigned max_ext = __get_cpuid_max(0x80000000, nullptr);
  // AMD and Hygon describe their caches in 0x8000001D when TOPOEXT (0x80000001 ecx bit 22)
  // is set; Intel in leaf 4 (reserved, all zero, on AMD). Both share one format.
  unsigned leaf = 0;
  if (max_ext >= 0x8000001D) {
    __cpuid(0x80000001, a, b, c, d);
    if (c & (1u << 22)) leaf = 0x8000001D;
  }
  if (leaf == 0 && max_basic >= 4) leaf = 4;
  if (leaf == 0) return h;
  for (unsigned sub = 0; sub < 32; ++sub) {
    __cpuid_count(leaf, sub, a, b, c, d);
    const unsigned type = a & 0x1f;  // 0: no more caches, 1: data, 2: instruction, 3: unified
    if (type == 0) break;
    if (type != 1 && type != 3) continue;
    const int level = (a >> 5) & 0x7;
    const bool fully_associative = (a >> 9) & 1;
    const int64_t ways = ((b >> 22) & 0x3ff) + 1, partitions = ((b >> 12) & 0x3ff) + 1, line = (b & 0xfff) + 1;
    const int64_t sets = int64_t{c} + 1;
    CacheGeometry g;
    g.ways = fully_associative ? 0 : static_cast<int>(ways);
    g.sets = fully_associative ? 0 : static_cast<int>(sets);
    g.line_bytes = static_cast<int>(line);
    report(h, level, ways * partitions * line * sets, g, "cpuid");
  }
#endif
  return h;
}

HostCaches caches_from_sysconf() {
  HostCaches h;
#ifdef _SC_LEVEL1_DCACHE_SIZE
  const int names[3][3] = {{_SC_LEVEL1_DCACHE_SIZE, _SC_LEVEL1_DCACHE_ASSOC, _SC_LEVEL1_DCACHE_LINESIZE},
                           {_SC_LEVEL2_CACHE_SIZE, _SC_LEVEL2_CACHE_ASSOC, _SC_LEVEL2_CACHE_LINESIZE},
                           {_SC_LEVEL3_CACHE_SIZE, _SC_LEVEL3_CACHE_ASSOC, _SC_LEVEL3_CACHE_LINESIZE}};
  for (int i = 0; i < 3; ++i) {
    const long bytes = sysconf(names[i][0]), ways = sysconf(names[i][1]), line = sysconf(names[i][2]);
    CacheGeometry g;
    g.ways = ways > 0 ? static_cast<int>(ways) : 0;  // 0 or -1: unknown
    if (line > 0) g.line_bytes = static_cast<int>(line);
    report(h, i + 1, bytes > 0 ? bytes : 0, g, "sysconf");
  }
#endif
  return h;
}

std::vector<LatencyPoint> latency_sweep(const LatencySweepOptions& o) {
  std::vector<LatencyPoint> out;
  const int64_t line = sizeof(ChaseLine), huge = int64_t{2} << 20;
  const int64_t min_bytes = std::max(o.min_bytes, 4 * line);
  if (o.max_bytes < min_bytes) return out;
  // One buffer for every size, 2 MiB aligned and backed by huge pages where the kernel allows,
  // so that TLB misses do not add latency steps of their own past the L1 TLB's reach.
  const size_t alloc = static_cast<size_t>((o.max_bytes + huge - 1) / huge * huge);
  std::unique_ptr<void, decltype(&std::free)> mem(std::aligned_alloc(huge, alloc), &std::free);
  if (!mem) return out;
#ifdef MADV_HUGEPAGE
  madvise(mem.get(), alloc, MADV_HUGEPAGE);
#endif
  ChaseLine* lines = static_cast<ChaseLine*>(mem.get());
  std::mt19937_64 rng(12345);
  std::vector<uint32_t> order;
  volatile uintptr_t sink = 0;
  for (int64_t bytes = min_bytes; bytes <= o.max_bytes; bytes *= 2) {
    const int64_t n = bytes / line;
    order.resize(n);
    std::iota(order.begin(), order.end(), 0u);
    std::shuffle(order.begin(), order.end(), rng);
    for (int64_t i = 0; i < n; ++i) lines[order[i]].next = &lines[order[(i + 1) % n]];
    // Each trial a fixed number of loads: many passes over small buffers, part of a pass over
    // large ones (the order is random, so any part shows the same miss rate).
    const int64_t loads = std::clamp<int64_t>(2 * n, int64_t{1} << 16, int64_t{1} << 18);
    ChaseLine* p = chase(&lines[order[0]], loads / 4);  // the links' writes already loaded the lines
    double best = 0;
    for (int trial = 0; trial < 3; ++trial) {
      const auto t0 = std::chrono::steady_clock::now();
      p = chase(p, loads);
      const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
      if (trial == 0 || ns < best) best = ns;  // the least disturbed trial
    }
    sink = sink + reinterpret_cast<uintptr_t>(p);
    out.push_back({bytes, best / static_cast<double>(loads)});
  }
  return out;
}

std::vector<int64_t> cache_boundaries(const std::vector<LatencyPoint>& sweep, double jump) {
  if (jump <= 1) return {};
  std::vector<int64_t> out;
  if (sweep.empty()) return out;
  double base = sweep[0].ns_per_load;  // the current plateau's lowest latency
  for (size_t k = 1; k < sweep.size(); ++k) {
    const double t = sweep[k].ns_per_load;
    // A rise that the next size confirms (a lone slow size is noise); at the last size,
    // which has no next, only a rise of jump squared.
    const bool rise = t >= jump * base;
    const bool sustained = k + 1 < sweep.size() ? sweep[k + 1].ns_per_load >= jump * base : t >= jump * jump * base;
    if (!(rise && sustained)) {
      base = std::min(base, t);
      continue;
    }
    out.push_back(sweep[k - 1].bytes);
    // The next plateau begins where latency stops rising steeply (a partial-hit transition
    // can span two sizes).
    size_t j = k;
    while (j + 1 < sweep.size() && sweep[j + 1].ns_per_load >= jump * sweep[j].ns_per_load) ++j;
    base = sweep[j].ns_per_load;
    k = j;
  }
  return out;
}

HostCaches fill_unknown_levels(HostCaches h, const std::vector<int64_t>& boundaries) {
  for (int level = 1; level <= 3; ++level) {
    CacheLevel* l = level_of(h, level);
    if (l->bytes > 0) continue;
    // Between the level below (known or filled) and the nearest known level above, with
    // margin, so that a boundary standing for a known level is not taken twice.
    const int64_t below = level > 1 ? level_of(h, level - 1)->bytes : 0;
    int64_t above = 0;
    for (int up = level + 1; up <= 3 && above == 0; ++up) above = level_of(h, up)->bytes;
    for (int64_t b : boundaries) {
      if (b * 2 <= below * 3 || (above > 0 && b * 3 >= above * 2)) continue;
      *l = measured_level(b);
      break;
    }
  }
  return h;
}

std::string sysfs_cpu_dir() {
  const char* env = std::getenv("CANDOR_SYSFS_CPU_DIR");
  return env && *env ? env : "/sys/devices/system/cpu";
}

HostCaches host_caches() {
  const HostCaches sources[] = {caches_from_sysfs(sysfs_cpu_dir()), caches_from_cpuid(), caches_from_sysconf()};
  HostCaches h;
  for (int level = 1; level <= 3; ++level) {
    CacheLevel* l = level_of(h, level);
    for (const HostCaches& s : sources) {
      const CacheLevel& r = *level_of(s, level);
      if (r.bytes <= 0) continue;
      if (l->bytes <= 0) *l = r;
      else if (r.bytes == l->bytes && l->geometry.ways <= 0 && r.geometry.ways > 0) l->geometry = r.geometry;
    }
    derive_sets(*l);
  }
  if (h.l1d.bytes > 0 && h.l2.bytes > 0 && h.l3.bytes > 0) return h;
  // Only now the sweep (under a second). An unknown level lies below the nearest known level
  // above it, so the sweep can stop at twice that level's size.
  LatencySweepOptions o;
  int highest_unknown = 3;
  while (level_of(h, highest_unknown)->bytes > 0) --highest_unknown;
  for (int up = highest_unknown + 1; up <= 3; ++up) {
    const int64_t known = level_of(h, up)->bytes;
    if (known > 0) {
      o.max_bytes = std::min(o.max_bytes, 2 * known);
      break;
    }
  }
  return fill_unknown_levels(h, cache_boundaries(latency_sweep(o), o.jump));
}

}  // namespace candor::models::halide
