// dslc: checks a .space spec and compiles it to C++.
//
//   dslc SPEC                        check only; diagnostics on stderr
//   dslc SPEC --header H --source S  also write the generated code (only if changed)
//            [--depfile D]           and a Make-style depfile listing the spec's includes
#include <CLI/CLI.hpp>

#include <filesystem>
#include <iostream>

#include "cpp_backend.h"
#include "dsl/diagnostics.h"
#include "dsl/frontend.h"
#include "support/files.h"

namespace {

bool write_output(const std::string& path, const std::string& content) {
  std::string error;
  if (candor::support::write_file_if_changed(path, content, error)) return true;
  std::cerr << "dslc: error: " << error << "\n";
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"dslc: compiles a candor decision-space spec (.space) to C++"};
  std::string spec, header, source, depfile;
  app.add_option("spec", spec, "the .space file")->required();
  app.add_option("--header", header, "where to write the generated header");
  app.add_option("--source", source, "where to write the generated source");
  app.add_option("--depfile", depfile, "where to write a Make-style depfile");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 1;
  }
  if (header.empty() != source.empty()) {
    std::cerr << "dslc: error: --header and --source go together\n";
    return 1;
  }
  for (const auto& [a, b] : {std::pair(&header, &source), std::pair(&header, &depfile),
                             std::pair(&source, &depfile)}) {
    if (!a->empty() && !b->empty() && candor::support::same_file(*a, *b)) {
      std::cerr << "dslc: error: " << *a << " and " << *b
                << " are the same file; each output needs its own path\n";
      return 1;
    }
  }

  candor::dsl::DiagnosticSink sink(&std::cerr);
  std::optional<candor::dsl::CheckedSpace> space = candor::dsl::load_space(spec, sink);
  if (!space || sink.has_errors()) return 1;
  if (header.empty()) return 0;

  candor::dslc::GeneratedCode code;
  std::vector<candor::dslc::BackendError> errors;
  if (!candor::dslc::emit_cpp(*space, std::filesystem::path(header).filename().string(), code,
                              errors)) {
    for (const auto& error : errors) sink.error(error.loc, error.message);
    return 1;
  }
  if (!write_output(header, code.header) || !write_output(source, code.source)) return 1;
  if (!depfile.empty()) {
    std::string deps = header + " " + source + ":";
    std::error_code ec;
    for (const auto& file : space->files) deps += " " + std::filesystem::absolute(file, ec).string();
    if (!write_output(depfile, deps + "\n")) return 1;
  }
  return 0;
}
