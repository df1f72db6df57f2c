#include "support/memory.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>

#include "support/numbers.h"

namespace candor::support {

int64_t resident_bytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return 0;
  long long total = 0, resident = 0;
  const int read = std::fscanf(f, "%lld %lld", &total, &resident);
  std::fclose(f);
  if (read != 2) return 0;
  return static_cast<int64_t>(resident) * ::sysconf(_SC_PAGESIZE);
}

namespace {

int64_t memory_limit() {
  int64_t limit = static_cast<int64_t>(::sysconf(_SC_PHYS_PAGES)) * ::sysconf(_SC_PAGESIZE);
  if (limit <= 0) limit = int64_t(1) << 32;
  std::ifstream cgroup("/sys/fs/cgroup/memory.max");
  std::string text;
  if (cgroup >> text) {
    if (std::optional<int64_t> bytes = parse_integer(text, 1)) limit = std::min(limit, *bytes);
  }
  struct rlimit address_space {};
  if (::getrlimit(RLIMIT_AS, &address_space) == 0 && address_space.rlim_cur != RLIM_INFINITY)
    limit = std::min<int64_t>(limit, static_cast<int64_t>(address_space.rlim_cur));
  return limit;
}

}  // namespace

int64_t default_memory_budget() {
  static const int64_t budget = memory_limit() / 2;  // the limits do not change while it runs
  return budget;
}

}  // namespace candor::support
