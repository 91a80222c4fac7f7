// Creations a plugin cannot make (ABI 9), through the ABI on each plugin: images and buffers past
// the device's limits are reported in the channel (failed_image, failed_buffer,
// creation_failures) with one logged line each, every later command naming them is quiet and
// draws nothing with them (novem/failed_creations.hpp), and the handle works again once made
// anew. The Vulkan runs are under the validation layer like every test: no invalid call may reach
// Vulkan (a buffer past maxBufferSize, an image past its format's largest extent, an allocation
// past its heap are refused before the call); on GL any GL error fails the test.
//
// The limits are the real ones: an image twice as wide as the adapter's max_texture_size and a
// 1 TiB buffer on any device; on llvmpipe (lavapipe and GL) also a 16384x16384 A16B16G16R16F
// texture with its mips (2.7 GiB: past lavapipe's 2 GiB maxMemoryAllocationSize and heap, and
// past llvmpipe's largest GL texture). NOVEM_VK_MAX_ALLOCATION lowers the Vulkan plugin's
// largest allocation, as a driver with a smaller maxMemoryAllocationSize would.
//
// Beside them, the other half of the policy for commands that name what is not there: handles
// named wrongly (violations_are_skipped).
#include <dlfcn.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "novem/backend.h"
#include "novem/channel.hpp"
#include "novem/handle_table.hpp"
#include "../support/plugin_abi.hpp"

#ifndef CONTRACT_SHADER_DIR
#error "CONTRACT_SHADER_DIR must name the folder of the assembled shaders"
#endif

namespace {

using novem::test::load_plugin;
using novem::test::load_spirv;
using novem::test::ScopedEnv;

// What the process writes on stderr (the plugins' threads too) while it lives; finish() gives
// it back to stderr, where ctest looks for validation and GL errors and handle violations, and
// returns it. A scene that makes violations on purpose keeps them (echo false) and counts every
// plugin line itself.
class StderrCapture {
public:
  StderrCapture() : file_(std::tmpfile()) {
    REQUIRE(file_ != nullptr);
    std::fflush(stderr);
    saved_ = dup(2);
    dup2(fileno(file_), 2);
  }
  ~StderrCapture() { finish(); }
  std::string finish(bool echo = true) {
    if (saved_ < 0) return text_;
    std::fflush(stderr);
    dup2(saved_, 2);
    close(saved_);
    saved_ = -1;
    std::rewind(file_);
    char buffer[4096];
    for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, file_)) > 0;) text_.append(buffer, n);
    std::fclose(file_);
    if (echo) std::fputs(text_.c_str(), stderr);
    return text_;
  }

private:
  std::FILE *file_;
  int saved_ = -1;
  std::string text_;
};

// The plugin's lines ("novem-vulkan: ...", "novem-opengl: ..."), and those of them that report a
// creation that could not be made.
int plugin_lines(const std::string &text, const char *containing = "") {
  std::istringstream in(text);
  int n = 0;
  for (std::string line; std::getline(in, line);)
    if (line.rfind("novem-", 0) == 0 && line.find(containing) != std::string::npos) ++n;
  return n;
}

struct Vertex {
  float x, y, z;
  uint32_t color; // 0xAARRGGBB
};
struct TexVertex {
  float x, y, z, u, v;
};

constexpr int kSize = 32;
constexpr uint32_t kBlue = 0xFF0000FF, kGreen = 0xFF00FF00, kBlack = 0xFF000000;

// Window pixels to clip space for a kSize target: a rectangle as two triangles.
template <class V, class Make> std::vector<V> rect(float x0, float y0, float x1, float y1, Make make) {
  auto nx = [](float px) { return px / (kSize / 2.0f) - 1.0f; };
  auto ny = [](float py) { return 1.0f - py / (kSize / 2.0f); };
  const V a = make(nx(x0), ny(y0), 0, 0), b = make(nx(x1), ny(y0), 1, 0), c = make(nx(x0), ny(y1), 0, 1),
          d = make(nx(x1), ny(y1), 1, 1);
  return {a, b, c, b, d, c};
}
std::vector<Vertex> color_rect(float x0, float y0, float x1, float y1, uint32_t color) {
  return rect<Vertex>(x0, y0, x1, y1, [&](float x, float y, float, float) { return Vertex{x, y, 0.5f, color}; });
}
std::vector<TexVertex> tex_rect(float x0, float y0, float x1, float y1) {
  return rect<TexVertex>(x0, y0, x1, y1, [](float x, float y, float u, float v) { return TexVertex{x, y, 0.5f, u, v}; });
}

nv_pipeline_desc pipeline(uint32_t vs, uint32_t ps, bool textured) {
  nv_pipeline_desc d;
  std::memset(&d, 0, sizeof d);
  d.vertex_shader = vs;
  d.pixel_shader = ps;
  d.topology = NV_TOPOLOGY_TRIANGLE_LIST;
  d.cull = NV_CULL_NONE;
  d.depth_compare = NV_COMPARE_ALWAYS;
  d.color_src = d.alpha_src = NV_BLEND_ONE;
  d.color_dst = d.alpha_dst = NV_BLEND_ZERO;
  d.color_op = d.alpha_op = NV_BLEND_OP_ADD;
  d.color_write_mask = 0xF;
  d.attribute_count = 2;
  d.attributes[0] = nv_vertex_attribute{0, 0, NV_FORMAT_R32G32B32_SFLOAT, 0, 0};
  d.attributes[1] = textured ? nv_vertex_attribute{1, 0, NV_FORMAT_R32G32_SFLOAT, 0, 12}
                             : nv_vertex_attribute{1, 0, NV_FORMAT_B8G8R8A8_UNORM, 0, 12};
  return d;
}

class Device {
public:
  explicit Device(const nv_plugin *api) : api_(api), channel_(1u << 20) {
    nv_device_desc desc{sizeof(nv_device_desc), 0, nullptr};
    char error[256] = {};
    device_ = api->create_device(&desc, &channel_, error, sizeof error);
    INFO("create_device: " << error);
    REQUIRE(device_ != nullptr);
  }
  ~Device() { api_->destroy_device(device_); }
  Device(const Device &) = delete;
  Device &operator=(const Device &) = delete;
  nv_channel &channel() { return channel_; }

  template <novem::CommandArgs Args> void push(const Args &args, const void *payload = nullptr, size_t bytes = 0) {
    Args *a = novem::ring_begin<Args>(channel_.ring, bytes);
    *a = args;
    if (bytes) std::memcpy(novem::command_payload(a), payload, bytes);
    channel_.ring.commit();
  }
  void finish() {
    push(nv_cmd_fence{++fence_});
    channel_.wait_fence(fence_);
  }
  uint32_t shader(nv_shader_stage stage, const std::string &name) {
    const std::vector<uint32_t> words = load_spirv(name);
    push(nv_cmd_create_shader{next_, uint32_t(stage), uint32_t(words.size())}, words.data(),
         words.size() * 4);
    return next_++;
  }
  uint32_t image(nv_format format, uint32_t usage, uint32_t w, uint32_t h, uint32_t levels = 1) {
    push(nv_cmd_create_image{next_, uint32_t(format), w, h, usage, levels});
    return next_++;
  }
  // A buffer of `bytes` (none sent when data is null), under a new handle or under `handle`.
  uint32_t buffer(uint64_t bytes, const void *data = nullptr, uint32_t usage = NV_BUFFER_VERTEX, uint32_t handle = 0) {
    if (!handle) handle = next_++;
    push(nv_cmd_create_buffer{handle, usage, bytes});
    if (data) push(nv_cmd_update_buffer{handle, NV_UPDATE_DISCARD, 0, bytes}, data, size_t(bytes));
    return handle;
  }
  template <class V> uint32_t buffer(const std::vector<V> &v, uint32_t handle = 0) {
    return buffer(v.size() * sizeof(V), v.data(), NV_BUFFER_VERTEX, handle);
  }
  void targets(uint32_t color) {
    push(nv_cmd_set_render_targets{color, 0});
    push(nv_cmd_set_viewport{0, 0, kSize, kSize, 0, 1});
    push(nv_cmd_set_scissor{{0, 0, kSize, kSize}});
  }
  void clear(const float (&color)[4]) {
    nv_cmd_clear c{};
    c.flags = NV_CLEAR_COLOR;
    std::memcpy(c.color, color, sizeof c.color);
    c.depth = 1;
    c.rect_count = 1; // the contract's clears carry at least one rectangle
    const nv_rect whole{0, 0, kSize, kSize};
    push(c, &whole, sizeof whole);
  }
  void draw(uint32_t buffer, uint32_t stride, uint32_t count) {
    push(nv_cmd_set_vertex_buffer{0, buffer, 0, stride});
    push(nv_cmd_draw{0, count});
  }
  // The kSize x kSize B8G8R8A8 image's pixels, as 0xAARRGGBB; the readback area holds `fill`
  // bytes before, so that what READ_IMAGE leaves alone shows.
  std::vector<uint32_t> read(uint32_t image, uint8_t fill = 0xCD) {
    const size_t bytes = size_t(kSize) * kSize * 4;
    channel_.reserve_readback(bytes);
    std::memset(channel_.readback, fill, bytes);
    push(nv_cmd_read_image{image, {0, 0, kSize, kSize}});
    finish();
    std::vector<uint32_t> pixels(size_t(kSize) * kSize);
    std::memcpy(pixels.data(), channel_.readback, bytes);
    return pixels;
  }

private:
  const nv_plugin *api_;
  nv_channel channel_;
  nv_device *device_ = nullptr;
  uint32_t next_ = 1;
  uint64_t fence_ = 0;
};

// Pixels that differ from expected(x, y) (0xAARRGGBB, one unit of tolerance), the first few named.
template <class Expected> void check_pixels(const std::vector<uint32_t> &px, Expected expected) {
  int wrong = 0;
  std::ostringstream first;
  for (int y = 0; y < kSize; ++y)
    for (int x = 0; x < kSize; ++x) {
      const uint32_t got = px[size_t(y) * kSize + size_t(x)], want = expected(x, y);
      bool same = true;
      for (int s = 0; s < 32; s += 8) same &= std::abs(int(got >> s & 0xFF) - int(want >> s & 0xFF)) <= 1;
      if (!same && wrong++ < 4) first << " (" << x << "," << y << ")=" << std::hex << got << " want " << want << std::dec;
    }
  INFO(wrong << " pixels differ:" << first.str());
  CHECK(wrong == 0);
}

bool is_llvmpipe(const nv_adapter_info &info) { return std::strstr(info.device_name, "llvmpipe") != nullptr; }

// The plugin's device, or nullptr (with "skipped: why") where the plugin is not here.
std::unique_ptr<Device> open_device(const std::string &name, nv_adapter_info *info = nullptr) {
  std::string skip;
  const nv_plugin *api = load_plugin(name, skip, info);
  if (!api) {
    WARN("skipped: " << skip);
    return nullptr;
  }
  return std::make_unique<Device>(api);
}

// What the scenes draw with: a kSize x kSize target, the colour shaders and a green quad.
struct Basics {
  explicit Basics(Device &dev)
      : target(dev.image(NV_FORMAT_B8G8R8A8_UNORM, NV_IMAGE_RENDER_TARGET, kSize, kSize)),
        vs(dev.shader(NV_STAGE_VERTEX, "vs_color")), ps(dev.shader(NV_STAGE_PIXEL, "ps_color")),
        quad(dev.buffer(color_rect(0, 0, kSize, kSize, kGreen))) {}
  const uint32_t target, vs, ps, quad;
};

// Basics with the target bound and cleared to blue.
Basics blue_target(Device &dev) {
  Basics basics(dev);
  dev.targets(basics.target);
  const float blue[4] = {0, 0, 1, 1};
  dev.clear(blue);
  return basics;
}

void failures_are_answered(const std::string &name) {
  nv_adapter_info info{};
  const std::unique_ptr<Device> opened = open_device(name, &info);
  if (!opened) return;
  Device &dev = *opened;
  const auto [target, vs, ps, quad] = Basics(dev);
  const uint32_t tex_vs = dev.shader(NV_STAGE_VERTEX, "vs_tex"), tex_ps = dev.shader(NV_STAGE_PIXEL, "ps_tex");
  dev.finish();

  StderrCapture log;
  // Past the device's largest image: refused before any API call on either plugin.
  const uint32_t wide = dev.image(NV_FORMAT_B8G8R8A8_UNORM, NV_IMAGE_SAMPLED, info.max_texture_size * 2, 4);
  // Past any buffer a device makes (Vulkan: maxBufferSize, or the allocation and heap limits).
  const uint32_t huge = dev.buffer(1ull << 40);
  const uint32_t huge_indices = dev.buffer(1ull << 40, nullptr, NV_BUFFER_INDEX);
  // 2.7 GiB of texels in one image: the driver's own limit on llvmpipe (elsewhere it may fit).
  const uint32_t deep = dev.image(NV_FORMAT_R16G16B16A16_SFLOAT, NV_IMAGE_SAMPLED, 16384, 16384, 15);
  dev.finish();
  nv_channel &ch = dev.channel();
  const bool deep_failed = ch.failed_image.load() == deep;
  if (is_llvmpipe(info)) CHECK(deep_failed);
  if (!deep_failed) {
    CHECK(ch.failed_image.load() == wide);
    dev.push(nv_cmd_destroy_image{deep});
  }
  CHECK(ch.failed_buffer.load() == huge_indices);
  const uint64_t failures = deep_failed ? 4 : 3;
  CHECK(ch.creation_failures.load() == failures);
  nv_statistics stats{};
  ch.statistics(stats);
  CHECK(stats.creation_failures == failures);

  // Every later command naming them does nothing, quietly.
  const float blue[4] = {0, 0, 1, 1}, red[4] = {1, 0, 0, 1};
  dev.targets(target);
  dev.clear(blue);
  const uint8_t bytes[64] = {};
  dev.push(nv_cmd_update_buffer{huge, 0, 0, sizeof bytes}, bytes, sizeof bytes);
  dev.push(nv_cmd_update_image{wide, 0, {0, 0, 4, 4}, 0}, bytes, sizeof bytes);
  dev.push(nv_cmd_generate_mips{wide, NV_FILTER_LINEAR});
  dev.push(nv_cmd_fill_image{wide, 0, {0, 0, 4, 4}, {1, 0, 0, 1}});
  const nv_rect corner{0, 0, 4, 4};
  dev.push(nv_cmd_blit_image{wide, 0, corner, target, 0, corner, NV_FILTER_POINT});
  dev.push(nv_cmd_blit_image{target, 0, corner, wide, 0, corner, NV_FILTER_POINT});
  const std::vector<uint32_t> untouched = dev.read(wide, 0xCD);
  CHECK(untouched[0] == 0xCDCDCDCDu);
  CHECK(untouched.back() == 0xCDCDCDCDu);
  // As a render target: clears and draws draw nothing until the targets change.
  dev.targets(wide);
  dev.clear(red);
  dev.push(nv_cmd_set_pipeline{pipeline(vs, ps, false)});
  dev.draw(quad, sizeof(Vertex), 6);
  dev.targets(target);
  // As a vertex buffer, or an index buffer: the draw draws nothing.
  dev.draw(huge, sizeof(Vertex), 6);
  dev.push(nv_cmd_set_vertex_buffer{0, quad, 0, sizeof(Vertex)});
  dev.push(nv_cmd_set_index_buffer{huge_indices, 0, 2});
  dev.push(nv_cmd_draw_indexed{0, 6, 0});
  dev.push(nv_cmd_present{wide, 0, {}, {}});
  check_pixels(dev.read(target), [](int, int) { return kBlue; });
  // As a texture: sampled as a slot with no image, (0, 0, 0, 1), on the left half.
  nv_cmd_set_texture t{};
  t.stage = NV_STAGE_PIXEL;
  t.image = wide;
  t.sampler.min_filter = t.sampler.mag_filter = NV_FILTER_POINT;
  t.sampler.max_anisotropy = 1;
  t.type = NV_IMAGE_TYPE_2D;
  dev.push(t);
  dev.push(nv_cmd_set_pipeline{pipeline(tex_vs, tex_ps, true)});
  dev.draw(dev.buffer(tex_rect(0, 0, kSize / 2, kSize)), sizeof(TexVertex), 6);
  check_pixels(dev.read(target), [](int x, int) { return x < kSize / 2 ? kBlack : kBlue; });
  const std::string text = log.finish();
  CHECK(plugin_lines(text, "cannot be made") == int(failures));
  CHECK(plugin_lines(text) == int(failures)); // nothing else was said about them

  // Destroyed, each handle is free again: made anew within the limits, it works.
  dev.push(nv_cmd_destroy_buffer{huge});
  dev.push(nv_cmd_destroy_image{wide});
  dev.buffer(color_rect(0, 0, kSize, kSize, kGreen), huge);
  dev.push(nv_cmd_create_image{wide, NV_FORMAT_B8G8R8A8_UNORM, kSize, kSize, NV_IMAGE_RENDER_TARGET, 1});
  dev.targets(wide);
  dev.push(nv_cmd_set_pipeline{pipeline(vs, ps, false)});
  dev.draw(huge, sizeof(Vertex), 6);
  check_pixels(dev.read(wide), [](int, int) { return kGreen; });
  CHECK(ch.creation_failures.load() == failures);
}

// Handles named wrongly (docs/contract.md, "handles"): a CREATE of a handle that names an object
// or of 0, and a command acting on a handle that names nothing, are one line each, the same words
// on every plugin, and do nothing: the objects already there keep working. Binding a handle that
// names nothing, and destroying handle 0, say nothing.
void violations_are_skipped(const std::string &name) {
  const std::unique_ptr<Device> opened = open_device(name);
  if (!opened) return;
  Device &dev = *opened;
  const auto [target, vs, ps, quad] = blue_target(dev);
  dev.finish();

  StderrCapture log;
  constexpr uint32_t kNone = 9000; // names nothing
  dev.push(nv_cmd_create_buffer{quad, NV_BUFFER_VERTEX, 16});
  dev.push(nv_cmd_create_image{target, NV_FORMAT_B8G8R8A8_UNORM, 4, 4, NV_IMAGE_RENDER_TARGET, 1});
  dev.push(nv_cmd_create_buffer{0, NV_BUFFER_VERTEX, 16});
  const uint32_t texel = kBlack;
  dev.push(nv_cmd_update_buffer{kNone, 0, 0, 4}, &texel, 4);
  dev.push(nv_cmd_update_image{kNone + 1, 0, {0, 0, 1, 1}, 0}, &texel, 4);
  dev.push(nv_cmd_generate_mips{kNone + 2, NV_FILTER_LINEAR});
  dev.push(nv_cmd_fill_image{kNone + 3, 0, {0, 0, 1, 1}, {1, 0, 0, 1}, 0});
  dev.push(nv_cmd_blit_image{kNone + 4, 0, {0, 0, 1, 1}, target, 0, {0, 0, 1, 1}, NV_FILTER_POINT, 0, 0});
  dev.push(nv_cmd_read_image{kNone + 5, {0, 0, 1, 1}});
  dev.push(nv_cmd_destroy_buffer{kNone + 6});
  dev.push(nv_cmd_destroy_image{kNone + 7});
  dev.push(nv_cmd_destroy_shader{kNone + 8});
  constexpr int kViolations = 12;
  dev.push(nv_cmd_destroy_image{0}); // names nothing, by definition
  nv_cmd_set_texture t{};
  t.stage = NV_STAGE_PIXEL;
  t.image = kNone + 9; // an empty slot, as the contract defines
  t.sampler.min_filter = t.sampler.mag_filter = NV_FILTER_POINT;
  t.sampler.max_anisotropy = 1;
  t.type = NV_IMAGE_TYPE_2D;
  dev.push(t);
  check_pixels(dev.read(target), [](int, int) { return kBlue; }); // the target was not made again
  dev.push(nv_cmd_set_pipeline{pipeline(vs, ps, false)});
  dev.draw(quad, sizeof(Vertex), 6); // the buffer keeps its vertices
  check_pixels(dev.read(target), [](int, int) { return kGreen; });
  const std::string text = log.finish(false);
  CHECK(plugin_lines(text, "; the command is skipped") == kViolations);
  CHECK(plugin_lines(text) == kViolations); // nothing else was said
  const std::string plugin = "novem-" + name + ": ";
  for (const std::string &line : {"CREATE_BUFFER: buffer " + std::to_string(quad) + " already exists",
                                 "CREATE_IMAGE: image " + std::to_string(target) + " already exists",
                                 std::string("CREATE_BUFFER: buffer 0 is no handle"),
                                 "UPDATE_BUFFER: buffer " + std::to_string(kNone) + " does not exist",
                                 "BLIT_IMAGE: image " + std::to_string(kNone + 4) + " does not exist",
                                 "DESTROY_SHADER: shader " + std::to_string(kNone + 8) + " does not exist"})
    CHECK(text.find(plugin + line + "; the command is skipped\n") != std::string::npos);
}

// Commands whose own arguments break the contract (backends/include/novem/command_checks.hpp),
// each with the line it gets. Each sends its command on a device with a blue target, the quad
// and shaders of blue_target, and a 4x4 sampled texture.
constexpr uint32_t kArgumentTexture = 8000;
struct ArgumentCase {
  const char *line;
  void (*send)(Device &dev, const Basics &b);
};
const std::vector<uint32_t> kGreenTexels(16, kGreen);
const float kConstants[4] = {1, 0, 0, 1};
nv_cmd_set_texture texture_command(uint32_t slot, uint32_t type) {
  nv_cmd_set_texture t{};
  t.stage = NV_STAGE_PIXEL;
  t.slot = slot;
  t.type = type;
  return t;
}
const ArgumentCase kArgumentCases[] = {
    {"UPDATE_IMAGE: the rectangle is outside the level",
     [](Device &dev, const Basics &) {
       dev.push(nv_cmd_update_image{kArgumentTexture, 0, {2, 2, 4, 4}, 0}, kGreenTexels.data(), kGreenTexels.size() * 4);
     }},
    {"UPDATE_IMAGE: no such mip level",
     [](Device &dev, const Basics &) {
       dev.push(nv_cmd_update_image{kArgumentTexture, 3, {0, 0, 1, 1}, 0}, kGreenTexels.data(), 4);
     }},
    {"UPDATE_IMAGE: row_pitch is shorter than a row",
     [](Device &dev, const Basics &) {
       dev.push(nv_cmd_update_image{kArgumentTexture, 0, {0, 0, 4, 4}, 8}, kGreenTexels.data(), kGreenTexels.size() * 4);
     }},
    {"UPDATE_IMAGE: the rows run past the record",
     [](Device &dev, const Basics &) {
       dev.push(nv_cmd_update_image{kArgumentTexture, 0, {0, 0, 4, 4}, 0}, kGreenTexels.data(), 8);
     }},
    {"UPDATE_IMAGE: the image is not a sampled colour image",
     [](Device &dev, const Basics &b) {
       dev.push(nv_cmd_update_image{b.target, 0, {0, 0, 1, 1}, 0}, kGreenTexels.data(), 4);
     }},
    {"SET_TEXTURE: no such texture slot", [](Device &dev, const Basics &) { dev.push(texture_command(99, NV_IMAGE_TYPE_2D)); }},
    {"SET_TEXTURE: no such image type", [](Device &dev, const Basics &) { dev.push(texture_command(0, 9)); }},
    {"SET_INDEX_BUFFER: index_size must be 2 or 4",
     [](Device &dev, const Basics &b) { dev.push(nv_cmd_set_index_buffer{b.quad, 0, 3}); }},
    {"SET_INDEX_BUFFER: offset is not a multiple of index_size",
     [](Device &dev, const Basics &b) { dev.push(nv_cmd_set_index_buffer{b.quad, 2, 4}); }},
    {"READ_IMAGE: the rectangle is empty or outside the level",
     [](Device &dev, const Basics &) { dev.push(nv_cmd_read_image{kArgumentTexture, {0, 0, 8, 8}, 0, 0}); }},
    {"FILL_IMAGE: the rectangle is empty or outside the level",
     [](Device &dev, const Basics &) { dev.push(nv_cmd_fill_image{kArgumentTexture, 1, {0, 0, 1, 1}, {1, 0, 0, 1}, 0}); }},
    {"BLIT_IMAGE: needs two different images",
     [](Device &dev, const Basics &) {
       dev.push(nv_cmd_blit_image{kArgumentTexture, 0, {0, 0, 1, 1}, kArgumentTexture, 0, {1, 1, 1, 1}, NV_FILTER_POINT, 0, 0});
     }},
    {"BLIT_IMAGE: a rectangle is empty or outside its level",
     [](Device &dev, const Basics &b) {
       dev.push(nv_cmd_blit_image{kArgumentTexture, 0, {0, 0, 8, 8}, b.target, 0, {0, 0, 8, 8}, NV_FILTER_POINT, 0, 0});
     }},
    {"SET_VERTEX_BUFFER: no such vertex buffer slot",
     [](Device &dev, const Basics &b) { dev.push(nv_cmd_set_vertex_buffer{NV_MAX_VERTEX_BUFFERS, b.quad, 0, 16}); }},
    {"SET_CONSTANTS: no such stage",
     [](Device &dev, const Basics &) {
       dev.push(nv_cmd_set_constants{NV_STAGE_COUNT, sizeof kConstants}, kConstants, sizeof kConstants);
     }},
    {"UPDATE_CONSTANTS: the bytes run past the record",
     [](Device &dev, const Basics &) {
       dev.push(nv_cmd_update_constants{NV_STAGE_PIXEL, 0, 64}, kConstants, sizeof kConstants);
     }},
    {"CREATE_SHADER: word_count runs past the record",
     [](Device &dev, const Basics &) {
       dev.push(nv_cmd_create_shader{9000, NV_STAGE_VERTEX, 64}, kConstants, sizeof kConstants);
     }},
    {"GENERATE_MIPS: the image is not a sampled, uncompressed colour image",
     [](Device &dev, const Basics &b) { dev.push(nv_cmd_generate_mips{b.target, NV_FILTER_LINEAR}); }},
    {"SET_RENDER_TARGETS: the targets differ in sample count",
     [](Device &dev, const Basics &b) {
       dev.push(nv_cmd_create_image{8001, NV_FORMAT_B8G8R8A8_UNORM, kSize, kSize, NV_IMAGE_RENDER_TARGET, 1, NV_IMAGE_TYPE_2D, 1, 4});
       nv_cmd_set_render_targets t{b.target, 0, {8001, 0, 0}, {}, {}, 0};
       dev.push(t);
     }},
    {"SET_RENDER_TARGETS: a colour target is a depth-stencil image",
     [](Device &dev, const Basics &) {
       dev.push(nv_cmd_create_image{8002, NV_FORMAT_D24_UNORM_S8_UINT, kSize, kSize, NV_IMAGE_DEPTH_STENCIL, 1, NV_IMAGE_TYPE_2D, 1, 1});
       dev.push(nv_cmd_set_render_targets{8002, 0, {}, {}, {}, 0});
     }},
    {"SET_RENDER_TARGETS: a colour target's level or face is not in its image",
     [](Device &dev, const Basics &b) { dev.push(nv_cmd_set_render_targets{b.target, 0, {}, {1, 0, 0, 0}, {}, 0}); }},
    {"SET_RENDER_TARGETS: the depth-stencil target is not a depth-stencil image",
     [](Device &dev, const Basics &b) { dev.push(nv_cmd_set_render_targets{b.target, kArgumentTexture, {}, {}, {}, 0}); }},
    {"BEGIN_QUERY: only occlusion queries begin",
     [](Device &dev, const Basics &) { dev.push(nv_cmd_begin_query{0, NV_QUERY_TIMESTAMP}); }},
    {"END_QUERY: no such query slot",
     [](Device &dev, const Basics &) { dev.push(nv_cmd_end_query{NV_MAX_QUERIES, NV_QUERY_OCCLUSION}); }},
};

// The cases in rounds of what one device's budget of lines holds: one line each, the same words
// on every plugin, and nothing done: the target keeps its contents.
void arguments_are_checked(const std::string &name) {
  constexpr size_t kRound = novem::ContractViolations::kReported;
  for (size_t first = 0; first < std::size(kArgumentCases); first += kRound) {
    const std::unique_ptr<Device> opened = open_device(name);
    if (!opened) return;
    Device &dev = *opened;
    const Basics basics = blue_target(dev);
    dev.push(nv_cmd_create_image{kArgumentTexture, NV_FORMAT_B8G8R8A8_UNORM, 4, 4, NV_IMAGE_SAMPLED, 1});
    dev.finish();

    StderrCapture log;
    const size_t end = std::min(first + kRound, std::size(kArgumentCases));
    for (size_t i = first; i < end; ++i) kArgumentCases[i].send(dev, basics);
    check_pixels(dev.read(basics.target), [](int, int) { return kBlue; });
    const std::string text = log.finish(false);
    CHECK(plugin_lines(text, "; the command is skipped") == int(end - first));
    CHECK(plugin_lines(text) == int(end - first)); // nothing else was said
    const std::string plugin = "novem-" + name + ": ";
    for (size_t i = first; i < end; ++i) {
      CAPTURE(kArgumentCases[i].line);
      CHECK(text.find(plugin + kArgumentCases[i].line + "; the command is skipped\n") != std::string::npos);
    }
  }
}

} // namespace

TEST_CASE("vulkan: images and buffers past the device's limits are reported, and commands naming them do nothing",
          "[contract][vulkan][memory]") {
  failures_are_answered("vulkan");
}

TEST_CASE("opengl: images and buffers past the device's limits are reported, and commands naming them do nothing",
          "[contract][opengl][memory]") {
  failures_are_answered("opengl");
}

TEST_CASE("vulkan: NOVEM_VK_MAX_ALLOCATION refuses larger images and buffers, smaller ones are made",
          "[contract][vulkan][memory]") {
  nv_adapter_info info{};
  std::string skip;
  const nv_plugin *api = load_plugin("vulkan", skip, &info);
  if (!api) {
    WARN("skipped: " << skip);
    return;
  }
  ScopedEnv limit;
  limit.set("NOVEM_VK_MAX_ALLOCATION", "33554432"); // 32 MiB
  Device dev(api);
  const uint32_t image = dev.image(NV_FORMAT_B8G8R8A8_UNORM, NV_IMAGE_SAMPLED, 4096, 4096); // 64 MiB
  dev.finish();
  CHECK(dev.channel().failed_image.load() == image);
  const uint32_t buffer = dev.buffer(48ull << 20);
  dev.finish();
  CHECK(dev.channel().failed_buffer.load() == buffer);
  // Within the limit: made (a buffer of its own past a quarter of a block, an image in a block).
  const uint32_t fits = dev.buffer(24ull << 20);
  const uint32_t small = dev.image(NV_FORMAT_B8G8R8A8_UNORM, NV_IMAGE_SAMPLED, 1024, 1024);
  const uint32_t target = dev.image(NV_FORMAT_B8G8R8A8_UNORM, NV_IMAGE_RENDER_TARGET, kSize, kSize);
  dev.finish();
  CHECK(dev.channel().failed_buffer.load() == buffer);
  CHECK(dev.channel().failed_image.load() == image);
  CHECK(dev.channel().creation_failures.load() == 2);
  dev.targets(target);
  const float blue[4] = {0, 0, 1, 1};
  dev.clear(blue);
  const std::vector<Vertex> quad = color_rect(0, 0, kSize, kSize, kGreen);
  dev.push(nv_cmd_update_buffer{fits, 0, 0, quad.size() * sizeof(Vertex)}, quad.data(),
           quad.size() * sizeof(Vertex));
  dev.push(nv_cmd_set_pipeline{pipeline(dev.shader(NV_STAGE_VERTEX, "vs_color"),
                                                            dev.shader(NV_STAGE_PIXEL, "ps_color"), false)});
  dev.draw(fits, sizeof(Vertex), 6);
  check_pixels(dev.read(target), [](int, int) { return kGreen; });
  dev.push(nv_cmd_destroy_image{small});
}

TEST_CASE("vulkan: a handle named wrongly is one line, and the command does nothing", "[contract][vulkan]") {
  violations_are_skipped("vulkan");
}

TEST_CASE("opengl: a handle named wrongly is one line, and the command does nothing", "[contract][opengl]") {
  violations_are_skipped("opengl");
}

TEST_CASE("vulkan: a command whose arguments break the contract is one line, and does nothing", "[contract][vulkan]") {
  arguments_are_checked("vulkan");
}

TEST_CASE("opengl: a command whose arguments break the contract is one line, and does nothing", "[contract][opengl]") {
  arguments_are_checked("opengl");
}
