// `candor apps`: the example apps, one name a line (with --verbose, name and description).
#include <cstdio>
#include <memory>

#include "apps.h"
#include "commands.h"

namespace candor::cli {

void register_apps_command(CLI::App& app, int& exit_status) {
  CLI::App* cmd = app.add_subcommand("apps", "List the example apps (Halide pipelines), one a line");
  auto verbose = std::make_shared<bool>(false);
  cmd->add_flag("-v,--verbose", *verbose, "also print each app's description");
  cmd->callback([verbose, &exit_status] {
    for (const auto& a : candor::apps::all_apps()) {
      if (*verbose) {
        std::printf("%-26s %s\n", a.name.c_str(), a.description.c_str());
      } else {
        std::printf("%s\n", a.name.c_str());
      }
    }
    exit_status = 0;
  });
}

}  // namespace candor::cli
