// The x86 instruction sets a CPU offers, and the richest Halide 14 target whose code that CPU
// runs. Halide's own `host` detection guesses Sapphire Rapids for any AVX-512 CPU with BF16 and
// VNNI (AMD Zen 4 and Zen 5 included), and its code then uses AVX512-FP16, which those CPUs
// lack (and AVX-VNNI, which Zen 4 lacks); here every Halide x86 feature is granted only where
// the CPU has every instruction set the code generated for it may execute.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include <Halide.h>

namespace candor::halide_bridge {

// A set of CPU feature flags, named as the "flags" line of Linux's /proc/cpuinfo names them
// (pni, sse4_1, avx2, abm, avx512f, avx512_fp16, amx_tile, ...). A flag means the feature is
// usable: for the AVX and AVX-512 families that includes the OS saving their registers, as
// Linux only lists them then (decode_cpuid checks XCR0 for the same).
class CpuFeatures {
 public:
  CpuFeatures() = default;
  explicit CpuFeatures(std::set<std::string> flags) : flags_(std::move(flags)) {}

  bool has(const std::string& flag) const { return flags_.count(flag) != 0; }
  bool has_all(const std::vector<std::string>& flags) const;
  void add(const std::string& flag) { flags_.insert(flag); }
  void remove(const std::string& flag) { flags_.erase(flag); }
  const std::set<std::string>& flags() const { return flags_; }
  std::string to_string() const;  // the flags, sorted, space separated

  bool operator==(const CpuFeatures& o) const { return flags_ == o.flags_; }

 private:
  std::set<std::string> flags_;
};

// The flags of a /proc/cpuinfo "flags" line ("flags\t\t: fpu vme ..."; a bare list of flags
// parses too).
CpuFeatures parse_cpu_flags(const std::string& line);
// The flags line of a file: its first line that is neither empty nor a '#' comment. Throws
// BridgeError when the file cannot be read or holds no such line.
CpuFeatures read_cpu_flags_file(const std::string& path);

// The CPUID leaves and the XCR0 register that decode_cpuid reads.
struct CpuidRegisters {
  uint32_t max_leaf = 0;  // leaf 0 eax
  uint32_t leaf1_ecx = 0, leaf1_edx = 0;
  uint32_t leaf7_max_subleaf = 0;  // leaf 7.0 eax
  uint32_t leaf7_ebx = 0, leaf7_ecx = 0, leaf7_edx = 0;
  uint32_t leaf7_1_eax = 0;
  uint32_t max_extended_leaf = 0;  // leaf 0x80000000 eax
  uint32_t ext1_ecx = 0, ext1_edx = 0;  // leaf 0x80000001
  uint64_t xcr0 = 0;  // XGETBV(0); meaningful only when leaf 1 reports OSXSAVE
};

// This CPU's registers (all zero on other architectures).
CpuidRegisters read_host_cpuid();
// The flags the registers report, less those whose register state the OS does not save
// (XCR0: YMM for the AVX family, opmask and ZMM for AVX-512, tile state for AMX).
CpuFeatures decode_cpuid(const CpuidRegisters& r);
// decode_cpuid(read_host_cpuid()), read once per process.
const CpuFeatures& host_cpu_features();

// What one Halide x86 feature requires of the CPU. Halide 14's x86 code generator passes LLVM
// one CPU (mcpu) for the richest of the features a target names, and adds instruction sets
// (mattrs) per feature; `flags` are the instruction sets among those that Halide's code may
// execute.
struct X86FeatureRequirement {
  Halide::Target::Feature feature;
  std::string mcpu;    // the LLVM 14 CPU Halide passes when this is the richest feature; "" none
  std::string mattrs;  // what Halide adds to the LLVM features for it
  std::vector<std::string> flags;
};
// One entry per x86 feature of Halide 14, each one's flags including those of the features it
// builds on.
const std::vector<X86FeatureRequirement>& x86_feature_requirements();

// `base` with its x86 features replaced by every one whose requirements `cpu` meets. Everything
// else of `base` (OS, architecture, bits, non-x86 features such as jit or no_runtime) stays; a
// non-x86 `base` comes back unchanged.
Halide::Target target_for(const CpuFeatures& cpu, Halide::Target base);

}  // namespace candor::halide_bridge
