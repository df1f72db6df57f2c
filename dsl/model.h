// The checked model of a decision space: what the front end (lexer, parser, semantic pass)
// produces and what every backend consumes. Backends never see the syntax tree.
//
// Everything is referred to by index into the vectors of CheckedSpace; every index stored
// here is valid (the semantic pass guarantees it). Names are kept for diagnostics, printing
// and the names of generated C++ entities.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace candor::dsl {

struct Location {
  std::string file;
  int line = 0;
  int column = 0;
};

// `set instr;` a host-filled set of objects (a type of objects).
// `set loops(s: stage) : loop;` a host-filled subset of `loop` for every object of `stage`.
struct SetDecl {
  std::string name;
  Location loc;
  bool parameterised = false;
  int parameter_set = -1;  // the base set indexing it (parameterised only)
  int element_set = -1;    // the base set its elements belong to (parameterised only)
};

// A typed formal parameter: `a: instr`.
struct Formal {
  std::string name;
  int set = -1;  // a base (non-parameterised) set
};

// `fact depends(a: instr, b: instr);` a static host relation, true or false per tuple.
struct FactDecl {
  std::string name;
  Location loc;
  std::vector<Formal> formals;
};

// `param latency(i: instr);` a static host integer per tuple (a scalar when no formals).
struct ParamDecl {
  std::string name;
  Location loc;
  std::vector<Formal> formals;
};

// `universe tile_sizes(l: loop);` a host-provided ordered list of distinct integers per tuple.
struct UniverseDecl {
  std::string name;
  Location loc;
  std::vector<Formal> formals;
};

// `enum Kind { SERIAL, PARALLEL, VECTOR; alias MULTI = PARALLEL | VECTOR; }`
struct EnumDecl {
  std::string name;
  Location loc;
  std::vector<std::string> values;
  struct Alias {
    std::string name;
    std::vector<int> values;  // indices into `values`
  };
  std::vector<Alias> aliases;
};

enum class Symmetry { None, Symmetric, Antisymmetric };

// A variable reference inside a quantified constraint or a counter: the index of a
// variable bound by an enclosing quantifier (clause-local numbering, see Quantifier).
using VarIndex = int;

// `choice order(a: instr, b: instr) : Order antisymmetric { BEFORE <-> AFTER };`
// `choice tile(l: loop) : int in tile_sizes(l);`
struct ChoiceDecl {
  std::string name;
  Location loc;
  std::vector<Formal> formals;
  bool is_enum = true;
  int enum_decl = -1;  // enum choices
  // Integer choices: universe and its arguments, given as indices into `formals`.
  int universe = -1;
  std::vector<int> universe_args;
  // `categorical`: the integers label alternatives (which Func is the host), so their order
  // means nothing to a search's local moves, which may go from any value to any other.
  bool categorical = false;
  // Symmetric / antisymmetric choices have exactly two formals of the same set; only the
  // pair (a, b) with a < b is stored; (b, a) reads the stored value through `mirror`.
  // There is no choice on the diagonal (a, a).
  Symmetry symmetry = Symmetry::None;
  std::vector<int> mirror;  // antisymmetric: value index -> value index of the mirrored pair
};

// One quantified variable: `x in instr` or `l in loops(s)` (s bound earlier).
struct Quantifier {
  std::string name;
  int set = -1;           // the set iterated: a base set, or a parameterised set
  VarIndex set_arg = -1;  // parameterised sets: the earlier variable indexing it
  int element_set = -1;   // the base set of the variable's values
};

// An integer expression of static values: a constant or a parameter applied to variables.
struct IntExpr {
  bool is_constant = true;
  int64_t constant = 0;
  int param = -1;
  std::vector<VarIndex> args;
};

enum class CompareOp { Eq, Ne, Lt, Le, Gt, Ge };

// The operator as written in specs (and in C++).
inline const char* to_string(CompareOp op) {
  switch (op) {
    case CompareOp::Eq: return "==";
    case CompareOp::Ne: return "!=";
    case CompareOp::Lt: return "<";
    case CompareOp::Le: return "<=";
    case CompareOp::Gt: return ">";
    case CompareOp::Ge: return ">=";
  }
  return "?";
}

// A literal of a clause. Negation has already been folded in by the front end (e.g.
// `not c(x) is V` becomes ChoiceIn with the complementary value set, `not a < b` becomes
// a >= b), except for static facts which keep a `negated` flag.
struct Literal {
  enum class Kind {
    Fact,           // [not] fact(args)
    ObjectCompare,  // var == var / var != var (object identity)
    StaticCompare,  // IntExpr op IntExpr, both static
    ChoiceValues,   // enum choice(args) is one of `values`
    ChoiceCompare,  // int choice(args) op IntExpr (static)
    ChoiceRelation  // choice(args) op choice(args): enums of one enum decl (Eq/Ne only),
                    // or two integer choices (any op, comparing the integer values)
  };
  Kind kind = Kind::Fact;
  Location loc;

  // Fact
  int fact = -1;
  bool negated = false;
  // Fact / choice arguments
  std::vector<VarIndex> args;
  // ObjectCompare: lhs_var op rhs_var (op is Eq or Ne)
  VarIndex lhs_var = -1, rhs_var = -1;
  CompareOp op = CompareOp::Eq;
  // StaticCompare: lhs_expr op rhs_expr; ChoiceCompare: choice(args) op rhs_expr
  IntExpr lhs_expr, rhs_expr;
  // ChoiceValues / ChoiceCompare / ChoiceRelation (left side)
  int choice = -1;
  std::vector<int> values;  // ChoiceValues: enum value indices, sorted, distinct
  // ChoiceRelation (right side)
  int rhs_choice = -1;
  std::vector<VarIndex> rhs_args;
};

// `require forall a, b in instr: depends(a, b) => order(a, b) is BEFORE;`
// normalised to: for every binding of `vars`, the disjunction of `literals` holds.
// (A conjunction of premises `P1 and P2 => C1 or C2` becomes `not P1 or not P2 or C1 or C2`.)
struct Clause {
  Location loc;
  std::vector<Quantifier> vars;
  std::vector<Literal> literals;
};

enum class CounterOp { Sum, Product };

// `counter threads(k: kernel) = product(l in loops(k) where kind(l) is THREAD) tile(l);`
// The counter's formals are variables 0..formals-1 of its own numbering; the iteration
// variables follow. Terms are the `value` for every binding of the iteration variables
// whose static literals hold; choice literals in `condition` make a term conditional
// (it counts only when all of them hold). Values must be positive for products.
struct CounterDecl {
  std::string name;
  Location loc;
  std::vector<Formal> formals;
  CounterOp op = CounterOp::Sum;
  std::vector<Quantifier> iteration;  // numbered after the formals
  std::vector<Literal> condition;     // conjunction; static and choice literals
  // The term value: an integer choice applied to variables, or a static IntExpr
  // (a constant 1 counts the bindings).
  bool value_is_choice = false;
  int value_choice = -1;
  std::vector<VarIndex> value_args;
  IntExpr value_expr;
};

// `require forall k in kernel: threads(k) <= max_threads;`
struct CounterBound {
  Location loc;
  std::vector<Quantifier> vars;
  int counter = -1;
  std::vector<VarIndex> args;
  CompareOp op = CompareOp::Le;  // Le, Lt, Ge, Gt, Eq
  IntExpr bound;
};

struct CheckedSpace {
  std::string name;  // from `space NAME;` (a C++ identifier)
  std::vector<std::string> files;  // the spec and every included file (for depfiles)
  std::vector<SetDecl> sets;
  std::vector<FactDecl> facts;
  std::vector<ParamDecl> params;
  std::vector<UniverseDecl> universes;
  std::vector<EnumDecl> enums;
  std::vector<ChoiceDecl> choices;
  std::vector<CounterDecl> counters;
  std::vector<Clause> clauses;
  std::vector<CounterBound> counter_bounds;
};

}  // namespace candor::dsl
