// Random schedules printed as Halide C++ at build time (by bridge_print_schedules) and
// compiled into the test binary, so a test can check that the printed source, compiled
// separately, schedules an instance exactly as applying the Schedule does.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <Halide.h>

namespace candor::halide_bridge::testing {

struct PrintedSchedule {
  std::string app;
  uint64_t seed;
  void (*apply)(std::map<std::string, Halide::Func>& funcs);  // the printed source
};

// Defined in the generated source.
const std::vector<PrintedSchedule>& printed_schedules();

}  // namespace candor::halide_bridge::testing
