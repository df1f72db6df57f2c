// The dsl front end's entry points: read a .space file (and its includes), parse it,
// check it, and return the checked model (model.h). Every error goes to the sink as
// `file:line:col: error: message`; all errors found are reported, not just the first.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "dsl/ast.h"
#include "dsl/diagnostics.h"
#include "dsl/model.h"

namespace candor::dsl {

// Returns the contents of the file at `path`, or nullopt with `error` saying why not.
using SourceReader =
    std::function<std::optional<std::string>(const std::string& path, std::string& error)>;

// The largest spec file read (a spec is written by hand; this bounds what a mistaken
// include of a device or a data file costs).
constexpr std::size_t kMaxSpecBytes = std::size_t(1) << 22;

// Reads a spec file from disk: a regular file of at most kMaxSpecBytes.
std::optional<std::string> read_file(const std::string& path, std::string& error);

// Loads, parses and checks the space in the file `path`. Included files are resolved
// relative to the including file; an include inserts the file's declarations at that point,
// once: a file included again (not in a cycle, which is an error) is skipped.
std::optional<CheckedSpace> load_space(const std::string& path, DiagnosticSink& sink);

// The same for a spec given as text; `virtual_filename` names it in diagnostics and is the
// base of relative includes, which are read from disk (first form) or through `reader`.
std::optional<CheckedSpace> load_space_from_string(const std::string& text,
                                                   const std::string& virtual_filename,
                                                   DiagnosticSink& sink);
std::optional<CheckedSpace> load_space_from_string(const std::string& text,
                                                   const std::string& virtual_filename,
                                                   DiagnosticSink& sink,
                                                   const SourceReader& reader);

// The lower layers, for tools and tests.
// Parses one file (includes not expanded); nullopt on a lexical or syntax error.
std::optional<ast::File> parse_file(const std::string& text, const std::string& filename,
                                    DiagnosticSink& sink);
// Parses a main file and expands its includes in place; checks the placement of `space`.
std::optional<ast::Space> parse_space(const std::string& text, const std::string& filename,
                                      DiagnosticSink& sink, const SourceReader& reader);

}  // namespace candor::dsl
