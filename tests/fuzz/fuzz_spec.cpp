// Fuzzes the spec front end (lexer, parser, includes, semantic checks) and, for the specs
// that check, the C++ code generator. Any input must end in diagnostics or generated code:
// never a crash, a sanitizer report, a hang or unbounded memory.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "cpp_backend.h"
#include "dsl/diagnostics.h"
#include "dsl/frontend.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::ostringstream diagnostics;
  candor::dsl::DiagnosticSink sink(&diagnostics);
  // Includes resolve to nothing: the fuzzer drives one file.
  const candor::dsl::SourceReader no_files = [](const std::string&, std::string& error) {
    error = "no files while fuzzing";
    return std::optional<std::string>();
  };
  std::optional<candor::dsl::CheckedSpace> space =
      candor::dsl::load_space_from_string(text, "fuzz.space", sink, no_files);
  if (!space || sink.has_errors()) return 0;
  candor::dslc::GeneratedCode code;
  std::vector<candor::dslc::BackendError> errors;
  candor::dslc::emit_cpp(*space, "fuzz.gen.h", code, errors);
  return 0;
}
