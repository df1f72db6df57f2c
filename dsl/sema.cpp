#include "dsl/sema.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>

namespace candor::dsl {

bool is_usable_cpp_identifier(const std::string& name) {
  static const std::set<std::string> keywords = {
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool",
      "break", "case", "catch", "char", "char8_t", "char16_t", "char32_t", "class", "compl",
      "concept", "const", "consteval", "constexpr", "constinit", "const_cast", "continue",
      "co_await", "co_return", "co_yield", "decltype", "default", "delete", "do", "double",
      "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for",
      "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new",
      "noexcept", "not", "not_eq", "nullptr", "operator", "or", "or_eq", "private",
      "protected", "public", "register", "reinterpret_cast", "requires", "return", "short",
      "signed", "sizeof", "static", "static_assert", "static_cast", "struct", "switch",
      "template", "this", "thread_local", "throw", "true", "try", "typedef", "typeid",
      "typename", "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t",
      "while", "xor", "xor_eq"};
  if (name.empty() || keywords.count(name)) return false;
  if (name.find("__") != std::string::npos) return false;
  if (name[0] == '_' && name.size() > 1 && name[1] >= 'A' && name[1] <= 'Z') return false;
  return true;
}

const char* generated_code_use(const std::string& name) {
  static const std::map<std::string, const char*> uses = {
      {"std", "the namespace of the standard library"},
      {"candor", "the namespace of the runtime"},
      {"spaces", "the namespace of the generated spaces"},
      {"Input", "the generated input struct"},
      {"ChoiceRef", "the generated choice reference"},
      {"GeneratedSpace", "the generated space class"},
      {"size_t", "a standard type"},     {"int8_t", "a standard type"},
      {"int16_t", "a standard type"},    {"int32_t", "a standard type"},
      {"int64_t", "a standard type"},    {"uint8_t", "a standard type"},
      {"uint16_t", "a standard type"},   {"uint32_t", "a standard type"},
      {"uint64_t", "a standard type"},   {"kCount", "the value count of each enum"}};
  auto it = uses.find(name);
  return it == uses.end() ? nullptr : it->second;
}

namespace {

// How many formals a declaration and how many variables a constraint may have: each is a
// level of the loop nests that the generated code runs over their bindings.
constexpr std::size_t kMaxFormals = 16;

enum class SymKind { Set, Fact, Param, Universe, Enum, Choice, Counter };

const char* kind_name(SymKind k) {
  switch (k) {
    case SymKind::Set: return "set";
    case SymKind::Fact: return "fact";
    case SymKind::Param: return "param";
    case SymKind::Universe: return "universe";
    case SymKind::Enum: return "enum";
    case SymKind::Choice: return "choice";
    case SymKind::Counter: return "counter";
  }
  return "name";
}

// "a set", "an enum", ...
std::string a_kind(SymKind k) {
  std::string n = kind_name(k);
  bool vowel = n[0] == 'a' || n[0] == 'e' || n[0] == 'i' || n[0] == 'o';
  return (vowel ? "an " : "a ") + n;
}

std::string quote(const std::string& s) { return "'" + s + "'"; }

std::string plural(std::size_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

// not (a op b)  ==  a inverted(op) b
CompareOp inverted(CompareOp op) {
  switch (op) {
    case CompareOp::Eq: return CompareOp::Ne;
    case CompareOp::Ne: return CompareOp::Eq;
    case CompareOp::Lt: return CompareOp::Ge;
    case CompareOp::Le: return CompareOp::Gt;
    case CompareOp::Gt: return CompareOp::Le;
    case CompareOp::Ge: return CompareOp::Lt;
  }
  return op;
}

// a op b  ==  b swapped(op) a
CompareOp swapped(CompareOp op) {
  switch (op) {
    case CompareOp::Lt: return CompareOp::Gt;
    case CompareOp::Le: return CompareOp::Ge;
    case CompareOp::Gt: return CompareOp::Lt;
    case CompareOp::Ge: return CompareOp::Le;
    default: return op;
  }
}

struct Symbol {
  SymKind kind;
  int index;
  Location loc;
};

// A variable of a clause or counter: its name and the base set of its values.
struct Var {
  std::string name;
  Location loc;
  int set = -1;  // -1 when its declaration was in error (no further type errors)
  bool used = false;
};

struct Scope {
  std::vector<Var> vars;
  int find(const std::string& name) const {
    for (int i = static_cast<int>(vars.size()) - 1; i >= 0; --i)
      if (vars[i].name == name) return i;
    return -1;
  }
};

// A classified comparison operand.
struct Term {
  enum class Kind { Static, Object, Choice, Counter };
  Kind kind = Kind::Static;
  Location loc;
  std::string name;
  IntExpr expr;                 // Static
  VarIndex var = -1;            // Object
  int index = -1;               // Choice / Counter
  std::vector<VarIndex> args;   // Choice / Counter
};

// One source literal after resolution, with its polarity applied: either a disjunction
// (Any) or a conjunction (All) of model literals, a constant, or a counter bound.
struct Lowered {
  enum class Shape { Any, All, True, False, Bound };
  Shape shape = Shape::Any;
  std::vector<Literal> lits;
  CounterBound bound;
};

enum class Context { Clause, CounterCondition };

class Checker {
 public:
  explicit Checker(DiagnosticSink& sink) : sink_(sink) {}

  std::optional<CheckedSpace> run(const ast::Space& space) {
    out_.files = space.files;
    for (const ast::Decl& decl : space.decls) {
      std::visit([&](const auto& d) { check(decl, d); }, decl.body);
    }
    check_input_members();
    if (errors_ > 0) return std::nullopt;
    return std::move(out_);
  }

 private:
  // ---------------------------------------------------------------- diagnostics, names

  void error(const Location& loc, const std::string& message) {
    ++errors_;
    sink_.error(loc, message);
  }

  // Declares a global name; reports a duplicate or an unusable name. Returns false on error
  // (the entity is still created by the caller, so that indices stay valid).
  bool declare(const ast::Ident& id, SymKind kind, int index) {
    bool ok = usable_name(id, a_kind(kind));
    auto it = globals_.find(id.name);
    if (it != globals_.end()) {
      error(id.loc, "redefinition of " + quote(id.name) + " (already declared as " +
                        a_kind(it->second.kind) + ")");
      sink_.note(it->second.loc, "previous declaration of " + quote(id.name) + " is here");
      return false;
    }
    globals_.emplace(id.name, Symbol{kind, index, id.loc});
    return ok;
  }

  bool usable_name(const ast::Ident& id, const std::string& what) {
    if (!is_usable_cpp_identifier(id.name)) {
      error(id.loc, quote(id.name) + " cannot name " + what +
                        ": it is a C++ keyword or a reserved identifier");
      return false;
    }
    if (const char* use = generated_code_use(id.name)) {
      error(id.loc, quote(id.name) + " cannot name " + what + ": the generated code uses it (" +
                        use + ")");
      return false;
    }
    return true;
  }

  // A set S fills Input::S_count and Input::S_names, which facts, params and parameterised
  // sets (Input members named as declared) must not shadow.
  void check_input_members() {
    for (const auto& [name, symbol] : globals_) {
      if (symbol.kind != SymKind::Fact && symbol.kind != SymKind::Param && symbol.kind != SymKind::Set)
        continue;
      for (const char* suffix : {"_count", "_names"}) {
        const std::string tail(suffix);
        if (name.size() <= tail.size() || name.compare(name.size() - tail.size(), tail.size(), tail) != 0)
          continue;
        const Symbol* set = lookup(name.substr(0, name.size() - tail.size()));
        if (set != nullptr && set->kind == SymKind::Set)
          error(symbol.loc, quote(name) + " collides with the generated input member of set " +
                                quote(name.substr(0, name.size() - tail.size())));
      }
    }
  }

  bool check_formal_count(const Location& loc, std::size_t count, const std::string& owner) {
    if (count <= kMaxFormals) return true;
    error(loc, owner + " has " + std::to_string(count) + " formals; at most " +
                   std::to_string(kMaxFormals) + " are supported");
    return false;
  }

  const Symbol* lookup(const std::string& name) const {
    auto it = globals_.find(name);
    return it == globals_.end() ? nullptr : &it->second;
  }

  // Resolves `id` as an entity of kind `want`; reports an unknown name or another kind.
  const Symbol* expect(const ast::Ident& id, SymKind want) {
    const Symbol* s = lookup(id.name);
    if (s == nullptr) {
      error(id.loc, "unknown " + std::string(kind_name(want)) + " " + quote(id.name));
      return nullptr;
    }
    if (s->kind != want) {
      error(id.loc, quote(id.name) + " is " + a_kind(s->kind) + ", not " + a_kind(want));
      return nullptr;
    }
    return s;
  }

  // A base (not parameterised) set; -1 after an error.
  int base_set(const ast::Ident& id) {
    const Symbol* s = expect(id, SymKind::Set);
    if (s == nullptr) return -1;
    if (out_.sets[s->index].parameterised) {
      error(id.loc, "set " + quote(id.name) +
                        " is parameterised; formals and elements must name base sets");
      return -1;
    }
    return s->index;
  }

  std::vector<Formal> formals(const std::vector<ast::Formal>& in, const std::string& owner) {
    std::vector<Formal> result;
    if (!in.empty() && !check_formal_count(in[kMaxFormals < in.size() ? kMaxFormals : 0].name.loc,
                                           in.size(), owner))
      return result;
    std::set<std::string> seen;
    for (std::size_t i = 0; i < in.size(); ++i) {
      if (!seen.insert(in[i].name.name).second)
        error(in[i].name.loc, "duplicate formal " + quote(in[i].name.name) + " of " + owner);
      result.push_back(Formal{in[i].name.name, base_set(in[i].set)});
    }
    return result;
  }

  std::string set_name(int set) const { return set >= 0 ? out_.sets[set].name : "?"; }

  // ---------------------------------------------------------------- declarations

  void check(const ast::Decl&, const ast::SpaceDecl& d) {
    out_.name = d.name.name;
    usable_name(d.name, "a space");
  }

  void check(const ast::Decl& decl, const ast::IncludeDecl&) {
    error(decl.loc, "internal error: include was not expanded");
  }

  void check(const ast::Decl& decl, const ast::SetDecl& d) {
    int index = static_cast<int>(out_.sets.size());
    out_.sets.push_back(SetDecl{d.name.name, decl.loc, d.parameterised, -1, -1});
    declare(d.name, SymKind::Set, index);
    if (!d.parameterised) return;
    if (d.formals.size() != 1) {
      error(d.name.loc, "parameterised set " + quote(d.name.name) +
                            " must have exactly one formal, got " +
                            std::to_string(d.formals.size()));
      return;
    }
    out_.sets[index].parameter_set = base_set(d.formals[0].set);
    out_.sets[index].element_set = base_set(d.element_set);
  }

  void check(const ast::Decl& decl, const ast::SignatureDecl& d) {
    switch (d.kind) {
      case ast::SignatureDecl::Kind::Fact: {
        int index = static_cast<int>(out_.facts.size());
        out_.facts.push_back(FactDecl{d.name.name, decl.loc, {}});
        declare(d.name, SymKind::Fact, index);
        out_.facts[index].formals = formals(d.formals, "fact " + quote(d.name.name));
        break;
      }
      case ast::SignatureDecl::Kind::Param: {
        int index = static_cast<int>(out_.params.size());
        out_.params.push_back(ParamDecl{d.name.name, decl.loc, {}});
        declare(d.name, SymKind::Param, index);
        out_.params[index].formals = formals(d.formals, "param " + quote(d.name.name));
        break;
      }
      case ast::SignatureDecl::Kind::Universe: {
        int index = static_cast<int>(out_.universes.size());
        out_.universes.push_back(UniverseDecl{d.name.name, decl.loc, {}});
        declare(d.name, SymKind::Universe, index);
        out_.universes[index].formals = formals(d.formals, "universe " + quote(d.name.name));
        break;
      }
    }
  }

  void check(const ast::Decl& decl, const ast::EnumDecl& d) {
    int index = static_cast<int>(out_.enums.size());
    out_.enums.push_back(EnumDecl{d.name.name, decl.loc, {}, {}});
    declare(d.name, SymKind::Enum, index);
    EnumDecl& e = out_.enums[index];
    std::map<std::string, Location> seen;
    auto fresh = [&](const ast::Ident& id, const char* what) {
      auto [it, inserted] = seen.emplace(id.name, id.loc);
      if (!inserted) {
        error(id.loc, "duplicate " + std::string(what) + " " + quote(id.name) + " in enum " +
                          quote(d.name.name));
        sink_.note(it->second, "previous declaration of " + quote(id.name) + " is here");
        return false;
      }
      return usable_name(id, std::string("an enum ") + what);
    };
    for (const ast::Ident& v : d.values) {
      fresh(v, "value");
      e.values.push_back(v.name);
    }
    for (const ast::EnumDecl::Alias& a : d.aliases) {
      fresh(a.name, "alias");
      std::set<int> values;
      for (const ast::Ident& m : a.members) {
        std::optional<std::vector<int>> v = enum_value(index, m);
        if (v) values.insert(v->begin(), v->end());
      }
      e.aliases.push_back(EnumDecl::Alias{a.name.name, {values.begin(), values.end()}});
    }
  }

  // The values a name denotes in an enum: one value, or an alias's values.
  std::optional<std::vector<int>> enum_value(int enum_index, const ast::Ident& id) {
    const EnumDecl& e = out_.enums[enum_index];
    for (std::size_t i = 0; i < e.values.size(); ++i)
      if (e.values[i] == id.name) return std::vector<int>{static_cast<int>(i)};
    for (const EnumDecl::Alias& a : e.aliases)
      if (a.name == id.name) return a.values;
    error(id.loc, "enum " + quote(e.name) + " has no value or alias named " + quote(id.name));
    return std::nullopt;
  }

  void check(const ast::Decl& decl, const ast::ChoiceDecl& d) {
    int index = static_cast<int>(out_.choices.size());
    out_.choices.push_back(ChoiceDecl{});
    ChoiceDecl& c = out_.choices[index];
    c.name = d.name.name;
    c.loc = decl.loc;
    declare(d.name, SymKind::Choice, index);
    std::string owner = "choice " + quote(d.name.name);
    c.formals = formals(d.formals, owner);
    bool ok = true;
    if (d.is_int) {
      c.is_enum = false;
      c.categorical = d.categorical;
      const Symbol* u = expect(d.universe.name, SymKind::Universe);
      if (u == nullptr) {
        broken_choices_.insert(index);
        return;
      }
      c.universe = u->index;
      const UniverseDecl& ud = out_.universes[u->index];
      if (!check_arity(d.universe, ud.formals.size(), "universe " + quote(ud.name))) {
        broken_choices_.insert(index);
        return;
      }
      for (std::size_t i = 0; i < d.universe.args.size(); ++i) {
        const ast::Ident& arg = d.universe.args[i];
        int f = -1;
        for (std::size_t j = 0; j < c.formals.size(); ++j)
          if (c.formals[j].name == arg.name) f = static_cast<int>(j);
        if (f < 0) {
          error(arg.loc, quote(arg.name) + " is not a formal of " + owner);
          ok = false;
          continue;
        }
        check_arg_type(arg, c.formals[f].set, i, ud.formals[i].set, "universe " + quote(ud.name));
        c.universe_args.push_back(f);
      }
      if (d.symmetry != Symmetry::None) {
        error(d.symmetry_loc, "int choice " + quote(c.name) +
                                  " cannot be symmetric or antisymmetric");
      }
      if (!ok) broken_choices_.insert(index);
      return;
    }
    const Symbol* en = expect(d.enum_name, SymKind::Enum);
    if (en == nullptr) {
      broken_choices_.insert(index);
      return;
    }
    c.enum_decl = en->index;
    c.symmetry = d.symmetry;
    if (d.symmetry == Symmetry::None) return;
    const char* word = d.symmetry == Symmetry::Symmetric ? "symmetric" : "antisymmetric";
    if (c.formals.size() != 2 || c.formals[0].set != c.formals[1].set) {
      error(d.symmetry_loc, std::string(word) + " choice " + quote(c.name) +
                                " needs exactly two formals of the same set");
    }
    const EnumDecl& e = out_.enums[c.enum_decl];
    c.mirror.assign(e.values.size(), -1);
    std::vector<Location> given(e.values.size());
    auto value_of = [&](const ast::Ident& id) -> int {
      for (std::size_t i = 0; i < e.values.size(); ++i)
        if (e.values[i] == id.name) return static_cast<int>(i);
      bool alias = std::any_of(e.aliases.begin(), e.aliases.end(),
                               [&](const EnumDecl::Alias& a) { return a.name == id.name; });
      if (alias)
        error(id.loc, "mirror pairs must name values, but " + quote(id.name) +
                          " is an alias of enum " + quote(e.name));
      else
        error(id.loc, "enum " + quote(e.name) + " has no value named " + quote(id.name));
      return -1;
    };
    auto set_mirror = [&](const ast::Ident& id, int v, int w) {
      if (c.mirror[v] >= 0) {
        error(id.loc, "the mirror of " + quote(e.values[v]) + " is given twice; " +
                          "the mirror of an antisymmetric choice must be an involution");
        sink_.note(given[v], "first given here");
        return;
      }
      c.mirror[v] = w;
      given[v] = id.loc;
    };
    for (const ast::MirrorPair& p : d.mirrors) {
      int v = value_of(p.first);
      int w = value_of(p.second);
      if (v < 0 || w < 0) continue;
      set_mirror(p.first, v, w);
      if (w != v) set_mirror(p.second, w, v);
    }
    for (std::size_t i = 0; i < c.mirror.size(); ++i)
      if (c.mirror[i] < 0) c.mirror[i] = static_cast<int>(i);
  }

  void check(const ast::Decl& decl, const ast::CounterDecl& d) {
    int index = static_cast<int>(out_.counters.size());
    out_.counters.push_back(CounterDecl{});
    CounterDecl& c = out_.counters[index];
    c.name = d.name.name;
    c.loc = decl.loc;
    c.op = d.op;
    declare(d.name, SymKind::Counter, index);
    c.formals = formals(d.formals, "counter " + quote(d.name.name));
    int errors_before = errors_;

    Scope scope;
    if (too_many_variables(d.iteration, "a counter")) return;
    for (std::size_t i = 0; i < c.formals.size(); ++i)
      bind_var(scope, d.formals[i].name, c.formals[i].set);
    std::vector<Quantifier> iteration = quantifiers(d.iteration, scope);

    std::vector<Literal> condition;
    bool failed = false;  // some literal did not resolve (maybe silently: a broken choice)
    for (const ast::Literal& lit : d.condition) {
      std::optional<Lowered> low = lower(lit, lit.negations % 2 == 0, scope,
                                         Context::CounterCondition);
      if (!low) {
        failed = true;
        continue;
      }
      switch (low->shape) {
        case Lowered::Shape::True: break;
        case Lowered::Shape::False:
          error(lit.loc, "this condition is never true; the counter would always be 0");
          break;
        case Lowered::Shape::Any:
          if (low->lits.size() > 1) {
            error(lit.loc, "a counter condition must be a conjunction; 'in' with several "
                           "integers is a disjunction");
            break;
          }
          [[fallthrough]];
        case Lowered::Shape::All:
          condition.insert(condition.end(), low->lits.begin(), low->lits.end());
          break;
        case Lowered::Shape::Bound: break;  // reported by lower()
      }
    }

    // The term.
    std::optional<Term> term = classify(d.term, scope);
    if (!term) failed = true;
    if (term) {
      switch (term->kind) {
        case Term::Kind::Static:
          c.value_expr = term->expr;
          if (d.op == CounterOp::Product && term->expr.is_constant && term->expr.constant <= 0)
            error(d.term.loc, "the terms of a product must be positive, got " +
                                  std::to_string(term->expr.constant));
          break;
        case Term::Kind::Choice:
          if (out_.choices[term->index].is_enum) {
            error(d.term.loc, "a counter term must be an integer, but " + quote(term->name) +
                                  " is an enum choice");
            break;
          }
          c.value_is_choice = true;
          c.value_choice = term->index;
          c.value_args = term->args;
          break;
        case Term::Kind::Object:
          error(d.term.loc, "a counter term must be an integer, but " + quote(term->name) +
                                " is an object variable");
          break;
        case Term::Kind::Counter:
          error(d.term.loc, "a counter term cannot be another counter (" + quote(term->name) +
                                ")");
          break;
      }
    }
    c.iteration = std::move(iteration);
    c.condition = std::move(condition);
    if (!failed && errors_ == errors_before) {
      for (std::size_t i = 0; i < c.formals.size(); ++i) {
        if (!scope.vars[i].used)
          error(scope.vars[i].loc, "formal " + quote(scope.vars[i].name) + " of counter " +
                                       quote(c.name) + " is never used");
      }
    }
  }

  void check(const ast::Decl&, const ast::RequireDecl& d) {
    int errors_before = errors_;
    if (too_many_variables(d.quants, "a constraint")) return;
    Scope scope;
    std::vector<Quantifier> vars = quantifiers(d.quants, scope);

    // Premises are negated (P => C is not P or C); conclusions are kept.
    struct Piece {
      const ast::Literal* source;
      Lowered low;
    };
    std::vector<Piece> pieces;
    bool failed = false;  // some literal did not resolve (maybe silently: a broken choice)
    auto add = [&](const ast::Literal& lit, bool premise) {
      bool positive = (lit.negations % 2 == 0) != premise;
      std::optional<Lowered> low = lower(lit, positive, scope, Context::Clause);
      if (low)
        pieces.push_back(Piece{&lit, std::move(*low)});
      else
        failed = true;
    };
    for (const ast::Literal& lit : d.formula.premises) add(lit, true);
    for (const ast::Literal& lit : d.formula.conclusions) add(lit, false);
    std::size_t source_literals = d.formula.premises.size() + d.formula.conclusions.size();

    // A counter bound is a constraint on its own.
    for (const Piece& p : pieces) {
      if (p.low.shape != Lowered::Shape::Bound) continue;
      if (source_literals != 1) {
        error(p.source->loc, "a counter bound must be the whole constraint, "
                             "not part of a larger formula");
        return;
      }
      if (!failed && errors_ == errors_before && check_unused(scope)) {
        CounterBound b = p.low.bound;
        b.loc = d.loc;
        b.vars = vars;
        out_.counter_bounds.push_back(std::move(b));
      }
      return;
    }

    // Distribute into clauses: each piece is a disjunction or a conjunction of literals.
    std::vector<std::vector<Literal>> clauses(1);
    bool always_true = false;
    for (Piece& p : pieces) {
      switch (p.low.shape) {
        case Lowered::Shape::True: always_true = true; break;
        case Lowered::Shape::False: break;
        case Lowered::Shape::Any:
          for (auto& clause : clauses)
            clause.insert(clause.end(), p.low.lits.begin(), p.low.lits.end());
          break;
        case Lowered::Shape::All: {
          std::vector<std::vector<Literal>> next;
          for (const auto& clause : clauses) {
            for (const Literal& l : p.low.lits) {
              next.push_back(clause);
              next.back().push_back(l);
            }
          }
          clauses = std::move(next);
          break;
        }
        case Lowered::Shape::Bound: break;
      }
    }
    if (failed || errors_ != errors_before || !check_unused(scope)) return;
    if (always_true) return;  // a tautology constrains nothing
    for (auto& lits : clauses) {
      if (lits.empty()) {
        error(d.loc, "this constraint can never be satisfied");
        return;
      }
      out_.clauses.push_back(Clause{d.loc, vars, std::move(lits)});
    }
  }

  bool check_unused(const Scope& scope) {
    bool ok = true;
    for (const Var& v : scope.vars) {
      if (!v.used) {
        error(v.loc, "variable " + quote(v.name) + " is never used");
        ok = false;
      }
    }
    return ok;
  }

  // ---------------------------------------------------------------- variables

  void bind_var(Scope& scope, const ast::Ident& id, int set) {
    if (scope.find(id.name) >= 0) {
      error(id.loc, "variable " + quote(id.name) + " is already bound");
    } else if (const Symbol* s = lookup(id.name)) {
      error(id.loc, "variable " + quote(id.name) + " has the name of " + a_kind(s->kind));
      sink_.note(s->loc, quote(id.name) + " is declared here");
    }
    scope.vars.push_back(Var{id.name, id.loc, set, false});
  }

  bool too_many_variables(const std::vector<ast::QuantGroup>& groups, const std::string& what) {
    std::size_t count = 0;
    for (const ast::QuantGroup& g : groups) {
      for (const ast::Ident& name : g.names) {
        if (++count == kMaxFormals + 1) {
          std::size_t total = 0;
          for (const ast::QuantGroup& h : groups) total += h.names.size();
          error(name.loc, what + " quantifies over " + std::to_string(total) +
                              " variables; at most " + std::to_string(kMaxFormals) +
                              " are supported");
          return true;
        }
      }
    }
    return false;
  }

  std::vector<Quantifier> quantifiers(const std::vector<ast::QuantGroup>& groups, Scope& scope) {
    std::vector<Quantifier> result;
    for (const ast::QuantGroup& g : groups) {
      Quantifier q;
      const ast::Call& ref = g.set;
      if (const Symbol* s = expect(ref.name, SymKind::Set)) {
        const SetDecl& set = out_.sets[s->index];
        q.set = s->index;
        if (!set.parameterised) {
          q.element_set = s->index;
          if (ref.has_parens)
            error(ref.name.loc, "set " + quote(set.name) + " is not parameterised; it takes no "
                                "arguments");
        } else if (ref.args.size() != 1) {
          error(ref.name.loc, "parameterised set " + quote(set.name) +
                                  " expects 1 argument, got " + std::to_string(ref.args.size()));
        } else {
          q.element_set = set.element_set;
          const ast::Ident& arg = ref.args[0];
          int v = scope.find(arg.name);
          if (v < 0) {
            error(arg.loc, "the argument of " + quote(set.name) + " must be a variable bound "
                           "by an earlier quantifier, but " + quote(arg.name) + " is not");
          } else {
            scope.vars[v].used = true;
            q.set_arg = v;
            check_arg_type(arg, scope.vars[v].set, 0, set.parameter_set,
                           "set " + quote(set.name));
          }
        }
      }
      for (const ast::Ident& name : g.names) {
        Quantifier one = q;
        one.name = name.name;
        result.push_back(one);
      }
      // Bind after resolving the set: a group cannot use its own variables.
      for (const ast::Ident& name : g.names) bind_var(scope, name, q.element_set);
    }
    return result;
  }

  // Resolves a variable argument; -1 after an error.
  VarIndex variable(const ast::Ident& id, Scope& scope) {
    int v = scope.find(id.name);
    if (v >= 0) {
      scope.vars[v].used = true;
      return v;
    }
    if (const Symbol* s = lookup(id.name))
      error(id.loc, "expected a variable, but " + quote(id.name) + " is " + a_kind(s->kind));
    else
      error(id.loc, "unknown variable " + quote(id.name));
    return -1;
  }

  bool check_arity(const ast::Call& call, std::size_t expected, const std::string& what) {
    if (call.args.size() == expected) return true;
    error(call.name.loc, what + " expects " + plural(expected, "argument") + ", got " +
                             std::to_string(call.args.size()));
    return false;
  }

  void check_arg_type(const ast::Ident& arg, int actual, std::size_t position, int expected,
                      const std::string& what) {
    if (actual < 0 || expected < 0 || actual == expected) return;
    error(arg.loc, "argument " + std::to_string(position + 1) + " of " + what +
                       " must be of set " + quote(set_name(expected)) + ", but " +
                       quote(arg.name) + " is of set " + quote(set_name(actual)));
  }

  // Resolves the arguments of a call against formals; nullopt after an error.
  std::optional<std::vector<VarIndex>> arguments(const ast::Call& call,
                                                 const std::vector<Formal>& formals,
                                                 const std::string& what, Scope& scope) {
    bool ok = check_arity(call, formals.size(), what);
    std::vector<VarIndex> args;
    for (std::size_t i = 0; i < call.args.size(); ++i) {
      VarIndex v = variable(call.args[i], scope);
      if (v < 0) {
        ok = false;
        continue;
      }
      if (i < formals.size()) {
        int before = errors_;
        check_arg_type(call.args[i], scope.vars[v].set, i, formals[i].set, what);
        if (errors_ != before) ok = false;
      }
      args.push_back(v);
    }
    if (!ok) return std::nullopt;
    return args;
  }

  // ---------------------------------------------------------------- literals

  // Classifies an operand of a comparison (or a counter term).
  std::optional<Term> classify(const ast::Operand& op, Scope& scope) {
    Term t;
    t.loc = op.loc;
    if (op.is_integer) {
      t.kind = Term::Kind::Static;
      t.expr.is_constant = true;
      t.expr.constant = op.value;
      return t;
    }
    const ast::Call& call = op.call;
    t.name = call.name.name;
    int v = scope.find(call.name.name);
    if (v >= 0) {
      if (call.has_parens) {
        error(call.name.loc, quote(call.name.name) + " is a variable; it takes no arguments");
        return std::nullopt;
      }
      scope.vars[v].used = true;
      t.kind = Term::Kind::Object;
      t.var = v;
      return t;
    }
    const Symbol* s = lookup(call.name.name);
    if (s == nullptr) {
      error(call.name.loc, "unknown name " + quote(call.name.name));
      return std::nullopt;
    }
    switch (s->kind) {
      case SymKind::Param: {
        const ParamDecl& p = out_.params[s->index];
        auto args = arguments(call, p.formals, "param " + quote(p.name), scope);
        if (!args) return std::nullopt;
        t.kind = Term::Kind::Static;
        t.expr.is_constant = false;
        t.expr.param = s->index;
        t.expr.args = *args;
        return t;
      }
      case SymKind::Choice: {
        if (broken_choices_.count(s->index)) return std::nullopt;
        const ChoiceDecl& c = out_.choices[s->index];
        auto args = arguments(call, c.formals, "choice " + quote(c.name), scope);
        if (!args) return std::nullopt;
        t.kind = Term::Kind::Choice;
        t.index = s->index;
        t.args = *args;
        return t;
      }
      case SymKind::Counter: {
        const CounterDecl& c = out_.counters[s->index];
        auto args = arguments(call, c.formals, "counter " + quote(c.name), scope);
        if (!args) return std::nullopt;
        t.kind = Term::Kind::Counter;
        t.index = s->index;
        t.args = *args;
        return t;
      }
      case SymKind::Fact:
        error(call.name.loc, "fact " + quote(t.name) + " has no value; use it as a condition");
        return std::nullopt;
      default:
        error(call.name.loc, quote(t.name) + " is " + a_kind(s->kind) + ", not a value");
        return std::nullopt;
    }
  }

  // Resolves the subject of `is` / `in`: a choice applied to variables.
  std::optional<Term> choice_subject(const ast::Call& call, const char* construct,
                                     Scope& scope) {
    if (scope.find(call.name.name) >= 0) {
      error(call.name.loc, "'" + std::string(construct) + "' needs a choice, but " +
                               quote(call.name.name) + " is a variable");
      return std::nullopt;
    }
    const Symbol* s = lookup(call.name.name);
    if (s == nullptr) {
      error(call.name.loc, "unknown choice " + quote(call.name.name));
      return std::nullopt;
    }
    if (s->kind != SymKind::Choice) {
      error(call.name.loc, "'" + std::string(construct) + "' needs a choice, but " +
                               quote(call.name.name) + " is " + a_kind(s->kind));
      return std::nullopt;
    }
    if (broken_choices_.count(s->index)) return std::nullopt;
    const ChoiceDecl& c = out_.choices[s->index];
    auto args = arguments(call, c.formals, "choice " + quote(c.name), scope);
    if (!args) return std::nullopt;
    Term t;
    t.kind = Term::Kind::Choice;
    t.loc = call.name.loc;
    t.name = c.name;
    t.index = s->index;
    t.args = *args;
    return t;
  }

  // A ChoiceValues literal, simplified to a constant when it allows no or every value.
  Lowered choice_values(const Term& subject, std::set<int> values, bool positive,
                        const Location& loc) {
    const EnumDecl& e = out_.enums[out_.choices[subject.index].enum_decl];
    Lowered low;
    if (!positive) {
      std::set<int> complement;
      for (int i = 0; i < static_cast<int>(e.values.size()); ++i)
        if (!values.count(i)) complement.insert(i);
      values = std::move(complement);
    }
    if (values.empty()) {
      low.shape = Lowered::Shape::False;
      return low;
    }
    if (values.size() == e.values.size()) {
      low.shape = Lowered::Shape::True;
      return low;
    }
    Literal l;
    l.kind = Literal::Kind::ChoiceValues;
    l.loc = loc;
    l.choice = subject.index;
    l.args = subject.args;
    l.values.assign(values.begin(), values.end());
    low.shape = Lowered::Shape::Any;
    low.lits.push_back(std::move(l));
    return low;
  }

  static bool holds(int64_t a, CompareOp op, int64_t b) {
    switch (op) {
      case CompareOp::Eq: return a == b;
      case CompareOp::Ne: return a != b;
      case CompareOp::Lt: return a < b;
      case CompareOp::Le: return a <= b;
      case CompareOp::Gt: return a > b;
      case CompareOp::Ge: return a >= b;
    }
    return false;
  }

  static Lowered single(Literal l) {
    Lowered low;
    low.shape = Lowered::Shape::Any;
    low.lits.push_back(std::move(l));
    return low;
  }

  // Resolves one source literal with its polarity (`positive` false: the literal is
  // negated) into model literals.
  std::optional<Lowered> lower(const ast::Literal& lit, bool positive, Scope& scope,
                               Context ctx) {
    switch (lit.kind) {
      case ast::Literal::Kind::Atom: return lower_atom(lit, positive, scope);
      case ast::Literal::Kind::Is: {
        std::optional<Term> subject = choice_subject(lit.subject, "is", scope);
        if (!subject) return std::nullopt;
        const ChoiceDecl& c = out_.choices[subject->index];
        if (!c.is_enum) {
          error(lit.value.loc, "'is' needs an enum choice, but " + quote(c.name) +
                                   " is an int choice; compare it with '==' instead");
          return std::nullopt;
        }
        std::optional<std::vector<int>> values = enum_value(c.enum_decl, lit.value);
        if (!values) return std::nullopt;
        return choice_values(*subject, {values->begin(), values->end()}, positive, lit.loc);
      }
      case ast::Literal::Kind::In: return lower_in(lit, positive, scope);
      case ast::Literal::Kind::Compare: return lower_compare(lit, positive, scope, ctx);
    }
    return std::nullopt;
  }

  std::optional<Lowered> lower_atom(const ast::Literal& lit, bool positive, Scope& scope) {
    const ast::Call& call = lit.subject;
    if (scope.find(call.name.name) >= 0) {
      error(call.name.loc, "variable " + quote(call.name.name) + " is not a condition");
      return std::nullopt;
    }
    const Symbol* s = lookup(call.name.name);
    if (s == nullptr) {
      error(call.name.loc, "unknown fact " + quote(call.name.name));
      return std::nullopt;
    }
    if (s->kind == SymKind::Choice) {
      error(call.name.loc, "choice " + quote(call.name.name) + " is not a condition; test it "
                           "with 'is VALUE' or compare it");
      return std::nullopt;
    }
    if (s->kind != SymKind::Fact) {
      error(call.name.loc, quote(call.name.name) + " is " + a_kind(s->kind) +
                               ", not a fact; it is not a condition");
      return std::nullopt;
    }
    const FactDecl& f = out_.facts[s->index];
    auto args = arguments(call, f.formals, "fact " + quote(f.name), scope);
    if (!args) return std::nullopt;
    Literal l;
    l.kind = Literal::Kind::Fact;
    l.loc = lit.loc;
    l.fact = s->index;
    l.negated = !positive;
    l.args = *args;
    return single(std::move(l));
  }

  std::optional<Lowered> lower_in(const ast::Literal& lit, bool positive, Scope& scope) {
    std::optional<Term> subject = choice_subject(lit.subject, "in", scope);
    if (!subject) return std::nullopt;
    const ChoiceDecl& c = out_.choices[subject->index];
    bool ok = true;
    if (c.is_enum) {
      std::set<int> values;
      for (const ast::Operand& m : lit.members) {
        if (m.is_integer || m.call.has_parens) {
          error(m.loc, "the values of enum choice " + quote(c.name) + " are names of enum " +
                           quote(out_.enums[c.enum_decl].name) + ", not integers");
          ok = false;
          continue;
        }
        std::optional<std::vector<int>> v = enum_value(c.enum_decl, m.call.name);
        if (v)
          values.insert(v->begin(), v->end());
        else
          ok = false;
      }
      if (!ok) return std::nullopt;
      return choice_values(*subject, std::move(values), positive, lit.loc);
    }
    // An int choice: one ChoiceCompare per member, a disjunction of == (or, negated, a
    // conjunction of !=).
    Lowered low;
    low.shape = positive ? Lowered::Shape::Any : Lowered::Shape::All;
    for (const ast::Operand& m : lit.members) {
      if (!m.is_integer && scope.find(m.call.name.name) < 0 && !lookup(m.call.name.name)) {
        error(m.loc, "the values of int choice " + quote(c.name) +
                         " must be integers or params, not " + quote(m.call.name.name));
        ok = false;
        continue;
      }
      std::optional<Term> t = classify(m, scope);
      if (!t) {
        ok = false;
        continue;
      }
      if (t->kind != Term::Kind::Static) {
        error(m.loc, "the values of int choice " + quote(c.name) +
                         " must be integers or params, not " + describe(*t));
        ok = false;
        continue;
      }
      Literal l;
      l.kind = Literal::Kind::ChoiceCompare;
      l.loc = lit.loc;
      l.choice = subject->index;
      l.args = subject->args;
      l.op = positive ? CompareOp::Eq : CompareOp::Ne;
      l.rhs_expr = t->expr;
      low.lits.push_back(std::move(l));
    }
    if (!ok) return std::nullopt;
    return low;
  }

  std::string describe(const Term& t) const {
    switch (t.kind) {
      case Term::Kind::Static:
        return t.expr.is_constant ? "an integer" : "param " + quote(t.name);
      case Term::Kind::Object: return "object variable " + quote(t.name);
      case Term::Kind::Choice:
        return std::string(out_.choices[t.index].is_enum ? "enum" : "int") + " choice " +
               quote(t.name);
      case Term::Kind::Counter: return "counter " + quote(t.name);
    }
    return "?";
  }

  std::optional<Lowered> lower_compare(const ast::Literal& lit, bool positive, Scope& scope,
                                       Context ctx) {
    std::optional<Term> lhs = classify(lit.lhs, scope);
    std::optional<Term> rhs = classify(lit.rhs, scope);
    if (!lhs || !rhs) return std::nullopt;
    CompareOp op = positive ? lit.op : inverted(lit.op);
    using K = Term::Kind;
    auto mismatch = [&]() -> std::optional<Lowered> {
      error(lit.op_loc, "cannot compare " + describe(*lhs) + " with " + describe(*rhs));
      return std::nullopt;
    };
    // Put the "stronger" operand on the left: counter, then choice, then static.
    auto rank = [](K k) { return k == K::Counter ? 3 : k == K::Choice ? 2 : k == K::Static ? 1 : 0; };
    if (lhs->kind != K::Object && rhs->kind != K::Object && rank(rhs->kind) > rank(lhs->kind)) {
      std::swap(lhs, rhs);
      op = swapped(op);
    }
    if (lhs->kind == K::Object || rhs->kind == K::Object) {
      if (lhs->kind != K::Object || rhs->kind != K::Object) return mismatch();
      if (lit.op != CompareOp::Eq && lit.op != CompareOp::Ne) {
        error(lit.op_loc, std::string("objects can only be compared with '==' or '!=', not '") +
                              to_string(lit.op) + "'");
        return std::nullopt;
      }
      int a = scope.vars[lhs->var].set, b = scope.vars[rhs->var].set;
      if (a >= 0 && b >= 0 && a != b) {
        error(lit.op_loc, "cannot compare " + quote(lhs->name) + " of set " +
                              quote(set_name(a)) + " with " + quote(rhs->name) + " of set " +
                              quote(set_name(b)));
        return std::nullopt;
      }
      Literal l;
      l.kind = Literal::Kind::ObjectCompare;
      l.loc = lit.loc;
      l.lhs_var = lhs->var;
      l.rhs_var = rhs->var;
      l.op = op;
      return single(std::move(l));
    }
    if (lhs->kind == K::Counter) {
      if (rhs->kind != K::Static) return mismatch();
      if (ctx == Context::CounterCondition) {
        error(lit.lhs.loc, "counter " + quote(lhs->name) + " cannot appear in a counter "
                           "condition");
        return std::nullopt;
      }
      if (op == CompareOp::Ne) {
        error(lit.op_loc, "a counter bound must use one of '<=', '<', '>=', '>', '=='");
        return std::nullopt;
      }
      Lowered low;
      low.shape = Lowered::Shape::Bound;
      low.bound.counter = lhs->index;
      low.bound.args = lhs->args;
      low.bound.op = op;
      low.bound.bound = rhs->expr;
      return low;
    }
    if (lhs->kind == K::Choice) {
      const ChoiceDecl& c = out_.choices[lhs->index];
      if (rhs->kind == K::Static) {
        if (c.is_enum) {
          error(lit.op_loc, "cannot compare enum choice " + quote(c.name) + " with " +
                                describe(*rhs) + "; use 'is VALUE'");
          return std::nullopt;
        }
        Literal l;
        l.kind = Literal::Kind::ChoiceCompare;
        l.loc = lit.loc;
        l.choice = lhs->index;
        l.args = lhs->args;
        l.op = op;
        l.rhs_expr = rhs->expr;
        return single(std::move(l));
      }
      // Two choices.
      const ChoiceDecl& d = out_.choices[rhs->index];
      if (ctx == Context::CounterCondition) {
        error(lit.op_loc, "a counter condition cannot relate two choices");
        return std::nullopt;
      }
      if (c.is_enum != d.is_enum) return mismatch();
      if (c.is_enum) {
        if (c.enum_decl != d.enum_decl) {
          error(lit.op_loc, "cannot compare choice " + quote(c.name) + " of enum " +
                                quote(out_.enums[c.enum_decl].name) + " with choice " +
                                quote(d.name) + " of enum " +
                                quote(out_.enums[d.enum_decl].name));
          return std::nullopt;
        }
        if (op != CompareOp::Eq && op != CompareOp::Ne) {
          error(lit.op_loc, std::string("enum choices can only be compared with '==' or "
                                        "'!=', not '") + to_string(lit.op) + "'");
          return std::nullopt;
        }
      }
      Literal l;
      l.kind = Literal::Kind::ChoiceRelation;
      l.loc = lit.loc;
      l.choice = lhs->index;
      l.args = lhs->args;
      l.op = op;
      l.rhs_choice = rhs->index;
      l.rhs_args = rhs->args;
      return single(std::move(l));
    }
    // Both static. Two integers decide the literal here; a param's value comes with the input.
    if (lhs->expr.is_constant && rhs->expr.is_constant) {
      Lowered low;
      low.shape = holds(lhs->expr.constant, op, rhs->expr.constant) ? Lowered::Shape::True
                                                                      : Lowered::Shape::False;
      return low;
    }
    Literal l;
    l.kind = Literal::Kind::StaticCompare;
    l.loc = lit.loc;
    l.lhs_expr = lhs->expr;
    l.rhs_expr = rhs->expr;
    l.op = op;
    return single(std::move(l));
  }

  DiagnosticSink& sink_;
  CheckedSpace out_;
  std::map<std::string, Symbol> globals_;
  std::set<int> broken_choices_;  // choices whose declaration was in error
  int errors_ = 0;
};

}  // namespace

std::optional<CheckedSpace> check_space(const ast::Space& space, DiagnosticSink& sink) {
  return Checker(sink).run(space);
}

}  // namespace candor::dsl
