// The shared readers and writers: strict numbers, bounded reads of regular files only,
// atomic writes that never leave a part behind, and the memory measurements.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "support/files.h"
#include "support/install_dirs.h"
#include "support/memory.h"
#include "support/numbers.h"
#include "support/progress.h"

namespace candor::support {
namespace {

namespace fs = std::filesystem;

TEST(Numbers, IntegersAreDecimalWholeAndInRange) {
  EXPECT_EQ(parse_integer("4096"), 4096);
  EXPECT_EQ(parse_integer("-12"), -12);
  EXPECT_EQ(parse_integer("9223372036854775807"), INT64_MAX);
  for (const char* bad : {"", "-", "+5", " 5", "5 ", "0x10", "1e3", "3.5", "9223372036854775808", "12abc"})
    EXPECT_FALSE(parse_integer(bad).has_value()) << bad;
  EXPECT_FALSE(parse_integer("0", 1).has_value());
  EXPECT_FALSE(parse_integer("11", 0, 10).has_value());
}

TEST(Numbers, DecimalsAreFiniteAndInRange) {
  EXPECT_EQ(parse_decimal("0.5", 0, 10), 0.5);
  EXPECT_EQ(parse_decimal("2", 0, 10), 2.0);
  EXPECT_EQ(parse_decimal("1e-3", 0, 10), 1e-3);
  EXPECT_EQ(parse_decimal(".5", 0, 10), 0.5);
  EXPECT_EQ(parse_decimal("-1.5", -2, 0), -1.5);
  for (const char* bad : {"", ".", "nan", "inf", "-inf", "0x10", "1e", "1e99", "-0", "+1", "1.5s", "e5"})
    EXPECT_FALSE(parse_decimal(bad, 0, 1e9).has_value()) << bad;
}

TEST(Numbers, ByteSizesTakeBinarySuffixes) {
  EXPECT_EQ(parse_bytes("512"), 512);
  EXPECT_EQ(parse_bytes("4K"), 4096);
  EXPECT_EQ(parse_bytes("3MiB"), 3 << 20);
  EXPECT_EQ(parse_bytes("2G"), int64_t(2) << 30);
  for (const char* bad : {"", "0", "G", "1.5G", "-1G", "4X", "16777216T"})
    EXPECT_FALSE(parse_bytes(bad).has_value()) << bad;
  EXPECT_EQ(format_bytes(17), "17 B");
  EXPECT_EQ(format_bytes(int64_t(3) << 29), "1.5 GiB");
}

class Files : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("candor_files_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

TEST_F(Files, ReadsRegularFilesWithinTheirBound) {
  std::ofstream(path("a.txt")) << "hello";
  std::string error;
  EXPECT_EQ(read_regular_file(path("a.txt"), 5, error), "hello");
  EXPECT_FALSE(read_regular_file(path("a.txt"), 4, error).has_value());
  EXPECT_NE(error.find("larger than 4 bytes"), std::string::npos) << error;
  EXPECT_FALSE(read_regular_file(path("missing"), 100, error).has_value());
  EXPECT_NE(error.find("No such file"), std::string::npos) << error;
  EXPECT_FALSE(read_regular_file(dir_.string(), 100, error).has_value());
  EXPECT_NE(error.find("is a directory"), std::string::npos) << error;
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  EXPECT_FALSE(read_regular_file(path("fifo"), 100, error).has_value());  // without blocking
  EXPECT_NE(error.find("not a regular file"), std::string::npos) << error;
  EXPECT_FALSE(read_regular_file("/dev/zero", 100, error).has_value());
}

TEST_F(Files, WritesAtomicallyAndOnlyWhenChanged) {
  std::string error;
  const std::string out = path("sub/dir/out.h");
  ASSERT_TRUE(write_file_atomically(out, "one", error)) << error;
  EXPECT_EQ(read_regular_file(out, 100, error), "one");
  const auto written = fs::last_write_time(out);
  ASSERT_TRUE(write_file_if_changed(out, "one", error)) << error;
  EXPECT_EQ(fs::last_write_time(out), written);
  ASSERT_TRUE(write_file_if_changed(out, "two!", error)) << error;
  EXPECT_EQ(read_regular_file(out, 100, error), "two!");
  // Nothing but the output is left in its directory.
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_ / "sub/dir"), fs::directory_iterator()), 1);

  EXPECT_FALSE(write_file_atomically(dir_.string(), "x", error));
  EXPECT_NE(error.find("it is a directory"), std::string::npos) << error;
  EXPECT_FALSE(write_file_atomically("/dev/null", "x", error));
  EXPECT_NE(error.find("not a regular file"), std::string::npos) << error;
  EXPECT_FALSE(write_file_atomically("/proc/self/none/x", "x", error));
  EXPECT_NE(error.find("cannot write /proc/self/none/x"), std::string::npos) << error;
}

TEST_F(Files, SameFileSeesThroughSpellings) {
  EXPECT_TRUE(same_file(path("x.h"), (dir_ / "." / "x.h").string()));
  EXPECT_FALSE(same_file(path("x.h"), path("y.h")));
  std::ofstream(path("z")) << "";
  fs::create_symlink(path("z"), path("link"));
  EXPECT_TRUE(same_file(path("z"), path("link")));
}

TEST(Progress, TextSaysShareElapsedAndTimeLeft) {
  EXPECT_EQ(progress_text("collect", "10/40 samples", 0.25, 30), "[collect] 10/40 samples  25%  0:30 elapsed, about 1:30 left");
  EXPECT_EQ(progress_text("search", "best 1 ms", 1.2, 3725), "[search] best 1 ms  100%  1:02:05 elapsed");
  EXPECT_EQ(progress_text("train", "epoch 0", 0, 1), "[train] epoch 0  0%  0:01 elapsed");
  EXPECT_EQ(progress_text("tune", "3 measured", -1, 59.6), "[tune] 3 measured  1:00 elapsed");
}

// A clock the test moves: which updates are shown follows from the mode alone.
struct FakeClock {
  ProgressLine::Clock::time_point t{};
  std::function<ProgressLine::Clock::time_point()> now() {
    return [this] { return t; };
  }
  void advance(double s) { t += std::chrono::duration_cast<ProgressLine::Clock::duration>(std::chrono::duration<double>(s)); }
};

TEST(Progress, PlainLinesComeAtTheirIntervalAndAtTheEnd) {
  FakeClock clock;
  std::ostringstream out;
  {
    ProgressLine line("job", out, ProgressLine::Mode::Plain, 10, clock.now());
    line.update(0.1, "a");  // within the first interval: dropped
    clock.advance(10);
    line.update(0.2, "b");
    clock.advance(4);
    line.update(0.3, "c");  // within the interval: dropped
    clock.advance(7);
    line.update(0.5, "d");
    line.finish("done");
  }
  EXPECT_EQ(out.str(), "[job] b  20%  0:10 elapsed, about 0:40 left\n[job] d  50%  0:21 elapsed, about 0:21 left\n"
                       "[job] done  0:21 elapsed\n");
}

TEST(Progress, TerminalLineIsRewrittenInPlaceAndEnded) {
  FakeClock clock;
  std::ostringstream out;
  {
    ProgressLine line("job", out, ProgressLine::Mode::Terminal, 10, clock.now());
    clock.advance(0.5);
    line.update(-1, "a long first state");
    clock.advance(1);
    line.update(-1, "short");
  }  // an unfinished line is ended when the reporter goes
  EXPECT_EQ(out.str(), "\r[job] a long first state  0:01 elapsed\r[job] short  0:02 elapsed             \n");
  std::ostringstream off;
  ProgressLine silent("job", off, ProgressLine::Mode::Off, 10, clock.now());
  silent.update(0.5, "x");
  silent.finish("y");
  EXPECT_EQ(off.str(), "");
}

TEST(Memory, ResidentSizeAndBudgetAreSane) {
  const int64_t resident = resident_bytes();
  EXPECT_GT(resident, 0);
  EXPECT_GT(default_memory_budget(), 0);
  static std::string* volatile ballast = nullptr;  // escapes, so it is really allocated
  ballast = new std::string(64 << 20, '\1');
  EXPECT_GE(resident_bytes(), resident + (int64_t(48) << 20));
  delete ballast;
}

// The executable's prefix is build/ (build/bin/support_test); its data directory is the
// prefix itself until a share/candor below it says the prefix is an installed package.
TEST_F(Files, DataDirectoryIsShareCandorInAnInstalledPrefix) {
  std::error_code ec;
  EXPECT_EQ(module_prefix(), fs::canonical("/proc/self/exe", ec).parent_path().parent_path());
  EXPECT_EQ(data_directory(dir_), dir_);
  // A data file beside the prefix does not make it an installed package (the shipped weights
  // are read from an installed data directory only).
  std::ofstream(path("weights.json")) << "{}";
  EXPECT_TRUE(installed_data_directory(dir_).empty());
  EXPECT_TRUE(installed_data_directory(fs::path()).empty());
  fs::create_directories(dir_ / "share" / "candor");
  EXPECT_EQ(data_directory(dir_), dir_ / "share" / "candor");
  EXPECT_EQ(installed_data_directory(dir_), dir_ / "share" / "candor");
  std::ofstream(path("share/x")) << "a file, not a directory";
  EXPECT_EQ(data_directory(dir_ / "share" / "x"), dir_ / "share" / "x");
}

}  // namespace
}  // namespace candor::support
