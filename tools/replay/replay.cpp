// novem-replay: replays a capture file (NOVEM_CAPTURE) on a plugin, as the frontend drives one.
//
//   novem-replay FILE.nvcap [--backend vulkan|opengl|null|PATH] [--frames A-B] [--dump-png DIR] [--bench]
//
// The records go into a device's ring as they are, except what needs the capturing program:
// swapchains are not made (every PRESENT becomes a frame boundary, headless), READ_IMAGE is
// dropped (nobody reads the answer) and FENCE values are numbered anew, the replay's own fences
// among them. Frames before A only rebuild the state frames A-B start from. docs/capture.md
// has the file format and the reasons.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include <unistd.h>

#include "novem/capture_file.hpp"
#include "novem/channel.hpp"
#include "novem/image.hpp"
#include "novem/known_settings.hpp"
#include "plugin_loader.hpp"

namespace {

namespace fs = std::filesystem;
constexpr const char *kTool = "novem-replay";

int usage(const std::string &why) {
  std::fprintf(stderr,
               "%s: %s\nusage: %s FILE.nvcap [--backend vulkan|opengl|null|PATH] [--frames A-B] [--dump-png DIR] "
               "[--bench]\n",
               kTool, why.c_str(), kTool);
  return 2;
}

int fail(const std::string &why) {
  std::fprintf(stderr, "%s: %s\n", kTool, why.c_str());
  return 1;
}

struct Options {
  std::string file, backend = "vulkan", dump_dir;
  novem::FrameRange frames{0, 0}; // first 0: the frames the capture was made for
  bool bench = false;
};

// Where plugins are when NOVEM_PLUGIN_PATH does not say: the build tree's lib/ beside bin/, and
// the installed plugin directory (NOVEM_REPLAY_PLUGIN_DIRS, relative to the executable's folder).
void default_plugin_path() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec || std::getenv("NOVEM_PLUGIN_PATH")) return;
  std::string dirs;
  const std::string relative = NOVEM_REPLAY_PLUGIN_DIRS;
  for (size_t start = 0; start <= relative.size();) {
    size_t end = relative.find(':', start);
    if (end == std::string::npos) end = relative.size();
    dirs += (dirs.empty() ? "" : ":") + (exe.parent_path() / relative.substr(start, end - start)).string();
    start = end + 1;
  }
  setenv("NOVEM_PLUGIN_PATH", dirs.c_str(), 0);
}

// Drives one plugin device with the records of a capture.
class Replay {
public:
  // device_flags: the captured device's (a software vertex-processing device's larger vertex block).
  Replay(const novem::LoadedPlugin &plugin, size_t ring_capacity, uint32_t device_flags)
      : plugin_(plugin.plugin), channel_(std::make_unique<nv_channel>(ring_capacity)) {
    nv_device_desc desc{sizeof(nv_device_desc), device_flags, nullptr};
    char message[512] = "";
    device_ = plugin_->create_device(&desc, channel_.get(), message, sizeof message);
    if (!device_) error_ = std::string("backend '") + plugin_->name + "' could not create a device: " + message;
  }
  ~Replay() {
    channel_->ring.flush();
    if (device_) plugin_->destroy_device(device_);
  }
  const std::string &error() const { return error_; }
  bool device_lost() const { return channel_->device_lost.load(std::memory_order_acquire); }

  // Sends one record of the capture, changed where the replay needs it (see the top).
  void send(const nv_cmd_header *record) {
    switch (record->opcode) {
    case NV_OP_CREATE_SWAPCHAIN:
    case NV_OP_DESTROY_SWAPCHAIN:
    case NV_OP_READ_IMAGE: return;
    default: break;
    }
    images_.apply(record);
    nv_cmd_header *h = channel_->ring.begin(record->opcode, record->size);
    std::memcpy(h, record, record->size);
    if (h->opcode == NV_OP_FENCE) {
      reinterpret_cast<nv_cmd_fence *>(h + 1)->value = ++fence_;
    } else if (h->opcode == NV_OP_PRESENT) {
      auto *present = reinterpret_cast<nv_cmd_present *>(h + 1);
      present->swapchain = 0;
      present->src_rect = present->dst_rect = nv_rect{};
    }
    stage();
  }

  // Waits until the plugin has executed everything sent so far.
  void finish() {
    push(nv_cmd_fence{++fence_});
    channel_->wait_fence(fence_);
  }

  // Keeps at most kFramesInFlight frames queued, as the frontend's Present does by default.
  void end_frame() {
    frame_fences_.push_back(fence_);
    if (frame_fences_.size() > kFramesInFlight) {
      channel_->ring.flush();
      channel_->wait_fence(frame_fences_.front());
      frame_fences_.pop_front();
    }
  }

  // Reads the image a PRESENT showed and writes it as a PNG, with opaque alpha as the headless
  // samples write their back buffers (tools/headless).
  bool write_png(uint32_t image, const fs::path &path, std::string &why) {
    const nv_cmd_create_image *desc = images_.find(image);
    if (!desc || desc->format != NV_FORMAT_B8G8R8A8_UNORM || desc->type != NV_IMAGE_TYPE_2D || desc->samples > 1) {
      why = "the presented image " + std::to_string(image) + " is not a single-sampled 2D B8G8R8A8 image";
      return false;
    }
    channel_->reserve_readback(size_t(desc->width) * desc->height * 4);
    push(nv_cmd_read_image{image, nv_rect{0, 0, int32_t(desc->width), int32_t(desc->height)}, 0, 0});
    finish();
    const novem::image::Image png =
        novem::image::from_bgra8(channel_->readback, desc->width, desc->height, size_t(desc->width) * 4, true);
    return novem::image::write_png(path, png, &why);
  }

private:
  static constexpr size_t kFramesInFlight = 3;
  static constexpr uint64_t kBatchBytes = 65536; // as the frontend's CommandStream batches

  template <class Args> void push(const Args &args) {
    *novem::ring_begin<Args>(channel_->ring) = args;
    stage();
  }
  void stage() {
    novem::CommandRing &ring = channel_->ring;
    ring.stage();
    if (ring.unpublished_bytes() >= kBatchBytes) ring.publish();
  }

  const nv_plugin *plugin_;
  std::unique_ptr<nv_channel> channel_;
  nv_device *device_ = nullptr;
  std::string error_;
  novem::capture::Images images_;
  uint64_t fence_ = 0;
  std::deque<uint64_t> frame_fences_;
};

int run(const Options &o) {
  std::ifstream in(o.file, std::ios::binary);
  if (!in) return fail(o.file + ": cannot be read");
  const std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  novem::capture::Capture capture;
  std::string why;
  if (!novem::capture::read(bytes.data(), bytes.size(), capture, why)) return fail(o.file + ": " + why);
  const novem::capture::FileHeader &h = capture.header;
  novem::FrameRange frames = o.frames;
  // By default the frames it was made for, or as many of them as the program presented.
  if (!frames.first)
    frames = {h.first_frame, std::min<uint64_t>(h.last_frame ? h.last_frame : capture.frames, capture.frames)};
  if (!capture.frames) return fail(o.file + ": holds no whole frame (no PRESENT)");
  if (frames.last > capture.frames || frames.first > frames.last)
    return fail(o.file + ": holds " + std::to_string(capture.frames) + " frames; frames " +
                std::to_string(frames.first) + "-" + std::to_string(frames.last) + " were asked for");
  if (!o.dump_dir.empty()) {
    std::error_code ec;
    fs::create_directories(o.dump_dir, ec);
    if (ec) return fail(o.dump_dir + ": " + ec.message());
  }

  default_plugin_path();
  novem::LoadedPlugin plugin;
  if (!novem::load_plugin(o.backend, plugin, why)) return fail(why);
  // Records are copied whole, so alignment within them is the ring's: the records are read from
  // an aligned copy of the file.
  std::vector<uint64_t> aligned((bytes.size() + 7) / 8);
  std::memcpy(aligned.data(), bytes.data(), bytes.size());
  const auto *base = reinterpret_cast<const uint8_t *>(aligned.data());

  Replay replay(plugin, size_t(h.ring_capacity), h.device_flags);
  if (!replay.error().empty()) return fail(replay.error());
  using Clock = std::chrono::steady_clock;
  Clock::time_point start{};
  uint64_t frame = 1; // the frame the next record belongs to
  if (o.bench && frames.first == 1) start = Clock::now();
  for (size_t offset : capture.records) {
    const auto *record = reinterpret_cast<const nv_cmd_header *>(base + offset);
    replay.send(record);
    if (record->opcode != NV_OP_PRESENT) continue;
    if (frame >= frames.first && !o.dump_dir.empty()) {
      char name[32];
      std::snprintf(name, sizeof name, "frame-%04llu.png", static_cast<unsigned long long>(frame));
      if (!replay.write_png(reinterpret_cast<const nv_cmd_present *>(record + 1)->image, fs::path(o.dump_dir) / name,
                            why))
        return fail("frame " + std::to_string(frame) + ": " + why);
    }
    replay.end_frame();
    if (frame == frames.last) break;
    if (++frame == frames.first && o.bench) {
      replay.finish(); // the frames before only set the state up: they are not timed
      start = Clock::now();
    }
  }
  replay.finish();
  if (replay.device_lost()) return fail("the " + std::string(plugin.plugin->name) + " device was lost");
  if (o.bench) {
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    const uint64_t n = frames.last - frames.first + 1;
    std::printf("%s: frames %llu-%llu of %s on %s: %llu frames in %.3f s, %.1f frames/s, %.3f ms per frame\n", kTool,
                static_cast<unsigned long long>(frames.first), static_cast<unsigned long long>(frames.last),
                o.file.c_str(), plugin.plugin->name, static_cast<unsigned long long>(n), seconds, n / seconds,
                seconds * 1000.0 / double(n));
  } else {
    std::printf("%s: replayed frames %llu-%llu of %s (captured on %.*s) on %s\n", kTool,
                static_cast<unsigned long long>(frames.first), static_cast<unsigned long long>(frames.last),
                o.file.c_str(), int(sizeof h.plugin), h.plugin, plugin.plugin->name);
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> const char * { return i + 1 < argc ? argv[++i] : nullptr; };
    if (arg == "--backend") {
      const char *v = value();
      if (!v) return usage("--backend needs a value");
      o.backend = v;
    } else if (arg == "--frames") {
      const char *v = value();
      if (!v || !novem::frame_range(v, o.frames)) return usage("--frames needs A-B, from 1, with A no larger than B");
    } else if (arg == "--dump-png") {
      const char *v = value();
      if (!v) return usage("--dump-png needs a folder");
      o.dump_dir = v;
    } else if (arg == "--bench") {
      o.bench = true;
    } else if (arg == "--help" || arg == "-h") {
      usage("replays a capture file (NOVEM_CAPTURE) on a plugin");
      return 0;
    } else if (!arg.empty() && arg[0] != '-' && o.file.empty()) {
      o.file = arg;
    } else {
      return usage("unknown argument " + arg);
    }
  }
  if (o.file.empty()) return usage("no capture file");
  if (o.bench && !o.dump_dir.empty()) return usage("--bench would time --dump-png's readbacks: use one of them");
  return run(o);
}
