#include "bridge_test_apps.h"

#include "error.h"
#include "test_pipelines.h"
#ifdef CANDOR_BRIDGE_WITH_APPS
#include "apps.h"
#endif

namespace candor::halide_bridge::testing {

std::vector<App> bridge_test_apps(bool include_example_apps) {
  std::vector<App> r = all_test_apps();
#ifdef CANDOR_BRIDGE_WITH_APPS
  if (include_example_apps)
    for (const App& a : candor::apps::all_apps()) r.push_back(a);
#else
  (void)include_example_apps;
#endif
  return r;
}

const App& bridge_test_app(const std::string& name) {
  static const std::vector<App> apps = bridge_test_apps(true);
  for (const App& a : apps)
    if (a.name == name) return a;
  throw BridgeError("no test app named '" + name + "'");
}

}  // namespace candor::halide_bridge::testing
