// The host target from CPUID: flags parsing and decoding, the Halide feature requirements
// (checked against what Halide 14 generates), the targets of the machine classes in
// tests/machines, and the host's own target, JIT-compiled and run here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "compile.h"
#include "cpu_features.h"
#include "error.h"
#include "tests/scoped_env.h"

namespace candor::halide_bridge {
namespace {

using Feature = Halide::Target::Feature;

std::string machine_file(const std::string& name) { return std::string(CANDOR_MACHINES_DIR) + "/" + name + ".cpuflags"; }

// The x86 features of a target, by Halide's names.
std::set<std::string> x86_features(const Halide::Target& t) {
  std::set<std::string> names;
  for (const X86FeatureRequirement& r : x86_feature_requirements())
    if (t.has_feature(r.feature)) names.insert(Halide::Target::feature_to_name(r.feature));
  return names;
}

const X86FeatureRequirement& requirement(Feature f) {
  for (const X86FeatureRequirement& r : x86_feature_requirements())
    if (r.feature == f) return r;
  throw std::runtime_error("no requirement for " + Halide::Target::feature_to_name(f));
}

const Halide::Target kBase("x86-64-linux");

// Expected x86 features, by Halide's names.
const std::set<std::string> kAvx2 = {"sse41", "avx", "f16c", "fma", "avx2"};
const std::set<std::string> kCannonlake = {"sse41", "avx",    "f16c",           "fma",
                                           "avx2",  "avx512", "avx512_skylake", "avx512_cannonlake"};
const std::set<std::string> kSapphireRapids = {"sse41",  "avx",           "f16c",
                                               "fma",    "avx2",          "avx512",
                                               "avx512_skylake", "avx512_cannonlake", "avx512_sapphirerapids"};

// ---- Flags lines ----------------------------------------------------------------------------

TEST(CpuFlags, ParsesProcCpuinfoLineAndBareList) {
  const CpuFeatures f = parse_cpu_flags("flags\t\t: fpu  sse4_1 avx2\tavx512_fp16 \n");
  EXPECT_EQ(f.flags(), (std::set<std::string>{"fpu", "sse4_1", "avx2", "avx512_fp16"}));
  EXPECT_EQ(parse_cpu_flags("avx avx2"), CpuFeatures({"avx", "avx2"}));
  EXPECT_TRUE(parse_cpu_flags("flags :").flags().empty());
  EXPECT_TRUE(f.has_all({"fpu", "avx2"}));
  EXPECT_FALSE(f.has_all({"fpu", "avx"}));
  EXPECT_EQ(f.to_string(), "avx2 avx512_fp16 fpu sse4_1");
}

TEST(CpuFlags, FileSkipsCommentsAndFailsWithoutALine) {
  const auto dir = std::filesystem::temp_directory_path() / ("candor_cpuflags_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string good = (dir / "good.cpuflags").string(), empty = (dir / "empty.cpuflags").string();
  std::ofstream(good) << "# source: nowhere\n\nflags\t\t: sse2 avx\n";
  std::ofstream(empty) << "# only a comment\n\n";
  EXPECT_EQ(read_cpu_flags_file(good), CpuFeatures({"sse2", "avx"}));
  EXPECT_THROW(read_cpu_flags_file(empty), BridgeError);
  EXPECT_THROW(read_cpu_flags_file((dir / "absent").string()), BridgeError);
  std::filesystem::remove_all(dir);
}

// ---- CPUID decoding -------------------------------------------------------------------------

// Registers built bit by bit from the Intel SDM / AMD APM CPUID tables, independently of the
// decoder's own table.
struct RegisterBuilder {
  CpuidRegisters r;
  RegisterBuilder() {
    r.max_leaf = 0x10;
    r.leaf7_max_subleaf = 1;
    r.max_extended_leaf = 0x80000008u;
  }
  RegisterBuilder& set(const std::string& flag) {
    static const std::map<std::string, std::pair<uint32_t CpuidRegisters::*, int>> bits = {
        {"sse", {&CpuidRegisters::leaf1_edx, 25}},        {"sse2", {&CpuidRegisters::leaf1_edx, 26}},
        {"pni", {&CpuidRegisters::leaf1_ecx, 0}},         {"ssse3", {&CpuidRegisters::leaf1_ecx, 9}},
        {"fma", {&CpuidRegisters::leaf1_ecx, 12}},        {"cx16", {&CpuidRegisters::leaf1_ecx, 13}},
        {"sse4_1", {&CpuidRegisters::leaf1_ecx, 19}},     {"sse4_2", {&CpuidRegisters::leaf1_ecx, 20}},
        {"movbe", {&CpuidRegisters::leaf1_ecx, 22}},      {"popcnt", {&CpuidRegisters::leaf1_ecx, 23}},
        {"xsave", {&CpuidRegisters::leaf1_ecx, 26}},      {"osxsave", {&CpuidRegisters::leaf1_ecx, 27}},
        {"avx", {&CpuidRegisters::leaf1_ecx, 28}},        {"f16c", {&CpuidRegisters::leaf1_ecx, 29}},
        {"rdrand", {&CpuidRegisters::leaf1_ecx, 30}},     {"bmi1", {&CpuidRegisters::leaf7_ebx, 3}},
        {"avx2", {&CpuidRegisters::leaf7_ebx, 5}},        {"bmi2", {&CpuidRegisters::leaf7_ebx, 8}},
        {"avx512f", {&CpuidRegisters::leaf7_ebx, 16}},    {"avx512dq", {&CpuidRegisters::leaf7_ebx, 17}},
        {"avx512ifma", {&CpuidRegisters::leaf7_ebx, 21}}, {"avx512cd", {&CpuidRegisters::leaf7_ebx, 28}},
        {"avx512bw", {&CpuidRegisters::leaf7_ebx, 30}},   {"avx512vl", {&CpuidRegisters::leaf7_ebx, 31}},
        {"avx512vbmi", {&CpuidRegisters::leaf7_ecx, 1}},  {"avx512_vbmi2", {&CpuidRegisters::leaf7_ecx, 6}},
        {"gfni", {&CpuidRegisters::leaf7_ecx, 8}},        {"avx512_vnni", {&CpuidRegisters::leaf7_ecx, 11}},
        {"avx512_bitalg", {&CpuidRegisters::leaf7_ecx, 12}},
        {"avx512_vpopcntdq", {&CpuidRegisters::leaf7_ecx, 14}},
        {"amx_bf16", {&CpuidRegisters::leaf7_edx, 22}},   {"avx512_fp16", {&CpuidRegisters::leaf7_edx, 23}},
        {"amx_tile", {&CpuidRegisters::leaf7_edx, 24}},   {"amx_int8", {&CpuidRegisters::leaf7_edx, 25}},
        {"avx_vnni", {&CpuidRegisters::leaf7_1_eax, 4}},  {"avx512_bf16", {&CpuidRegisters::leaf7_1_eax, 5}},
        {"lahf_lm", {&CpuidRegisters::ext1_ecx, 0}},      {"abm", {&CpuidRegisters::ext1_ecx, 5}},
        {"3dnowprefetch", {&CpuidRegisters::ext1_ecx, 8}},
    };
    const auto& [field, bit] = bits.at(flag);
    r.*field |= 1u << bit;
    return *this;
  }
  RegisterBuilder& set_all(const std::vector<std::string>& flags) {
    for (const std::string& f : flags) set(f);
    return *this;
  }
};

// A Zen 4 as CPUID shows it: Halide's own detection names Sapphire Rapids for it (AVX-512 with
// VNNI and BF16).
RegisterBuilder zen4_registers() {
  RegisterBuilder b;
  b.set_all({"sse", "sse2", "pni", "ssse3", "fma", "cx16", "sse4_1", "sse4_2", "movbe", "popcnt", "xsave", "osxsave",
             "avx", "f16c", "rdrand", "bmi1", "avx2", "bmi2", "avx512f", "avx512dq", "avx512ifma", "avx512cd",
             "avx512bw", "avx512vl", "avx512vbmi", "avx512_vbmi2", "gfni", "avx512_vnni", "avx512_bitalg",
             "avx512_vpopcntdq", "avx512_bf16", "lahf_lm", "abm", "3dnowprefetch"});
  b.r.xcr0 = 0xE7;  // x87, SSE, AVX, opmask, ZMM_Hi256, Hi16_ZMM
  return b;
}

TEST(DecodeCpuid, Zen4RegistersGiveCannonlakeNotSapphireRapids) {
  const CpuFeatures f = decode_cpuid(zen4_registers().r);
  EXPECT_TRUE(f.has_all({"avx2", "avx512f", "avx512vbmi", "avx512_bf16", "avx512_vnni", "abm", "lahf_lm"}))
      << f.to_string();
  EXPECT_FALSE(f.has("avx512_fp16"));
  EXPECT_EQ(x86_features(target_for(f, kBase)), kCannonlake);
}

TEST(DecodeCpuid, SapphireRapidsNeedsTileStateForAmx) {
  RegisterBuilder b = zen4_registers();
  b.set_all({"avx512_fp16", "avx_vnni", "amx_tile", "amx_int8", "amx_bf16"});
  b.r.xcr0 = 0x600E7;  // plus XTILECFG and XTILEDATA
  EXPECT_EQ(x86_features(target_for(decode_cpuid(b.r), kBase)), kSapphireRapids);
  b.r.xcr0 = 0xE7;  // an OS that does not enable AMX tile state
  const CpuFeatures no_tiles = decode_cpuid(b.r);
  EXPECT_FALSE(no_tiles.has("amx_tile"));
  EXPECT_TRUE(no_tiles.has("avx512_fp16"));
  EXPECT_EQ(x86_features(target_for(no_tiles, kBase)), kCannonlake);
}

TEST(DecodeCpuid, NoOsAvxStateMeansNoAvx) {
  RegisterBuilder b = zen4_registers();
  b.r.xcr0 = 0x3;  // x87 and SSE only: the OS saves no YMM or ZMM state
  CpuFeatures f = decode_cpuid(b.r);
  for (const char* flag : {"avx", "avx2", "fma", "f16c", "avx512f", "avx512_bf16"}) EXPECT_FALSE(f.has(flag)) << flag;
  EXPECT_TRUE(f.has_all({"sse4_2", "popcnt", "bmi2", "abm"}));
  EXPECT_EQ(x86_features(target_for(f, kBase)), (std::set<std::string>{"sse41"}));

  // Without OSXSAVE, XCR0 cannot be read at all, whatever the register holds.
  b.r.xcr0 = 0xE7;
  b.r.leaf1_ecx &= ~(1u << 27);
  EXPECT_EQ(x86_features(target_for(decode_cpuid(b.r), kBase)), (std::set<std::string>{"sse41"}));
}

TEST(DecodeCpuid, YmmWithoutZmmStateStopsAtAvx2) {
  RegisterBuilder b = zen4_registers();
  b.r.xcr0 = 0x7;  // an OS (or hypervisor) that saves YMM but not the AVX-512 state
  const CpuFeatures f = decode_cpuid(b.r);
  EXPECT_TRUE(f.has("avx2"));
  EXPECT_FALSE(f.has("avx512f"));
  EXPECT_EQ(x86_features(target_for(f, kBase)), kAvx2);
}

TEST(DecodeCpuid, LeavesBeyondTheMaximumReadAsAbsent) {
  RegisterBuilder b = zen4_registers();
  b.r.leaf7_max_subleaf = 0;  // subleaf 1 absent: its stale register is ignored
  EXPECT_FALSE(decode_cpuid(b.r).has("avx512_bf16"));
  b.r.max_leaf = 6;  // leaf 7 absent
  EXPECT_FALSE(decode_cpuid(b.r).has("avx2"));
  EXPECT_TRUE(decode_cpuid(b.r).has("avx"));
  b.r.max_extended_leaf = 0x80000000u;
  EXPECT_FALSE(decode_cpuid(b.r).has("abm"));
}

// ---- The requirement table ------------------------------------------------------------------

TEST(RequirementTable, CoversEveryHalide14X86FeatureOnce) {
  // Halide 14's Target::Feature x86 entries.
  const std::set<Feature> halide_x86 = {Feature::SSE41,          Feature::AVX,
                                        Feature::AVX2,           Feature::FMA,
                                        Feature::FMA4,           Feature::F16C,
                                        Feature::AVX512,         Feature::AVX512_KNL,
                                        Feature::AVX512_Skylake, Feature::AVX512_Cannonlake,
                                        Feature::AVX512_SapphireRapids};
  std::set<Feature> table;
  for (const X86FeatureRequirement& r : x86_feature_requirements()) EXPECT_TRUE(table.insert(r.feature).second);
  EXPECT_EQ(table, halide_x86);
}

// A feature's flags include those of the features Halide builds it on (CodeGen_X86 assumes
// e.g. AVX2 wherever AVX-512 is named), and every instruction set Halide adds in mattrs.
TEST(RequirementTable, FlagsIncludeBaseFeaturesAndMattrs) {
  const std::vector<std::pair<Feature, Feature>> builds_on = {
      {Feature::AVX, Feature::SSE41},
      {Feature::F16C, Feature::AVX},
      {Feature::FMA, Feature::AVX},
      {Feature::FMA4, Feature::AVX},
      {Feature::AVX2, Feature::FMA},
      {Feature::AVX2, Feature::F16C},
      {Feature::AVX512, Feature::AVX2},
      {Feature::AVX512_KNL, Feature::AVX512},
      {Feature::AVX512_Skylake, Feature::AVX512},
      {Feature::AVX512_Cannonlake, Feature::AVX512_Skylake},
      {Feature::AVX512_SapphireRapids, Feature::AVX512_Cannonlake},
  };
  for (const auto& [f, base] : builds_on)
    EXPECT_TRUE(CpuFeatures({requirement(f).flags.begin(), requirement(f).flags.end()}).has_all(requirement(base).flags))
        << Halide::Target::feature_to_name(f) << " lacks flags of " << Halide::Target::feature_to_name(base);

  // LLVM feature names to /proc/cpuinfo names.
  const std::map<std::string, std::string> cpuinfo_name = {
      {"fma", "fma"},           {"fma4", "fma4"},         {"f16c", "f16c"},          {"avx512f", "avx512f"},
      {"avx512cd", "avx512cd"}, {"avx512pf", "avx512pf"}, {"avx512er", "avx512er"},  {"avx512vl", "avx512vl"},
      {"avx512bw", "avx512bw"}, {"avx512dq", "avx512dq"}, {"avx512ifma", "avx512ifma"}, {"avx512vbmi", "avx512vbmi"},
      {"avx512bf16", "avx512_bf16"}, {"avx512vnni", "avx512_vnni"}, {"amx-int8", "amx_int8"}, {"amx-bf16", "amx_bf16"},
  };
  for (const X86FeatureRequirement& r : x86_feature_requirements()) {
    std::stringstream attrs(r.mattrs);
    for (std::string a; std::getline(attrs, a, ',');) {
      ASSERT_EQ(a.front(), '+');
      const std::string flag = cpuinfo_name.at(a.substr(1));
      EXPECT_TRUE(CpuFeatures({r.flags.begin(), r.flags.end()}).has(flag))
          << Halide::Target::feature_to_name(r.feature) << " lacks " << flag;
    }
  }
  EXPECT_EQ(requirement(Feature::AVX512_SapphireRapids).mcpu, "sapphirerapids");
  EXPECT_EQ(requirement(Feature::AVX512_Cannonlake).mcpu, "cannonlake");
  EXPECT_EQ(requirement(Feature::AVX2).mcpu, "haswell");
}

// Codegen never needs rdrand (Halide's host detection demands it for AVX), nor the
// instruction sets LLVM emits only for intrinsics Halide never calls.
TEST(RequirementTable, LeavesOutWhatHalideCodeNeverExecutes) {
  for (const X86FeatureRequirement& r : x86_feature_requirements())
    for (const char* flag : {"rdrand", "rdseed", "aes", "pclmulqdq", "sha_ni", "pku", "avx512_vp2intersect",
                             "3dnowprefetch", "xsave", "osxsave", "hypervisor"})
      EXPECT_FALSE(CpuFeatures({r.flags.begin(), r.flags.end()}).has(flag))
          << Halide::Target::feature_to_name(r.feature) << " requires " << flag;
}

// ---- What Halide 14 generates: the evidence behind the table ---------------------------------

std::string assembly_of(Halide::Func f, const std::vector<Halide::Argument>& args, const std::string& target,
                        const std::string& name) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("candor_cpu_features_" + name + "_" + std::to_string(::getpid()) + ".s");
  f.compile_to_assembly(path.string(), args, name, Halide::Target(target).with_feature(Feature::NoRuntime));
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  std::filesystem::remove(path);
  return s.str();
}

const char* kSprTarget = "x86-64-linux-sse41-avx-f16c-fma-avx2-avx512-avx512_skylake-avx512_cannonlake-avx512_sapphirerapids";
const char* kCnlTarget = "x86-64-linux-sse41-avx-f16c-fma-avx2-avx512-avx512_skylake-avx512_cannonlake";

// A 16-bit gather under the sapphirerapids mcpu uses vmovw, an AVX512-FP16 instruction (Zen 4
// and Zen 5 lack it: SIGILL); under cannonlake it does not.
TEST(HalideCodegen, SapphireRapidsGathersUseAvx512Fp16) {
  Halide::ImageParam lut(Halide::UInt(16), 1, "lut"), idx(Halide::UInt(8), 1, "idx");
  Halide::Var x("x");
  Halide::Func g("gather16");
  g(x) = lut(Halide::cast<int>(idx(x)));
  g.vectorize(x, 32);
  EXPECT_NE(assembly_of(g, {lut, idx}, kSprTarget, "gather_spr").find("vmovw"), std::string::npos);
  EXPECT_EQ(assembly_of(g, {lut, idx}, kCnlTarget, "gather_cnl").find("vmovw"), std::string::npos);
  const std::vector<std::string>& spr = requirement(Feature::AVX512_SapphireRapids).flags;
  EXPECT_NE(std::find(spr.begin(), spr.end(), "avx512_fp16"), spr.end());
}

// A 256-bit u8 x i8 dot product under Sapphire Rapids is a VEX-encoded vpdpbusd: AVX-VNNI,
// which Zen 4 lacks although it has AVX512-VNNI.
TEST(HalideCodegen, SapphireRapidsDotProductsUseAvxVnni) {
  Halide::ImageParam a(Halide::UInt(8), 2, "a"), b(Halide::Int(8), 2, "b");
  Halide::Var x("x");
  Halide::RDom r(0, 16);
  Halide::Func dot("dot");
  dot(x) = 0;
  dot(x) += Halide::cast<int32_t>(a(r, x)) * Halide::cast<int32_t>(b(r, x));
  dot.update().atomic().vectorize(r, 4).vectorize(x, 8);
  EXPECT_NE(assembly_of(dot, {a, b}, kSprTarget, "dot_spr").find("{vex}\tvpdpbusd"), std::string::npos);
  const std::vector<std::string>& spr = requirement(Feature::AVX512_SapphireRapids).flags;
  EXPECT_NE(std::find(spr.begin(), spr.end(), "avx_vnni"), spr.end());
}

// count_leading_zeros is lzcnt under haswell (AVX2) and bsr under corei7-avx (AVX): AVX2 code
// needs LZCNT (the abm flag).
TEST(HalideCodegen, Avx2UsesLzcnt) {
  Halide::ImageParam u(Halide::UInt(32), 1, "u");
  Halide::Var x("x");
  Halide::Func clz("clz");
  clz(x) = Halide::count_leading_zeros(u(x));
  EXPECT_NE(assembly_of(clz, {u}, "x86-64-linux-sse41-avx-f16c-fma-avx2", "clz_avx2").find("lzcnt"), std::string::npos);
  const std::string avx = assembly_of(clz, {u}, "x86-64-linux-sse41-avx", "clz_avx");
  EXPECT_EQ(avx.find("lzcnt"), std::string::npos);
  EXPECT_NE(avx.find("bsr"), std::string::npos);
  const std::vector<std::string>& avx2 = requirement(Feature::AVX2).flags;
  EXPECT_NE(std::find(avx2.begin(), avx2.end(), "abm"), avx2.end());
}

// ---- Machine classes ------------------------------------------------------------------------

struct MachineCase {
  const char* file;
  std::set<std::string> expected;
};

class MachineTarget : public ::testing::TestWithParam<MachineCase> {};

TEST_P(MachineTarget, GetsTheRichestTargetItRuns) {
  const CpuFeatures cpu = read_cpu_flags_file(machine_file(GetParam().file));
  const Halide::Target t = target_for(cpu, kBase);
  EXPECT_EQ(x86_features(t), GetParam().expected) << GetParam().file << ": " << t.to_string();
  for (const X86FeatureRequirement& r : x86_feature_requirements())
    if (t.has_feature(r.feature)) {
      EXPECT_TRUE(cpu.has_all(r.flags)) << Halide::Target::feature_to_name(r.feature);
    }
}

INSTANTIATE_TEST_SUITE_P(
    Machines, MachineTarget,
    ::testing::Values(MachineCase{"zen4_epyc", kCannonlake}, MachineCase{"zen5_epyc", kCannonlake},
                      MachineCase{"zen5_kvm", kCannonlake}, MachineCase{"zen5_epyc_kvm", kCannonlake},
                      MachineCase{"xeon_sapphirerapids", kSapphireRapids},
                      MachineCase{"avx2_laptop", kAvx2}, MachineCase{"avx2_vm_no_rdrand", kAvx2}),
    [](const ::testing::TestParamInfo<MachineCase>& info) { return std::string(info.param.file); });

// Zen 4 and Zen 5 have what Halide's host detection looks for (AVX512 VNNI and BF16), and
// lack AVX512-FP16; Zen 5 has AVX-VNNI too.
TEST(MachineFlags, ZenLacksAvx512Fp16ButHasWhatHalideDetectsAsSapphireRapids) {
  for (const char* m : {"zen4_epyc", "zen5_epyc", "zen5_kvm", "zen5_epyc_kvm"}) {
    const CpuFeatures cpu = read_cpu_flags_file(machine_file(m));
    EXPECT_TRUE(cpu.has_all({"avx512_vnni", "avx512_bf16", "avx512ifma"})) << m;
    EXPECT_FALSE(cpu.has("avx512_fp16")) << m;
  }
  // Even with AMX added, Zen 5 is no Sapphire Rapids: it lacks AVX512-FP16.
  CpuFeatures zen5_amx = read_cpu_flags_file(machine_file("zen5_epyc"));
  for (const char* amx : {"amx_tile", "amx_int8", "amx_bf16"}) zen5_amx.add(amx);
  EXPECT_EQ(x86_features(target_for(zen5_amx, kBase)), kCannonlake);
  EXPECT_FALSE(read_cpu_flags_file(machine_file("zen4_epyc")).has("avx_vnni"));
  EXPECT_TRUE(read_cpu_flags_file(machine_file("zen5_epyc")).has_all({"avx_vnni", "avx512_vp2intersect"}));
  EXPECT_FALSE(read_cpu_flags_file(machine_file("avx2_vm_no_rdrand")).has("rdrand"));
}

// ---- target_for keeps what is not x86 --------------------------------------------------------

TEST(TargetFor, ReplacesOnlyX86Features) {
  const CpuFeatures laptop = read_cpu_flags_file(machine_file("avx2_laptop"));
  const Halide::Target base("x86-64-osx-jit-no_asserts-cuda-cuda_capability_80-avx512_sapphirerapids-avx512-fma4");
  const Halide::Target t = target_for(laptop, base);
  EXPECT_EQ(t.os, Halide::Target::OSX);
  EXPECT_EQ(t.arch, Halide::Target::X86);
  EXPECT_EQ(t.bits, 64);
  for (Feature f : {Feature::JIT, Feature::NoAsserts, Feature::CUDA, Feature::CUDACapability80})
    EXPECT_TRUE(t.has_feature(f)) << Halide::Target::feature_to_name(f);
  EXPECT_EQ(x86_features(t), kAvx2);
  // Every non-x86 feature as in base.
  for (int i = 0; i < int(Feature::FeatureEnd); ++i) {
    const Feature f = Feature(i);
    bool x86 = false;
    for (const X86FeatureRequirement& r : x86_feature_requirements()) x86 |= r.feature == f;
    if (!x86) {
      EXPECT_EQ(t.has_feature(f), base.has_feature(f)) << Halide::Target::feature_to_name(f);
    }
  }

  const Halide::Target arm("arm-64-linux-arm_dot_prod-no_runtime");
  EXPECT_EQ(target_for(laptop, arm), arm);
  EXPECT_EQ(x86_features(target_for(CpuFeatures(), kBase)), std::set<std::string>{});
}

// Each instruction set Sapphire Rapids requires beyond Cannonlake's is needed: without any
// one of them (AVX512-FP16 on Zen 4 and Zen 5) the target stops at Cannonlake.
TEST(TargetFor, SapphireRapidsNeedsEachOfItsFlags) {
  const CpuFeatures spr = read_cpu_flags_file(machine_file("xeon_sapphirerapids"));
  ASSERT_EQ(x86_features(target_for(spr, kBase)), kSapphireRapids);
  const std::vector<std::string>& cnl = requirement(Feature::AVX512_Cannonlake).flags;
  int extra = 0;
  for (const std::string& flag : requirement(Feature::AVX512_SapphireRapids).flags) {
    if (std::find(cnl.begin(), cnl.end(), flag) != cnl.end()) continue;
    ++extra;
    CpuFeatures less = spr;
    less.remove(flag);
    EXPECT_EQ(x86_features(target_for(less, kBase)), kCannonlake) << "without " << flag;
  }
  EXPECT_GE(extra, 2);  // avx512_fp16 and avx_vnni at least
}

// ---- This host ------------------------------------------------------------------------------

// Whether the environment names a target explicitly (then host_target keeps it as given).
bool env_names_target(const char* var) {
  const char* v = std::getenv(var);
  if (!v || !*v) return false;
  const std::string s = v;
  return s != "host" && s.rfind("host-", 0) != 0;
}

// CPUID read directly agrees with the kernel's flags line on every flag a requirement names.
TEST(Host, CpuidAgreesWithProcCpuinfo) {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line) && line.rfind("flags", 0) != 0) {
  }
  if (line.rfind("flags", 0) != 0) GTEST_SKIP() << "no /proc/cpuinfo flags line on this system";
  const CpuFeatures kernel = parse_cpu_flags(line);
  std::set<std::string> names;
  for (const X86FeatureRequirement& r : x86_feature_requirements()) names.insert(r.flags.begin(), r.flags.end());
  for (const std::string& n : names) EXPECT_EQ(host_cpu_features().has(n), kernel.has(n)) << n;
}

void expect_backed_and_richest(const Halide::Target& t, const char* what) {
  const CpuFeatures& cpu = host_cpu_features();
  for (const X86FeatureRequirement& r : x86_feature_requirements()) {
    if (t.has_feature(r.feature)) {
      EXPECT_TRUE(cpu.has_all(r.flags)) << what << " has " << Halide::Target::feature_to_name(r.feature)
                                        << " but this CPU lacks some of its flags";
    } else {
      EXPECT_FALSE(cpu.has_all(r.flags)) << what << " leaves out " << Halide::Target::feature_to_name(r.feature)
                                         << ", which this CPU runs";
    }
  }
}

TEST(Host, TargetsHoldExactlyTheFeaturesThisCpuRuns) {
  const Halide::Target aot = aot_host_target(), jit = host_target();
  std::cout << "aot_host_target(): " << aot.to_string() << "\nhost_target():     " << jit.to_string()
            << "\nHalide's host:     " << Halide::get_host_target().to_string()
            << "\nhost CPU flags:    " << host_cpu_features().to_string() << "\n";
  ::testing::Test::RecordProperty("aot_host_target", aot.to_string());
  if (!env_names_target("HL_TARGET")) expect_backed_and_richest(aot, "aot_host_target()");
  if (!env_names_target("HL_JIT_TARGET")) {
    expect_backed_and_richest(jit, "host_target()");
    EXPECT_TRUE(jit.has_feature(Feature::JIT));
  }
  EXPECT_EQ(jit.arch, Halide::get_host_target().arch);
  EXPECT_EQ(jit.os, Halide::get_host_target().os);
  EXPECT_EQ(jit.bits, Halide::get_host_target().bits);
}

using candor::testing::ScopedEnv;

// A target the user names is kept as given; "host" and "host-<features>" get CPUID's x86
// features, with the features added kept.
TEST(Host, ExplicitEnvironmentTargetsAreKept) {
  if (Halide::get_host_target().arch != Halide::Target::X86) GTEST_SKIP() << "not an x86 host";
  const Halide::Target sse41_only =
      target_for(CpuFeatures({"sse", "sse2", "pni", "ssse3", "sse4_1", "cx16", "lahf_lm"}), Halide::get_host_target());
  {
    ScopedEnv jit("HL_JIT_TARGET", sse41_only.to_string());
    EXPECT_EQ(host_target(), sse41_only.with_feature(Feature::JIT));
  }
  {
    ScopedEnv aot("HL_TARGET", "x86-64-linux-avx2-avx512-avx512_skylake-avx512_cannonlake-avx512_sapphirerapids");
    EXPECT_TRUE(aot_host_target().has_feature(Feature::AVX512_SapphireRapids));  // cross-compiling is allowed
  }
  {
    ScopedEnv jit("HL_JIT_TARGET", "host-no_asserts");
    const Halide::Target t = host_target();
    EXPECT_TRUE(t.has_feature(Feature::NoAsserts));
    EXPECT_EQ(t, target_for(host_cpu_features(), Halide::get_jit_target_from_environment()));
    ScopedEnv aot("HL_TARGET", "host");
    EXPECT_EQ(aot_host_target(), target_for(host_cpu_features(), Halide::get_host_target()));
  }
}

// Code for host_target() runs here: a 16-bit gather (vmovw under Sapphire Rapids), a float
// pipeline vectorized at the widest width, and an integer dot product.
TEST(Host, JitCodeForHostTargetRunsAndIsRight) {
  const Halide::Target t = host_target();
  Halide::Buffer<uint16_t> lut(256);
  Halide::Buffer<uint8_t> idx(512);
  for (int i = 0; i < 256; ++i) lut(i) = uint16_t(i * 257 + 11);
  for (int i = 0; i < 512; ++i) idx(i) = uint8_t((i * 37) & 255);
  Halide::Var x("x"), y("y");
  Halide::Func gather("gather");
  gather(x) = lut(Halide::cast<int>(idx(x))) + Halide::cast<uint16_t>(x);
  gather.vectorize(x, 32);
  Halide::Buffer<uint16_t> g = gather.realize({512}, t);
  for (int i = 0; i < 512; ++i) ASSERT_EQ(g(i), uint16_t(lut(idx(i)) + i)) << i;

  Halide::Func poly("poly");
  poly(x, y) = Halide::sqrt(Halide::cast<float>(x * x + y)) * 0.5f + Halide::cast<float>(y);
  poly.vectorize(x, 16);
  Halide::Buffer<float> p = poly.realize({64, 8}, t);
  for (int j = 0; j < 8; ++j)
    for (int i = 0; i < 64; ++i) ASSERT_NEAR(p(i, j), std::sqrt(float(i * i + j)) * 0.5f + j, 1e-4f) << i << "," << j;

  Halide::Buffer<uint8_t> a(16, 8);
  Halide::Buffer<int8_t> b(16, 8);
  for (int j = 0; j < 8; ++j)
    for (int i = 0; i < 16; ++i) {
      a(i, j) = uint8_t(200 + i - 3 * j);
      b(i, j) = int8_t(i * 9 - 70 + j);
    }
  Halide::RDom r(0, 16);
  Halide::Func dot("dot");
  dot(x) = 0;
  dot(x) += Halide::cast<int32_t>(a(r, x)) * Halide::cast<int32_t>(b(r, x));
  dot.update().atomic().vectorize(r, 4).vectorize(x, 8);
  Halide::Buffer<int32_t> d = dot.realize({8}, t);
  for (int j = 0; j < 8; ++j) {
    int32_t want = 0;
    for (int i = 0; i < 16; ++i) want += int32_t(a(i, j)) * int32_t(b(i, j));
    ASSERT_EQ(d(j), want) << j;
  }
}

}  // namespace
}  // namespace candor::halide_bridge
