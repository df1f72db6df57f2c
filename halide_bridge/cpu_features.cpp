#include "cpu_features.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define CANDOR_X86 1
#endif

#include <fstream>
#include <sstream>

#include "error.h"

namespace candor::halide_bridge {

bool CpuFeatures::has_all(const std::vector<std::string>& flags) const {
  for (const std::string& f : flags)
    if (!has(f)) return false;
  return true;
}

std::string CpuFeatures::to_string() const {
  std::string s;
  for (const std::string& f : flags_) s += (s.empty() ? "" : " ") + f;
  return s;
}

CpuFeatures parse_cpu_flags(const std::string& line) {
  const size_t colon = line.find(':');
  std::istringstream words(colon == std::string::npos ? line : line.substr(colon + 1));
  std::set<std::string> flags;
  for (std::string w; words >> w;) flags.insert(w);
  return CpuFeatures(std::move(flags));
}

CpuFeatures read_cpu_flags_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw BridgeError("cannot read CPU flags file " + path);
  for (std::string line; std::getline(in, line);) {
    const size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    return parse_cpu_flags(line);
  }
  throw BridgeError("CPU flags file " + path + " holds no flags line");
}

CpuidRegisters read_host_cpuid() {
  CpuidRegisters r;
#ifdef CANDOR_X86
  unsigned a = 0, b = 0, c = 0, d = 0;
  r.max_leaf = __get_cpuid_max(0, nullptr);
  if (r.max_leaf >= 1 && __get_cpuid(1, &a, &b, &c, &d)) {
    r.leaf1_ecx = c;
    r.leaf1_edx = d;
  }
  if (r.max_leaf >= 7 && __get_cpuid_count(7, 0, &a, &b, &c, &d)) {
    r.leaf7_max_subleaf = a;
    r.leaf7_ebx = b;
    r.leaf7_ecx = c;
    r.leaf7_edx = d;
    // Subleaf 1 only where subleaf 0 says it exists: some CPUs answer an absent subleaf with
    // subleaf 0's registers.
    if (r.leaf7_max_subleaf >= 1 && __get_cpuid_count(7, 1, &a, &b, &c, &d)) r.leaf7_1_eax = a;
  }
  r.max_extended_leaf = __get_cpuid_max(0x80000000u, nullptr);
  if (r.max_extended_leaf >= 0x80000001u && __get_cpuid(0x80000001u, &a, &b, &c, &d)) {
    r.ext1_ecx = c;
    r.ext1_edx = d;
  }
  if (r.leaf1_ecx & (1u << 27)) {  // OSXSAVE: XGETBV is available
    uint32_t lo = 0, hi = 0;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    r.xcr0 = (uint64_t(hi) << 32) | lo;
  }
#endif
  return r;
}

namespace {

// The register state a feature's instructions use, which the OS must save (XCR0) before a
// program may execute them.
enum class State { None, Ymm, Zmm, Tile };

enum class Reg { L1Ecx, L1Edx, L7Ebx, L7Ecx, L7Edx, L71Eax, E1Ecx, E1Edx };

struct FlagBit {
  const char* name;  // as /proc/cpuinfo names it
  Reg reg;
  int bit;
  State state;
};

// The CPUID bits decoded (Intel SDM vol. 2A "CPUID"; AMD APM vol. 3 appendix E).
const FlagBit kFlagBits[] = {
    {"pni", Reg::L1Ecx, 0, State::None},
    {"pclmulqdq", Reg::L1Ecx, 1, State::None},
    {"ssse3", Reg::L1Ecx, 9, State::None},
    {"fma", Reg::L1Ecx, 12, State::Ymm},
    {"cx16", Reg::L1Ecx, 13, State::None},
    {"sse4_1", Reg::L1Ecx, 19, State::None},
    {"sse4_2", Reg::L1Ecx, 20, State::None},
    {"movbe", Reg::L1Ecx, 22, State::None},
    {"popcnt", Reg::L1Ecx, 23, State::None},
    {"aes", Reg::L1Ecx, 25, State::None},
    {"xsave", Reg::L1Ecx, 26, State::None},
    {"osxsave", Reg::L1Ecx, 27, State::None},
    {"avx", Reg::L1Ecx, 28, State::Ymm},
    {"f16c", Reg::L1Ecx, 29, State::Ymm},
    {"rdrand", Reg::L1Ecx, 30, State::None},
    {"hypervisor", Reg::L1Ecx, 31, State::None},
    {"sse", Reg::L1Edx, 25, State::None},
    {"sse2", Reg::L1Edx, 26, State::None},
    {"fsgsbase", Reg::L7Ebx, 0, State::None},
    {"bmi1", Reg::L7Ebx, 3, State::None},
    {"avx2", Reg::L7Ebx, 5, State::Ymm},
    {"bmi2", Reg::L7Ebx, 8, State::None},
    {"erms", Reg::L7Ebx, 9, State::None},
    {"invpcid", Reg::L7Ebx, 10, State::None},
    {"avx512f", Reg::L7Ebx, 16, State::Zmm},
    {"avx512dq", Reg::L7Ebx, 17, State::Zmm},
    {"rdseed", Reg::L7Ebx, 18, State::None},
    {"adx", Reg::L7Ebx, 19, State::None},
    {"avx512ifma", Reg::L7Ebx, 21, State::Zmm},
    {"clflushopt", Reg::L7Ebx, 23, State::None},
    {"clwb", Reg::L7Ebx, 24, State::None},
    {"avx512pf", Reg::L7Ebx, 26, State::Zmm},
    {"avx512er", Reg::L7Ebx, 27, State::Zmm},
    {"avx512cd", Reg::L7Ebx, 28, State::Zmm},
    {"sha_ni", Reg::L7Ebx, 29, State::None},
    {"avx512bw", Reg::L7Ebx, 30, State::Zmm},
    {"avx512vl", Reg::L7Ebx, 31, State::Zmm},
    {"avx512vbmi", Reg::L7Ecx, 1, State::Zmm},
    {"pku", Reg::L7Ecx, 3, State::None},
    {"ospke", Reg::L7Ecx, 4, State::None},
    {"avx512_vbmi2", Reg::L7Ecx, 6, State::Zmm},
    {"gfni", Reg::L7Ecx, 8, State::None},
    {"vaes", Reg::L7Ecx, 9, State::Ymm},
    {"vpclmulqdq", Reg::L7Ecx, 10, State::Ymm},
    {"avx512_vnni", Reg::L7Ecx, 11, State::Zmm},
    {"avx512_bitalg", Reg::L7Ecx, 12, State::Zmm},
    {"avx512_vpopcntdq", Reg::L7Ecx, 14, State::Zmm},
    {"rdpid", Reg::L7Ecx, 22, State::None},
    {"movdiri", Reg::L7Ecx, 27, State::None},
    {"movdir64b", Reg::L7Ecx, 28, State::None},
    {"avx512_vp2intersect", Reg::L7Edx, 8, State::Zmm},
    {"serialize", Reg::L7Edx, 14, State::None},
    {"amx_bf16", Reg::L7Edx, 22, State::Tile},
    {"avx512_fp16", Reg::L7Edx, 23, State::Zmm},
    {"amx_tile", Reg::L7Edx, 24, State::Tile},
    {"amx_int8", Reg::L7Edx, 25, State::Tile},
    {"avx_vnni", Reg::L71Eax, 4, State::Ymm},
    {"avx512_bf16", Reg::L71Eax, 5, State::Zmm},
    {"lahf_lm", Reg::E1Ecx, 0, State::None},
    {"abm", Reg::E1Ecx, 5, State::None},  // LZCNT
    {"sse4a", Reg::E1Ecx, 6, State::None},
    {"3dnowprefetch", Reg::E1Ecx, 8, State::None},
    {"xop", Reg::E1Ecx, 11, State::Ymm},
    {"fma4", Reg::E1Ecx, 16, State::Ymm},
    {"tbm", Reg::E1Ecx, 21, State::None},
    {"lm", Reg::E1Edx, 29, State::None},
};

uint32_t reg_value(const CpuidRegisters& r, Reg reg) {
  switch (reg) {
    case Reg::L1Ecx: return r.leaf1_ecx;
    case Reg::L1Edx: return r.leaf1_edx;
    case Reg::L7Ebx: return r.leaf7_ebx;
    case Reg::L7Ecx: return r.leaf7_ecx;
    case Reg::L7Edx: return r.leaf7_edx;
    case Reg::L71Eax: return r.leaf7_1_eax;
    case Reg::E1Ecx: return r.ext1_ecx;
    case Reg::E1Edx: return r.ext1_edx;
  }
  return 0;
}

}  // namespace

CpuFeatures decode_cpuid(const CpuidRegisters& r) {
  CpuidRegisters v = r;  // the leaves the CPU does not have read as zero
  if (v.max_leaf < 1) v.leaf1_ecx = v.leaf1_edx = 0;
  if (v.max_leaf < 7) v.leaf7_max_subleaf = v.leaf7_ebx = v.leaf7_ecx = v.leaf7_edx = 0;
  if (v.leaf7_max_subleaf < 1) v.leaf7_1_eax = 0;
  if (v.max_extended_leaf < 0x80000001u) v.ext1_ecx = v.ext1_edx = 0;

  // XCR0 bits: 1 SSE, 2 AVX (upper YMM), 5-7 opmask and ZMM, 17-18 AMX tile config and data.
  const bool osxsave = v.leaf1_ecx & (1u << 27);
  const uint64_t xcr0 = osxsave ? v.xcr0 : 0;
  const bool ymm = (xcr0 & 0x6) == 0x6;
  const bool zmm = ymm && (xcr0 & 0xE0) == 0xE0;
  const bool tile = (xcr0 & 0x60000) == 0x60000;

  CpuFeatures f;
  for (const FlagBit& fb : kFlagBits) {
    if (!(reg_value(v, fb.reg) & (1u << fb.bit))) continue;
    const bool saved = fb.state == State::None || (fb.state == State::Ymm && ymm) ||
                       (fb.state == State::Zmm && zmm) || (fb.state == State::Tile && tile);
    if (saved) f.add(fb.name);
  }
  return f;
}

const CpuFeatures& host_cpu_features() {
  static const CpuFeatures features = decode_cpuid(read_host_cpuid());
  return features;
}

namespace {

using F = Halide::Target::Feature;

std::vector<std::string> plus(std::vector<std::string> base, const std::vector<std::string>& more) {
  base.insert(base.end(), more.begin(), more.end());
  return base;
}

// The flags each Halide 14 x86 feature requires.
//
// Halide 14's CodeGen_X86 passes LLVM one mcpu, for the richest feature the target names
// (sapphirerapids > cannonlake > skylake-avx512 > knl > haswell > corei7-avx > penryn > k8),
// and mattrs per feature: +fma, +fma4, +f16c; +avx512f,+avx512cd for any AVX512*;
// +avx512pf,+avx512er for KNL; +avx512vl,+avx512bw,+avx512dq for Skylake and Cannonlake;
// +avx512ifma,+avx512vbmi for Cannonlake; +avx512bf16,+avx512vnni,+amx-int8,+amx-bf16 for
// Sapphire Rapids. A feature requires:
//  - every mattr Halide adds for it;
//  - every instruction set of its mcpu (LLVM 14's X86.td processor list) that LLVM selects
//    for ordinary IR (vector and scalar arithmetic, shuffles, conversions, bit counts,
//    byte swaps, atomics) or that Halide's own x86 intrinsics use (pmaddubsw, packs,
//    vpdpbusd/vpdpwssd, dpbf16ps, AMX tile operations).
// Left out are the mcpu's instruction sets that LLVM only emits for their own intrinsics,
// which Halide never calls: aes, pclmulqdq, vaes, vpclmulqdq, sha, rdrand, rdseed, adx,
// fsgsbase, invpcid, xsave*, clflushopt, clwb, pku, sgx, ptwrite, waitpkg, serialize,
// tsxldtrk, enqcmd, movdiri, movdir64b, uintr, cldemote, shstk, rdpid, pconfig, wbnoinvd and
// avx512_vp2intersect (in LLVM 14's sapphirerapids, absent from real Sapphire Rapids CPUs);
// and prefetchw/prefetchwt1, as Halide's prefetches are reads. Halide's host detection also
// demands rdrand for AVX, which masks AVX on VMs that hide rdrand; codegen never needs it.
const std::vector<X86FeatureRequirement>& requirement_table() {
  static const std::vector<X86FeatureRequirement> table = [] {
    // penryn: SSE4.1, with SSSE3/SSE3, CMPXCHG16B (128-bit atomics), LAHF/SAHF.
    const std::vector<std::string> sse41 = {"sse", "sse2", "pni", "ssse3", "sse4_1", "cx16", "lahf_lm"};
    // corei7-avx (Sandy Bridge): + SSE4.2, POPCNT, AVX.
    const std::vector<std::string> avx = plus(sse41, {"sse4_2", "popcnt", "avx"});
    // haswell: + AVX2, FMA, F16C, BMI1/BMI2 (andn, shlx, bzhi, tzcnt), LZCNT (abm), MOVBE.
    const std::vector<std::string> avx2 = plus(avx, {"avx2", "fma", "f16c", "bmi1", "bmi2", "abm", "movbe"});
    const std::vector<std::string> avx512 = plus(avx2, {"avx512f", "avx512cd"});
    const std::vector<std::string> skylake = plus(avx512, {"avx512vl", "avx512bw", "avx512dq"});
    const std::vector<std::string> cannonlake = plus(skylake, {"avx512ifma", "avx512vbmi"});
    // sapphirerapids: + VBMI2 (funnel shifts), BITALG and VPOPCNTDQ (vector popcount), GFNI
    // (bit reverse), AVX512-FP16 (vmovw for 16-bit gathers), AVX-VNNI (VEX vpdpbusd for 256-bit
    // dot products), and the mattrs' BF16, VNNI and AMX.
    const std::vector<std::string> spr =
        plus(cannonlake, {"avx512_vbmi2", "avx512_bitalg", "avx512_vpopcntdq", "gfni", "avx512_fp16", "avx_vnni",
                          "avx512_bf16", "avx512_vnni", "amx_tile", "amx_int8", "amx_bf16"});
    return std::vector<X86FeatureRequirement>{
        {F::SSE41, "penryn", "", sse41},
        {F::AVX, "corei7-avx", "", avx},
        {F::F16C, "", "+f16c", plus(avx, {"f16c"})},
        {F::FMA, "", "+fma", plus(avx, {"fma"})},
        {F::FMA4, "", "+fma4", plus(avx, {"fma4", "sse4a"})},
        {F::AVX2, "haswell", "", avx2},
        // The mcpu is the other features' (haswell on every AVX-512 CPU, which has AVX2).
        {F::AVX512, "", "+avx512f,+avx512cd", avx512},
        {F::AVX512_KNL, "knl", "+avx512pf,+avx512er", plus(avx512, {"avx512pf", "avx512er"})},
        {F::AVX512_Skylake, "skylake-avx512", "+avx512vl,+avx512bw,+avx512dq", skylake},
        {F::AVX512_Cannonlake, "cannonlake", "+avx512ifma,+avx512vbmi", cannonlake},
        {F::AVX512_SapphireRapids, "sapphirerapids", "+avx512bf16,+avx512vnni,+amx-int8,+amx-bf16", spr},
    };
  }();
  return table;
}

}  // namespace

const std::vector<X86FeatureRequirement>& x86_feature_requirements() { return requirement_table(); }

Halide::Target target_for(const CpuFeatures& cpu, Halide::Target base) {
  if (base.arch != Halide::Target::X86) return base;
  for (const X86FeatureRequirement& r : requirement_table()) base.set_feature(r.feature, false);
  for (const X86FeatureRequirement& r : requirement_table())
    if (cpu.has_all(r.flags)) base.set_feature(r.feature, true);
  return base;
}

}  // namespace candor::halide_bridge
