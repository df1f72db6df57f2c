#include "dsl/driver.h"

namespace candor::dsl {

Driver::Driver(std::string file, DiagnosticSink& sink) : file_(std::move(file)), sink_(sink) {
  result_.path = file_;
}

bool Driver::parse(const std::string& text) {
  loc.initialize(&file_);
  scan_begin(text);
  grammar::Parser parser(*this);
  int status = parser.parse();
  scan_end();
  return status == 0 && errors_ == 0;
}

Location Driver::to_location(const grammar::location& l) const {
  return Location{file_, l.begin.line, l.begin.column};
}

void Driver::error(const grammar::location& l, const std::string& message) {
  ++errors_;
  sink_.error(to_location(l), message);
}

void Driver::add(const grammar::location& l, ast::DeclBody body) {
  result_.decls.push_back(ast::Decl{to_location(l), std::move(body)});
}

}  // namespace candor::dsl
