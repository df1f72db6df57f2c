// The C++ backend of dslc: turns a checked space into a header and a source file defining
// `candor::spaces::<name>::Input` (what the host supplies per kernel) and
// `candor::spaces::<name>::GeneratedSpace`, a candor::Space whose propagators are the
// spec's constraints. Hand-written code derives from GeneratedSpace.
#pragma once

#include <string>
#include <vector>

#include "dsl/model.h"

namespace candor::dslc {

struct GeneratedCode {
  std::string header;
  std::string source;
};

// A construct the backend cannot compile, with its location.
struct BackendError {
  dsl::Location loc;
  std::string message;
};

// Returns false (and fills `errors`) when some construct is outside what the backend
// supports; `header_name` is how the source includes the header.
bool emit_cpp(const dsl::CheckedSpace& space, const std::string& header_name,
              GeneratedCode& out, std::vector<BackendError>& errors);

}  // namespace candor::dslc
