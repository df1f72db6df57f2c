#include "reference_cache.h"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace candor::collect {
namespace {

constexpr char kMagic[] = "CANDORREF1";

template <typename T>
void put(std::ostream& out, T value) {
  out.write(reinterpret_cast<const char*>(&value), sizeof value);
}

template <typename T>
bool get(std::istream& in, T& value) {
  return static_cast<bool>(in.read(reinterpret_cast<char*>(&value), sizeof value));
}

}  // namespace

bool write_outputs(const halide_bridge::Outputs& outputs, const std::string& path) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(kMagic, sizeof kMagic - 1);
  put<uint32_t>(out, static_cast<uint32_t>(outputs.size()));
  for (const Halide::Buffer<>& b : outputs) {
    Halide::Buffer<> dense = b.copy();  // contiguous, whatever b's strides
    put<uint8_t>(out, static_cast<uint8_t>(dense.type().code()));
    put<uint8_t>(out, static_cast<uint8_t>(dense.type().bits()));
    put<uint16_t>(out, static_cast<uint16_t>(dense.type().lanes()));
    put<uint32_t>(out, static_cast<uint32_t>(dense.dimensions()));
    for (int d = 0; d < dense.dimensions(); ++d) put<int32_t>(out, dense.dim(d).extent());
    out.write(reinterpret_cast<const char*>(dense.data()), static_cast<std::streamsize>(dense.size_in_bytes()));
  }
  out.flush();
  return static_cast<bool>(out);
}

bool read_outputs(const std::string& path, halide_bridge::Outputs& outputs) {
  std::ifstream in(path, std::ios::binary);
  char magic[sizeof kMagic - 1];
  if (!in.read(magic, sizeof magic) || std::memcmp(magic, kMagic, sizeof magic) != 0) return false;
  uint32_t count = 0;
  if (!get(in, count) || count > 1024) return false;
  halide_bridge::Outputs read;
  for (uint32_t i = 0; i < count; ++i) {
    uint8_t code = 0, bits = 0;
    uint16_t lanes = 0;
    uint32_t dims = 0;
    if (!get(in, code) || !get(in, bits) || !get(in, lanes) || !get(in, dims) || dims > 16) return false;
    std::vector<int> extents(dims);
    for (int& e : extents) {
      int32_t extent = 0;
      if (!get(in, extent) || extent < 0) return false;
      e = extent;
    }
    Halide::Buffer<> b(Halide::Type(static_cast<halide_type_code_t>(code), bits, lanes), extents);
    if (!in.read(reinterpret_cast<char*>(b.data()), static_cast<std::streamsize>(b.size_in_bytes()))) return false;
    read.push_back(std::move(b));
  }
  if (in.peek() != std::char_traits<char>::eof()) return false;  // trailing bytes: not our file
  outputs = std::move(read);
  return true;
}

halide_bridge::Outputs cached_reference_outputs(const halide_bridge::App& app, const Halide::Target& target,
                                                const std::string& dir) {
  if (dir.empty()) return halide_bridge::reference_outputs(app, target);
  const std::string path = (std::filesystem::path(dir) / (app.name + ".ref")).string();
  halide_bridge::Outputs outputs;
  if (read_outputs(path, outputs)) return outputs;
  outputs = halide_bridge::reference_outputs(app, target);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const std::string temporary = path + ".tmp." + std::to_string(getpid());
  // A cache that cannot be written only costs time: the outputs are returned either way.
  if (write_outputs(outputs, temporary)) std::rename(temporary.c_str(), path.c_str());
  std::remove(temporary.c_str());
  return outputs;
}

}  // namespace candor::collect
