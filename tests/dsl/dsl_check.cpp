// dsl_check FILE.space: loads a spec with the dsl front end and prints its diagnostics on
// stderr (`file:line:col: error: message`). Exit status: 0 when the spec checks, 1 on any
// error. With --summary, prints a one-line summary of the checked space on stdout.
#include <cstring>
#include <iostream>

#include "dsl/frontend.h"

int main(int argc, char** argv) {
  const char* path = nullptr;
  bool summary = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--summary") == 0)
      summary = true;
    else if (path == nullptr)
      path = argv[i];
    else
      path = nullptr, argc = 0;
  }
  if (path == nullptr) {
    std::cerr << "usage: dsl_check [--summary] FILE.space\n";
    return 1;
  }
  candor::dsl::DiagnosticSink sink(&std::cerr);
  std::optional<candor::dsl::CheckedSpace> space = candor::dsl::load_space(path, sink);
  if (!space) return 1;
  if (summary) {
    std::cout << "space " << space->name << ": " << space->sets.size() << " sets, "
              << space->facts.size() << " facts, " << space->params.size() << " params, "
              << space->universes.size() << " universes, " << space->enums.size()
              << " enums, " << space->choices.size() << " choices, "
              << space->counters.size() << " counters, " << space->clauses.size()
              << " clauses, " << space->counter_bounds.size() << " counter bounds\n";
  }
  return 0;
}
