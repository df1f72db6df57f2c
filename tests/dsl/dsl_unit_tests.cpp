// Unit tests of the dsl front end: every construct of docs/spec_language.md parses and
// checks into the expected CheckedSpace, formulas are normalised into the model's literal
// forms, and errors are collected with their locations.
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>

#include "dsl/frontend.h"
#include "dsl/sema.h"

namespace candor::dsl {
namespace {

using Files = std::map<std::string, std::string>;

// Loads `text` as main.space; includes are read from `files` (paths as resolved).
std::optional<CheckedSpace> load(const std::string& text, DiagnosticSink& sink,
                                 const Files& files = {}) {
  SourceReader reader = [&files](const std::string& path, std::string&) -> std::optional<std::string> {
    auto it = files.find(path);
    if (it == files.end()) return std::nullopt;
    return it->second;
  };
  return load_space_from_string(text, "main.space", sink, reader);
}

// Loads a spec that must check; fails the test with the diagnostics otherwise.
CheckedSpace ok(const std::string& text, const Files& files = {}) {
  DiagnosticSink sink;
  std::optional<CheckedSpace> space = load(text, sink, files);
  EXPECT_TRUE(space.has_value()) << sink.str();
  EXPECT_FALSE(sink.has_errors()) << sink.str();
  return space ? *space : CheckedSpace{};
}

// Loads a spec that must fail; returns the diagnostics.
std::string fails(const std::string& text, const Files& files = {}) {
  DiagnosticSink sink;
  std::optional<CheckedSpace> space = load(text, sink, files);
  EXPECT_FALSE(space.has_value());
  EXPECT_TRUE(sink.has_errors());
  return sink.str();
}

const std::string kPrelude = R"(space test;
set instr;
set stage;
set loop;
set kernel;
set loops(s: stage) : loop;
set kernel_loops(k: kernel) : loop;
fact depends(a: instr, b: instr);
fact inner(a: loop, b: loop);
param latency(i: instr);
param extent(l: loop);
param max_threads;
universe tile_sizes(l: loop);
enum Kind { SERIAL, PARALLEL, VECTOR, THREAD; alias MULTI = PARALLEL | VECTOR; }
enum Order { BEFORE, AFTER, MERGED }
enum Bool { NO, YES }
choice kind(l: loop) : Kind;
choice order(a: instr, b: instr) : Order antisymmetric { BEFORE <-> AFTER };
choice fused(a: stage, b: stage) : Bool symmetric;
choice tile(l: loop) : int in tile_sizes(l);
choice unroll(l: loop) : int in tile_sizes(l);
)";

// The single clause of `kPrelude + require`.
Clause one_clause(const std::string& require) {
  CheckedSpace s = ok(kPrelude + require);
  EXPECT_EQ(s.clauses.size(), 1u);
  return s.clauses.empty() ? Clause{} : s.clauses[0];
}

template <class T>
int find(const std::vector<T>& decls, const std::string& name) {
  for (std::size_t i = 0; i < decls.size(); ++i)
    if (decls[i].name == name) return static_cast<int>(i);
  return -1;
}

// ------------------------------------------------------------------ declarations

TEST(DslDecls, SpaceName) {
  CheckedSpace s = ok("space my_space;\n");
  EXPECT_EQ(s.name, "my_space");
  ASSERT_EQ(s.files.size(), 1u);
  EXPECT_EQ(s.files[0], "main.space");
}

TEST(DslDecls, Sets) {
  CheckedSpace s = ok(kPrelude);
  ASSERT_EQ(s.sets.size(), 6u);
  int stage = find(s.sets, "stage"), loop = find(s.sets, "loop");
  const SetDecl& loops = s.sets[find(s.sets, "loops")];
  EXPECT_FALSE(s.sets[stage].parameterised);
  EXPECT_TRUE(loops.parameterised);
  EXPECT_EQ(loops.parameter_set, stage);
  EXPECT_EQ(loops.element_set, loop);
  EXPECT_EQ(loops.loc.file, "main.space");
  EXPECT_EQ(loops.loc.line, 6);
  EXPECT_EQ(loops.loc.column, 1);
}

TEST(DslDecls, FactsParamsUniverses) {
  CheckedSpace s = ok(kPrelude + "fact flag;\nfact empty();\n");
  int instr = find(s.sets, "instr"), loop = find(s.sets, "loop");
  const FactDecl& depends = s.facts[find(s.facts, "depends")];
  ASSERT_EQ(depends.formals.size(), 2u);
  EXPECT_EQ(depends.formals[0].name, "a");
  EXPECT_EQ(depends.formals[0].set, instr);
  EXPECT_EQ(depends.formals[1].name, "b");
  EXPECT_EQ(depends.formals[1].set, instr);
  EXPECT_TRUE(s.facts[find(s.facts, "flag")].formals.empty());
  EXPECT_TRUE(s.facts[find(s.facts, "empty")].formals.empty());

  ASSERT_EQ(s.params.size(), 3u);
  EXPECT_EQ(s.params[find(s.params, "extent")].formals.at(0).set, loop);
  EXPECT_TRUE(s.params[find(s.params, "max_threads")].formals.empty());  // a scalar

  ASSERT_EQ(s.universes.size(), 1u);
  EXPECT_EQ(s.universes[0].name, "tile_sizes");
  EXPECT_EQ(s.universes[0].formals.at(0).set, loop);
}

TEST(DslDecls, EnumsAndAliases) {
  CheckedSpace s = ok(
      "space e;\n"
      "enum Kind { A, B, C, D; alias AB = B | A; alias ABD = AB | D | A; alias JUST_C = C; }\n"
      "enum Flag { OFF, ON };\n"
      "enum Single { ONLY; }\n");
  ASSERT_EQ(s.enums.size(), 3u);
  const EnumDecl& k = s.enums[0];
  EXPECT_EQ(k.name, "Kind");
  EXPECT_EQ(k.values, (std::vector<std::string>{"A", "B", "C", "D"}));
  ASSERT_EQ(k.aliases.size(), 3u);
  EXPECT_EQ(k.aliases[0].name, "AB");
  EXPECT_EQ(k.aliases[0].values, (std::vector<int>{0, 1}));  // sorted
  EXPECT_EQ(k.aliases[1].values, (std::vector<int>{0, 1, 3}));  // alias of alias, distinct
  EXPECT_EQ(k.aliases[2].values, (std::vector<int>{2}));
  EXPECT_EQ(s.enums[1].values, (std::vector<std::string>{"OFF", "ON"}));
  EXPECT_TRUE(s.enums[1].aliases.empty());
  EXPECT_EQ(s.enums[2].values.size(), 1u);
}

TEST(DslDecls, EnumValuesMayRepeatAcrossEnums) {
  CheckedSpace s = ok("space e;\nenum A { X, Y }\nenum B { Y, X }\n");
  EXPECT_EQ(s.enums[1].values[0], "Y");
}

TEST(DslDecls, EnumChoice) {
  CheckedSpace s = ok(kPrelude);
  const ChoiceDecl& kind = s.choices[find(s.choices, "kind")];
  EXPECT_TRUE(kind.is_enum);
  EXPECT_EQ(kind.enum_decl, find(s.enums, "Kind"));
  EXPECT_EQ(kind.symmetry, Symmetry::None);
  EXPECT_TRUE(kind.mirror.empty());
  ASSERT_EQ(kind.formals.size(), 1u);
  EXPECT_EQ(kind.formals[0].set, find(s.sets, "loop"));
  EXPECT_EQ(kind.universe, -1);
}

TEST(DslDecls, AntisymmetricChoice) {
  CheckedSpace s = ok(kPrelude);
  const ChoiceDecl& order = s.choices[find(s.choices, "order")];
  EXPECT_EQ(order.symmetry, Symmetry::Antisymmetric);
  // BEFORE <-> AFTER; MERGED is its own mirror.
  EXPECT_EQ(order.mirror, (std::vector<int>{1, 0, 2}));
}

TEST(DslDecls, SymmetricChoice) {
  CheckedSpace s = ok(kPrelude);
  const ChoiceDecl& fused = s.choices[find(s.choices, "fused")];
  EXPECT_EQ(fused.symmetry, Symmetry::Symmetric);
  EXPECT_EQ(fused.mirror, (std::vector<int>{0, 1}));  // identity
  EXPECT_EQ(fused.formals[0].set, fused.formals[1].set);
}

TEST(DslDecls, AntisymmetricSelfPairAndSeveralPairs) {
  CheckedSpace s = ok(
      "space m;\nset x;\nenum Rel { LT, GT, EQ, LE, GE }\n"
      "choice rel(a: x, b: x) : Rel antisymmetric { LT <-> GT, GE <-> LE, EQ <-> EQ };\n");
  EXPECT_EQ(s.choices[0].mirror, (std::vector<int>{1, 0, 2, 4, 3}));
}

TEST(DslDecls, IntChoice) {
  CheckedSpace s = ok(kPrelude +
                      "universe pair_sizes(a: loop, b: stage);\n"
                      "choice split(s: stage, l: loop) : int in pair_sizes(l, s);\n");
  const ChoiceDecl& tile = s.choices[find(s.choices, "tile")];
  EXPECT_FALSE(tile.is_enum);
  EXPECT_EQ(tile.enum_decl, -1);
  EXPECT_EQ(tile.universe, find(s.universes, "tile_sizes"));
  EXPECT_EQ(tile.universe_args, (std::vector<int>{0}));
  const ChoiceDecl& split = s.choices[find(s.choices, "split")];
  EXPECT_EQ(split.universe, find(s.universes, "pair_sizes"));
  EXPECT_EQ(split.universe_args, (std::vector<int>{1, 0}));  // indices into the formals
  EXPECT_FALSE(tile.categorical);
}

TEST(DslDecls, CategoricalIntChoice) {
  CheckedSpace s = ok(kPrelude + "choice host(l: loop) : int in tile_sizes(l) categorical;\n");
  const ChoiceDecl& host = s.choices[find(s.choices, "host")];
  EXPECT_FALSE(host.is_enum);
  EXPECT_TRUE(host.categorical);
  // Only integer choices can be categorical: an enum's values already are labels.
  const std::string d = fails(kPrelude + "choice placement(l: loop) : Kind categorical;\n");
  EXPECT_NE(d.find("main.space:22:34: error: syntax error, unexpected 'categorical'"), std::string::npos) << d;
}

TEST(DslDecls, CommentsAnywhere) {
  CheckedSpace s = ok(
      "// leading comment\nspace c; /* block\n comment */ set a; // trailing\n"
      "/**/ set /* inside */ b;\n/* * ** */\n");
  EXPECT_EQ(s.sets.size(), 2u);
}

// ------------------------------------------------------------------ clauses

TEST(DslClauses, ImplicationFactToChoiceValues) {
  Clause c = one_clause("require forall a, b in instr: depends(a, b) => order(a, b) is BEFORE;");
  ASSERT_EQ(c.vars.size(), 2u);
  EXPECT_EQ(c.vars[0].name, "a");
  EXPECT_EQ(c.vars[1].name, "b");
  EXPECT_EQ(c.vars[0].set, 0);
  EXPECT_EQ(c.vars[0].element_set, 0);
  EXPECT_EQ(c.vars[0].set_arg, -1);
  ASSERT_EQ(c.literals.size(), 2u);
  const Literal& fact = c.literals[0];
  EXPECT_EQ(fact.kind, Literal::Kind::Fact);
  EXPECT_TRUE(fact.negated);  // the premise is negated
  EXPECT_EQ(fact.args, (std::vector<VarIndex>{0, 1}));
  const Literal& is = c.literals[1];
  EXPECT_EQ(is.kind, Literal::Kind::ChoiceValues);
  EXPECT_EQ(is.args, (std::vector<VarIndex>{0, 1}));
  EXPECT_EQ(is.values, (std::vector<int>{0}));  // BEFORE
  EXPECT_EQ(c.loc.line, 22);
  EXPECT_EQ(c.loc.column, 1);
}

TEST(DslClauses, IsNotIsTheComplement) {
  Clause c = one_clause("require forall l in loop: kind(l) is not MULTI;");
  ASSERT_EQ(c.literals.size(), 1u);
  EXPECT_EQ(c.literals[0].kind, Literal::Kind::ChoiceValues);
  EXPECT_EQ(c.literals[0].values, (std::vector<int>{0, 3}));  // SERIAL, THREAD
}

TEST(DslClauses, NegatedPremiseAndDoubleNegation) {
  // not (kind is SERIAL) as a premise: the literal is kind is SERIAL.
  Clause c = one_clause(
      "require forall l in loop: not kind(l) is SERIAL => not not kind(l) is VECTOR;");
  ASSERT_EQ(c.literals.size(), 2u);
  EXPECT_EQ(c.literals[0].values, (std::vector<int>{0}));
  EXPECT_EQ(c.literals[1].values, (std::vector<int>{2}));
  // `is not` in a premise: positive again.
  Clause d = one_clause("require forall l in loop: kind(l) is not SERIAL => kind(l) is MULTI;");
  EXPECT_EQ(d.literals[0].values, (std::vector<int>{0}));
  EXPECT_EQ(d.literals[1].values, (std::vector<int>{1, 2}));
}

TEST(DslClauses, EnumInSet) {
  Clause c = one_clause("require forall l in loop: kind(l) in { THREAD, SERIAL };");
  EXPECT_EQ(c.literals.at(0).values, (std::vector<int>{0, 3}));
  Clause d = one_clause("require forall l in loop: not kind(l) in { MULTI };");
  EXPECT_EQ(d.literals.at(0).values, (std::vector<int>{0, 3}));
}

TEST(DslClauses, PremisesConjunctionConclusionsDisjunction) {
  Clause c = one_clause(
      "require forall a, b in loop: inner(a, b) and kind(a) is VECTOR => "
      "kind(b) is SERIAL or tile(b) == 1 or not inner(b, a);");
  ASSERT_EQ(c.literals.size(), 5u);
  EXPECT_EQ(c.literals[0].kind, Literal::Kind::Fact);
  EXPECT_TRUE(c.literals[0].negated);
  EXPECT_EQ(c.literals[1].kind, Literal::Kind::ChoiceValues);
  EXPECT_EQ(c.literals[1].values, (std::vector<int>{0, 1, 3}));  // not VECTOR
  EXPECT_EQ(c.literals[2].values, (std::vector<int>{0}));
  EXPECT_EQ(c.literals[3].kind, Literal::Kind::ChoiceCompare);
  EXPECT_EQ(c.literals[3].op, CompareOp::Eq);
  EXPECT_TRUE(c.literals[3].rhs_expr.is_constant);
  EXPECT_EQ(c.literals[3].rhs_expr.constant, 1);
  EXPECT_EQ(c.literals[4].kind, Literal::Kind::Fact);
  EXPECT_TRUE(c.literals[4].negated);
  EXPECT_EQ(c.literals[4].args, (std::vector<VarIndex>{1, 0}));
}

TEST(DslClauses, ChoiceCompareWithExpressions) {
  Clause c = one_clause("require forall l in loop: tile(l) <= extent(l);");
  const Literal& l = c.literals.at(0);
  EXPECT_EQ(l.kind, Literal::Kind::ChoiceCompare);
  EXPECT_EQ(l.choice, 3);
  EXPECT_EQ(l.args, (std::vector<VarIndex>{0}));
  EXPECT_EQ(l.op, CompareOp::Le);
  EXPECT_FALSE(l.rhs_expr.is_constant);
  EXPECT_EQ(l.rhs_expr.param, 1);
  EXPECT_EQ(l.rhs_expr.args, (std::vector<VarIndex>{0}));

  Clause scalar = one_clause("require forall l in loop: tile(l) < max_threads;");
  EXPECT_EQ(scalar.literals.at(0).rhs_expr.param, 2);
  EXPECT_TRUE(scalar.literals.at(0).rhs_expr.args.empty());
  Clause scalar_parens = one_clause("require forall l in loop: tile(l) < max_threads();");
  EXPECT_EQ(scalar_parens.literals.at(0).rhs_expr.param, 2);
}

TEST(DslClauses, ChoiceCompareNormalisation) {
  struct Case {
    const char* formula;
    CompareOp op;
  };
  const Case cases[] = {
      {"tile(l) == 4", CompareOp::Eq},    {"tile(l) != 4", CompareOp::Ne},
      {"tile(l) < 4", CompareOp::Lt},     {"tile(l) >= 4", CompareOp::Ge},
      {"not tile(l) < 4", CompareOp::Ge}, {"not tile(l) <= 4", CompareOp::Gt},
      {"not tile(l) > 4", CompareOp::Le}, {"not tile(l) >= 4", CompareOp::Lt},
      {"not tile(l) == 4", CompareOp::Ne}, {"not tile(l) != 4", CompareOp::Eq},
      {"4 < tile(l)", CompareOp::Gt},     {"4 <= tile(l)", CompareOp::Ge},
      {"4 == tile(l)", CompareOp::Eq},    {"not 4 > tile(l)", CompareOp::Ge},
      // As a premise the literal is negated.
      {"tile(l) > 4 => kind(l) is SERIAL", CompareOp::Le},
      {"not tile(l) > 4 => kind(l) is SERIAL", CompareOp::Gt},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.formula);
    Clause c = one_clause(std::string("require forall l in loop: ") + k.formula + ";");
    ASSERT_GE(c.literals.size(), 1u);
    EXPECT_EQ(c.literals[0].kind, Literal::Kind::ChoiceCompare);
    EXPECT_EQ(c.literals[0].op, k.op);
    EXPECT_EQ(c.literals[0].rhs_expr.constant, 4);
  }
}

TEST(DslClauses, IntInSetIsADisjunctionOrSplitsTheClause) {
  Clause c = one_clause("require forall l in loop: tile(l) in { 1, 2, max_threads };");
  ASSERT_EQ(c.literals.size(), 3u);
  for (const Literal& l : c.literals) {
    EXPECT_EQ(l.kind, Literal::Kind::ChoiceCompare);
    EXPECT_EQ(l.op, CompareOp::Eq);
  }
  EXPECT_EQ(c.literals[1].rhs_expr.constant, 2);
  EXPECT_FALSE(c.literals[2].rhs_expr.is_constant);

  // tile in {1, 2} => VECTOR  ==  (tile != 1 or VECTOR) and (tile != 2 or VECTOR)
  CheckedSpace s = ok(kPrelude +
                      "require forall l in loop: tile(l) in { 1, 2 } => kind(l) is VECTOR;");
  ASSERT_EQ(s.clauses.size(), 2u);
  for (int i = 0; i < 2; ++i) {
    ASSERT_EQ(s.clauses[i].literals.size(), 2u);
    EXPECT_EQ(s.clauses[i].literals[0].op, CompareOp::Ne);
    EXPECT_EQ(s.clauses[i].literals[0].rhs_expr.constant, i + 1);
    EXPECT_EQ(s.clauses[i].literals[1].kind, Literal::Kind::ChoiceValues);
  }
}

TEST(DslClauses, ChoiceRelations) {
  Clause e = one_clause("require forall a, b in loop: inner(a, b) => kind(a) == kind(b);");
  const Literal& l = e.literals.at(1);
  EXPECT_EQ(l.kind, Literal::Kind::ChoiceRelation);
  EXPECT_EQ(l.op, CompareOp::Eq);
  EXPECT_EQ(l.choice, 0);
  EXPECT_EQ(l.args, (std::vector<VarIndex>{0}));
  EXPECT_EQ(l.rhs_choice, 0);
  EXPECT_EQ(l.rhs_args, (std::vector<VarIndex>{1}));

  Clause ne = one_clause("require forall a, b in loop: inner(a, b) => not kind(a) == kind(b);");
  EXPECT_EQ(ne.literals.at(1).op, CompareOp::Ne);

  Clause ints = one_clause("require forall a in loop: unroll(a) <= tile(a);");
  EXPECT_EQ(ints.literals.at(0).kind, Literal::Kind::ChoiceRelation);
  EXPECT_EQ(ints.literals.at(0).op, CompareOp::Le);
  EXPECT_EQ(ints.literals.at(0).choice, 4);
  EXPECT_EQ(ints.literals.at(0).rhs_choice, 3);

  Clause premise = one_clause("require forall a in loop: unroll(a) < tile(a) => kind(a) is SERIAL;");
  EXPECT_EQ(premise.literals.at(0).op, CompareOp::Ge);
}

TEST(DslClauses, StaticCompareAndObjectCompare) {
  Clause c = one_clause(
      "require forall a, b in loop: a != b and extent(a) > 1 => tile(a) == 2 or a == b;");
  ASSERT_EQ(c.literals.size(), 4u);
  EXPECT_EQ(c.literals[0].kind, Literal::Kind::ObjectCompare);
  EXPECT_EQ(c.literals[0].op, CompareOp::Eq);  // not (a != b)
  EXPECT_EQ(c.literals[0].lhs_var, 0);
  EXPECT_EQ(c.literals[0].rhs_var, 1);
  EXPECT_EQ(c.literals[1].kind, Literal::Kind::StaticCompare);
  EXPECT_EQ(c.literals[1].op, CompareOp::Le);  // not (extent > 1)
  EXPECT_FALSE(c.literals[1].lhs_expr.is_constant);
  EXPECT_EQ(c.literals[1].lhs_expr.param, 1);
  EXPECT_EQ(c.literals[1].rhs_expr.constant, 1);
  EXPECT_EQ(c.literals[3].kind, Literal::Kind::ObjectCompare);
  EXPECT_EQ(c.literals[3].op, CompareOp::Eq);

  Clause scalar = one_clause("require max_threads >= 32;");
  EXPECT_TRUE(scalar.vars.empty());
  EXPECT_EQ(scalar.literals.at(0).kind, Literal::Kind::StaticCompare);
}

TEST(DslClauses, FactPolarity) {
  Clause c = one_clause(
      "require forall a, b in instr: not depends(a, b) => not depends(b, a) or depends(a, a);");
  ASSERT_EQ(c.literals.size(), 3u);
  EXPECT_FALSE(c.literals[0].negated);
  EXPECT_TRUE(c.literals[1].negated);
  EXPECT_FALSE(c.literals[2].negated);
}

TEST(DslClauses, QuantifierOverParameterisedSet) {
  Clause c = one_clause(
      "require forall s in stage, l, m in loops(s): inner(l, m) => kind(l) is SERIAL;");
  ASSERT_EQ(c.vars.size(), 3u);
  EXPECT_EQ(c.vars[0].set, 1);
  EXPECT_EQ(c.vars[0].element_set, 1);
  for (int i = 1; i < 3; ++i) {
    EXPECT_EQ(c.vars[i].set, 4);          // loops
    EXPECT_EQ(c.vars[i].set_arg, 0);      // s
    EXPECT_EQ(c.vars[i].element_set, 2);  // loop
  }
  EXPECT_EQ(c.vars[2].name, "m");
}

TEST(DslClauses, TautologiesAreDropped) {
  CheckedSpace s = ok(kPrelude + "require forall l in loop: kind(l) is not MULTI or kind(l) is MULTI or tile(l) == 2;\n"
                                 "require forall l in loop: kind(l) in { SERIAL, PARALLEL, VECTOR, THREAD };\n");
  // The first is not a tautology syntactically (two literals); the second is.
  EXPECT_EQ(s.clauses.size(), 1u);
}

TEST(DslClauses, ClausesKeepLiteralLocations) {
  Clause c = one_clause("require forall a, b in instr: depends(a, b) =>\n  order(a, b) is BEFORE;");
  EXPECT_EQ(c.literals.at(0).loc.line, 22);
  EXPECT_EQ(c.literals.at(0).loc.column, 31);
  EXPECT_EQ(c.literals.at(1).loc.line, 23);
  EXPECT_EQ(c.literals.at(1).loc.column, 3);
}

// ------------------------------------------------------------------ counters

TEST(DslCounters, ProductWithConditionAndChoiceTerm) {
  CheckedSpace s = ok(kPrelude +
                      "counter threads(k: kernel) = product(l in kernel_loops(k) where kind(l) "
                      "is THREAD) tile(l);\n");
  ASSERT_EQ(s.counters.size(), 1u);
  const CounterDecl& c = s.counters[0];
  EXPECT_EQ(c.name, "threads");
  EXPECT_EQ(c.op, CounterOp::Product);
  ASSERT_EQ(c.formals.size(), 1u);
  EXPECT_EQ(c.formals[0].set, find(s.sets, "kernel"));
  ASSERT_EQ(c.iteration.size(), 1u);
  EXPECT_EQ(c.iteration[0].name, "l");
  EXPECT_EQ(c.iteration[0].set, find(s.sets, "kernel_loops"));
  EXPECT_EQ(c.iteration[0].set_arg, 0);  // the formal k
  EXPECT_EQ(c.iteration[0].element_set, find(s.sets, "loop"));
  ASSERT_EQ(c.condition.size(), 1u);
  EXPECT_EQ(c.condition[0].kind, Literal::Kind::ChoiceValues);
  EXPECT_EQ(c.condition[0].args, (std::vector<VarIndex>{1}));  // numbered after the formals
  EXPECT_EQ(c.condition[0].values, (std::vector<int>{3}));
  EXPECT_TRUE(c.value_is_choice);
  EXPECT_EQ(c.value_choice, find(s.choices, "tile"));
  EXPECT_EQ(c.value_args, (std::vector<VarIndex>{1}));
}

TEST(DslCounters, SumOfConstantAndParam) {
  CheckedSpace s = ok(kPrelude +
                      "counter vectors(s: stage) = sum(l in loops(s) where kind(l) is VECTOR) 1;\n"
                      "counter total = sum(i in instr) latency(i);\n");
  const CounterDecl& v = s.counters[0];
  EXPECT_EQ(v.op, CounterOp::Sum);
  EXPECT_FALSE(v.value_is_choice);
  EXPECT_TRUE(v.value_expr.is_constant);
  EXPECT_EQ(v.value_expr.constant, 1);
  const CounterDecl& t = s.counters[1];
  EXPECT_TRUE(t.formals.empty());
  EXPECT_TRUE(t.condition.empty());
  EXPECT_FALSE(t.value_expr.is_constant);
  EXPECT_EQ(t.value_expr.param, find(s.params, "latency"));
  EXPECT_EQ(t.value_expr.args, (std::vector<VarIndex>{0}));
}

TEST(DslCounters, ConditionsStaticAndNegated) {
  CheckedSpace s = ok(kPrelude +
                      "counter c(s: stage) = sum(l, m in loops(s) where l != m and inner(l, m) and "
                      "not kind(l) is SERIAL and tile(m) >= 4 and extent(l) > 2 and not tile(l) "
                      "in {1, 2}) 1;\n");
  const CounterDecl& c = s.counters.at(0);
  ASSERT_EQ(c.iteration.size(), 2u);
  ASSERT_EQ(c.condition.size(), 7u);
  EXPECT_EQ(c.condition[0].kind, Literal::Kind::ObjectCompare);
  EXPECT_EQ(c.condition[0].op, CompareOp::Ne);
  EXPECT_EQ(c.condition[1].kind, Literal::Kind::Fact);
  EXPECT_FALSE(c.condition[1].negated);
  EXPECT_EQ(c.condition[2].kind, Literal::Kind::ChoiceValues);
  EXPECT_EQ(c.condition[2].values, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(c.condition[3].kind, Literal::Kind::ChoiceCompare);
  EXPECT_EQ(c.condition[3].op, CompareOp::Ge);
  EXPECT_EQ(c.condition[4].kind, Literal::Kind::StaticCompare);
  EXPECT_EQ(c.condition[5].op, CompareOp::Ne);  // not in {1, 2}: != 1 and != 2
  EXPECT_EQ(c.condition[6].op, CompareOp::Ne);
  EXPECT_EQ(c.condition[6].rhs_expr.constant, 2);
}

TEST(DslCounters, Bounds) {
  CheckedSpace s = ok(
                      kPrelude +
                      "counter threads(k: kernel) = product(l in kernel_loops(k) where kind(l) "
                      "is THREAD) tile(l);\n"
                      "counter total = sum(i in instr) latency(i);\n"
                      "require forall k in kernel: threads(k) <= max_threads;\n"
                      "require forall k in kernel: 32 < threads(k);\n"
                      "require forall k in kernel: not threads(k) > 1024;\n"
                      "require total == 100;\n");
  EXPECT_TRUE(s.clauses.empty());
  ASSERT_EQ(s.counter_bounds.size(), 4u);
  const CounterBound& b = s.counter_bounds[0];
  ASSERT_EQ(b.vars.size(), 1u);
  EXPECT_EQ(b.vars[0].element_set, find(s.sets, "kernel"));
  EXPECT_EQ(b.counter, 0);
  EXPECT_EQ(b.args, (std::vector<VarIndex>{0}));
  EXPECT_EQ(b.op, CompareOp::Le);
  EXPECT_FALSE(b.bound.is_constant);
  EXPECT_EQ(b.bound.param, find(s.params, "max_threads"));
  EXPECT_EQ(s.counter_bounds[1].op, CompareOp::Gt);  // 32 < threads(k)
  EXPECT_EQ(s.counter_bounds[1].bound.constant, 32);
  EXPECT_EQ(s.counter_bounds[2].op, CompareOp::Le);  // not threads(k) > 1024
  EXPECT_EQ(s.counter_bounds[2].bound.constant, 1024);
  EXPECT_TRUE(s.counter_bounds[3].vars.empty());
  EXPECT_EQ(s.counter_bounds[3].counter, 1);
  EXPECT_EQ(s.counter_bounds[3].op, CompareOp::Eq);
}

// ------------------------------------------------------------------ includes

TEST(DslIncludes, ResolvedRelativeToTheIncluder) {
  Files files = {
      {"lib/common.space", "set instr;\ninclude \"sub/enums.space\";\n"},
      {"lib/sub/enums.space", "enum Order { BEFORE, AFTER }\n"},
  };
  CheckedSpace s = ok(
      "space inc;\ninclude \"lib/common.space\";\n"
      "choice order(a: instr, b: instr) : Order antisymmetric { BEFORE <-> AFTER };\n",
      files);
  EXPECT_EQ(s.files, (std::vector<std::string>{"main.space", "lib/common.space",
                                               "lib/sub/enums.space"}));
  EXPECT_EQ(s.sets.at(0).loc.file, "lib/common.space");
  EXPECT_EQ(s.enums.at(0).loc.file, "lib/sub/enums.space");
  EXPECT_EQ(s.choices.at(0).loc.file, "main.space");
}

TEST(DslIncludes, TextualOrder) {
  // Declarations of an included file come at the point of the include.
  std::string diags = fails("space inc;\nset a;\ninclude \"b.space\";\n",
                            {{"b.space", "fact f(x: a, y: later);\n"}});
  EXPECT_NE(diags.find("b.space:1:17: error: unknown set 'later'"), std::string::npos) << diags;
}

TEST(DslIncludes, EachFileOnce) {
  // A diamond: main includes common and a; a includes common again.
  Files files = {
      {"common.space", "set instr;\n"},
      {"a.space", "include \"common.space\";\nfact f(x: instr);\n"},
  };
  CheckedSpace s = ok("space d;\ninclude \"common.space\";\ninclude \"a.space\";\n", files);
  EXPECT_EQ(s.sets.size(), 1u);
  EXPECT_EQ(s.facts.size(), 1u);
  EXPECT_EQ(s.files, (std::vector<std::string>{"main.space", "common.space", "a.space"}));
}

TEST(DslIncludes, Errors) {
  std::string missing = fails("space inc;\ninclude \"nope.space\";\n");
  EXPECT_NE(missing.find("main.space:2:9: error: cannot open included file 'nope.space'"),
            std::string::npos)
      << missing;
  std::string self = fails("space inc;\ninclude \"main.space\";\n",
                           {{"main.space", "set x;\n"}});
  EXPECT_NE(self.find("main.space:2:9: error: include cycle: main.space -> main.space"),
            std::string::npos)
      << self;
  std::string cycle = fails("space inc;\ninclude \"a.space\";\n",
                            {{"a.space", "include \"b.space\";\n"},
                             {"b.space", "set b;\ninclude \"a.space\";\n"}});
  EXPECT_NE(cycle.find("b.space:2:9: error: include cycle: a.space -> b.space -> a.space"),
            std::string::npos)
      << cycle;
  std::string syntax = fails("space inc;\ninclude \"a.space\";\nset ok;\n",
                             {{"a.space", "set ;\n"}});
  EXPECT_NE(syntax.find("a.space:1:5: error: syntax error, unexpected ';', expecting identifier"),
            std::string::npos)
      << syntax;
}

TEST(DslIncludes, FromDisk) {
  DiagnosticSink sink;
  std::string dir = CANDOR_DSL_TEST_DIR;
  std::optional<CheckedSpace> s = load_space(dir + "/specs/full.space", sink);
  ASSERT_TRUE(s.has_value()) << sink.str();
  EXPECT_EQ(s->name, "full_example");
  ASSERT_EQ(s->files.size(), 2u);
  EXPECT_EQ(s->files[1], dir + "/specs/full_common.space");
  EXPECT_GE(s->clauses.size(), 1u);
  EXPECT_EQ(s->counter_bounds.size(), 2u);

  DiagnosticSink missing;
  EXPECT_FALSE(load_space(dir + "/specs/no_such_file.space", missing).has_value());
  EXPECT_NE(missing.str().find("error: cannot open file"), std::string::npos);
}

// ------------------------------------------------------------------ diagnostics

TEST(DslDiagnostics, Format) {
  EXPECT_EQ(format_diagnostic({Severity::Error, {"a.space", 3, 7}, "oops"}),
            "a.space:3:7: error: oops");
  EXPECT_EQ(format_diagnostic({Severity::Note, {"a.space", 1, 1}, "here"}),
            "a.space:1:1: note: here");
  EXPECT_EQ(format_diagnostic({Severity::Error, {"a.space", 0, 0}, "gone"}),
            "a.space: error: gone");
}

TEST(DslDiagnostics, AllErrorsAreCollected) {
  DiagnosticSink sink;
  std::optional<CheckedSpace> s = load(
      "space many;\nset x;\nfact f(a: y);\nchoice c(a: x) : NoEnum;\nparam p(a: z);\n", sink);
  EXPECT_FALSE(s.has_value());
  EXPECT_EQ(sink.error_count(), 3u);
  ASSERT_EQ(sink.diagnostics().size(), 3u);
  EXPECT_EQ(format_diagnostic(sink.diagnostics()[0]), "main.space:3:11: error: unknown set 'y'");
  EXPECT_EQ(format_diagnostic(sink.diagnostics()[1]),
            "main.space:4:18: error: unknown enum 'NoEnum'");
  EXPECT_EQ(format_diagnostic(sink.diagnostics()[2]), "main.space:5:12: error: unknown set 'z'");
}

TEST(DslDiagnostics, SyntaxErrorsReadWell) {
  std::string d = fails("space s;\nset a\n");
  EXPECT_NE(d.find("main.space:3:1: error: syntax error, unexpected end of file, expecting ';' or '('"),
            std::string::npos)
      << d;
  d = fails("space s;\nfact f(a: x;\n");
  EXPECT_NE(d.find("main.space:2:12: error: syntax error, unexpected ';', expecting ',' or ')'"),
            std::string::npos)
      << d;
}

TEST(DslDiagnostics, EchoStream) {
  std::ostringstream echo;
  DiagnosticSink sink(&echo);
  load("set x;\n", sink);
  EXPECT_EQ(echo.str(), "main.space:1:1: error: a space file must begin with 'space NAME;'\n");
}

TEST(DslDiagnostics, SemanticErrorMessages) {
  struct Case {
    std::string spec;
    std::string message;
  };
  const Case cases[] = {
      {"require forall l in loop: kind(l) is FOO;",
       "23:38: error: enum 'Kind' has no value or alias named 'FOO'"},
      {"require forall l in loop: tile(l) is SERIAL;",
       "23:38: error: 'is' needs an enum choice, but 'tile' is an int choice"},
      {"require forall l in loop: kind(l) > 2;",
       "23:35: error: cannot compare enum choice 'kind' with an integer"},
      {"require forall a in instr, l in loop: kind(a) is SERIAL or l == l;",
       "23:44: error: argument 1 of choice 'kind' must be of set 'loop', but 'a' is of set 'instr'"},
      {"require forall a, b in instr: order(a) is BEFORE;",
       "23:31: error: choice 'order' expects 2 arguments, got 1"},
      {"require forall l in loops(q): kind(l) is SERIAL;",
       "23:27: error: the argument of 'loops' must be a variable bound by an earlier quantifier"},
      {"require forall l, m in loop: kind(l) is SERIAL;",
       "23:19: error: variable 'm' is never used"},
      {"require forall l in loop: kind(m) is SERIAL;", "23:32: error: unknown variable 'm'"},
      {"choice kind(l: loop) : Kind;", "23:8: error: redefinition of 'kind' (already declared as a choice)"},
      {"counter c(k: kernel) = sum(l in loop) kind(l);",
       "23:39: error: a counter term must be an integer, but 'kind' is an enum choice"},
      {"counter c(k: kernel) = sum(l in loop) 1;",
       "23:11: error: formal 'k' of counter 'c' is never used"},
      {"counter c = sum(l in loop where tile(l) in {1, 2}) 1;",
       "23:33: error: a counter condition must be a conjunction"},
      {"require forall a, b in stage: fused(a, b) is YES => kind(a) is SERIAL;",
       "23:58: error: argument 1 of choice 'kind' must be of set 'loop', but 'a' is of set 'stage'"},
      {"require forall l in loop: l;", "23:27: error: variable 'l' is not a condition"},
      {"require forall stage in stage: max_threads > 1;",
       "23:16: error: variable 'stage' has the name of a set"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.spec);
    std::string d = fails(kPrelude + "set unused_filler;\n" + c.spec + "\n");
    EXPECT_NE(d.find("main.space:" + c.message), std::string::npos) << d;
  }
}

TEST(DslDiagnostics, ConstantLiterals) {
  // Premise and conclusion both always false: no binding can satisfy it.
  std::string d = fails(kPrelude +
                        "require forall l in loop: kind(l) in { SERIAL, MULTI, THREAD } => "
                        "not kind(l) in { SERIAL, MULTI, THREAD };\n");
  EXPECT_NE(d.find("main.space:22:1: error: this constraint can never be satisfied"),
            std::string::npos) << d;
  // A premise that never holds makes the constraint vacuous: no clause.
  CheckedSpace s = ok(kPrelude +
                      "require forall l in loop: not kind(l) in { SERIAL, MULTI, THREAD } => "
                      "tile(l) == 1;\n");
  EXPECT_TRUE(s.clauses.empty());
}

// ------------------------------------------------------------------ robustness

TEST(DslRobustness, EveryPrefixOfAValidSpecIsHandled) {
  // No crash, and either a checked space or at least one error, for every truncation.
  std::string text = kPrelude +
                     "counter threads(k: kernel) = product(l in kernel_loops(k) where kind(l) "
                     "is THREAD) tile(l);\n"
                     "require forall k in kernel: threads(k) <= max_threads;\n"
                     "require forall a, b in instr: depends(a, b) => order(a, b) is BEFORE;\n"
                     "/* done */ // end\n";
  for (std::size_t n = 0; n <= text.size(); ++n) {
    DiagnosticSink sink;
    std::optional<CheckedSpace> s = load(text.substr(0, n), sink);
    EXPECT_NE(s.has_value(), sink.has_errors()) << "prefix of length " << n;
  }
}

TEST(DslRobustness, ManyParsesInOneProcess) {
  for (int i = 0; i < 200; ++i) {
    CheckedSpace s = ok("space s" + std::to_string(i) + ";\nset x;\n");
    ASSERT_EQ(s.name, "s" + std::to_string(i));
  }
}

TEST(DslRobustness, GarbageInput) {
  const char* inputs[] = {"", "\n\n", "space", "space ;", "}}}}", "space s; set x; /*",
                          "space s;\n\"abc", "space s; \x01\xff", "space s; require;",
                          "space s; require forall : x;", "space s; enum E {}",
                          "space s; set x; require forall a in x: a == a == a;",
                          "space s; param p; require p < 99999999999999999999;"};
  for (const char* in : inputs) {
    SCOPED_TRACE(in);
    DiagnosticSink sink;
    EXPECT_FALSE(load(in, sink).has_value());
    EXPECT_TRUE(sink.has_errors());
  }
}

TEST(DslNames, CppIdentifiers) {
  EXPECT_TRUE(is_usable_cpp_identifier("order"));
  EXPECT_TRUE(is_usable_cpp_identifier("_x"));
  EXPECT_FALSE(is_usable_cpp_identifier("class"));
  EXPECT_FALSE(is_usable_cpp_identifier("_Reserved"));
  EXPECT_FALSE(is_usable_cpp_identifier("a__b"));
  EXPECT_NE(fails("space int_;\nset delete;\n").find("main.space:2:5: error: 'delete' cannot name a set"),
            std::string::npos);
}

}  // namespace
}  // namespace candor::dsl
