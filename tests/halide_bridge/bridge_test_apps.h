// The pipelines the app-level bridge tests run over: the small local test pipelines, plus
// the example apps when the build has them (CANDOR_BRIDGE_WITH_APPS).
#pragma once

#include <string>
#include <vector>

#include "app.h"

namespace candor::halide_bridge::testing {

std::vector<App> bridge_test_apps(bool include_example_apps);
const App& bridge_test_app(const std::string& name);

// How many random schedules per app the printed-source check covers, and their seeds.
constexpr int kRandomSchedulesPerApp = 20;
inline uint64_t random_seed(int i) { return 1000 + uint64_t(i); }

}  // namespace candor::halide_bridge::testing
