#include "cpp_backend.h"

#include <fmt/format.h>

#include <sstream>

namespace candor::dslc {
namespace {

using dsl::CheckedSpace;
using dsl::Clause;
using dsl::CompareOp;
using dsl::CounterDecl;
using dsl::IntExpr;
using dsl::Literal;
using dsl::Quantifier;
using dsl::Symmetry;

// Accumulates indented lines of C++.
class Emitter {
 public:
  template <typename... Args>
  void line(fmt::format_string<Args...> format, Args&&... args) {
    out_ << std::string(indent_ * 2, ' ') << fmt::format(format, std::forward<Args>(args)...)
         << '\n';
  }
  void blank() { out_ << '\n'; }
  void open(const std::string& text) {
    out_ << std::string(indent_ * 2, ' ') << text << '\n';
    ++indent_;
  }
  void close(const std::string& text = "}") {
    --indent_;
    out_ << std::string(indent_ * 2, ' ') << text << '\n';
  }
  std::string str() const { return out_.str(); }

 private:
  std::ostringstream out_;
  int indent_ = 0;
};

const char* relation(CompareOp op) {
  switch (op) {
    case CompareOp::Eq: return "candor::Relation::Eq";
    case CompareOp::Ne: return "candor::Relation::Ne";
    case CompareOp::Lt: return "candor::Relation::Lt";
    case CompareOp::Le: return "candor::Relation::Le";
    case CompareOp::Gt: return "candor::Relation::Gt";
    case CompareOp::Ge: return "candor::Relation::Ge";
  }
  return "candor::Relation::Eq";
}

std::string word_literal(uint64_t w) { return fmt::format("UINT64_C(0x{:x})", w); }

// A test emitted inside binding loops: when `skip` holds, the current binding contributes
// nothing (a clause already satisfied, a set membership that fails, a filter that fails).
struct Check {
  std::vector<int> vars;
  std::string skip;
};

class Backend {
 public:
  Backend(const CheckedSpace& space, std::vector<BackendError>& errors)
      : s_(space), errors_(errors) {}

  bool validate();
  std::string header();
  std::string source(const std::string& header_name);

 private:
  // --- naming ---------------------------------------------------------------------------
  std::string ns() const { return "candor::spaces::" + s_.name; }

  std::string set_size(int set) const { return fmt::format("set_size_[{}]", set); }

  // Dense row-major index of a tuple of objects over `sets`.
  std::string dense_index(const std::vector<int>& sets, const std::vector<std::string>& args) const {
    if (sets.empty()) return "0";
    std::string index = args[0];
    for (size_t i = 1; i < sets.size(); ++i) {
      index = fmt::format("({}) * {} + {}", index, set_size(sets[i]), args[i]);
    }
    return index;
  }
  std::string dense_size(const std::vector<int>& sets) const {
    std::string size = "1";
    for (int set : sets) size += " * static_cast<size_t>(" + set_size(set) + ")";
    return size;
  }
  static std::vector<int> formal_sets(const std::vector<dsl::Formal>& formals) {
    std::vector<int> sets;
    for (const auto& f : formals) sets.push_back(f.set);
    return sets;
  }
  static std::vector<std::string> var_args(const std::vector<dsl::VarIndex>& vars) {
    std::vector<std::string> out;
    for (int v : vars) out.push_back(fmt::format("x[{}]", v));
    return out;
  }
  static std::string join(const std::vector<std::string>& parts, const char* sep = ", ") {
    std::string out;
    for (size_t i = 0; i < parts.size(); ++i) out += (i ? sep : "") + parts[i];
    return out;
  }

  std::string int_expr(const IntExpr& e) const {
    if (e.is_constant) return fmt::format("INT64_C({})", e.constant);
    const auto& param = s_.params[e.param];
    return fmt::format("param_{}_[{}]", param.name,
                       dense_index(formal_sets(param.formals), var_args(e.args)));
  }

  std::string fact_expr(const Literal& lit) const {
    const auto& fact = s_.facts[lit.fact];
    std::string value = fmt::format("fact_{}_[{}]", fact.name,
                                    dense_index(formal_sets(fact.formals), var_args(lit.args)));
    return lit.negated ? "!" + value : value;
  }

  // The C++ condition under which a static literal is true.
  std::string static_literal(const Literal& lit) const {
    switch (lit.kind) {
      case Literal::Kind::Fact: return fact_expr(lit);
      case Literal::Kind::ObjectCompare:
        return fmt::format("x[{}] {} x[{}]", lit.lhs_var, dsl::to_string(lit.op), lit.rhs_var);
      case Literal::Kind::StaticCompare:
        return fmt::format("{} {} {}", int_expr(lit.lhs_expr), dsl::to_string(lit.op), int_expr(lit.rhs_expr));
      default: return "false";
    }
  }

  static bool is_static(const Literal& lit) {
    return lit.kind == Literal::Kind::Fact || lit.kind == Literal::Kind::ObjectCompare ||
           lit.kind == Literal::Kind::StaticCompare;
  }

  static std::vector<int> literal_vars(const Literal& lit) {
    std::vector<int> vars = lit.args;
    if (lit.kind == Literal::Kind::ObjectCompare) vars = {lit.lhs_var, lit.rhs_var};
    for (int v : lit.rhs_args) vars.push_back(v);
    for (int v : lit.lhs_expr.args) vars.push_back(v);
    for (int v : lit.rhs_expr.args) vars.push_back(v);
    return vars;
  }

  // Masks of an enum literal's values, as read directly and through the mirror.
  uint64_t value_mask(const Literal& lit, bool mirrored) const {
    const auto& choice = s_.choices[lit.choice];
    uint64_t mask = 0;
    for (int v : lit.values) {
      int stored = mirrored && choice.symmetry == Symmetry::Antisymmetric ? choice.mirror[v] : v;
      mask |= uint64_t{1} << stored;
    }
    return mask;
  }

  // --- emission pieces ------------------------------------------------------------------
  void emit_loops(Emitter& e, const std::vector<Quantifier>& vars, std::vector<bool> bound,
                  const std::vector<Check>& checks, const std::string& body,
                  const std::string& exit_at_top);
  std::vector<Check> membership_checks(const std::vector<Quantifier>& vars,
                                       const std::vector<bool>& bound_by_binding) const;
  void emit_choice_ref(Emitter& e, const std::string& name, int choice,
                       const std::vector<dsl::VarIndex>& args, const std::string& on_diag);
  std::string emit_literal_operands(Emitter& e, const Literal& lit);
  void emit_literal_truth(Emitter& e, const Literal& lit, int index);
  void emit_literal_enforce(Emitter& e, const Literal& lit);
  void emit_watch_guard(Emitter& e, const Literal& lit);
  void emit_clause(Emitter& e, const Clause& clause, int index);
  void emit_counter_terms(Emitter& e, const CounterDecl& counter, int index);
  void emit_constructor(Emitter& e);
  void emit_naming(Emitter& e);
  void emit_on_change(Emitter& e);

  void error(const dsl::Location& loc, std::string message) {
    errors_.push_back({loc, std::move(message)});
  }

  const CheckedSpace& s_;
  std::vector<BackendError>& errors_;
};

bool Backend::validate() {
  for (const auto& en : s_.enums) {
    if (en.values.size() > 64) error(en.loc, "enum '" + en.name + "' has more than 64 values");
  }
  auto check_relation = [&](const Literal& lit) {
    if (lit.kind != Literal::Kind::ChoiceRelation) return;
    for (int choice : {lit.choice, lit.rhs_choice}) {
      if (s_.choices[choice].symmetry == Symmetry::Antisymmetric) {
        error(lit.loc, "a relation between two choices cannot involve the antisymmetric choice '" +
                           s_.choices[choice].name + "'; compare it with 'is' instead");
      }
    }
  };
  for (const auto& clause : s_.clauses) {
    for (const auto& lit : clause.literals) check_relation(lit);
  }
  for (const auto& counter : s_.counters) {
    for (const auto& lit : counter.condition) {
      if (lit.kind == Literal::Kind::ChoiceRelation) {
        error(lit.loc, "a counter condition cannot relate two choices");
      }
    }
  }
  return errors_.empty();
}

std::vector<Check> Backend::membership_checks(const std::vector<Quantifier>& vars,
                                              const std::vector<bool>& bound_by_binding) const {
  std::vector<Check> checks;
  for (size_t i = 0; i < vars.size(); ++i) {
    const auto& q = vars[i];
    if (!bound_by_binding[i] || !s_.sets[q.set].parameterised) continue;
    const auto& set = s_.sets[q.set];
    checks.push_back({{q.set_arg, static_cast<int>(i)},
                      fmt::format("!pset_{}_member_[static_cast<size_t>(x[{}]) * {} + x[{}]]",
                                  set.name, q.set_arg, set_size(set.element_set), i)});
  }
  return checks;
}

// Emits nested loops over the variables not yet bound, in quantifier order. Every check runs
// at the shallowest point where all its variables are bound.
void Backend::emit_loops(Emitter& e, const std::vector<Quantifier>& vars, std::vector<bool> bound,
                         const std::vector<Check>& checks, const std::string& body,
                         const std::string& exit_at_top) {
  std::vector<bool> emitted(checks.size(), false);
  auto emit_ready_checks = [&](const std::string& skip_stmt) {
    for (size_t c = 0; c < checks.size(); ++c) {
      if (emitted[c]) continue;
      bool ready = true;
      for (int v : checks[c].vars) ready &= static_cast<bool>(bound[v]);
      if (!ready) continue;
      emitted[c] = true;
      e.line("if ({}) {}", checks[c].skip, skip_stmt);
    }
  };
  emit_ready_checks(exit_at_top);
  int depth = 0;
  for (size_t i = 0; i < vars.size(); ++i) {
    if (bound[i]) continue;
    const auto& q = vars[i];
    const auto& set = s_.sets[q.set];
    if (set.parameterised) {
      e.open(fmt::format("for (int o{} : pset_{}_[x[{}]]) {{", i, set.name, q.set_arg));
    } else {
      e.open(fmt::format("for (int o{0} = 0; o{0} < {1}; ++o{0}) {{", i, set_size(q.set)));
    }
    e.line("x[{0}] = o{0};", i);
    bound[i] = true;
    ++depth;
    emit_ready_checks("continue;");
  }
  e.line("{}", body);
  for (int d = 0; d < depth; ++d) e.close();
}

// Declares `ChoiceRef name` for choice(args); a diagonal reference of a symmetric choice
// makes the enclosing instance vacuous (`on_diag`).
void Backend::emit_choice_ref(Emitter& e, const std::string& name, int choice,
                              const std::vector<dsl::VarIndex>& args, const std::string& on_diag) {
  const auto& decl = s_.choices[choice];
  e.line("const ChoiceRef {} = {}_ref({});", name, decl.name, join(var_args(args)));
  if (decl.symmetry != Symmetry::None) e.line("if ({}.diagonal) {}", name, on_diag);
}

// Declares a choice literal's operands: `r` and `mask` for a literal on one variable
// (returning the expression of the mask's words), `a` and `b` for a relation (returning "").
std::string Backend::emit_literal_operands(Emitter& e, const Literal& lit) {
  if (lit.kind == Literal::Kind::ChoiceRelation) {
    emit_choice_ref(e, "a", lit.choice, lit.args, "return;");
    emit_choice_ref(e, "b", lit.rhs_choice, lit.rhs_args, "return;");
    return "";
  }
  emit_choice_ref(e, "r", lit.choice, lit.args, "return;");
  if (lit.kind == Literal::Kind::ChoiceValues) {
    e.line("const candor::Word mask = r.mirrored ? {} : {};", word_literal(value_mask(lit, true)),
           word_literal(value_mask(lit, false)));
    return "&mask";
  }
  e.line("const std::vector<candor::Word> mask = compare_mask(r.var, {}, {});", relation(lit.op),
         int_expr(lit.rhs_expr));
  return "mask.data()";
}

// Evaluates literal `index` of a clause: returns from the propagator when it is true,
// counts it when still open.
void Backend::emit_literal_truth(Emitter& e, const Literal& lit, int index) {
  e.open(fmt::format("if (known_false != {}) {{", index));
  const std::string mask = emit_literal_operands(e, lit);
  if (lit.kind == Literal::Kind::ChoiceRelation) {
    e.line("const candor::Truth t = candor::relation_truth(ctx, a.var, var_ints(a.var), {}, "
           "b.var, var_ints(b.var));",
           relation(lit.op));
  } else {
    e.line("const candor::Truth t = candor::literal_in(ctx, r.var, {});", mask);
  }
  e.line("if (t == candor::Truth::True) return;");
  e.line("if (t == candor::Truth::Unknown && ++open > 1) return;");
  e.line("if (t == candor::Truth::Unknown) last_open = {};", index);
  e.close();
}

// A literal on one variable can only make its clause instances unit or false by becoming
// false; until then its watcher has nothing to do and skips the scan. (Relations are not
// skipped: a narrowed side may need the other side narrowed again.)
void Backend::emit_watch_guard(Emitter& e, const Literal& lit) {
  if (lit.kind == Literal::Kind::ChoiceRelation) return;
  e.open("{");
  const std::string mask = emit_literal_operands(e, lit);
  e.line("if (candor::literal_in(ctx, r.var, {}) != candor::Truth::False) return;", mask);
  e.close();
}

void Backend::emit_literal_enforce(Emitter& e, const Literal& lit) {
  const std::string mask = emit_literal_operands(e, lit);
  if (lit.kind == Literal::Kind::ChoiceRelation) {
    e.line("candor::enforce_relation(ctx, a.var, var_ints(a.var), {}, b.var, var_ints(b.var));",
           relation(lit.op));
  } else {
    e.line("ctx.restrict(r.var, {});", mask);
  }
}

// A clause compiles to: a propagator over one full binding (unit propagation over its choice
// literals), a post function scanning every binding, and one watcher per choice literal
// (per side of a relation) that binds the literal's variables from the changed variable
// and scans only the remaining ones: a change costs O(objects^(free variables)), never a
// rescan of the whole clause family.
void Backend::emit_clause(Emitter& e, const Clause& clause, int index) {
  const int nvars = static_cast<int>(clause.vars.size());
  std::vector<int> choice_literals;
  std::vector<Check> static_checks;
  for (size_t l = 0; l < clause.literals.size(); ++l) {
    const Literal& lit = clause.literals[l];
    if (is_static(lit)) {
      static_checks.push_back({literal_vars(lit), static_literal(lit)});
    } else {
      choice_literals.push_back(static_cast<int>(l));
    }
  }
  std::string x_decl = fmt::format("int x[{}] = {{}};", std::max(nvars, 1));

  e.line("// {}:{}:{}", clause.loc.file, clause.loc.line, clause.loc.column);
  // `known_false`: a literal the caller has just seen false (its watcher's guard), or -1.
  e.open(fmt::format("void GeneratedSpace::propagate_clause_{}(candor::PropagationContext& ctx, "
                     "const int* x, int known_false) const {{",
                     index));
  e.line("int open = 0;");
  e.line("int last_open = -1;");
  for (int l : choice_literals) emit_literal_truth(e, clause.literals[l], l);
  e.line("if (open == 0) {{ ctx.fail(); return; }}");
  e.line("if (open > 1) return;");
  e.open("switch (last_open) {");
  for (int l : choice_literals) {
    e.open(fmt::format("case {}: {{", l));
    emit_literal_enforce(e, clause.literals[l]);
    e.line("break;");
    e.close();
  }
  e.line("default: break;");
  e.close();
  e.close();
  e.blank();

  std::string body = fmt::format("propagate_clause_{}(ctx, x, -1); if (ctx.failed()) return;", index);
  e.open(fmt::format("void GeneratedSpace::post_clause_{}(candor::PropagationContext& ctx) const {{",
                     index));
  e.line("{}", x_decl);
  emit_loops(e, clause.vars, std::vector<bool>(nvars, false), static_checks, body, "return;");
  e.close();
  e.blank();

  for (int l : choice_literals) {
    const Literal& lit = clause.literals[l];
    std::vector<std::pair<std::string, const std::vector<dsl::VarIndex>*>> sides = {
        {"lhs", &lit.args}};
    if (lit.kind == Literal::Kind::ChoiceRelation) sides.push_back({"rhs", &lit.rhs_args});
    for (const auto& [side, args] : sides) {
      e.open(fmt::format("void GeneratedSpace::watch_clause_{}_{}_{}(candor::PropagationContext& ctx, "
                         "const std::vector<int>& objects) const {{",
                         index, l, side));
      e.line("{}", x_decl);
      std::vector<bool> bound(nvars, false);
      for (size_t a = 0; a < args->size(); ++a) {
        int v = (*args)[a];
        if (bound[v]) {
          e.line("if (x[{}] != objects[{}]) return;", v, a);
        } else {
          e.line("x[{}] = objects[{}];", v, a);
          bound[v] = true;
        }
      }
      // The literal can be tested before the loops only when the changed choice binds every
      // variable it reads (`host(f) == index(h)` also reads h, bound by the loops).
      bool self_contained = true;
      for (int v : literal_vars(lit)) self_contained = self_contained && bound[v];
      if (self_contained) emit_watch_guard(e, lit);
      std::vector<Check> checks = membership_checks(clause.vars, bound);
      checks.insert(checks.end(), static_checks.begin(), static_checks.end());
      const bool guarded = self_contained && (lit.kind == Literal::Kind::ChoiceValues ||
                                              lit.kind == Literal::Kind::ChoiceCompare);
      std::string watch_body = fmt::format("propagate_clause_{}(ctx, x, {}); if (ctx.failed()) return;",
                                           index, guarded ? l : -1);
      emit_loops(e, clause.vars, bound, checks, watch_body, "return;");
      e.close();
      e.blank();
    }
  }
}

// Counter instances are materialised as terms (their number is what the counter sums over,
// not a power of the objects), which the runtime rescans when one of their variables changes.
void Backend::emit_counter_terms(Emitter& e, const CounterDecl& counter, int index) {
  const int nformals = static_cast<int>(counter.formals.size());
  const int nvars = nformals + static_cast<int>(counter.iteration.size());
  std::vector<Quantifier> all;
  for (const auto& f : counter.formals) {
    Quantifier q;
    q.name = f.name;
    q.set = f.set;
    q.element_set = f.set;
    all.push_back(q);
  }
  all.insert(all.end(), counter.iteration.begin(), counter.iteration.end());

  e.line("// counter {} ({}:{}:{})", counter.name, counter.loc.file, counter.loc.line,
         counter.loc.column);
  e.line("counter_base_{}_ = num_counters();", counter.name);
  e.open("{");
  e.line("int x[{}] = {{}};", std::max(nvars, 1));
  // Term builder: one call per binding whose static filters hold.
  e.open("auto add_term = [&](CounterLayout& layout) {");
  e.line("CounterTerm term;");
  for (const Literal& lit : counter.condition) {
    if (is_static(lit)) continue;
    e.open("{");
    emit_choice_ref(e, "r", lit.choice, lit.args, "return;");
    if (lit.kind == Literal::Kind::ChoiceValues) {
      e.line("term.conditions.push_back({{r.var, {{r.mirrored ? {} : {}}}}});",
             word_literal(value_mask(lit, true)), word_literal(value_mask(lit, false)));
    } else {
      e.line("term.conditions.push_back({{r.var, compare_mask(r.var, {}, {})}});",
             relation(lit.op), int_expr(lit.rhs_expr));
    }
    e.close();
  }
  if (counter.value_is_choice) {
    emit_choice_ref(e, "value", counter.value_choice, counter.value_args, "return;");
    e.line("term.value_var = value.var;");
  } else {
    e.line("term.value_const = {};", int_expr(counter.value_expr));
  }
  e.line("layout.terms.push_back(std::move(term));");
  e.close("};");

  std::vector<Check> filters;
  for (const Literal& lit : counter.condition) {
    if (is_static(lit)) filters.push_back({literal_vars(lit), "!(" + static_literal(lit) + ")"});
  }
  // Outer loops: one counter instance per tuple of formals.
  for (int i = 0; i < nformals; ++i) {
    e.open(fmt::format("for (int o{0} = 0; o{0} < {1}; ++o{0}) {{", i,
                       set_size(counter.formals[i].set)));
    e.line("x[{0}] = o{0};", i);
  }
  e.line("CounterLayout layout;");
  e.line("layout.decl = {};", index);
  std::vector<std::string> formal_args;
  for (int i = 0; i < nformals; ++i) formal_args.push_back(fmt::format("x[{}]", i));
  e.line("layout.args = {{{}}};", join(formal_args));
  e.line("layout.is_product = {};", counter.op == dsl::CounterOp::Product ? "true" : "false");
  e.open("do {");
  std::vector<bool> bound(nvars, false);
  for (int i = 0; i < nformals; ++i) bound[i] = true;
  emit_loops(e, all, bound, filters, "add_term(layout);", "break;");
  e.close("} while (false);");
  e.line("add_counter(std::move(layout));");
  for (int i = 0; i < nformals; ++i) e.close();
  e.close();
}

void Backend::emit_constructor(Emitter& e) {
  e.open("GeneratedSpace::GeneratedSpace(Input input) : input_(std::move(input)) {");
  e.line("const std::string where = \"{} input: \";", s_.name);
  // Base sets.
  for (size_t i = 0; i < s_.sets.size(); ++i) {
    const auto& set = s_.sets[i];
    if (set.parameterised) continue;
    e.line("if (input_.{0}_count < 0) throw std::invalid_argument(where + \"set '{0}' has a "
           "negative size\");",
           set.name);
    e.line("set_size_[{}] = input_.{}_count;", i, set.name);
    e.line("if (!input_.{0}_names.empty() && static_cast<int>(input_.{0}_names.size()) != "
           "input_.{0}_count) throw std::invalid_argument(where + \"set '{0}' has \" + "
           "std::to_string(input_.{0}_count) + \" objects but \" + "
           "std::to_string(input_.{0}_names.size()) + \" names\");",
           set.name);
  }
  // Parameterised sets.
  for (const auto& set : s_.sets) {
    if (!set.parameterised) continue;
    std::string parent = set_size(set.parameter_set), elems = set_size(set.element_set);
    e.line("pset_{0}_ = input_.{0};", set.name);
    e.line("pset_{0}_.resize({1});", set.name, parent);
    e.line("pset_{0}_member_.assign(static_cast<size_t>({1}) * {2}, 0);", set.name, parent, elems);
    e.open(fmt::format("for (int p = 0; p < {}; ++p) {{", parent));
    e.open(fmt::format("for (int o : pset_{}_[p]) {{", set.name));
    e.line("if (o < 0 || o >= {}) throw std::invalid_argument(where + \"set '{}' of object \" + "
           "std::to_string(p) + \" holds \" + std::to_string(o) + \", outside set '{}'\");",
           elems, set.name, s_.sets[set.element_set].name);
    e.line("pset_{}_member_[static_cast<size_t>(p) * {} + o] = 1;", set.name, elems);
    e.close();
    e.close();
  }
  // Facts, params and universes: densified and range-checked.
  auto tuple_check = [&](const std::string& what, const std::string& name,
                         const std::vector<dsl::Formal>& formals, const std::string& tuple) {
    e.line("if ({}.size() != {}) throw std::invalid_argument(where + \"{} '{}' takes {} "
           "objects\");",
           tuple, formals.size(), what, name, formals.size());
    for (size_t i = 0; i < formals.size(); ++i) {
      e.line("if ({0}[{1}] < 0 || {0}[{1}] >= {2}) throw std::invalid_argument(where + \"{3} "
             "'{4}': object \" + std::to_string({0}[{1}]) + \" is outside set '{5}'\");",
             tuple, i, set_size(formals[i].set), what, name, s_.sets[formals[i].set].name);
    }
  };
  auto tuple_index = [&](const std::vector<dsl::Formal>& formals, const std::string& tuple) {
    std::vector<std::string> args;
    for (size_t i = 0; i < formals.size(); ++i) args.push_back(fmt::format("{}[{}]", tuple, i));
    return dense_index(formal_sets(formals), args);
  };
  for (const auto& fact : s_.facts) {
    e.line("fact_{}_.assign({}, 0);", fact.name, dense_size(formal_sets(fact.formals)));
    e.open(fmt::format("for (const std::vector<int>& t : input_.{}) {{", fact.name));
    tuple_check("fact", fact.name, fact.formals, "t");
    e.line("fact_{}_[{}] = 1;", fact.name, tuple_index(fact.formals, "t"));
    e.close();
  }
  for (const auto& param : s_.params) {
    if (param.formals.empty()) {
      e.line("if (!input_.{0}) throw std::invalid_argument(where + \"param '{0}' has no value\");",
             param.name);
      e.line("param_{0}_ = {{*input_.{0}}};", param.name);
      continue;
    }
    std::string size = dense_size(formal_sets(param.formals));
    e.line("param_{}_.assign({}, 0);", param.name, size);
    e.line("std::vector<char> {}_seen({}, 0);", param.name, size);
    e.open(fmt::format("for (const auto& [t, value] : input_.{}) {{", param.name));
    tuple_check("param", param.name, param.formals, "t");
    e.line("param_{0}_[{1}] = value;", param.name, tuple_index(param.formals, "t"));
    e.line("{0}_seen[{1}] = 1;", param.name, tuple_index(param.formals, "t"));
    e.close();
    e.open(fmt::format("for (size_t i = 0; i < {}_seen.size(); ++i) {{", param.name));
    e.line("if (!{0}_seen[i]) throw std::invalid_argument(where + \"param '{0}' has no value for "
           "tuple #\" + std::to_string(i));",
           param.name);
    e.close();
  }
  for (const auto& uni : s_.universes) {
    e.line("universe_{}_.assign({}, {{}});", uni.name, dense_size(formal_sets(uni.formals)));
    e.open(fmt::format("for (const auto& [t, values] : input_.{}) {{", uni.name));
    tuple_check("universe", uni.name, uni.formals, "t");
    e.line("std::vector<int64_t> sorted = values;");
    e.line("std::sort(sorted.begin(), sorted.end());");
    e.line("if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) throw "
           "std::invalid_argument(where + \"universe '{}' repeats a value\");",
           uni.name);
    e.line("universe_{}_[{}] = values;", uni.name, tuple_index(uni.formals, "t"));
    e.close();
  }
  // Choices: one variable per tuple (per unordered pair for symmetric choices).
  for (size_t c = 0; c < s_.choices.size(); ++c) {
    const auto& choice = s_.choices[c];
    e.line("choice_base_{}_ = num_vars();", choice.name);
    if (choice.symmetry != Symmetry::None) {
      std::string n = set_size(choice.formals[0].set);
      e.line("pair_table_{}_.assign(static_cast<size_t>({}) * {}, -1);", choice.name, n, n);
      e.open(fmt::format("for (int a = 0, var = num_vars(); a < {}; ++a) {{", n));
      e.open(fmt::format("for (int b = a + 1; b < {}; ++b, ++var) {{", n));
      e.line("pair_table_{}_[static_cast<size_t>(a) * {} + b] = 2 * var;", choice.name, n);
      e.line("pair_table_{}_[static_cast<size_t>(b) * {} + a] = 2 * var + 1;", choice.name, n);
      e.close();
      e.close();
    }
    e.open("{");
    e.line("int x[{}] = {{}};", std::max<size_t>(choice.formals.size(), 1));
    int depth = 0;
    for (size_t i = 0; i < choice.formals.size(); ++i) {
      std::string start = (choice.symmetry != Symmetry::None && i == 1) ? "x[0] + 1" : "0";
      e.open(fmt::format("for (x[{0}] = {1}; x[{0}] < {2}; ++x[{0}]) {{", i, start,
                         set_size(choice.formals[i].set)));
      ++depth;
    }
    e.line("VarLayout var;");
    e.line("var.decl = {};", c);
    std::vector<std::string> args;
    for (size_t i = 0; i < choice.formals.size(); ++i) args.push_back(fmt::format("x[{}]", i));
    e.line("var.args = {{{}}};", join(args));
    if (choice.is_enum) {
      e.line("var.universe_size = {};", s_.enums[choice.enum_decl].values.size());
    } else {
      const auto& uni = s_.universes[choice.universe];
      std::vector<std::string> uargs;
      for (int a : choice.universe_args) uargs.push_back(fmt::format("x[{}]", a));
      e.line("var.is_enum = false;");
      e.line("var.ints = universe_{}_[{}];", uni.name,
             dense_index(formal_sets(uni.formals), uargs));
      e.line("var.universe_size = static_cast<int>(var.ints.size());");
      if (choice.categorical) e.line("var.categorical = true;");
    }
    e.line("add_var(std::move(var));");
    for (int d = 0; d < depth; ++d) e.close();
    e.close();
  }
  for (size_t k = 0; k < s_.counters.size(); ++k) emit_counter_terms(e, s_.counters[k], static_cast<int>(k));
  // Counter bounds narrow each counter instance's allowed interval.
  for (const auto& cb : s_.counter_bounds) {
    const auto& counter = s_.counters[cb.counter];
    e.open("{");
    e.line("int x[{}] = {{}};", std::max<size_t>(cb.vars.size(), 1));
    std::string body = fmt::format(
        "bound_counter(counter_base_{}_ + static_cast<int>({}), {}, {});", counter.name,
        dense_index(formal_sets(counter.formals), var_args(cb.args)), relation(cb.op),
        int_expr(cb.bound));
    emit_loops(e, cb.vars, std::vector<bool>(cb.vars.size(), false), {}, body, "{}");
    e.close();
  }
  e.line("finish_layout();");
  e.close();
  e.blank();
  e.open("void GeneratedSpace::bound_counter(int counter, candor::Relation op, int64_t bound) {");
  e.line("CounterLayout& layout = counter_layout(counter);");
  e.line("if (op == candor::Relation::Le || op == candor::Relation::Eq) layout.max_allowed = "
         "std::min(layout.max_allowed, bound);");
  e.line("if (op == candor::Relation::Lt) layout.max_allowed = std::min(layout.max_allowed, bound - 1);");
  e.line("if (op == candor::Relation::Ge || op == candor::Relation::Eq) layout.min_allowed = "
         "std::max(layout.min_allowed, bound);");
  e.line("if (op == candor::Relation::Gt) layout.min_allowed = std::max(layout.min_allowed, bound + 1);");
  e.close();
  e.blank();
}

void Backend::emit_naming(Emitter& e) {
  // Object names come from the host when given, else "<set><index>".
  e.open("std::string GeneratedSpace::object_in_set(int set, int object) const {");
  e.open("switch (set) {");
  for (size_t i = 0; i < s_.sets.size(); ++i) {
    const auto& set = s_.sets[i];
    if (set.parameterised) continue;
    e.open(fmt::format("case {}: {{", i));
    e.line("if (!input_.{0}_names.empty()) return input_.{0}_names[object];", set.name);
    e.line("return \"{}\" + std::to_string(object);", set.name);
    e.close();
  }
  e.close();
  e.line("return std::to_string(object);");
  e.close();
  e.blank();

  auto decl_switch = [&](const std::string& signature, auto&& body) {
    e.open(signature + " {");
    e.open("switch (decl) {");
    body();
    e.close();
    e.line("return {{}};");
    e.close();
    e.blank();
  };
  decl_switch("std::string GeneratedSpace::decl_name(int decl) const", [&] {
    for (size_t c = 0; c < s_.choices.size(); ++c) e.line("case {}: return \"{}\";", c, s_.choices[c].name);
  });
  decl_switch("std::string GeneratedSpace::counter_decl_name(int decl) const", [&] {
    for (size_t c = 0; c < s_.counters.size(); ++c) e.line("case {}: return \"{}\";", c, s_.counters[c].name);
  });
  // Objects print by the set of the declaration's formal at that position.
  auto object_namer = [&](const std::string& signature, const std::vector<const std::vector<dsl::Formal>*>& decls) {
    e.open(signature + " {");
    e.line("static const std::vector<std::vector<int>> sets = {{");
    for (const auto* formals : decls) {
      std::vector<std::string> sets;
      for (const auto& f : *formals) sets.push_back(std::to_string(f.set));
      e.line("    {{{}}},", join(sets));
    }
    e.line("}};");
    e.line("return object_in_set(sets[decl][position], object);");
    e.close();
    e.blank();
  };
  std::vector<const std::vector<dsl::Formal>*> choice_formals, counter_formals;
  for (const auto& c : s_.choices) choice_formals.push_back(&c.formals);
  for (const auto& c : s_.counters) counter_formals.push_back(&c.formals);
  object_namer("std::string GeneratedSpace::object_name(int decl, int position, int object) const", choice_formals);
  object_namer("std::string GeneratedSpace::counter_object_name(int decl, int position, int object) const",
               counter_formals);
  decl_switch("std::string GeneratedSpace::enum_value_name(int decl, int value) const", [&] {
    for (size_t c = 0; c < s_.choices.size(); ++c) {
      if (!s_.choices[c].is_enum) continue;
      std::vector<std::string> names;
      for (const auto& v : s_.enums[s_.choices[c].enum_decl].values) names.push_back("\"" + v + "\"");
      e.line("case {}: {{ static const char* const names[] = {{{}}}; return names[value]; }}", c,
             join(names));
    }
  });
}

void Backend::emit_on_change(Emitter& e) {
  e.open("void GeneratedSpace::on_change(candor::PropagationContext& ctx, int var) const {");
  e.line("const VarLayout& layout = var_layout(var);");
  e.line("const std::vector<int>& a = layout.args;");
  e.line("(void)a;");
  e.open("switch (layout.decl) {");
  for (size_t c = 0; c < s_.choices.size(); ++c) {
    const auto& choice = s_.choices[c];
    std::vector<std::string> calls;
    for (size_t k = 0; k < s_.clauses.size(); ++k) {
      const auto& clause = s_.clauses[k];
      for (size_t l = 0; l < clause.literals.size(); ++l) {
        const Literal& lit = clause.literals[l];
        if (is_static(lit)) continue;
        std::vector<std::pair<int, std::string>> sides = {{lit.choice, "lhs"}};
        if (lit.kind == Literal::Kind::ChoiceRelation) sides.push_back({lit.rhs_choice, "rhs"});
        for (const auto& [watched, side] : sides) {
          if (watched != static_cast<int>(c)) continue;
          std::string fn = fmt::format("watch_clause_{}_{}_{}", k, l, side);
          calls.push_back(fmt::format("{}(ctx, a);", fn));
          // A symmetric variable stands for both orientations of its pair.
          if (choice.symmetry != Symmetry::None) calls.push_back(fmt::format("{}(ctx, {{a[1], a[0]}});", fn));
        }
      }
    }
    if (calls.empty()) continue;
    e.open(fmt::format("case {}: {{", c));
    for (const auto& call : calls) {
      e.line("{}", call);
      e.line("if (ctx.failed()) return;");
    }
    e.line("break;");
    e.close();
  }
  e.line("default: break;");
  e.close();
  e.close();
  e.blank();
}

std::string Backend::header() {
  Emitter e;
  e.line("// Generated by dslc from {}. Do not edit.", s_.files.empty() ? "" : s_.files[0]);
  e.line("#pragma once");
  e.blank();
  e.line("#include <cstdint>");
  e.line("#include <map>");
  e.line("#include <optional>");
  e.line("#include <string>");
  e.line("#include <vector>");
  e.blank();
  e.line("#include \"space.h\"");
  e.blank();
  e.line("namespace {} {{", ns());
  e.blank();
  for (const auto& en : s_.enums) {
    e.open(fmt::format("struct {} {{", en.name));
    std::vector<std::string> values;
    for (size_t i = 0; i < en.values.size(); ++i) values.push_back(fmt::format("{} = {}", en.values[i], i));
    e.line("enum : int {{ {} }};", join(values));
    e.line("static constexpr int kCount = {};", en.values.size());
    e.close("};");
    e.blank();
  }
  e.line("// What the host supplies for one kernel.");
  e.open("struct Input {");
  for (const auto& set : s_.sets) {
    if (set.parameterised) {
      e.line("// {}(p): the objects of set '{}' in it, for every object p of set '{}'.", set.name,
             s_.sets[set.element_set].name, s_.sets[set.parameter_set].name);
      e.line("std::vector<std::vector<int>> {};", set.name);
    } else {
      e.line("int {}_count = 0;", set.name);
      e.line("std::vector<std::string> {}_names;  // optional, for printing", set.name);
    }
  }
  for (const auto& fact : s_.facts) e.line("std::vector<std::vector<int>> {};  // the true tuples", fact.name);
  for (const auto& param : s_.params) {
    if (param.formals.empty()) {
      e.line("std::optional<int64_t> {};", param.name);
    } else {
      e.line("std::map<std::vector<int>, int64_t> {};  // every tuple needs a value", param.name);
    }
  }
  for (const auto& uni : s_.universes) {
    e.line("std::map<std::vector<int>, std::vector<int64_t>> {};", uni.name);
  }
  e.close("};");
  e.blank();
  e.line("// A choice instance as stored: symmetric choices store (a, b) with a < b only.");
  e.open("struct ChoiceRef {");
  e.line("int var = -1;");
  e.line("bool mirrored = false;  // the reference was (b, a)");
  e.line("bool diagonal = false;  // (a, a): no such choice");
  e.close("};");
  e.blank();
  e.open("class GeneratedSpace : public candor::Space {");
  e.line(" public:");
  e.line("// Throws std::invalid_argument naming what is wrong with the input.");
  e.line("explicit GeneratedSpace(Input input);");
  e.line("const Input& input() const {{ return input_; }}");
  for (size_t i = 0; i < s_.sets.size(); ++i) {
    const auto& set = s_.sets[i];
    if (set.parameterised) {
      e.line("const std::vector<int>& {0}_set(int parent) const {{ return pset_{0}_[parent]; }}", set.name);
    } else {
      e.line("int {}_count() const {{ return set_size_[{}]; }}", set.name, i);
    }
  }
  auto params_sig = [&](const std::vector<dsl::Formal>& formals) {
    std::vector<std::string> out;
    for (const auto& f : formals) out.push_back("int " + f.name);
    return join(out);
  };
  auto formal_names = [&](const std::vector<dsl::Formal>& formals) {
    std::vector<std::string> out;
    for (const auto& f : formals) out.push_back(f.name);
    return out;
  };
  for (const auto& fact : s_.facts) {
    e.line("bool {}_fact({}) const {{ return fact_{}_[{}] != 0; }}", fact.name,
           params_sig(fact.formals), fact.name,
           dense_index(formal_sets(fact.formals), formal_names(fact.formals)));
  }
  for (const auto& param : s_.params) {
    e.line("int64_t {}_param({}) const {{ return param_{}_[{}]; }}", param.name,
           params_sig(param.formals), param.name,
           dense_index(formal_sets(param.formals), formal_names(param.formals)));
  }
  for (const auto& choice : s_.choices) {
    const auto names = formal_names(choice.formals);
    if (choice.symmetry == Symmetry::None) {
      e.line("ChoiceRef {}_ref({}) const {{ return {{choice_base_{}_ + static_cast<int>({}), false, "
             "false}}; }}",
             choice.name, params_sig(choice.formals), choice.name,
             dense_index(formal_sets(choice.formals), names));
    } else {
      // A table over ordered pairs: 2 * var + mirrored, or -1 on the diagonal.
      std::string n = set_size(choice.formals[0].set);
      e.open(fmt::format("ChoiceRef {}_ref({}) const {{", choice.name, params_sig(choice.formals)));
      e.line("const int entry = pair_table_{}_[static_cast<size_t>({}) * {} + {}];", choice.name,
             names[0], n, names[1]);
      e.line("return {{entry >> 1, (entry & 1) != 0, entry < 0}};");
      e.close();
    }
  }
  for (const auto& counter : s_.counters) {
    e.line("int {}_counter({}) const {{ return counter_base_{}_ + static_cast<int>({}); }}", counter.name,
           params_sig(counter.formals), counter.name,
           dense_index(formal_sets(counter.formals), formal_names(counter.formals)));
  }
  e.blank();
  e.line(" protected:");
  e.line("std::string decl_name(int decl) const override;");
  e.line("std::string counter_decl_name(int decl) const override;");
  e.line("std::string object_name(int decl, int position, int object) const override;");
  e.line("std::string counter_object_name(int decl, int position, int object) const override;");
  e.line("std::string enum_value_name(int decl, int value) const override;");
  e.line("void post(candor::PropagationContext& ctx) const override;");
  e.line("void on_change(candor::PropagationContext& ctx, int var) const override;");
  e.line("bool check_clauses(const candor::Candidate& c) const override;");
  e.blank();
  e.line(" private:");
  e.line("std::string object_in_set(int set, int object) const;");
  e.line("void bound_counter(int counter, candor::Relation op, int64_t bound);");
  for (size_t k = 0; k < s_.clauses.size(); ++k) {
    e.line("void propagate_clause_{}(candor::PropagationContext& ctx, const int* x, int known_false) const;", k);
    e.line("void post_clause_{}(candor::PropagationContext& ctx) const;", k);
    const auto& clause = s_.clauses[k];
    for (size_t l = 0; l < clause.literals.size(); ++l) {
      if (is_static(clause.literals[l])) continue;
      e.line("void watch_clause_{}_{}_lhs(candor::PropagationContext& ctx, const std::vector<int>& "
             "objects) const;",
             k, l);
      if (clause.literals[l].kind == Literal::Kind::ChoiceRelation) {
        e.line("void watch_clause_{}_{}_rhs(candor::PropagationContext& ctx, const std::vector<int>& "
               "objects) const;",
               k, l);
      }
    }
  }
  e.blank();
  e.line("Input input_;");
  e.line("int set_size_[{}] = {{}};", std::max<size_t>(s_.sets.size(), 1));
  for (const auto& set : s_.sets) {
    if (!set.parameterised) continue;
    e.line("std::vector<std::vector<int>> pset_{}_;", set.name);
    e.line("std::vector<char> pset_{}_member_;", set.name);
  }
  for (const auto& fact : s_.facts) e.line("std::vector<char> fact_{}_;", fact.name);
  for (const auto& param : s_.params) e.line("std::vector<int64_t> param_{}_;", param.name);
  for (const auto& uni : s_.universes) e.line("std::vector<std::vector<int64_t>> universe_{}_;", uni.name);
  for (const auto& choice : s_.choices) {
    e.line("int choice_base_{}_ = 0;", choice.name);
    if (choice.symmetry != Symmetry::None) e.line("std::vector<int> pair_table_{}_;", choice.name);
  }
  for (const auto& counter : s_.counters) e.line("int counter_base_{}_ = 0;", counter.name);
  e.close("};");
  e.blank();
  e.line("}}  // namespace {}", ns());
  return e.str();
}

std::string Backend::source(const std::string& header_name) {
  Emitter e;
  e.line("// Generated by dslc from {}. Do not edit.", s_.files.empty() ? "" : s_.files[0]);
  e.line("#include \"{}\"", header_name);
  e.blank();
  e.line("#include <algorithm>");
  e.line("#include <stdexcept>");
  e.blank();
  e.line("#include \"propagation.h\"");
  e.blank();
  e.line("namespace {} {{", ns());
  e.blank();
  emit_constructor(e);
  emit_naming(e);
  for (size_t k = 0; k < s_.clauses.size(); ++k) emit_clause(e, s_.clauses[k], static_cast<int>(k));
  e.open("void GeneratedSpace::post(candor::PropagationContext& ctx) const {");
  for (size_t k = 0; k < s_.clauses.size(); ++k) {
    e.line("post_clause_{}(ctx);", k);
    e.line("if (ctx.failed()) return;");
  }
  e.line("(void)ctx;");
  e.close();
  e.blank();
  emit_on_change(e);
  e.line("// A complete candidate satisfies every clause exactly when no clause instance has all");
  e.line("// its literals false, which posting every clause on a copy detects.");
  e.open("bool GeneratedSpace::check_clauses(const candor::Candidate& c) const {");
  e.line("candor::Candidate copy = c;");
  e.line("candor::PropagationContext ctx(*this, copy);");
  e.line("post(ctx);");
  e.line("return !ctx.failed();");
  e.close();
  e.blank();
  e.line("}}  // namespace {}", ns());
  return e.str();
}

}  // namespace

bool emit_cpp(const CheckedSpace& space, const std::string& header_name, GeneratedCode& out,
              std::vector<BackendError>& errors) {
  Backend backend(space, errors);
  if (!backend.validate()) return false;
  out.header = backend.header();
  out.source = backend.source(header_name);
  return true;
}

}  // namespace candor::dslc
