#include "support/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <vector>

namespace candor::support {
namespace fs = std::filesystem;

namespace {

// Closes a descriptor when it goes out of scope.
class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return fd_; }
  // Closes now; false (errno set) when close reports a failed write.
  bool close() {
    const int fd = fd_;
    fd_ = -1;
    return ::close(fd) == 0;
  }

 private:
  int fd_;
};

std::string reason(int err) { return std::strerror(err); }

// Reads up to `limit` bytes; nullopt (errno set) on a read error.
std::optional<std::string> read_up_to(int fd, std::size_t limit) {
  std::string text;
  std::vector<char> chunk(1 << 16);
  while (text.size() < limit) {
    const std::size_t want = std::min(chunk.size(), limit - text.size());
    const ssize_t got = ::read(fd, chunk.data(), want);
    if (got < 0) {
      if (errno == EINTR) continue;
      return std::nullopt;
    }
    if (got == 0) break;
    text.append(chunk.data(), static_cast<std::size_t>(got));
  }
  return text;
}

bool write_all(int fd, const std::string& content) {
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t wrote = ::write(fd, content.data() + done, content.size() - done);
    if (wrote < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    done += static_cast<std::size_t>(wrote);
  }
  return true;
}

}  // namespace

std::optional<std::string> read_regular_file(const std::string& path, std::size_t max_bytes,
                                             std::string& error) {
  // O_NONBLOCK: opening a fifo must not wait for a writer; it is refused below.
  Descriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (fd.get() < 0) {
    error = path + ": " + reason(errno);
    return std::nullopt;
  }
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) {
    error = path + ": " + reason(errno);
    return std::nullopt;
  }
  if (S_ISDIR(info.st_mode)) {
    error = path + ": is a directory";
    return std::nullopt;
  }
  if (!S_ISREG(info.st_mode)) {
    error = path + ": not a regular file";
    return std::nullopt;
  }
  if (static_cast<std::uintmax_t>(info.st_size) > max_bytes) {
    error = path + ": larger than " + std::to_string(max_bytes) + " bytes";
    return std::nullopt;
  }
  ::fcntl(fd.get(), F_SETFL, 0);  // back to blocking reads
  // One byte past the limit tells a file that grew since fstat.
  std::optional<std::string> text = read_up_to(fd.get(), max_bytes + 1);
  if (!text) {
    error = path + ": " + reason(errno);
    return std::nullopt;
  }
  if (text->size() > max_bytes) {
    error = path + ": larger than " + std::to_string(max_bytes) + " bytes";
    return std::nullopt;
  }
  return text;
}

bool write_file_atomically(const std::string& path, const std::string& content, std::string& error) {
  const fs::path target(path);
  std::error_code ec;
  const fs::file_status status = fs::status(target, ec);
  if (fs::exists(status) && !fs::is_regular_file(status)) {
    error = "cannot write " + path + ": " +
            (fs::is_directory(status) ? "it is a directory" : "it is not a regular file");
    return false;
  }
  const fs::path parent = target.has_parent_path() ? target.parent_path() : fs::path(".");
  fs::create_directories(parent, ec);
  if (ec) {
    error = "cannot write " + path + ": cannot create directory " + parent.string() + ": " + ec.message();
    return false;
  }
  std::string temporary = (parent / ("." + target.filename().string() + ".XXXXXX")).string();
  std::vector<char> name(temporary.begin(), temporary.end());
  name.push_back('\0');
  Descriptor fd(::mkstemp(name.data()));
  if (fd.get() < 0) {
    error = "cannot write " + path + ": " + reason(errno);
    return false;
  }
  temporary.assign(name.data());
  const bool written = write_all(fd.get(), content) && ::fsync(fd.get()) == 0 && fd.close();
  const int write_error = errno;
  if (!written) {
    ::unlink(temporary.c_str());
    error = "cannot write " + path + ": " + reason(write_error);
    return false;
  }
  // mkstemp creates the file readable by its owner only; give it the usual permissions.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::chmod(temporary.c_str(), 0666 & ~mask);
  if (::rename(temporary.c_str(), path.c_str()) != 0) {
    const int rename_error = errno;
    ::unlink(temporary.c_str());
    error = "cannot write " + path + ": " + reason(rename_error);
    return false;
  }
  return true;
}

bool write_file_if_changed(const std::string& path, const std::string& content, std::string& error) {
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (fs::is_regular_file(status) && fs::file_size(path, ec) == content.size() && !ec) {
    std::string ignored;
    const std::optional<std::string> old = read_regular_file(path, content.size(), ignored);
    if (old && *old == content) return true;
  }
  return write_file_atomically(path, content, error);
}

bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (fs::exists(a, ec) && fs::exists(b, ec)) return fs::equivalent(a, b, ec);
  const fs::path pa = fs::weakly_canonical(fs::absolute(a, ec), ec);
  const fs::path pb = fs::weakly_canonical(fs::absolute(b, ec), ec);
  return pa.lexically_normal() == pb.lexically_normal();
}

}  // namespace candor::support
