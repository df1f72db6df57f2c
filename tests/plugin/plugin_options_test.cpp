// The plugin's CANDOR_* knobs (scheduler/plugin_options.h), read from a fake environment.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>

#include "plugin_options.h"

namespace candor::scheduler {
namespace {

PluginOptions read(const std::map<std::string, std::string>& vars, const std::string& dir = "/x/build/lib") {
  return read_plugin_options(dir, [&](const std::string& name) -> std::optional<std::string> {
    auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  });
}

std::string error_of(const std::map<std::string, std::string>& vars) {
  try {
    read(vars);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(PluginOptions, Defaults) {
  PluginOptions o = read({});
  EXPECT_EQ(o.search, "beam");
  EXPECT_DOUBLE_EQ(o.budget.seconds, 30);
  EXPECT_EQ(o.budget.seed, 0u);
  EXPECT_EQ(o.machine_path, "/x/build/machine.json");
  EXPECT_FALSE(o.verbose);
  EXPECT_TRUE(o.verify);
  EXPECT_TRUE(o.pins.empty());
  EXPECT_EQ(o.top, 0);
}

// An installed plugin (P/lib) keeps its machine description in P/share/candor.
TEST(PluginOptions, InstalledPluginReadsItsMachineFromShareCandor) {
  const std::filesystem::path prefix =
      std::filesystem::temp_directory_path() / ("candor_plugin_prefix_" + std::to_string(::getpid()));
  std::filesystem::create_directories(prefix / "share" / "candor");
  EXPECT_EQ(read({}, (prefix / "lib").string()).machine_path, (prefix / "share" / "candor" / "machine.json").string());
  std::filesystem::remove_all(prefix);
}

TEST(PluginOptions, Knobs) {
  PluginOptions o = read({{"CANDOR_SEARCH", "greedy"},
                          {"CANDOR_BUDGET", "time=5s,nodes=100"},
                          {"CANDOR_SEED", "42"},
                          {"CANDOR_MACHINE", "/tmp/m.json"},
                          {"CANDOR_VERBOSE", "1"},
                          {"CANDOR_VERIFY", "0"},
                          {"CANDOR_PINS", "location(blur_x)=ROOT;;tile(out.x)=64"},
                          {"CANDOR_TOP", "3"},
                          {"CANDOR_TOP_DIR", "/tmp/top"},
                          {"CANDOR_AUTOTUNE", "0"}});
  EXPECT_EQ(o.search, "greedy");
  EXPECT_DOUBLE_EQ(o.budget.seconds, 5);
  EXPECT_EQ(o.budget.max_expanded, 100);
  EXPECT_EQ(o.budget.seed, 42u);
  EXPECT_EQ(o.machine_path, "/tmp/m.json");
  EXPECT_TRUE(o.verbose);
  EXPECT_FALSE(o.verify);
  EXPECT_EQ(o.pins, (std::vector<std::pair<std::string, std::string>>{{"location(blur_x)", "ROOT"},
                                                                      {"tile(out.x)", "64"}}));
  EXPECT_EQ(o.top, 3);
  EXPECT_EQ(o.top_dir, "/tmp/top");
}

TEST(PluginOptions, BadValuesNameTheVariable) {
  EXPECT_NE(error_of({{"CANDOR_AUTOTUNE", "8"}}).find("CANDOR_AUTOTUNE=8: the plugin cannot autotune"),
            std::string::npos);
  EXPECT_NE(error_of({{"CANDOR_SEARCH", "nosuch"}}).find("CANDOR_SEARCH=nosuch"), std::string::npos);
  EXPECT_EQ(error_of({{"CANDOR_BUDGET", "time=fast"}}).rfind("CANDOR_BUDGET: time needs a positive duration", 0), 0u)
      << error_of({{"CANDOR_BUDGET", "time=fast"}});
  EXPECT_NE(error_of({{"CANDOR_SEED", "-3"}}).find("CANDOR_SEED needs a non-negative integer"), std::string::npos);
  EXPECT_NE(error_of({{"CANDOR_SEED", "7x"}}).find("CANDOR_SEED"), std::string::npos);
  EXPECT_NE(error_of({{"CANDOR_PINS", "tile(out.x)"}}).find("CANDOR_PINS: 'tile(out.x)': expected CHOICE=VALUE"),
            std::string::npos);
  EXPECT_NE(error_of({{"CANDOR_VERIFY", "yes"}}).find("CANDOR_VERIFY needs 0 or 1, got 'yes'"), std::string::npos);
  for (const char* top : {"0", "65", "-1", "2x"})
    EXPECT_NE(error_of({{"CANDOR_TOP", top}}).find("CANDOR_TOP needs an integer from 1 to 64"), std::string::npos) << top;
  EXPECT_NE(error_of({{"CANDOR_TOP_DIR", "/tmp"}}).find("CANDOR_TOP_DIR is set without CANDOR_TOP"), std::string::npos);
}

}  // namespace
}  // namespace candor::scheduler
