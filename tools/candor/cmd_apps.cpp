// `candor apps`: the example apps, one name a line (with --verbose, name and description);
// with --corpus, the held-out corpus's generators (bench/corpus) instead.
#include <cstdio>
#include <memory>

#include "apps.h"
#include "commands.h"
#include "corpus.h"

namespace candor::cli {

void register_apps_command(CLI::App& app, int& exit_status) {
  CLI::App* cmd = app.add_subcommand("apps", "List the example apps (Halide pipelines), one a line");
  auto verbose = std::make_shared<bool>(false);
  auto corpus = std::make_shared<bool>(false);
  cmd->add_flag("-v,--verbose", *verbose, "also print each app's description");
  cmd->add_flag("--corpus", *corpus,
                "list the held-out corpus's generators instead (never trained or tuned on; bench/corpus/README.md)");
  cmd->callback([verbose, corpus, &exit_status] {
    for (const auto& a : *corpus ? candor::corpus::all_apps() : candor::apps::all_apps()) {
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
