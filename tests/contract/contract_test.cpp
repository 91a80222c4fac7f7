// The backend contract, checked through the C ABI exactly as the frontend uses it: dlopen the
// plugin from the build tree, novem_plugin_entry, probe, create_device on an nv_channel, push
// commands with novem::ring_begin/commit, and probe the pixels that READ_IMAGE brings back.
//
// Every scene runs once per plugin ("vulkan", "opengl"). A plugin whose file is not built, or
// whose probe fails on this machine, is skipped with a warning (the test case passes).
#include <dlfcn.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "novem/backend.h"
#include "novem/channel.hpp"
#include "novem/render_states.hpp"

#ifndef NOVEM_BUILD_DIR
#error "NOVEM_BUILD_DIR must name the build tree"
#endif
#ifndef CONTRACT_SHADER_DIR
#error "CONTRACT_SHADER_DIR must name the folder of the assembled shaders"
#endif

namespace {

// ---------------------------------------------------------------------------------------------
// loading a plugin

struct LoadedPlugin {
  const nv_plugin *api = nullptr;
  nv_adapter_info info{};
  std::string skip; // why the plugin cannot run here (empty: it can)
};

std::string plugin_path(const std::string &name) {
  const char *dir = std::getenv("NOVEM_BUILD_DIR");
  return std::string(dir && *dir ? dir : NOVEM_BUILD_DIR) + "/lib/libnovem_" + name + ".so";
}

// Loads once per process; the library stays loaded (as a frontend keeps the plugin of a live
// device). A plugin that exists but does not load or has the wrong ABI fails the test.
const LoadedPlugin &load_plugin(const std::string &name) {
  static std::map<std::string, LoadedPlugin> loaded;
  auto it = loaded.find(name);
  if (it != loaded.end()) return it->second;
  LoadedPlugin &p = loaded[name];
  const std::string path = plugin_path(name);
  if (!std::ifstream(path).good()) {
    p.skip = path + " does not exist (plugin not built)";
    return p;
  }
  void *lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  INFO("dlopen " << path << ": " << (lib ? "ok" : dlerror()));
  REQUIRE(lib != nullptr);
  auto entry = reinterpret_cast<nv_plugin_entry_fn>(dlsym(lib, NV_PLUGIN_ENTRY_NAME));
  REQUIRE(entry != nullptr);
  const nv_plugin *api = entry();
  REQUIRE(api != nullptr);
  REQUIRE(api->abi_version == NV_BACKEND_ABI_VERSION);
  REQUIRE(std::string(api->name) == name);
  REQUIRE(api->probe != nullptr);
  REQUIRE(api->create_device != nullptr);
  REQUIRE(api->destroy_device != nullptr);
  char error[256] = {};
  if (api->probe(&p.info, error, sizeof error) != 0) {
    p.skip = name + " probe failed: " + error;
    return p;
  }
  p.api = api;
  return p;
}

std::vector<uint32_t> load_spirv(const std::string &name) {
  const std::string path = std::string(CONTRACT_SHADER_DIR) + "/" + name + ".spv";
  std::ifstream f(path, std::ios::binary);
  INFO("reading " << path);
  REQUIRE(f.good());
  std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  REQUIRE(bytes.size() % 4 == 0);
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  return words;
}

// ---------------------------------------------------------------------------------------------
// a device, driven through its channel

struct Vertex {
  float x, y, z;
  uint32_t color; // D3DCOLOR: 0xAARRGGBB, in memory B, G, R, A
};

constexpr int kSize = 64; // every scene renders 64 x 64

// Window pixel (row 0 at the top) → clip space (+Y up) for a kSize target.
float ndc_x(float px) { return px / (kSize / 2.0f) - 1.0f; }
float ndc_y(float py) { return 1.0f - py / (kSize / 2.0f); }
Vertex at(float px, float py, float z, uint32_t color) { return {ndc_x(px), ndc_y(py), z, color}; }

// A rectangle in window pixels as two triangles (clockwise on screen).
std::vector<Vertex> quad(float x0, float y0, float x1, float y1, float z, uint32_t color) {
  return {at(x0, y0, z, color), at(x1, y0, z, color), at(x0, y1, z, color),
          at(x1, y0, z, color), at(x1, y1, z, color), at(x0, y1, z, color)};
}

class TestDevice {
public:
  explicit TestDevice(const LoadedPlugin &plugin) : plugin_(plugin), channel_(1u << 20) {
    nv_device_desc desc{sizeof(nv_device_desc), 0, nullptr};
    char error[256] = {};
    device_ = plugin.api->create_device(&desc, &channel_, error, sizeof error);
    INFO("create_device: " << error);
    REQUIRE(device_ != nullptr);
  }
  ~TestDevice() {
    if (device_) plugin_.api->destroy_device(device_);
  }
  TestDevice(const TestDevice &) = delete;
  TestDevice &operator=(const TestDevice &) = delete;

  nv_channel &channel() { return channel_; }

  // ---- commands ----
  template <novem::CommandArgs Args> void push(const Args &args, const void *payload = nullptr, size_t bytes = 0) {
    Args *a = novem::ring_begin<Args>(channel_.ring, bytes);
    *a = args;
    if (bytes) std::memcpy(novem::command_payload(a), payload, bytes);
    channel_.ring.commit();
    ++pushed_[novem::opcode_of<Args>];
  }

  uint32_t create_image(nv_format format, uint32_t usage, int w = kSize, int h = kSize) {
    uint32_t handle = next_handle_++;
    push(nv_cmd_create_image{handle, uint32_t(format), uint32_t(w), uint32_t(h), usage, 1});
    return handle;
  }
  uint32_t create_buffer(const void *data, size_t bytes) {
    uint32_t handle = next_handle_++;
    push(nv_cmd_create_buffer{handle, NV_BUFFER_VERTEX, bytes});
    update_buffer(handle, 0, data, bytes, NV_UPDATE_DISCARD);
    return handle;
  }
  uint32_t create_buffer(const std::vector<Vertex> &v) { return create_buffer(v.data(), v.size() * sizeof(Vertex)); }
  uint32_t create_index_buffer(const void *data, size_t bytes) {
    uint32_t handle = next_handle_++;
    push(nv_cmd_create_buffer{handle, NV_BUFFER_INDEX, bytes});
    update_buffer(handle, 0, data, bytes, NV_UPDATE_DISCARD);
    return handle;
  }
  void set_index_buffer(uint32_t buffer, uint32_t offset, uint32_t index_size) {
    push(nv_cmd_set_index_buffer{buffer, offset, index_size});
  }
  void draw_indexed(uint32_t first, uint32_t count, int32_t base_vertex) {
    push(nv_cmd_draw_indexed{first, count, base_vertex});
  }
  void update_buffer(uint32_t buffer, uint64_t offset, const void *data, size_t bytes, uint32_t flags) {
    push(nv_cmd_update_buffer{buffer, flags, offset, bytes}, data, bytes);
  }
  uint32_t create_shader(nv_shader_stage stage, const std::string &name) {
    std::vector<uint32_t> words = load_spirv(name);
    uint32_t handle = next_handle_++;
    push(nv_cmd_create_shader{handle, uint32_t(stage), uint32_t(words.size())}, words.data(),
         words.size() * 4);
    return handle;
  }
  void set_targets(uint32_t color, uint32_t depth = 0) {
    push(nv_cmd_set_render_targets{color, depth});
  }
  void set_viewport(float x, float y, float w, float h) {
    push(nv_cmd_set_viewport{x, y, w, h, 0.0f, 1.0f});
  }
  void set_scissor(int x, int y, int w, int h) { push(nv_cmd_set_scissor{{x, y, w, h}}); }
  void set_pipeline(const nv_pipeline_desc &desc) { push(nv_cmd_set_pipeline{desc}); }
  void set_render_states(const nv_render_states &states) {
    push(nv_cmd_set_render_states{states});
  }
  void set_vertex_buffer(uint32_t buffer, uint32_t offset = 0, uint32_t stride = sizeof(Vertex), uint32_t slot = 0) {
    push(nv_cmd_set_vertex_buffer{slot, buffer, offset, stride});
  }
  void set_constants(nv_shader_stage stage, const float (&v)[4]) {
    push(nv_cmd_set_constants{uint32_t(stage), sizeof v}, v, sizeof v);
  }
  void clear(uint32_t flags, const float (&color)[4], float depth, const std::vector<nv_rect> &rects) {
    nv_cmd_clear c{};
    c.flags = flags;
    std::memcpy(c.color, color, sizeof c.color);
    c.depth = depth;
    c.stencil = 0;
    c.rect_count = uint32_t(rects.size());
    push(c, rects.data(), rects.size() * sizeof(nv_rect));
  }
  void clear_all(const float (&color)[4], float depth = 1.0f, uint32_t flags = NV_CLEAR_COLOR) {
    clear(flags, color, depth, {nv_rect{0, 0, kSize, kSize}});
  }
  void draw(uint32_t first, uint32_t count) { push(nv_cmd_draw{first, count}); }

  uint64_t fence() {
    uint64_t value = ++last_fence_;
    push(nv_cmd_fence{value});
    return value;
  }
  void finish() { channel_.wait_fence(fence()); }

  // READ_IMAGE of the whole target, then a fence, then wait: rows top first, tightly packed.
  std::vector<uint8_t> read(uint32_t image, int bytes_per_pixel = 4, int w = kSize, int h = kSize) {
    const size_t bytes = size_t(w) * size_t(h) * size_t(bytes_per_pixel);
    channel_.reserve_readback(bytes);
    std::memset(channel_.readback, 0xCD, bytes);
    push(nv_cmd_read_image{image, {0, 0, w, h}});
    uint64_t value = fence();
    channel_.wait_fence(value);
    REQUIRE(channel_.completed_fence.load() >= value);
    return std::vector<uint8_t>(channel_.readback, channel_.readback + bytes);
  }

  uint64_t pushed(nv_opcode op) const {
    auto it = pushed_.find(op);
    return it == pushed_.end() ? 0 : it->second;
  }

private:
  const LoadedPlugin &plugin_;
  nv_channel channel_;
  nv_device *device_ = nullptr;
  uint32_t next_handle_ = 1;
  uint64_t last_fence_ = 0;
  std::map<int, uint64_t> pushed_;
};

// ---------------------------------------------------------------------------------------------
// pipelines and pixels

// Position float3 at location 0, colour B8G8R8A8 at location 1, from slot 0.
nv_pipeline_desc color_pipeline(uint32_t vs, uint32_t ps) {
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
  d.attributes[1] = nv_vertex_attribute{1, 0, NV_FORMAT_B8G8R8A8_UNORM, 0, 12};
  return d;
}

// The pixel at (x, y) of a B8G8R8A8 readback, as 0xAARRGGBB.
uint32_t pixel(const std::vector<uint8_t> &img, int x, int y) {
  const uint8_t *p = &img[(size_t(y) * kSize + size_t(x)) * 4];
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

bool near(uint32_t a, uint32_t b, int tolerance = 1) {
  for (int shift = 0; shift < 32; shift += 8) {
    int ca = int(a >> shift & 0xFF), cb = int(b >> shift & 0xFF);
    if (std::abs(ca - cb) > tolerance) return false;
  }
  return true;
}

std::string hex(uint32_t v) {
  char s[16];
  std::snprintf(s, sizeof s, "0x%08X", v);
  return s;
}

#define CHECK_PIXEL(img, x, y, expected)                                                                  \
  do {                                                                                                    \
    uint32_t got_ = pixel(img, x, y);                                                                     \
    INFO("pixel (" << (x) << ", " << (y) << ") is " << hex(got_) << ", expected " << hex(expected));      \
    CHECK(near(got_, expected));                                                                          \
  } while (0)

// Checks every pixel against expected(x, y); reports the first few that differ.
void check_image(const std::vector<uint8_t> &img, const std::function<uint32_t(int, int)> &expected) {
  int wrong = 0;
  std::ostringstream first;
  for (int y = 0; y < kSize; ++y)
    for (int x = 0; x < kSize; ++x) {
      uint32_t got = pixel(img, x, y), want = expected(x, y);
      if (!near(got, want)) {
        if (wrong < 5) first << " (" << x << "," << y << ")=" << hex(got) << " want " << hex(want);
        ++wrong;
      }
    }
  INFO(wrong << " pixels differ:" << first.str());
  CHECK(wrong == 0);
}

constexpr uint32_t kBlack = 0xFF000000, kRed = 0xFFFF0000, kGreen = 0xFF00FF00, kBlue = 0xFF0000FF;
constexpr float kBlackF[4] = {0, 0, 0, 1}, kBlueF[4] = {0, 0, 1, 1}, kRedF[4] = {1, 0, 0, 1};

// What every drawing scene starts from: a 64 x 64 B8G8R8A8 target, bound, and the colour shaders.
struct Scene {
  TestDevice &dev;
  uint32_t target, vs, ps;
  explicit Scene(TestDevice &d)
      : dev(d), target(d.create_image(NV_FORMAT_B8G8R8A8_UNORM, NV_IMAGE_RENDER_TARGET)),
        vs(d.create_shader(NV_STAGE_VERTEX, "vs_color")), ps(d.create_shader(NV_STAGE_PIXEL, "ps_color")) {
    dev.set_targets(target);
    dev.set_viewport(0, 0, kSize, kSize);
    dev.set_scissor(0, 0, kSize, kSize);
  }
};

// ---------------------------------------------------------------------------------------------
// scenes

void scene_clear_rects(TestDevice &dev) {
  uint32_t target = dev.create_image(NV_FORMAT_B8G8R8A8_UNORM, NV_IMAGE_RENDER_TARGET);
  dev.set_targets(target);
  // A scissor that must not restrict clears.
  dev.set_scissor(0, 0, 8, 8);
  dev.clear_all(kBlueF);
  dev.clear(NV_CLEAR_COLOR, kRedF, 1.0f, {nv_rect{4, 4, 10, 10}, nv_rect{30, 40, 20, 8}});
  auto img = dev.read(target);
  check_image(img, [](int x, int y) {
    bool in1 = x >= 4 && x < 14 && y >= 4 && y < 14;
    bool in2 = x >= 30 && x < 50 && y >= 40 && y < 48;
    return in1 || in2 ? kRed : kBlue;
  });
}

void scene_triangle(TestDevice &dev) {
  Scene s(dev);
  // The upper-left half of the target: x + y < 64 in window pixels. 0xFF2040C0 checks the
  // B8G8R8A8 attribute's channel order.
  const uint32_t color = 0xFF2040C0;
  uint32_t vb = dev.create_buffer({at(0, 0, 0.5f, color), at(64, 0, 0.5f, color), at(0, 64, 0.5f, color)});
  dev.clear_all(kBlackF);
  dev.set_pipeline(color_pipeline(s.vs, s.ps));
  dev.set_vertex_buffer(vb);
  dev.draw(0, 3);
  auto img = dev.read(s.target);
  CHECK_PIXEL(img, 40, 10, color); // upper half: +Y up lands on the top rows
  CHECK_PIXEL(img, 2, 2, color);
  CHECK_PIXEL(img, 10, 40, color);
  CHECK_PIXEL(img, 20, 50, kBlack); // would be covered if the image were upside down
  CHECK_PIXEL(img, 60, 60, kBlack);
  CHECK(dev.channel().executed[NV_OP_DRAW].load() == 1);
}

void scene_depth(TestDevice &dev, nv_format depth_format) {
  Scene s(dev);
  uint32_t depth = dev.create_image(depth_format, NV_IMAGE_DEPTH_STENCIL);
  dev.set_targets(s.target, depth);
  std::vector<Vertex> v = quad(0, 0, 64, 64, 0.5f, kRed); // far: everything red
  auto right = quad(32, 0, 64, 64, 0.7f, kGreen);          // behind: must fail LESS
  auto bottom = quad(0, 32, 64, 64, 0.3f, kBlue);          // in front: passes
  v.insert(v.end(), right.begin(), right.end());
  v.insert(v.end(), bottom.begin(), bottom.end());
  uint32_t vb = dev.create_buffer(v);
  dev.clear_all(kBlackF, 1.0f, NV_CLEAR_COLOR | NV_CLEAR_DEPTH);
  nv_pipeline_desc d = color_pipeline(s.vs, s.ps);
  d.depth_test = 1;
  d.depth_write = 1;
  d.depth_compare = NV_COMPARE_LESS;
  dev.set_pipeline(d);
  dev.set_vertex_buffer(vb);
  dev.draw(0, 18);
  auto img = dev.read(s.target);
  check_image(img, [](int, int y) { return y < 32 ? kRed : kBlue; });
}

void scene_blend(TestDevice &dev) {
  Scene s(dev);
  uint32_t vb = dev.create_buffer(quad(0, 0, 64, 32, 0.5f, 0x80FF0000)); // red, alpha 128/255, top half
  dev.clear_all(kBlueF);
  nv_pipeline_desc d = color_pipeline(s.vs, s.ps);
  d.blend_enable = 1;
  d.color_src = NV_BLEND_SRC_ALPHA;
  d.color_dst = NV_BLEND_ONE_MINUS_SRC_ALPHA;
  d.alpha_src = NV_BLEND_ONE;
  d.alpha_dst = NV_BLEND_ZERO;
  dev.set_pipeline(d);
  dev.set_vertex_buffer(vb);
  dev.draw(0, 6);
  auto img = dev.read(s.target);
  // r = 1 * 128/255, b = 1 * (1 - 128/255), a = 128/255
  check_image(img, [](int, int y) { return y < 32 ? 0x8080007Fu : kBlue; });
}

// SET_RENDER_STATES (ABI 7): the pipeline last set, its render states replaced, in one batch;
// before any SET_PIPELINE it sets nothing.
void scene_render_states(TestDevice &dev) {
  Scene s(dev);
  const nv_pipeline_desc base = color_pipeline(s.vs, s.ps);
  nv_render_states blend = novem::render_states_of(base);
  blend.blend_enable = 1;
  blend.color_src = NV_BLEND_SRC_ALPHA;
  blend.color_dst = NV_BLEND_ONE_MINUS_SRC_ALPHA;
  nv_render_states green_only = novem::render_states_of(base);
  green_only.color_write_mask = 0x2;
  dev.set_render_states(blend);
  std::vector<Vertex> v;
  for (const auto &q : {quad(0, 0, 32, 32, 0.5f, 0x80FF0000), quad(32, 0, 64, 32, 0.5f, 0x80FF0000),
                        quad(0, 32, 32, 64, 0.5f, 0xFFFFFFFF), quad(32, 32, 64, 64, 0.5f, 0x80FF0000)})
    v.insert(v.end(), q.begin(), q.end());
  uint32_t vb = dev.create_buffer(v);
  dev.clear_all(kBlueF);
  dev.set_pipeline(base);
  dev.set_vertex_buffer(vb);
  dev.draw(0, 6);
  dev.set_render_states(blend);
  dev.draw(6, 6);
  dev.set_render_states(green_only);
  dev.draw(12, 6);
  dev.set_render_states(novem::render_states_of(base));
  dev.draw(18, 6);
  auto img = dev.read(s.target);
  CHECK_PIXEL(img, 16, 16, 0x80FF0000u); // written as it is
  CHECK_PIXEL(img, 48, 16, 0x8080007Fu); // blended over blue, as in "alpha blending"
  CHECK_PIXEL(img, 16, 48, 0xFF00FFFFu); // green written, blue's other channels kept
  CHECK_PIXEL(img, 48, 48, 0x80FF0000u); // back to the pipeline's own states
}

void scene_cull(TestDevice &dev) {
  Scene s(dev);
  // Left: clockwise as seen on screen (row 0 at the top); right: counter-clockwise.
  uint32_t vb = dev.create_buffer({at(4, 4, 0.5f, kRed), at(28, 4, 0.5f, kRed), at(4, 28, 0.5f, kRed),
                                   at(36, 4, 0.5f, kGreen), at(36, 28, 0.5f, kGreen), at(60, 4, 0.5f, kGreen)});
  dev.set_vertex_buffer(vb);
  struct Case {
    nv_cull cull;
    bool left, right;
  } cases[] = {{NV_CULL_NONE, true, true}, {NV_CULL_CW, false, true}, {NV_CULL_CCW, true, false}};
  for (const Case &c : cases) {
    dev.clear_all(kBlackF);
    nv_pipeline_desc d = color_pipeline(s.vs, s.ps);
    d.cull = uint8_t(c.cull);
    dev.set_pipeline(d);
    dev.draw(0, 6);
    auto img = dev.read(s.target);
    INFO("cull mode " << int(c.cull));
    CHECK_PIXEL(img, 10, 10, c.left ? kRed : kBlack);
    CHECK_PIXEL(img, 42, 10, c.right ? kGreen : kBlack);
  }
}

// UPDATE_BUFFER between two draws of one buffer in one batch: the first draw sees the old bytes.
void scene_update_buffer(TestDevice &dev, uint32_t flags) {
  Scene s(dev);
  auto first = quad(0, 0, 32, 32, 0.5f, kRed);       // top-left, red
  auto second = quad(32, 32, 64, 64, 0.5f, kGreen);  // bottom-right, green
  uint32_t vb = dev.create_buffer(first);
  dev.clear_all(kBlackF);
  dev.set_pipeline(color_pipeline(s.vs, s.ps));
  dev.set_vertex_buffer(vb);
  dev.draw(0, 6);
  dev.update_buffer(vb, 0, second.data(), second.size() * sizeof(Vertex), flags);
  dev.draw(0, 6);
  auto img = dev.read(s.target);
  check_image(img, [](int x, int y) {
    if (x < 32 && y < 32) return kRed;
    if (x >= 32 && y >= 32) return kGreen;
    return kBlack;
  });
}

// A partial update without DISCARD keeps the bytes it does not touch; NO_OVERWRITE appends.
void scene_update_partial(TestDevice &dev) {
  Scene s(dev);
  auto a = quad(0, 0, 32, 32, 0.5f, kRed);       // top-left
  auto b = quad(32, 32, 64, 64, 0.5f, kGreen);   // bottom-right
  auto c = quad(32, 0, 64, 32, 0.5f, kBlue);     // top-right, replaces a's bytes
  auto d = quad(0, 32, 32, 64, 0.5f, 0xFFFFFF00); // bottom-left, appended with NO_OVERWRITE
  std::vector<Vertex> all = a;
  all.insert(all.end(), b.begin(), b.end());
  all.resize(18); // room for d
  uint32_t vb = dev.create_buffer(all);
  dev.clear_all(kBlackF);
  dev.set_pipeline(color_pipeline(s.vs, s.ps));
  dev.set_vertex_buffer(vb);
  dev.draw(0, 6);                                               // a (old bytes)
  dev.update_buffer(vb, 0, c.data(), c.size() * sizeof(Vertex), 0); // a → c, b kept
  dev.draw(0, 12);                                              // c and b
  dev.update_buffer(vb, 12 * sizeof(Vertex), d.data(), d.size() * sizeof(Vertex), NV_UPDATE_NO_OVERWRITE);
  dev.draw(12, 6);                                              // d
  auto img = dev.read(s.target);
  check_image(img, [](int x, int y) {
    if (y < 32) return x < 32 ? kRed : kBlue;
    return x < 32 ? 0xFFFFFF00u : kGreen;
  });
}

void scene_constants(TestDevice &dev) {
  Scene s(dev);
  uint32_t vs = dev.create_shader(NV_STAGE_VERTEX, "vs_constants");
  uint32_t ps = dev.create_shader(NV_STAGE_PIXEL, "ps_constants");
  uint32_t vb = dev.create_buffer(quad(0, 0, 16, 16, 0.5f, 0xFFFFFFFF)); // white, top-left 16 x 16
  dev.clear_all(kBlackF);
  dev.set_pipeline(color_pipeline(vs, ps));
  dev.set_vertex_buffer(vb);
  const float right[4] = {1.0f, 0, 0, 0}, red[4] = {1, 0, 0, 1};   // +32 pixels in x
  const float down[4] = {0, -1.0f, 0, 0}, green[4] = {0, 1, 0, 1}; // +32 pixels in y
  dev.set_constants(NV_STAGE_VERTEX, right);
  dev.set_constants(NV_STAGE_PIXEL, red);
  dev.draw(0, 6);
  dev.set_constants(NV_STAGE_VERTEX, down);
  dev.set_constants(NV_STAGE_PIXEL, green);
  dev.draw(0, 6);
  auto img = dev.read(s.target);
  check_image(img, [](int x, int y) {
    if (x >= 32 && x < 48 && y < 16) return kRed;
    if (x < 16 && y >= 32 && y < 48) return kGreen;
    return kBlack;
  });
}

void scene_viewport_scissor(TestDevice &dev) {
  Scene s(dev);
  // The upper half of clip space into viewport (16, 16, 32 x 32), cut by a scissor at x = 40.
  uint32_t vb = dev.create_buffer(quad(0, 0, 64, 32, 0.5f, kGreen));
  dev.clear_all(kBlackF);
  dev.set_viewport(16, 16, 32, 32);
  dev.set_scissor(0, 0, 40, 64);
  dev.set_pipeline(color_pipeline(s.vs, s.ps));
  dev.set_vertex_buffer(vb);
  dev.draw(0, 6);
  auto img = dev.read(s.target);
  check_image(img, [](int x, int y) { return x >= 16 && x < 40 && y >= 16 && y < 32 ? kGreen : kBlack; });
}

void scene_points(TestDevice &dev) {
  Scene s(dev);
  // Points at pixel centres light exactly those pixels.
  uint32_t vb = dev.create_buffer({at(10.5f, 20.5f, 0.5f, kRed), at(50.5f, 3.5f, 0.5f, kGreen)});
  dev.clear_all(kBlackF);
  nv_pipeline_desc d = color_pipeline(s.vs, s.ps);
  d.topology = NV_TOPOLOGY_POINT_LIST;
  dev.set_pipeline(d);
  dev.set_vertex_buffer(vb);
  dev.draw(0, 2);
  auto img = dev.read(s.target);
  check_image(img, [](int x, int y) {
    if (x == 10 && y == 20) return kRed;
    if (x == 50 && y == 3) return kGreen;
    return kBlack;
  });
}

void scene_fan(TestDevice &dev) {
  Scene s(dev);
  // A fan around the centre covering the square (16, 16)-(48, 48).
  uint32_t vb = dev.create_buffer({at(32, 32, 0.5f, kBlue), at(16, 16, 0.5f, kBlue), at(48, 16, 0.5f, kBlue),
                                   at(48, 48, 0.5f, kBlue), at(16, 48, 0.5f, kBlue), at(16, 16, 0.5f, kBlue)});
  dev.clear_all(kBlackF);
  nv_pipeline_desc d = color_pipeline(s.vs, s.ps);
  d.topology = NV_TOPOLOGY_TRIANGLE_FAN;
  dev.set_pipeline(d);
  dev.set_vertex_buffer(vb);
  dev.draw(0, 6);
  auto img = dev.read(s.target);
  check_image(img, [](int x, int y) { return x >= 16 && x < 48 && y >= 16 && y < 48 ? kBlue : kBlack; });
}

void scene_r5g6b5(TestDevice &dev) {
  uint32_t target = dev.create_image(NV_FORMAT_R5G6B5_UNORM, NV_IMAGE_RENDER_TARGET);
  uint32_t vs = dev.create_shader(NV_STAGE_VERTEX, "vs_color");
  uint32_t ps = dev.create_shader(NV_STAGE_PIXEL, "ps_color");
  dev.set_targets(target);
  dev.set_viewport(0, 0, kSize, kSize);
  dev.set_scissor(0, 0, kSize, kSize);
  dev.clear_all(kRedF);
  uint32_t vb = dev.create_buffer(quad(0, 32, 64, 64, 0.5f, kGreen)); // bottom half green
  dev.set_pipeline(color_pipeline(vs, ps));
  dev.set_vertex_buffer(vb);
  dev.draw(0, 6);
  auto img = dev.read(target, 2);
  auto word = [&](int x, int y) {
    const uint8_t *p = &img[(size_t(y) * kSize + size_t(x)) * 2];
    return uint16_t(p[0] | p[1] << 8);
  };
  CHECK(word(5, 5) == 0xF800);   // red: bits 15..11
  CHECK(word(60, 20) == 0xF800);
  CHECK(word(5, 40) == 0x07E0);  // green: bits 10..5
  CHECK(word(60, 63) == 0x07E0);
}

// Switching render targets inside one batch: A, then B, then A again; both keep their pixels.
void scene_switch_targets(TestDevice &dev) {
  Scene s(dev);
  uint32_t other = dev.create_image(NV_FORMAT_B8G8R8A8_UNORM, NV_IMAGE_RENDER_TARGET);
  auto left = quad(0, 0, 32, 64, 0.5f, kRed);
  auto right = quad(32, 0, 64, 64, 0.5f, kGreen);
  std::vector<Vertex> v = left;
  v.insert(v.end(), right.begin(), right.end());
  uint32_t vb = dev.create_buffer(v);
  dev.set_pipeline(color_pipeline(s.vs, s.ps));
  dev.set_vertex_buffer(vb);
  dev.clear_all(kBlackF);
  dev.draw(0, 6); // A: left red
  dev.set_targets(other);
  dev.clear_all(kBlueF);
  dev.draw(6, 6); // B: right green
  dev.set_targets(s.target);
  dev.draw(6, 6); // A: right green
  auto a = dev.read(s.target);
  auto b = dev.read(other);
  check_image(a, [](int x, int) { return x < 32 ? kRed : kGreen; });
  check_image(b, [](int x, int) { return x < 32 ? kBlue : kGreen; });
}

// READ_IMAGE of a sub-rectangle: rows top first, tightly packed at the rectangle's width.
void scene_read_rect(TestDevice &dev) {
  Scene s(dev);
  dev.clear_all(kBlackF);
  dev.clear(NV_CLEAR_COLOR, kRedF, 1.0f, {nv_rect{10, 20, 1, 1}});
  dev.clear(NV_CLEAR_COLOR, kBlueF, 1.0f, {nv_rect{14, 22, 1, 1}});
  const int w = 5, h = 3;
  dev.channel().reserve_readback(w * h * 4);
  dev.push(nv_cmd_read_image{s.target, {10, 20, w, h}});
  dev.channel().wait_fence(dev.fence());
  auto at_rect = [&](int x, int y) {
    const uint8_t *p = dev.channel().readback + (size_t(y) * w + size_t(x)) * 4;
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
  };
  CHECK(near(at_rect(0, 0), kRed));
  CHECK(near(at_rect(4, 2), kBlue));
  CHECK(near(at_rect(1, 0), kBlack));
  CHECK(near(at_rect(0, 2), kBlack));
}

// Many frames: per-draw buffer updates (renames while in flight), per-draw constants (the upload
// ring wraps), resources created and destroyed while in flight, and the command ring wrapping.
void scene_many_frames(TestDevice &dev) {
  Scene s(dev);
  uint32_t vs = dev.create_shader(NV_STAGE_VERTEX, "vs_constants");
  uint32_t ps = dev.create_shader(NV_STAGE_PIXEL, "ps_constants");
  uint32_t vb = dev.create_buffer(quad(0, 0, 8, 8, 0.5f, 0xFFFFFFFF));
  nv_pipeline_desc d = color_pipeline(vs, ps);
  dev.set_pipeline(d);
  const float white[4] = {1, 1, 1, 1};
  dev.set_constants(NV_STAGE_PIXEL, white);
  constexpr int kFrames = 100;
  for (int frame = 0; frame < kFrames; ++frame) {
    dev.clear_all(kBlackF);
    uint32_t temp = dev.create_buffer(quad(56, 56, 64, 64, 0.5f, kBlue));
    for (int i = 0; i < 64; ++i) {
      // The 8 x 8 quad at cell i of an 8 x 8 grid, coloured by its cell.
      const uint32_t c = 0xFF000000u | uint32_t(i * 4) << 16 | uint32_t(255 - i * 4) << 8 | uint32_t(frame);
      auto q = quad(0, 0, 8, 8, 0.5f, c);
      dev.update_buffer(vb, 0, q.data(), q.size() * sizeof(Vertex), 0);
      const float offset[4] = {float(i % 8) * 0.25f, -float(i / 8) * 0.25f, 0, 0};
      dev.set_constants(NV_STAGE_VERTEX, offset);
      dev.set_vertex_buffer(vb);
      dev.draw(0, 6);
    }
    const float none[4] = {0, 0, 0, 0};
    dev.set_constants(NV_STAGE_VERTEX, none);
    dev.set_vertex_buffer(temp);
    dev.draw(0, 6);
    dev.push(nv_cmd_destroy_buffer{temp});
    dev.push(nv_cmd_present{s.target});
    if (frame % 8 == 0) dev.fence();
  }
  auto img = dev.read(s.target);
  const int frame = kFrames - 1;
  check_image(img, [&](int x, int y) {
    int i = (y / 8) * 8 + x / 8;
    if (i == 63) return kBlue; // the temporary buffer's quad, drawn last
    return 0xFF000000u | uint32_t(i * 4) << 16 | uint32_t(255 - i * 4) << 8 | uint32_t(frame);
  });
  CHECK(dev.channel().ring.counters.bytes.load() > dev.channel().ring.capacity()); // it wrapped
}

// destroy_device with work queued and no fence after it: the plugin finishes it and stops.
void scene_destroy_busy(TestDevice &dev) {
  Scene s(dev);
  uint32_t vb = dev.create_buffer(quad(0, 0, 64, 64, 0.5f, kRed));
  dev.set_pipeline(color_pipeline(s.vs, s.ps));
  dev.set_vertex_buffer(vb);
  for (int i = 0; i < 200; ++i) {
    dev.clear_all(kBlackF);
    dev.draw(0, 6);
    dev.update_buffer(vb, 0, quad(0, 0, 64, 64, 0.5f, 0xFF000000u | uint32_t(i)).data(), 6 * sizeof(Vertex), 0);
  }
  dev.draw(0, 6); // and no fence after it
}

// Fences complete in order, counters count, and an unchanged pipeline is not built again.
void scene_fences_and_counters(TestDevice &dev) {
  Scene s(dev);
  uint32_t vb = dev.create_buffer(quad(0, 0, 64, 64, 0.5f, kRed));
  dev.set_pipeline(color_pipeline(s.vs, s.ps));
  dev.set_vertex_buffer(vb);
  for (int frame = 0; frame < 3; ++frame) {
    dev.clear_all(kBlackF);
    dev.draw(0, 6);
    dev.push(nv_cmd_present{s.target});
  }
  uint64_t built = 0;
  {
    dev.finish();
    // Built from scratch or loaded from the on-disk cache (a previous run may have filled it).
    built = dev.channel().pipelines_created.load() + dev.channel().pipelines_loaded.load();
    CHECK(built >= 1);
  }
  // Many fences in a row, some with no work between them.
  uint64_t last = 0;
  for (int i = 0; i < 20; ++i) {
    if (i % 3 == 0) dev.draw(0, 6);
    last = dev.fence();
  }
  dev.channel().wait_fence(last);
  CHECK(dev.channel().completed_fence.load() == last);
  auto img = dev.read(s.target);
  CHECK_PIXEL(img, 32, 32, kRed);
  CHECK(dev.channel().pipelines_created.load() + dev.channel().pipelines_loaded.load() == built);
  CHECK(dev.channel().submits.load() >= 1);
  CHECK(dev.channel().executed[NV_OP_DRAW].load() == dev.pushed(NV_OP_DRAW));
  CHECK(dev.channel().executed[NV_OP_PRESENT].load() == 3);
  CHECK_FALSE(dev.channel().device_lost.load());
}

// The corners of a rectangle as four vertices (top-left, top-right, bottom-left, bottom-right);
// indices {0, 1, 2, 1, 3, 2} make it two clockwise triangles.
std::vector<Vertex> corners(float x0, float y0, float x1, float y1, uint32_t color) {
  return {at(x0, y0, 0.5f, color), at(x1, y0, 0.5f, color), at(x0, y1, 0.5f, color), at(x1, y1, 0.5f, color)};
}

// Indexed triangle lists with 16- or 32-bit indices: a bound offset, first_index past padding,
// and base_vertex selecting the second rectangle of the vertex buffer.
template <class Index> void scene_indexed(TestDevice &dev) {
  Scene s(dev);
  std::vector<Vertex> v = corners(0, 0, 32, 32, kRed);             // vertices 0..3: top-left
  auto green = corners(32, 32, 64, 64, kGreen);                    // vertices 4..7: bottom-right
  v.insert(v.end(), green.begin(), green.end());
  uint32_t vb = dev.create_buffer(v);
  // Two indices of padding skipped by the bound offset, one more skipped by first_index.
  const Index indices[] = {7, 7, 7, 0, 1, 2, 1, 3, 2};
  uint32_t ib = dev.create_index_buffer(indices, sizeof indices);
  dev.clear_all(kBlackF);
  dev.set_pipeline(color_pipeline(s.vs, s.ps));
  dev.set_vertex_buffer(vb);
  dev.set_index_buffer(ib, 2 * sizeof(Index), sizeof(Index));
  dev.draw_indexed(1, 6, 0);
  dev.draw_indexed(1, 6, 4);
  auto img = dev.read(s.target);
  check_image(img, [](int x, int y) {
    if (x < 32 && y < 32) return kRed;
    if (x >= 32 && y >= 32) return kGreen;
    return kBlack;
  });
  CHECK(dev.channel().executed[NV_OP_DRAW_INDEXED].load() == 2);
}

// UPDATE_BUFFER of an index buffer between two indexed draws: the first sees the old indices.
void scene_index_update(TestDevice &dev) {
  Scene s(dev);
  std::vector<Vertex> v = corners(0, 0, 32, 32, kRed);
  auto blue = corners(32, 0, 64, 32, kBlue);
  v.insert(v.end(), blue.begin(), blue.end());
  uint32_t vb = dev.create_buffer(v);
  const uint16_t first[] = {0, 1, 2, 1, 3, 2}, second[] = {4, 5, 6, 5, 7, 6};
  uint32_t ib = dev.create_index_buffer(first, sizeof first);
  dev.clear_all(kBlackF);
  dev.set_pipeline(color_pipeline(s.vs, s.ps));
  dev.set_vertex_buffer(vb);
  dev.set_index_buffer(ib, 0, 2);
  dev.draw_indexed(0, 6, 0);
  dev.update_buffer(ib, 0, second, sizeof second, 0);
  dev.draw_indexed(0, 6, 0);
  // Past the end of the index buffer: draws nothing (and raises no error).
  dev.draw_indexed(4, 6, 0);
  auto img = dev.read(s.target);
  check_image(img, [](int x, int y) { return y < 32 ? (x < 32 ? kRed : kBlue) : kBlack; });
}

// Two vertex streams: positions in slot 0, colours in slot 1 (with an offset), for a plain and
// an indexed draw.
void scene_two_streams(TestDevice &dev) {
  Scene s(dev);
  struct Position { float x, y, z; };
  auto pos = [](float px, float py) { return Position{ndc_x(px), ndc_y(py), 0.5f}; };
  // Left rectangle as six vertices (non-indexed), right rectangle as four corners (indexed).
  const Position positions[] = {pos(0, 0),  pos(32, 0),  pos(0, 64),  pos(32, 0),  pos(32, 64), pos(0, 64),
                                pos(32, 0), pos(64, 0),  pos(32, 64), pos(64, 64)};
  const uint32_t colors[] = {kRed,  kRed,  kRed,  kRed,  kRed,  kRed,  kRed,  kRed,  kRed,  kRed,
                             kBlue, kBlue, kBlue, kBlue, kBlue, kBlue, kBlue, kBlue, kBlue, kBlue};
  uint32_t pb = dev.create_buffer(positions, sizeof positions);
  uint32_t cb = dev.create_buffer(colors, sizeof colors);
  const uint32_t indices[] = {6, 7, 8, 7, 9, 8};
  uint32_t ib = dev.create_index_buffer(indices, sizeof indices);
  nv_pipeline_desc d = color_pipeline(s.vs, s.ps);
  d.attributes[0] = nv_vertex_attribute{0, 0, NV_FORMAT_R32G32B32_SFLOAT, 0, 0};
  d.attributes[1] = nv_vertex_attribute{1, 1, NV_FORMAT_B8G8R8A8_UNORM, 0, 0};
  dev.clear_all(kBlackF);
  dev.set_pipeline(d);
  dev.set_vertex_buffer(pb, 0, sizeof(Position), 0);
  dev.set_vertex_buffer(cb, 0, 4, 1);
  dev.draw(0, 6); // left: red
  dev.set_vertex_buffer(cb, 10 * 4, 4, 1);
  dev.set_index_buffer(ib, 0, 4);
  dev.draw_indexed(0, 6, 0); // right: blue, colours from the second half
  auto img = dev.read(s.target);
  check_image(img, [](int x, int) { return x < 32 ? kRed : kBlue; });
}

// Draws from several buffers and offsets in turn. Buffers of the same stride that start a whole
// number of vertices apart are, in the Vulkan plugin, the same binding drawn further on (its
// vertex shift); an offset that is not is a binding of its own. Every draw must read its own
// vertices either way, indexed draws with their base vertex too.
void scene_vertex_buffer_moves(TestDevice &dev) {
  Scene s(dev);
  constexpr uint32_t kWhite = 0xFFFFFFFF, kYellow = 0xFFFFFF00, kCyan = 0xFF00FFFF;
  auto corners = [](float x0, float y0, float x1, float y1, uint32_t color) {
    return std::vector<Vertex>{at(x0, y0, 0.5f, color), at(x1, y0, 0.5f, color), at(x0, y1, 0.5f, color),
                               at(x1, y1, 0.5f, color)};
  };
  // a: the red quad, the blue quad, four yellow corners, four cyan corners.
  std::vector<Vertex> a = quad(0, 0, 16, 32, 0.5f, kRed), more = quad(32, 0, 48, 32, 0.5f, kBlue);
  a.insert(a.end(), more.begin(), more.end());
  more = corners(0, 32, 32, 64, kYellow);
  a.insert(a.end(), more.begin(), more.end());
  more = corners(32, 32, 64, 64, kCyan);
  a.insert(a.end(), more.begin(), more.end());
  // b: two unused vertices, then the green quad.
  std::vector<Vertex> b = quad(0, 0, 64, 64, 0.5f, kBlack);
  b.resize(2);
  more = quad(16, 0, 32, 32, 0.5f, kGreen);
  b.insert(b.end(), more.begin(), more.end());
  // c: eight bytes, then the white quad: half a vertex out of step with the others.
  std::vector<uint8_t> c(8, 0xAB);
  more = quad(48, 0, 64, 32, 0.5f, kWhite);
  c.insert(c.end(), reinterpret_cast<const uint8_t *>(more.data()),
           reinterpret_cast<const uint8_t *>(more.data() + more.size()));
  const uint32_t va = dev.create_buffer(a), vb = dev.create_buffer(b), vc = dev.create_buffer(c.data(), c.size());
  const uint32_t indices[] = {0, 1, 2, 1, 3, 2};
  const uint32_t ib = dev.create_index_buffer(indices, sizeof indices);
  dev.clear_all(kBlackF);
  dev.set_pipeline(color_pipeline(s.vs, s.ps));
  dev.set_vertex_buffer(va);
  dev.draw(0, 6); // red
  dev.set_vertex_buffer(vb, 2 * sizeof(Vertex));
  dev.draw(0, 6); // green
  dev.set_vertex_buffer(va, 6 * sizeof(Vertex));
  dev.draw(0, 6); // blue
  dev.set_vertex_buffer(vc, 8);
  dev.draw(0, 6); // white
  dev.set_index_buffer(ib, 0, 4);
  dev.set_vertex_buffer(va, 12 * sizeof(Vertex));
  dev.draw_indexed(0, 6, 0); // yellow
  dev.set_vertex_buffer(va);
  dev.draw_indexed(0, 6, 16); // cyan
  auto img = dev.read(s.target);
  check_image(img, [&](int x, int y) {
    if (y >= 32) return x < 32 ? kYellow : kCyan;
    const uint32_t top[4] = {kRed, kGreen, kBlue, kWhite};
    return top[x / 16];
  });
}

// The same with 20-byte vertices, a stride that does not divide the buffers' alignment (the
// Vulkan plugin moves such a buffer once to a start on a multiple of its stride, bytes and all),
// and a buffer written again after it has been drawn from.
void scene_vertex_buffer_stride20(TestDevice &dev) {
  Scene s(dev);
  struct Vertex20 {
    Vertex v;
    uint32_t pad;
  };
  auto quad20 = [](float x0, float x1, uint32_t color) {
    std::vector<Vertex20> out;
    for (const Vertex &v : quad(x0, 0, x1, 64, 0.5f, color)) out.push_back({v, 0xDEADBEEF});
    return out;
  };
  std::vector<Vertex20> a = quad20(0, 16, kRed), b = quad20(0, 64, kBlack);
  b.resize(3);
  const std::vector<Vertex20> green = quad20(16, 32, kGreen), blue = quad20(32, 48, kBlue);
  b.insert(b.end(), green.begin(), green.end());
  const uint32_t va = dev.create_buffer(a.data(), a.size() * sizeof a[0]);
  const uint32_t vb = dev.create_buffer(b.data(), b.size() * sizeof b[0]);
  dev.clear_all(kBlackF);
  dev.set_pipeline(color_pipeline(s.vs, s.ps));
  dev.set_vertex_buffer(va, 0, sizeof(Vertex20));
  dev.draw(0, 6); // red
  dev.set_vertex_buffer(vb, 0, sizeof(Vertex20));
  dev.draw(3, 6); // green
  dev.update_buffer(va, 0, blue.data(), blue.size() * sizeof blue[0], 0); // after a draw read it
  dev.set_vertex_buffer(va, 0, sizeof(Vertex20));
  dev.draw(0, 6); // blue
  dev.set_vertex_buffer(vb, 3 * sizeof(Vertex20), sizeof(Vertex20));
  dev.draw(0, 6); // green again, through the offset
  auto img = dev.read(s.target);
  check_image(img, [](int x, int) {
    const uint32_t columns[4] = {kRed, kGreen, kBlue, kBlack};
    return columns[x / 16];
  });
}

// A stream set while the pipeline reads only stream 0, then a pipeline that reads stream 1 too:
// the second draw must read the colours from stream 1 (plugins that bind streams at the draw
// must bind the slots a new pipeline reads).
void scene_stream_for_a_later_pipeline(TestDevice &dev) {
  Scene s(dev);
  std::vector<Vertex> v = quad(0, 0, 32, 64, 0.5f, kRed), right = quad(32, 0, 64, 64, 0.5f, kRed);
  v.insert(v.end(), right.begin(), right.end());
  const std::vector<uint32_t> blue(12, kBlue);
  const uint32_t vb = dev.create_buffer(v), cb = dev.create_buffer(blue.data(), blue.size() * 4);
  dev.clear_all(kBlackF);
  dev.set_pipeline(color_pipeline(s.vs, s.ps)); // stream 0 only
  dev.set_vertex_buffer(vb);
  dev.set_vertex_buffer(cb, 0, 4, 1); // not read yet
  dev.draw(0, 6);                     // red
  nv_pipeline_desc two = color_pipeline(s.vs, s.ps);
  two.attributes[1] = nv_vertex_attribute{1, 1, NV_FORMAT_B8G8R8A8_UNORM, 0, 0};
  dev.set_pipeline(two); // no stream set since
  dev.draw(6, 6);        // blue, from stream 1
  auto img = dev.read(s.target);
  check_image(img, [](int x, int) { return x < 32 ? kRed : kBlue; });
}


// ---- textures (ABI 3) ----

struct TexVertex {
  float x, y, z, u, v;
};

// A rectangle in window pixels with texture coordinates (u0, v0) at its top left and (u1, v1) at
// its bottom right.
std::vector<TexVertex> tex_quad(float x0, float y0, float x1, float y1, float u0, float v0, float u1, float v1) {
  TexVertex a{ndc_x(x0), ndc_y(y0), 0, u0, v0}, b{ndc_x(x1), ndc_y(y0), 0, u1, v0};
  TexVertex c{ndc_x(x0), ndc_y(y1), 0, u0, v1}, d{ndc_x(x1), ndc_y(y1), 0, u1, v1};
  return {a, b, c, b, d, c};
}

nv_pipeline_desc tex_pipeline(uint32_t vs, uint32_t ps) {
  nv_pipeline_desc d = color_pipeline(vs, ps);
  d.attributes[1] = nv_vertex_attribute{1, 0, NV_FORMAT_R32G32_SFLOAT, 0, 12};
  return d;
}

nv_sampler_desc sampler(uint8_t filter, uint8_t mip, uint8_t address, uint8_t max_level = 0) {
  nv_sampler_desc s;
  std::memset(&s, 0, sizeof s);
  s.min_filter = s.mag_filter = filter;
  s.mip_filter = mip;
  s.address_u = s.address_v = s.address_w = address;
  s.max_anisotropy = 1;
  s.max_mip_level = max_level;
  return s;
}

// Texel (i, j) of level 0 of the test texture: distinct, 0xAARRGGBB.
uint32_t texel0(int i, int j) { return 0xFF000000u | uint32_t(i * 60 + 20) << 16 | uint32_t(j * 60 + 20) << 8 | 0x10; }
uint32_t texel1(int i, int j) { return 0xFF000000u | uint32_t(i * 200 + 30) << 16 | 0x40u << 8 | uint32_t(j * 200 + 30); }

struct TexScene {
  TestDevice &dev;
  uint32_t target, vs, ps, texture;
  explicit TexScene(TestDevice &d, uint32_t usage = 0)
      : dev(d), target(d.create_image(NV_FORMAT_B8G8R8A8_UNORM, NV_IMAGE_RENDER_TARGET)),
        vs(d.create_shader(NV_STAGE_VERTEX, "vs_tex")), ps(d.create_shader(NV_STAGE_PIXEL, "ps_tex")),
        texture(create_texture(usage)) {
    dev.set_targets(target);
    dev.set_viewport(0, 0, kSize, kSize);
    dev.set_scissor(0, 0, kSize, kSize);
    dev.clear_all(kBlackF);
    dev.set_pipeline(tex_pipeline(vs, ps));
  }
  // A 4x4 texture with two levels: level 0 from texel0, level 1 (2x2) from texel1. Level 0 goes in
  // with a row pitch wider than its rows, level 1 tightly packed.
  uint32_t create_texture(uint32_t usage) {
    uint32_t handle = 1000 + usage;
    dev.push(nv_cmd_create_image{handle, NV_FORMAT_B8G8R8A8_UNORM, 4, 4, NV_IMAGE_SAMPLED | usage, 2});
    std::vector<uint32_t> rows(6 * 4, 0xDEADBEEF);
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 4; ++i) rows[size_t(j) * 6 + size_t(i)] = texel0(i, j);
    dev.push(nv_cmd_update_image{handle, 0, {0, 0, 4, 4}, 6 * 4}, rows.data(), rows.size() * 4);
    const uint32_t l1[4] = {texel1(0, 0), texel1(1, 0), texel1(0, 1), texel1(1, 1)};
    dev.push(nv_cmd_update_image{handle, 1, {0, 0, 2, 2}, 0}, l1, sizeof l1);
    return handle;
  }
  void bind(const nv_sampler_desc &s, uint32_t image = 0) {
    dev.push(nv_cmd_set_texture{NV_STAGE_PIXEL, 0, image ? image : texture, s});
  }
  uint32_t draw(const std::vector<TexVertex> &v) {
    uint32_t vb = dev.create_buffer(v.data(), v.size() * sizeof(TexVertex));
    dev.set_vertex_buffer(vb, 0, sizeof(TexVertex));
    dev.draw(0, uint32_t(v.size()));
    return vb;
  }
};

void scene_texture_point(TestDevice &dev) {
  TexScene s(dev);
  s.bind(sampler(NV_FILTER_POINT, NV_FILTER_POINT, NV_ADDRESS_CLAMP));
  s.draw(tex_quad(0, 0, 32, 32, 0, 0, 1, 1)); // level 0: 8x8 pixels per texel
  s.draw(tex_quad(40, 40, 42, 42, 0, 0, 1, 1)); // 2x2 pixels for 4x4 texels: level 1
  auto img = dev.read(s.target);
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 4; ++i) {
      CHECK_PIXEL(img, i * 8 + 1, j * 8 + 1, texel0(i, j));
      CHECK_PIXEL(img, i * 8 + 6, j * 8 + 6, texel0(i, j));
    }
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < 2; ++i) CHECK_PIXEL(img, 40 + i, 40 + j, texel1(i, j));
  CHECK_PIXEL(img, 50, 10, kBlack);
}

void scene_texture_max_level(TestDevice &dev) {
  TexScene s(dev);
  // MIPFILTER NONE with max_mip_level 1: level 1 only, even magnified.
  s.bind(sampler(NV_FILTER_POINT, NV_FILTER_NONE, NV_ADDRESS_CLAMP, 1));
  s.draw(tex_quad(0, 0, 32, 32, 0, 0, 1, 1));
  auto img = dev.read(s.target);
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < 2; ++i) CHECK_PIXEL(img, i * 16 + 8, j * 16 + 8, texel1(i, j));
}

void scene_texture_unbound_and_alpha_one(TestDevice &dev) {
  TexScene s(dev, NV_IMAGE_ALPHA_ONE);
  // An X8-style image: alpha reads 1 whatever the bytes hold.
  const uint32_t clear_alpha = 0x00336699;
  std::vector<uint32_t> texels(16, clear_alpha);
  dev.push(nv_cmd_update_image{s.texture, 0, {0, 0, 4, 4}, 0}, texels.data(), texels.size() * 4);
  s.bind(sampler(NV_FILTER_POINT, NV_FILTER_NONE, NV_ADDRESS_CLAMP));
  s.draw(tex_quad(0, 0, 32, 32, 0, 0, 1, 1));
  // No image in the slot: (0, 0, 0, 1).
  dev.push(nv_cmd_set_texture{NV_STAGE_PIXEL, 0, 0, sampler(NV_FILTER_POINT, NV_FILTER_NONE, NV_ADDRESS_CLAMP)});
  const float white[4] = {1, 1, 1, 1};
  dev.clear(NV_CLEAR_COLOR, white, 1.0f, {nv_rect{32, 32, 32, 32}});
  s.draw(tex_quad(32, 32, 64, 64, 0, 0, 1, 1));
  auto img = dev.read(s.target);
  CHECK_PIXEL(img, 10, 10, 0xFF336699);
  CHECK_PIXEL(img, 48, 48, kBlack);
}

void scene_texture_linear(TestDevice &dev) {
  TexScene s(dev);
  // A 2x2 image, black | white in each row: linear filtering across the middle of a 64-pixel quad.
  const uint32_t image = 2000;
  dev.push(nv_cmd_create_image{image, NV_FORMAT_B8G8R8A8_UNORM, 2, 2, NV_IMAGE_SAMPLED, 1});
  const uint32_t texels[4] = {kBlack, 0xFFFFFFFF, kBlack, 0xFFFFFFFF};
  dev.push(nv_cmd_update_image{image, 0, {0, 0, 2, 2}, 0}, texels, sizeof texels);
  s.bind(sampler(NV_FILTER_LINEAR, NV_FILTER_NONE, NV_ADDRESS_CLAMP), image);
  s.draw(tex_quad(0, 0, 64, 32, 0, 0, 1, 1));
  s.bind(sampler(NV_FILTER_LINEAR, NV_FILTER_NONE, NV_ADDRESS_WRAP), image);
  s.draw(tex_quad(0, 32, 64, 64, 0, 0, 1, 1));
  auto img = dev.read(s.target);
  // Pixel x samples u = (x + 0.5) / 64: texel coordinate (x + 0.5) / 32 - 0.5.
  auto expect = [](double t) {
    uint32_t g = uint32_t(std::lround(std::clamp(t, 0.0, 1.0) * 255.0));
    return 0xFF000000u | g << 16 | g << 8 | g;
  };
  auto near_grey = [](uint32_t got, uint32_t want) { return near(got, want, 4); };
  for (int x : {16, 31, 32, 47}) {
    INFO("clamp, x " << x << ": " << hex(pixel(img, x, 8)));
    CHECK(near_grey(pixel(img, x, 8), expect((x + 0.5) / 32.0 - 0.5)));
  }
  // At the left edge clamp stays black; wrap blends in the white texel of the other side.
  CHECK_PIXEL(img, 0, 8, kBlack);
  INFO("wrap, x 0: " << hex(pixel(img, 0, 40)));
  CHECK(near_grey(pixel(img, 0, 40), expect(1.0 - (0.5 / 32.0 + 0.5))));
  CHECK(near_grey(pixel(img, 32, 40), expect(32.5 / 32.0 - 0.5)));
}

void scene_texture_address(TestDevice &dev) {
  TexScene s(dev);
  // u and v run 0..2 over each quad: wrap repeats the texture, clamp repeats the edge texels,
  // border gives the border colour (opaque white here).
  s.bind(sampler(NV_FILTER_POINT, NV_FILTER_NONE, NV_ADDRESS_WRAP));
  s.draw(tex_quad(0, 0, 32, 32, 0, 0, 2, 2));
  s.bind(sampler(NV_FILTER_POINT, NV_FILTER_NONE, NV_ADDRESS_CLAMP));
  s.draw(tex_quad(32, 0, 64, 32, 0, 0, 2, 2));
  nv_sampler_desc border = sampler(NV_FILTER_POINT, NV_FILTER_NONE, NV_ADDRESS_BORDER);
  for (float &c : border.border_color) c = 1.0f;
  s.bind(border);
  s.draw(tex_quad(0, 32, 32, 64, 0, 0, 2, 2));
  auto img = dev.read(s.target);
  for (int j = 0; j < 8; ++j)
    for (int i = 0; i < 8; ++i) {
      const int x = i * 4 + 1, y = j * 4 + 1; // 4 pixels per texel
      CHECK_PIXEL(img, x, y, texel0(i % 4, j % 4));
      CHECK_PIXEL(img, 32 + x, y, texel0(std::min(i, 3), std::min(j, 3)));
      CHECK_PIXEL(img, x, 32 + y, i < 4 && j < 4 ? texel0(i, j) : 0xFFFFFFFFu);
    }
}

void scene_texture_update_between_draws(TestDevice &dev) {
  TexScene s(dev);
  s.bind(sampler(NV_FILTER_POINT, NV_FILTER_NONE, NV_ADDRESS_CLAMP));
  s.draw(tex_quad(0, 0, 32, 64, 0, 0, 1, 1));
  std::vector<uint32_t> red(4, kRed);
  dev.push(nv_cmd_update_image{s.texture, 0, {1, 1, 2, 2}, 0}, red.data(), red.size() * 4);
  s.draw(tex_quad(32, 0, 64, 64, 0, 0, 1, 1));
  auto img = dev.read(s.target);
  // Texels are 8 x 16 pixels on each half.
  CHECK_PIXEL(img, 12, 20, texel0(1, 1));
  CHECK_PIXEL(img, 20, 36, texel0(2, 2));
  CHECK_PIXEL(img, 32 + 12, 20, kRed);
  CHECK_PIXEL(img, 32 + 20, 36, kRed);
  CHECK_PIXEL(img, 32 + 4, 4, texel0(0, 0));
  CHECK_PIXEL(img, 32 + 28, 60, texel0(3, 3));
}

// ABI 5: a DISCARD write into a one-level texture that a queued draw samples (the Vulkan plugin
// renames it): the draw before keeps the old texels, the draw after sees the new ones.
void scene_texture_discard_between_draws(TestDevice &dev) {
  TexScene s(dev);
  const uint32_t tex = 2000;
  dev.push(nv_cmd_create_image{tex, NV_FORMAT_B8G8R8A8_UNORM, 2, 2, NV_IMAGE_SAMPLED, 1});
  std::vector<uint32_t> texels(4, kRed);
  dev.push(nv_cmd_update_image{tex, 0, {0, 0, 2, 2}, 0}, texels.data(), texels.size() * 4);
  s.bind(sampler(NV_FILTER_POINT, NV_FILTER_NONE, NV_ADDRESS_CLAMP), tex);
  s.draw(tex_quad(0, 0, 32, 64, 0, 0, 1, 1));
  texels.assign(4, kGreen);
  dev.push(nv_cmd_update_image{tex, 0, {0, 0, 2, 2}, 0, 0, NV_UPDATE_DISCARD}, texels.data(),
           texels.size() * 4);
  s.draw(tex_quad(32, 0, 64, 64, 0, 0, 1, 1));
  auto img = dev.read(s.target);
  check_image(img, [](int x, int) { return x < 32 ? kRed : kGreen; });
}

// Textures that alternate draw by draw (the Vulkan plugin binds again the descriptor sets it made
// for them), then a texture destroyed and made again under the same handle: the draw after
// samples the new one, never a set kept for the old.
void scene_texture_alternation(TestDevice &dev) {
  TexScene s(dev);
  constexpr uint32_t kYellow = 0xFFFFFF00;
  auto make = [&](uint32_t handle, uint32_t color) {
    dev.push(nv_cmd_create_image{handle, NV_FORMAT_B8G8R8A8_UNORM, 2, 2, NV_IMAGE_SAMPLED, 1});
    const std::vector<uint32_t> texels(4, color);
    dev.push(nv_cmd_update_image{handle, 0, {0, 0, 2, 2}, 0}, texels.data(), texels.size() * 4);
  };
  make(2001, kRed);
  make(2002, kGreen);
  make(2003, kBlue);
  const nv_sampler_desc point = sampler(NV_FILTER_POINT, NV_FILTER_NONE, NV_ADDRESS_CLAMP);
  const uint32_t columns[8] = {2001, 2002, 2001, 2002, 2003, 2001, 2003, 2002};
  for (int c = 0; c < 8; ++c) {
    s.bind(point, columns[c]);
    s.draw(tex_quad(float(c) * 8, 0, float(c + 1) * 8, 32, 0, 0, 1, 1));
  }
  const auto top = dev.read(s.target); // the draws complete: the old image really goes
  dev.push(nv_cmd_destroy_image{2001});
  dev.read(s.target);
  make(2001, kYellow); // may well get the old image's memory and view handle
  s.bind(point, 2002); // the slot changes, so the set is looked up again
  s.draw(tex_quad(0, 32, 64, 64, 0, 0, 1, 1));
  s.bind(point, 2001);
  s.draw(tex_quad(0, 32, 64, 64, 0, 0, 1, 1));
  auto img = dev.read(s.target);
  const auto column = [&](int x) { return columns[x / 8] == 2001 ? kRed : columns[x / 8] == 2002 ? kGreen : kBlue; };
  check_image(top, [&](int x, int y) { return y < 32 ? column(x) : kBlack; });
  check_image(img, [&](int x, int y) { return y < 32 ? column(x) : kYellow; });
}

// ABI 5: BLIT_IMAGE between two depth-stencil images copies depth (and stencil) whole: a quad
// tested LESS against the copy passes only where the copied depth is farther.
void scene_blit_depth_stencil(TestDevice &dev) {
  Scene s(dev);
  const uint32_t a = dev.create_image(NV_FORMAT_D24_UNORM_S8_UINT, NV_IMAGE_DEPTH_STENCIL);
  const uint32_t b = dev.create_image(NV_FORMAT_D24_UNORM_S8_UINT, NV_IMAGE_DEPTH_STENCIL);
  dev.set_targets(s.target, a);
  dev.clear_all(kBlackF, 1.0f, NV_CLEAR_COLOR | NV_CLEAR_DEPTH);
  // a: depth 0.3 on the left half (a quad drawn with ALWAYS), 1.0 on the right.
  nv_pipeline_desc d = color_pipeline(s.vs, s.ps);
  d.depth_test = 1;
  d.depth_write = 1;
  d.depth_compare = NV_COMPARE_ALWAYS;
  d.color_write_mask = 0;
  dev.set_pipeline(d);
  std::vector<Vertex> left = quad(0, 0, 32, 64, 0.3f, kRed);
  dev.set_vertex_buffer(dev.create_buffer(left));
  dev.draw(0, 6);
  dev.set_targets(s.target, b);
  dev.clear_all(kBlackF, 0.0f, NV_CLEAR_DEPTH); // b: 0 everywhere until the copy
  dev.set_targets(s.target, 0);
  const nv_rect whole{0, 0, kSize, kSize};
  dev.push(nv_cmd_blit_image{a, 0, whole, b, 0, whole, NV_FILTER_POINT});
  dev.set_targets(s.target, b);
  d.depth_compare = NV_COMPARE_LESS;
  d.depth_write = 0;
  d.color_write_mask = 0xF;
  dev.set_pipeline(d);
  std::vector<Vertex> all = quad(0, 0, 64, 64, 0.5f, kGreen);
  dev.set_vertex_buffer(dev.create_buffer(all));
  dev.draw(0, 6);
  auto img = dev.read(s.target);
  check_image(img, [](int x, int) { return x < 32 ? kBlack : kGreen; });
}

// ---------------------------------------------------------------------------------------------

void run_scene(const std::string &plugin_name, const std::function<void(TestDevice &)> &scene) {
  const LoadedPlugin &plugin = load_plugin(plugin_name);
  if (!plugin.api) {
    WARN("skipped: " << plugin.skip);
    return;
  }
  TestDevice dev(plugin);
  scene(dev);
}

} // namespace

// Each scene becomes one test case per plugin, tagged with the plugin's name.
#define CONTRACT_SCENE(title, ...)                                                                        \
  TEST_CASE("vulkan: " title, "[contract][vulkan]") { run_scene("vulkan", __VA_ARGS__); }                \
  TEST_CASE("opengl: " title, "[contract][opengl]") { run_scene("opengl", __VA_ARGS__); }

TEST_CASE("probe describes the adapter", "[contract][vulkan][opengl]") {
  for (const char *name : {"vulkan", "opengl"}) {
    const LoadedPlugin &p = load_plugin(name);
    if (!p.api) {
      WARN("skipped: " << p.skip);
      continue;
    }
    INFO(name << ": " << p.info.device_name << " / " << p.info.driver_name);
    CHECK(std::strlen(p.info.device_name) > 0);
    CHECK(std::strlen(p.info.driver_name) > 0);
    CHECK(p.info.max_texture_size >= 2048);
    CHECK(p.info.max_viewport_size >= 2048);
    CHECK(p.info.video_memory_bytes > 0);
    CHECK((p.info.format_support[NV_FORMAT_B8G8R8A8_UNORM] & NV_SUPPORT_RENDER_TARGET) != 0);
    CHECK((p.info.format_support[NV_FORMAT_D24_UNORM_S8_UINT] & NV_SUPPORT_DEPTH_STENCIL) != 0);
    CHECK((p.info.format_support[NV_FORMAT_R32G32B32_SFLOAT] & NV_SUPPORT_VERTEX) != 0);
    // Every vertex-data format (ABI 4) is readable on lavapipe and llvmpipe.
    for (nv_format f : {NV_FORMAT_R8G8B8A8_USCALED, NV_FORMAT_R8G8B8A8_UNORM, NV_FORMAT_R16G16_SSCALED,
                        NV_FORMAT_R16G16B16A16_SSCALED, NV_FORMAT_R16G16_SNORM, NV_FORMAT_R16G16B16A16_SNORM,
                        NV_FORMAT_R16G16_UNORM, NV_FORMAT_R16G16B16A16_UNORM, NV_FORMAT_R10G10B10A2_USCALED,
                        NV_FORMAT_R10G10B10A2_SNORM, NV_FORMAT_R16G16_SFLOAT, NV_FORMAT_R16G16B16A16_SFLOAT}) {
      INFO("nv_format " << int(f));
      CHECK((p.info.format_support[f] & NV_SUPPORT_VERTEX) != 0);
    }
  }
}

CONTRACT_SCENE("clear with two rects", scene_clear_rects)
CONTRACT_SCENE("triangle with vertex colour", scene_triangle)
CONTRACT_SCENE("depth test LESS, D24S8", [](TestDevice &d) { scene_depth(d, NV_FORMAT_D24_UNORM_S8_UINT); })
CONTRACT_SCENE("depth test LESS, D16", [](TestDevice &d) { scene_depth(d, NV_FORMAT_D16_UNORM); })
CONTRACT_SCENE("alpha blending", scene_blend)
CONTRACT_SCENE("culling CW and CCW", scene_cull)
CONTRACT_SCENE("render states set apart from the pipeline", scene_render_states)
CONTRACT_SCENE("update buffer between draws", [](TestDevice &d) { scene_update_buffer(d, 0); })
CONTRACT_SCENE("update buffer between draws, DISCARD", [](TestDevice &d) { scene_update_buffer(d, NV_UPDATE_DISCARD); })
CONTRACT_SCENE("partial update and NO_OVERWRITE", scene_update_partial)
CONTRACT_SCENE("constants per stage", scene_constants)
CONTRACT_SCENE("viewport and scissor", scene_viewport_scissor)
CONTRACT_SCENE("point list", scene_points)
CONTRACT_SCENE("triangle fan", scene_fan)
CONTRACT_SCENE("R5G6B5 target", scene_r5g6b5)
CONTRACT_SCENE("switching render targets in one batch", scene_switch_targets)
CONTRACT_SCENE("read a sub-rectangle", scene_read_rect)
CONTRACT_SCENE("many frames with updates in flight", scene_many_frames)
CONTRACT_SCENE("destroy a busy device", scene_destroy_busy)
CONTRACT_SCENE("fences and counters", scene_fences_and_counters)
CONTRACT_SCENE("indexed triangle list, 16-bit indices, base_vertex", scene_indexed<uint16_t>)
CONTRACT_SCENE("indexed triangle list, 32-bit indices, base_vertex", scene_indexed<uint32_t>)
CONTRACT_SCENE("index buffer update between indexed draws", scene_index_update)
CONTRACT_SCENE("two vertex streams", scene_two_streams)
CONTRACT_SCENE("vertex buffers: moves between buffers and offsets", scene_vertex_buffer_moves)
CONTRACT_SCENE("vertex buffers: 20-byte vertices, a buffer written again after a draw", scene_vertex_buffer_stride20)
CONTRACT_SCENE("vertex buffers: a stream set before the pipeline that reads it", scene_stream_for_a_later_pipeline)
CONTRACT_SCENE("texture: point sampling, two levels, row pitch", scene_texture_point)
CONTRACT_SCENE("texture: MIPFILTER NONE on max_mip_level 1", scene_texture_max_level)
CONTRACT_SCENE("texture: unbound slot and alpha-one images", scene_texture_unbound_and_alpha_one)
CONTRACT_SCENE("texture: linear filtering at a texel boundary, clamp and wrap", scene_texture_linear)
CONTRACT_SCENE("texture: wrap, clamp and border", scene_texture_address)
CONTRACT_SCENE("texture: update between two draws", scene_texture_update_between_draws)
CONTRACT_SCENE("texture: DISCARD update between two draws", scene_texture_discard_between_draws)
CONTRACT_SCENE("texture: alternation, and a texture made again under its handle", scene_texture_alternation)
CONTRACT_SCENE("blit between depth-stencil images", scene_blit_depth_stencil)
