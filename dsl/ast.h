// The syntax tree of a .space file, as the parser builds it. Nothing here is resolved or
// checked: names are plain strings with their locations. The semantic pass (sema.h) turns
// a list of declarations into the checked model (model.h); backends never see this tree.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "dsl/model.h"

namespace candor::dsl::ast {

struct Ident {
  std::string name;
  Location loc;
};

// `a: instr`
struct Formal {
  Ident name;
  Ident set;
};

// `name`, `name()` or `name(a, b)`: a reference to a fact, param, choice, counter or
// (bare) a variable; arguments are variables.
struct Call {
  Ident name;
  bool has_parens = false;
  std::vector<Ident> args;
};

// A comparison operand or a counter term: an integer or a call.
struct Operand {
  bool is_integer = false;
  int64_t value = 0;
  Call call;  // when !is_integer
  Location loc;
};

struct Literal {
  enum class Kind {
    Atom,     // fact(args)
    Is,       // choice(args) is VALUE   (`is not` is an Is with one more negation)
    In,       // choice(args) in { members }
    Compare,  // lhs op rhs
  };
  Kind kind = Kind::Atom;
  Location loc;
  int negations = 0;  // the number of `not` (and `is not`) applied
  Call subject;       // Atom, Is, In
  Ident value;        // Is
  std::vector<Operand> members;  // In: identifiers (enum values) or integers
  Operand lhs, rhs;              // Compare
  CompareOp op = CompareOp::Eq;  // Compare
  Location op_loc;               // Compare
};

// `a, b in instr` or `l in loops(s)`
struct QuantGroup {
  std::vector<Ident> names;
  Call set;  // the set, with its argument for a parameterised set
};

// `premises => conclusions`, or a plain disjunction (no premises).
struct Formula {
  std::vector<Literal> premises;     // conjunction
  std::vector<Literal> conclusions;  // disjunction
};

struct SpaceDecl {
  Ident name;
};

struct IncludeDecl {
  std::string path;
  Location loc;  // the string literal
};

// `set instr;` or `set loops(s: stage) : loop;`
struct SetDecl {
  Ident name;
  bool parameterised = false;
  std::vector<Formal> formals;
  Ident element_set;
};

// fact / param / universe: a name and (optional) formals.
struct SignatureDecl {
  enum class Kind { Fact, Param, Universe };
  Kind kind = Kind::Fact;
  Ident name;
  std::vector<Formal> formals;
};

struct EnumDecl {
  Ident name;
  std::vector<Ident> values;
  struct Alias {
    Ident name;
    std::vector<Ident> members;
  };
  std::vector<Alias> aliases;
};

struct MirrorPair {
  Ident first, second;
};

struct ChoiceDecl {
  Ident name;
  std::vector<Formal> formals;
  bool is_int = false;
  Ident enum_name;  // enum choices
  Call universe;    // int choices: `in universe(args)`
  bool categorical = false;  // int choices: `categorical`
  Symmetry symmetry = Symmetry::None;
  Location symmetry_loc;
  std::vector<MirrorPair> mirrors;
};

struct CounterDecl {
  Ident name;
  std::vector<Formal> formals;
  CounterOp op = CounterOp::Sum;
  std::vector<QuantGroup> iteration;
  std::vector<Literal> condition;  // the `where` conjunction
  Operand term;
};

// `require [forall QUANTS:] FORMULA;`
struct RequireDecl {
  Location loc;
  std::vector<QuantGroup> quants;
  Formula formula;
};

using DeclBody = std::variant<SpaceDecl, IncludeDecl, SetDecl, SignatureDecl, EnumDecl,
                              ChoiceDecl, CounterDecl, RequireDecl>;

struct Decl {
  Location loc;  // the declaration's first token
  DeclBody body;
};

// One parsed file: its declarations in source order (includes not expanded).
struct File {
  std::string path;
  std::vector<Decl> decls;
};

// A whole space: the main file's declarations with every include expanded in place.
struct Space {
  std::vector<std::string> files;  // the main file first, then included files
  std::vector<Decl> decls;         // no IncludeDecl left
};

}  // namespace candor::dsl::ast
