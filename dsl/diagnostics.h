// Diagnostics of the front end: every message carries a location and is printed as
// `file:line:col: error: message` (the format tools and tests rely on).
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

#include "dsl/model.h"

namespace candor::dsl {

enum class Severity { Error, Warning, Note };

struct Diagnostic {
  Severity severity = Severity::Error;
  Location loc;
  std::string message;
};

// `file:line:col: error: message` (`file: error: message` when the location has no line).
std::string format_diagnostic(const Diagnostic& d);

// Collects the diagnostics of one run of the front end; optionally echoes each one to a
// stream as it arrives.
class DiagnosticSink {
 public:
  DiagnosticSink() = default;
  explicit DiagnosticSink(std::ostream* echo) : echo_(echo) {}

  void report(Diagnostic d);
  void error(const Location& loc, std::string message);
  void warning(const Location& loc, std::string message);
  void note(const Location& loc, std::string message);

  bool has_errors() const { return errors_ > 0; }
  std::size_t error_count() const { return errors_; }
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }

  // Every diagnostic, one a line, in the order they were reported.
  void print(std::ostream& out) const;
  std::string str() const;

 private:
  std::ostream* echo_ = nullptr;
  std::vector<Diagnostic> diagnostics_;
  std::size_t errors_ = 0;
};

}  // namespace candor::dsl
