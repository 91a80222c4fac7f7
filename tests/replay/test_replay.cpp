// Capture and replay (NOVEM_CAPTURE, novem-replay; docs/capture.md): frames of novem-demo and of
// Dear ImGui's demo captured on one plugin and replayed on another must show what the program
// itself rendered; a capture of another format version, or a file cut short or damaged, is
// refused with one line, never a crash.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include <unistd.h>

#include "novem/capture_file.hpp"
#include "novem/image.hpp"
#include "run_child.hpp"
#include "x_server.hpp"

namespace {

namespace fs = std::filesystem;
using novem::image::Image;
using Bytes = std::vector<uint8_t>;

const std::map<std::string, std::string> kValidation = {{"VK_INSTANCE_LAYERS", "VK_LAYER_KHRONOS_validation"},
                                                        {"NOVEM_VK_VALIDATION", "1"}};

fs::path out_dir() {
  const fs::path dir = fs::path(NOVEM_BUILD_DIR) / "test-output" / "replay";
  fs::create_directories(dir);
  return dir;
}

Image read_png(const fs::path &path) {
  std::string error;
  auto image = novem::image::read_png(path, &error);
  INFO(path << ": " << error);
  REQUIRE(image);
  return *image;
}

Bytes read_file(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  return Bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_file(const fs::path &path, const Bytes &bytes) {
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char *>(bytes.data()), std::streamsize(bytes.size()));
}

novem::test::ChildRun replay(const std::vector<std::string> &args) {
  std::vector<std::string> argv{NOVEM_REPLAY_PATH};
  argv.insert(argv.end(), args.begin(), args.end());
  return novem::test::run_child(argv, kValidation);
}

// Runs `program` on `backend` for `frames` frames, capturing frames `frames - 1` to `frames`;
// returns the capture's path. The program's own image of its last frame is `name`.png.
fs::path capture(const std::string &program, const std::string &name, const std::string &backend, int frames,
                 std::vector<std::string> args = {}) {
  const fs::path dir = out_dir();
  const fs::path file = dir / (name + ".nvcap");
  fs::remove(file);
  std::vector<std::string> argv{program, "--backend", backend, "--frames", std::to_string(frames), "--out",
                                (dir / (name + ".png")).string()};
  argv.insert(argv.end(), args.begin(), args.end());
  auto env = kValidation;
  env["NOVEM_CAPTURE"] = file.string();
  env["NOVEM_CAPTURE_FRAMES"] = std::to_string(frames - 1) + "-" + std::to_string(frames);
  env["NOVEM_LOG"] = "info";
  const auto run = novem::test::run_child(argv, env);
  INFO(run.output);
  REQUIRE(run.status == 0);
  CHECK(run.output.find("NOVEM_CAPTURE: " + file.string() + " holds " + std::to_string(frames) + " frames") !=
        std::string::npos);
  return file;
}

struct Case {
  const char *program; // "demo" or "imgui"
  const char *captured_on;
  const char *replayed_on;
};

// The demo's cube and ImGui's windows: the same triangles rasterised by two plugins, filtered text
// edges rounding apart by 2 at most (tests/imgui): every pixel within 4 per channel.
constexpr uint32_t kTolerance = 4;

} // namespace

TEST_CASE("replay: frames captured on one plugin replay on the other as the program rendered them", "[replay]") {
  const Case cases[] = {
      {"demo", "vulkan", "opengl"},
      {"demo", "opengl", "vulkan"},
#ifdef NOVEM_IMGUI_DEMO_PATH
      {"imgui", "vulkan", "opengl"},
      {"imgui", "opengl", "vulkan"},
#endif
  };
  for (const Case &c : cases) {
    const std::string name = std::string(c.program) + "_" + c.captured_on + "_to_" + c.replayed_on;
    SECTION(name) {
      const bool demo = std::string(c.program) == "demo";
      const int frames = 3;
      const fs::path file =
          demo ? capture(NOVEM_DEMO_PATH, name, c.captured_on, frames, {"--size", "160x120"})
#ifdef NOVEM_IMGUI_DEMO_PATH
               : capture(NOVEM_IMGUI_DEMO_PATH, name, c.captured_on, frames);
#else
               : fs::path();
#endif
      const fs::path pngs = out_dir() / (name + "_frames");
      fs::remove_all(pngs);
      const auto run = replay({file.string(), "--backend", c.replayed_on, "--dump-png", pngs.string()});
      INFO(run.output);
      REQUIRE(run.status == 0);
      // Frames 2 and 3 are written; frame 1 only made the state they start from.
      CHECK_FALSE(fs::exists(pngs / "frame-0001.png"));
      CHECK(fs::exists(pngs / "frame-0002.png"));
      const Image program = read_png(out_dir() / (name + ".png"));
      const Image replayed = read_png(pngs / "frame-0003.png");
      REQUIRE((program.width == replayed.width && program.height == replayed.height));
      Image diff;
      const auto result = novem::image::compare(program, replayed, kTolerance, &diff);
      novem::image::write_png(out_dir() / (name + "_diff.png"), diff);
      INFO("max channel difference " << result.max_channel_diff << ", " << result.pixels_over_tolerance
                                     << " pixels over " << kTolerance << ", PSNR " << result.psnr << " dB");
      CHECK(result.within_tolerance());
    }
  }
}

TEST_CASE("replay: a program presenting to a window replays headless, its swapchains left out", "[replay]") {
  XServer server; // DISPLAY points at it while it runs
  std::string why;
  if (!server.start(why)) {
    const char *required = std::getenv("NOVEM_TEST_REQUIRE_BACKENDS");
    if (required && *required) FAIL(why << " (NOVEM_TEST_REQUIRE_BACKENDS is set: windows are required)");
    WARN(why << ": skipped");
    return;
  }
  const std::string name = "demo_window_vulkan_to_opengl";
  const fs::path file = capture(NOVEM_DEMO_PATH, name, "vulkan", 3, {"--window", "--size", "160x120"});
  const fs::path pngs = out_dir() / (name + "_frames");
  fs::remove_all(pngs);
  const auto run = replay({file.string(), "--backend", "opengl", "--dump-png", pngs.string()});
  INFO(run.output);
  REQUIRE(run.status == 0);
  const auto result = novem::image::compare(read_png(out_dir() / (name + ".png")), read_png(pngs / "frame-0003.png"),
                                            kTolerance);
  INFO("max channel difference " << result.max_channel_diff);
  CHECK(result.within_tolerance());
}

TEST_CASE("replay: --bench times the captured frames, on the null plugin too", "[replay]") {
  const fs::path file = capture(NOVEM_DEMO_PATH, "demo_bench", "vulkan", 4, {"--size", "64x48"});
  for (const char *backend : {"null", "vulkan"}) {
    const auto run = replay({file.string(), "--backend", backend, "--bench", "--frames", "2-4"});
    INFO(backend << ": " << run.output);
    CHECK(run.status == 0);
    CHECK(run.output.find("frames 2-4 of " + file.string() + " on " + backend + ": 3 frames in ") != std::string::npos);
    CHECK(run.output.find(" frames/s, ") != std::string::npos);
    CHECK(run.output.find(" ms per frame") != std::string::npos);
  }
  const auto past = replay({file.string(), "--backend", "null", "--frames", "3-7"});
  CHECK(past.status == 1);
  CHECK(past.output == "novem-replay: " + file.string() + ": holds 4 frames; frames 3-7 were asked for\n");
}

TEST_CASE("replay: a capture of another format or ABI version, or cut short or damaged, is refused with one line",
          "[replay]") {
  // One capture for every section (Catch runs the test case once per section).
  static const Bytes bytes = read_file(capture(NOVEM_DEMO_PATH, "demo_damaged", "vulkan", 2, {"--size", "32x32"}));
  REQUIRE(bytes.size() > sizeof(novem::capture::FileHeader) + 64);
  constexpr size_t kFirst = sizeof(novem::capture::FileHeader); // the first record's header
  auto set32 = [](Bytes &b, size_t at, uint32_t v) { std::memcpy(b.data() + at, &v, 4); };
  struct Damage {
    const char *name;
    std::function<void(Bytes &)> change;
    const char *says; // a part of the one line
  };
  const Damage damages[] = {
      {"an older format version", [&](Bytes &b) { set32(b, 8, novem::capture::kFormatVersion - 1); }, "is older than"},
      {"a newer format version", [&](Bytes &b) { set32(b, 8, novem::capture::kFormatVersion + 1); }, "is newer than"},
      {"another ABI version", [&](Bytes &b) { set32(b, 12, NV_BACKEND_ABI_VERSION + 1); }, "plugin ABI version"},
      {"not a capture", [](Bytes &b) { std::memcpy(b.data(), "GIF89a..", 8); }, "not a Novem capture"},
      {"cut inside the header", [](Bytes &b) { b.resize(40); }, "shorter than a capture header"},
      {"cut inside a record", [](Bytes &b) { b.resize(b.size() - 24); }, "truncated: record"},
      {"cut inside a record's header", [&](Bytes &b) { b.resize(kFirst + 4); }, "has no whole header"},
      {"an unknown opcode", [&](Bytes &b) { b[kFirst] = 0xff; b[kFirst + 1] = 0x7f; }, "has no command's opcode"},
      {"a record's size not a multiple of 16", [&](Bytes &b) { set32(b, kFirst + 4, 40); }, "not a record of"},
      {"a record larger than the ring allowed", [&](Bytes &b) { set32(b, kFirst + 4, 0x7ffffff0u); }, "not a record of"},
      {"a ring size that is not a power of two", [&](Bytes &b) { set32(b, 16, 3u << 20); }, "not a power of two"},
  };
  for (const Damage &d : damages) {
    SECTION(d.name) {
      Bytes damaged = bytes;
      d.change(damaged);
      const fs::path file = out_dir() / "damaged.nvcap";
      write_file(file, damaged);
      const auto run = replay({file.string(), "--backend", "null"});
      INFO(run.output);
      CHECK(run.status == 1); // not a signal (-1)
      CHECK(run.output.rfind("novem-replay: " + file.string() + ": ", 0) == 0);
      CHECK(run.output.find(d.says) != std::string::npos);
      CHECK(std::count(run.output.begin(), run.output.end(), '\n') == 1);
    }
  }
}

TEST_CASE("replay: a payload shorter than its command announces is refused", "[replay]") {
  const fs::path good = capture(NOVEM_DEMO_PATH, "demo_payload", "vulkan", 2, {"--size", "32x32"});
  Bytes bytes = read_file(good);
  // The first UPDATE_BUFFER made to announce a megabyte more than its record holds.
  size_t at = sizeof(novem::capture::FileHeader);
  nv_cmd_header h{};
  for (; at + sizeof h <= bytes.size(); at += h.size) {
    std::memcpy(&h, bytes.data() + at, sizeof h);
    REQUIRE(h.size >= sizeof h);
    if (h.opcode == NV_OP_UPDATE_BUFFER) break;
  }
  REQUIRE(h.opcode == NV_OP_UPDATE_BUFFER);
  const uint64_t size = uint64_t(1) << 20;
  std::memcpy(bytes.data() + at + sizeof h + offsetof(nv_cmd_update_buffer, size), &size, sizeof size);
  const fs::path file = out_dir() / "short_payload.nvcap";
  write_file(file, bytes);
  const auto run = replay({file.string(), "--backend", "null"});
  INFO(run.output);
  CHECK(run.status == 1);
  CHECK(run.output.find("(UPDATE_BUFFER) announces 1048576 payload bytes and holds ") != std::string::npos);
}

TEST_CASE("replay: a program that ends before the last frame asked for leaves the frames it presented", "[replay]") {
  const fs::path file = out_dir() / "ended_early.nvcap";
  fs::remove(file);
  auto env = kValidation;
  env["NOVEM_CAPTURE"] = file.string();
  env["NOVEM_CAPTURE_FRAMES"] = "2-9";
  const auto run = novem::test::run_child({NOVEM_DEMO_PATH, "--backend", "vulkan", "--frames", "3", "--size", "32x32",
                                           "--out", (out_dir() / "ended_early.png").string()},
                                          env);
  INFO(run.output);
  REQUIRE(run.status == 0);
  const auto replayed = replay({file.string(), "--backend", "null"});
  INFO(replayed.output);
  CHECK(replayed.status == 0);
  CHECK(replayed.output.find("replayed frames 2-3 of ") != std::string::npos);
}

TEST_CASE("replay: NOVEM_CAPTURE_FRAMES that is no range is one line and ignored", "[replay]") {
  const fs::path file = out_dir() / "bad_range.nvcap";
  fs::remove(file);
  auto env = kValidation;
  env["NOVEM_CAPTURE"] = file.string();
  env["NOVEM_CAPTURE_FRAMES"] = "5-2";
  const auto run = novem::test::run_child(
      {NOVEM_DEMO_PATH, "--backend", "null", "--frames", "2", "--size", "32x32", "--out", (out_dir() / "bad_range.png").string()},
      env);
  INFO(run.output);
  CHECK(run.status == 0);
  CHECK(run.output.find("novem: NOVEM_CAPTURE_FRAMES=5-2 is not a range of frames A-B, from 1, with A no larger than "
                        "B; ignored\n") != std::string::npos);
  // Ignored: every frame is captured.
  const auto replayed = replay({file.string(), "--backend", "null"});
  INFO(replayed.output);
  CHECK(replayed.status == 0);
  CHECK(replayed.output.find("replayed frames 1-2 of ") != std::string::npos);
}
