// The memory a process uses and may use: searches and collections stop at their memory
// budget (default: half of what this machine or its limits give the process).
#pragma once

#include <cstdint>

namespace candor::support {

// Resident set size of this process in bytes (0 when /proc cannot tell).
int64_t resident_bytes();

// Half the memory this process can have: the smallest of the machine's physical memory,
// the cgroup's memory.max and the address-space limit (ulimit -v), halved.
int64_t default_memory_budget();

}  // namespace candor::support
