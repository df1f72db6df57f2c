// dslc: checks a .space spec and compiles it to C++.
//
//   dslc SPEC                        check only; diagnostics on stderr
//   dslc SPEC --header H --source S  also write the generated code (only if changed)
//            [--depfile D]           and a Make-style depfile listing the spec's includes
#include <CLI/CLI.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cpp_backend.h"
#include "dsl/diagnostics.h"
#include "dsl/frontend.h"

namespace {

// Writes `content` to `path` unless the file already holds exactly that, so that the build
// does not recompile dependents of an unchanged space.
bool write_if_changed(const std::string& path, const std::string& content) {
  std::ifstream existing(path, std::ios::binary);
  if (existing) {
    std::ostringstream old;
    old << existing.rdbuf();
    if (old.str() == content) return true;
  }
  std::filesystem::path target(path);
  if (target.has_parent_path()) std::filesystem::create_directories(target.parent_path());
  std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary);
    if (!out) return false;
    out << content;
    if (!out.flush()) return false;
  }
  std::filesystem::rename(temporary, path);
  return true;
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
  if (!write_if_changed(header, code.header) || !write_if_changed(source, code.source)) {
    std::cerr << "dslc: error: cannot write " << header << " or " << source << "\n";
    return 1;
  }
  if (!depfile.empty()) {
    std::string deps = header + " " + source + ":";
    for (const auto& file : space->files) deps += " " + std::filesystem::absolute(file).string();
    if (!write_if_changed(depfile, deps + "\n")) {
      std::cerr << "dslc: error: cannot write " << depfile << "\n";
      return 1;
    }
  }
  return 0;
}
