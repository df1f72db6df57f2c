// `candor apps`: the example apps, one name a line (with --verbose, name and description).
#include <cstdio>
#include <memory>

#include "commands.h"

#ifdef CANDOR_HAVE_APPS
#include "apps.h"
#endif

namespace candor::cli {

void register_apps_command(CLI::App& app, int& exit_status) {
  CLI::App* cmd = app.add_subcommand("apps", "List the example apps (Halide pipelines), one a line");
  auto verbose = std::make_shared<bool>(false);
  cmd->add_flag("-v,--verbose", *verbose, "also print each app's description");
  cmd->callback([verbose, &exit_status] {
#ifdef CANDOR_HAVE_APPS
    for (const auto& a : candor::apps::all_apps()) {
      if (*verbose) {
        std::printf("%-26s %s\n", a.name.c_str(), a.description.c_str());
      } else {
        std::printf("%s\n", a.name.c_str());
      }
    }
    exit_status = 0;
#else
    (void)verbose;
    std::fprintf(stderr, "candor: error: built without the Halide apps (CANDOR_HALIDE=OFF)\n");
    exit_status = 1;
#endif
  });
}

}  // namespace candor::cli
