#include "dsl/frontend.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "dsl/driver.h"
#include "dsl/sema.h"
#include "support/files.h"

namespace candor::dsl {

namespace fs = std::filesystem;

std::optional<std::string> read_file(const std::string& path, std::string& error) {
  std::optional<std::string> text = support::read_regular_file(path, kMaxSpecBytes, error);
  // The reason without the path, which the caller's message names.
  if (!text && error.rfind(path + ": ", 0) == 0) error.erase(0, path.size() + 2);
  return text;
}

std::optional<ast::File> parse_file(const std::string& text, const std::string& filename,
                                    DiagnosticSink& sink) {
  Driver driver(filename, sink);
  if (!driver.parse(text)) return std::nullopt;
  return std::move(driver.result());
}

namespace {

// The identity of a file for cycle detection.
std::string file_key(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::path(path), ec);
  if (ec) p = fs::path(path).lexically_normal();
  return p.string();
}

std::string resolve_include(const std::string& includer, const std::string& path) {
  fs::path p(path);
  if (p.is_absolute()) return p.lexically_normal().string();
  return (fs::path(includer).parent_path() / p).lexically_normal().string();
}

class IncludeExpander {
 public:
  IncludeExpander(DiagnosticSink& sink, const SourceReader& reader)
      : sink_(sink), reader_(reader) {}

  bool run(ast::File main, ast::Space& out) {
    out.files.push_back(main.path);
    stack_.push_back({file_key(main.path), main.path});
    check_space_decl(main);
    expand(main, /*is_main=*/true, out);
    return ok_;
  }

 private:
  struct Frame {
    std::string key, display;
  };

  void check_space_decl(const ast::File& main) {
    const ast::Decl* first = main.decls.empty() ? nullptr : &main.decls.front();
    if (first == nullptr || !std::holds_alternative<ast::SpaceDecl>(first->body)) {
      Location loc = first ? first->loc : Location{main.path, 1, 1};
      error(loc, "a space file must begin with 'space NAME;'");
    }
  }

  void expand(const ast::File& file, bool is_main, ast::Space& out) {
    for (std::size_t i = 0; i < file.decls.size(); ++i) {
      const ast::Decl& decl = file.decls[i];
      if (auto* inc = std::get_if<ast::IncludeDecl>(&decl.body)) {
        include(file, *inc, out);
        continue;
      }
      if (auto* sp = std::get_if<ast::SpaceDecl>(&decl.body)) {
        if (!is_main) {
          error(decl.loc, "'space' may only be declared in the main file, not in an included file");
          continue;
        }
        if (space_seen_) {
          error(decl.loc, "duplicate 'space' declaration");
          sink_.note(first_space_, "first declared here");
          continue;
        }
        space_seen_ = true;
        first_space_ = decl.loc;
        (void)sp;
      }
      out.decls.push_back(decl);
    }
  }

  void include(const ast::File& includer, const ast::IncludeDecl& inc, ast::Space& out) {
    std::string path = resolve_include(includer.path, inc.path);
    std::string key = file_key(path);
    auto on_stack = std::find_if(stack_.begin(), stack_.end(),
                                 [&](const Frame& f) { return f.key == key; });
    if (on_stack != stack_.end()) {
      std::string chain;
      for (auto it = on_stack; it != stack_.end(); ++it) chain += it->display + " -> ";
      chain += path;
      error(inc.loc, "include cycle: " + chain);
      return;
    }
    // Each file is included once: a second include of a file (e.g. a common file included
    // by two others) is skipped, as its declarations are already there.
    if (included_.count(key)) return;
    if (stack_.size() >= 64) {
      error(inc.loc, "includes nested too deeply");
      return;
    }
    std::string why;
    std::optional<std::string> text = reader_(path, why);
    if (!text) {
      std::string message = "cannot open included file '" + inc.path + "'";
      if (path != inc.path) message += " (looked for '" + path + "')";
      if (!why.empty()) message += ": " + why;
      error(inc.loc, message);
      return;
    }
    std::optional<ast::File> file = parse_file(*text, path, sink_);
    if (!file) {
      ok_ = false;
      return;
    }
    if (std::find(out.files.begin(), out.files.end(), path) == out.files.end())
      out.files.push_back(path);
    included_.insert(key);
    stack_.push_back({key, path});
    expand(*file, /*is_main=*/false, out);
    stack_.pop_back();
  }

  void error(const Location& loc, std::string message) {
    ok_ = false;
    sink_.error(loc, std::move(message));
  }

  DiagnosticSink& sink_;
  const SourceReader& reader_;
  std::vector<Frame> stack_;
  std::set<std::string> included_;  // keys of the files included so far
  bool space_seen_ = false;
  Location first_space_;
  bool ok_ = true;
};

}  // namespace

std::optional<ast::Space> parse_space(const std::string& text, const std::string& filename,
                                      DiagnosticSink& sink, const SourceReader& reader) {
  std::optional<ast::File> main = parse_file(text, filename, sink);
  if (!main) return std::nullopt;
  ast::Space space;
  IncludeExpander expander(sink, reader);
  if (!expander.run(std::move(*main), space)) return std::nullopt;
  return space;
}

std::optional<CheckedSpace> load_space_from_string(const std::string& text,
                                                   const std::string& virtual_filename,
                                                   DiagnosticSink& sink,
                                                   const SourceReader& reader) {
  std::optional<ast::Space> space = parse_space(text, virtual_filename, sink, reader);
  if (!space) return std::nullopt;
  return check_space(*space, sink);
}

std::optional<CheckedSpace> load_space_from_string(const std::string& text,
                                                   const std::string& virtual_filename,
                                                   DiagnosticSink& sink) {
  return load_space_from_string(text, virtual_filename, sink, read_file);
}

std::optional<CheckedSpace> load_space(const std::string& path, DiagnosticSink& sink) {
  std::string why;
  std::optional<std::string> text = read_file(path, why);
  if (!text) {
    sink.error(Location{path, 0, 0}, "cannot open file '" + path + "': " + why);
    return std::nullopt;
  }
  return load_space_from_string(*text, path, sink, read_file);
}

}  // namespace candor::dsl
