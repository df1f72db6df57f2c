#include "dsl/diagnostics.h"

#include <ostream>
#include <sstream>

namespace candor::dsl {

namespace {
const char* severity_name(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
  }
  return "error";
}
}  // namespace

std::string format_diagnostic(const Diagnostic& d) {
  std::string out = d.loc.file.empty() ? std::string("<unknown>") : d.loc.file;
  if (d.loc.line > 0) {
    out += ':' + std::to_string(d.loc.line);
    if (d.loc.column > 0) out += ':' + std::to_string(d.loc.column);
  }
  out += ": ";
  out += severity_name(d.severity);
  out += ": ";
  out += d.message;
  return out;
}

void DiagnosticSink::report(Diagnostic d) {
  if (d.severity == Severity::Error) ++errors_;
  if (echo_) *echo_ << format_diagnostic(d) << '\n';
  diagnostics_.push_back(std::move(d));
}

void DiagnosticSink::error(const Location& loc, std::string message) {
  report({Severity::Error, loc, std::move(message)});
}

void DiagnosticSink::warning(const Location& loc, std::string message) {
  report({Severity::Warning, loc, std::move(message)});
}

void DiagnosticSink::note(const Location& loc, std::string message) {
  report({Severity::Note, loc, std::move(message)});
}

void DiagnosticSink::print(std::ostream& out) const {
  for (const Diagnostic& d : diagnostics_) out << format_diagnostic(d) << '\n';
}

std::string DiagnosticSink::str() const {
  std::ostringstream out;
  print(out);
  return out.str();
}

}  // namespace candor::dsl
