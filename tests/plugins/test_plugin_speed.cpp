// Issue 6's techniques in the Vulkan and OpenGL plugins, checked through the plugin ABI by their
// counters (nv_channel, ABI 4 and 5) and by the pixels they render — never by time:
//  - the on-disk pipeline cache: a second device creates no pipeline from scratch; a corrupt or
//    foreign file is ignored (counted, warned about) and the pipelines are built again;
//  - each switch (NOVEM_VK_* / NOVEM_GL_*) changes what its counter says, and rendering stays right;
//  - the config file is read;
//  - dynamic blend state (a blend or write-mask change builds no pipeline), and, Vulkan only, the
//    slabs of small buffers and the constants upload ring by their ABI 5 counters;
//  - runs of draws recorded as one multi-draw (api_draw_calls, ABI 6).
// A plugin that is not built, or whose probe fails here, is skipped with a warning.
#include <dlfcn.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "novem/backend.h"
#include "novem/channel.hpp"
#include "novem/render_states.hpp"
#include "../support/plugin_abi.hpp"

#ifndef CONTRACT_SHADER_DIR
#error "CONTRACT_SHADER_DIR must name the folder of the contract test's assembled shaders"
#endif

namespace {

namespace fs = std::filesystem;
using novem::test::load_plugin;
using novem::test::load_spirv;
using novem::test::ScopedEnv;

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() / ("novem-plugin-speed-" + std::to_string(::getpid()) + "-" + std::to_string(std::rand()));
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

struct Vertex {
  float x, y, z;
  uint32_t color; // 0xAARRGGBB
};

constexpr int kSize = 32;

// One device on its channel, and the commands the tests need.
class Device {
public:
  explicit Device(const nv_plugin *api) : api_(api), channel_(1u << 20) {
    nv_device_desc desc{sizeof(nv_device_desc), 0, nullptr};
    char error[256] = {};
    device_ = api->create_device(&desc, &channel_, error, sizeof error);
    INFO("create_device: " << error);
    REQUIRE(device_ != nullptr);
  }
  ~Device() { close(); }
  // Destroys the device (the plugin saves its caches); the counters stay readable.
  void close() {
    if (device_) api_->destroy_device(device_);
    device_ = nullptr;
  }
  nv_channel &channel() { return channel_; }

  // Commands are staged, and the plugin's thread sees them at the next read (pixel) or at
  // close, as a frontend's batches: a thread that found the ring empty between two draws would
  // record the draws held so far (idle()), and the counts the tests check would depend on
  // timing.
  template <novem::CommandArgs Args> void push(const Args &args, const void *payload = nullptr, size_t bytes = 0) {
    Args *a = novem::ring_begin<Args>(channel_.ring, bytes);
    *a = args;
    if (bytes) std::memcpy(novem::command_payload(a), payload, bytes);
    channel_.ring.stage();
  }
  uint32_t shader(nv_shader_stage stage, const std::string &name) {
    std::vector<uint32_t> words = load_spirv(name);
    push(nv_cmd_create_shader{next_, uint32_t(stage), uint32_t(words.size())}, words.data(),
         words.size() * 4);
    return next_++;
  }
  uint32_t target(uint32_t usage = NV_IMAGE_RENDER_TARGET) {
    push(nv_cmd_create_image{next_, NV_FORMAT_B8G8R8A8_UNORM, kSize, kSize, usage, 1});
    push(nv_cmd_set_render_targets{next_, 0});
    push(nv_cmd_set_viewport{0, 0, kSize, kSize, 0, 1});
    push(nv_cmd_set_scissor{{0, 0, kSize, kSize}});
    return next_++;
  }
  // A buffer holding a full-target quad of one colour.
  uint32_t quad(uint32_t color) {
    const Vertex v[6] = {{-1, 1, 0.5f, color},  {1, 1, 0.5f, color},  {-1, -1, 0.5f, color},
                         {1, 1, 0.5f, color},   {1, -1, 0.5f, color}, {-1, -1, 0.5f, color}};
    push(nv_cmd_create_buffer{next_, NV_BUFFER_VERTEX, sizeof v});
    push(nv_cmd_update_buffer{next_, NV_UPDATE_DISCARD, 0, sizeof v}, v, sizeof v);
    return next_++;
  }
  void clear(const float (&c)[4]) {
    nv_cmd_clear cl{};
    cl.flags = NV_CLEAR_COLOR;
    std::memcpy(cl.color, c, sizeof cl.color);
    cl.depth = 1.0f;
    cl.rect_count = 1;
    const nv_rect r{0, 0, kSize, kSize};
    push(cl, &r, sizeof r);
  }
  void draw() { push(nv_cmd_draw{0, 6}); }
  // The pixel at the centre of image, as 0xAARRGGBB, after everything before it has executed.
  uint32_t centre(uint32_t image) { return pixel(image, kSize / 2, kSize / 2); }
  uint32_t pixel(uint32_t image, int x, int y) {
    channel_.reserve_readback(4);
    push(nv_cmd_read_image{image, {x, y, 1, 1}});
    push(nv_cmd_fence{++fence_});
    channel_.ring.publish();
    channel_.wait_fence(fence_);
    const uint8_t *p = channel_.readback;
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
  }

private:
  const nv_plugin *api_;
  nv_channel channel_;
  nv_device *device_ = nullptr;
  uint32_t next_ = 1;
  uint64_t fence_ = 0;
};

// Position float3 at location 0, colour at location 1; blend state chosen by `variant`.
nv_pipeline_desc pipeline(uint32_t vs, uint32_t ps, int variant) {
  nv_pipeline_desc d;
  std::memset(&d, 0, sizeof d);
  d.vertex_shader = vs;
  d.pixel_shader = ps;
  d.topology = NV_TOPOLOGY_TRIANGLE_LIST;
  d.depth_compare = NV_COMPARE_ALWAYS;
  d.blend_enable = variant != 0;
  d.color_src = d.alpha_src = NV_BLEND_ONE;
  d.color_dst = d.alpha_dst = variant == 2 ? NV_BLEND_ONE : NV_BLEND_ZERO;
  d.color_write_mask = 0xF;
  d.attribute_count = 2;
  d.attributes[0] = nv_vertex_attribute{0, 0, NV_FORMAT_R32G32B32_SFLOAT, 0, 0};
  d.attributes[1] = nv_vertex_attribute{1, 0, NV_FORMAT_B8G8R8A8_UNORM, 0, 12};
  return d;
}

constexpr float kBlackF[4] = {0, 0, 0, 1};
constexpr uint32_t kRed = 0xFFFF0000;

// Environment for counting pipelines: no on-disk cache, so pipelines_created counts every pipeline
// the plugin builds.
struct NoDiskCache : ScopedEnv {
  NoDiskCache() { set("NOVEM_CACHE_DIR", ""); }
};

// A device with the colour shaders and a red quad over the whole target on stream 0, counting
// every pipeline it builds: the dynamic-state tests' starting point.
struct RedQuad {
  NoDiskCache env; // before dev: the plugin reads it when the device is created
  Device dev;
  uint32_t target, vs, ps;
  explicit RedQuad(const nv_plugin *api)
      : dev(api), target(dev.target()), vs(dev.shader(NV_STAGE_VERTEX, "vs_color")),
        ps(dev.shader(NV_STAGE_PIXEL, "ps_color")) {
    dev.push(nv_cmd_set_vertex_buffer{0, dev.quad(kRed), 0, sizeof(Vertex)});
  }
};

// The workload the cache tests repeat: two shader pairs (two GL programs), three pipeline
// states, all drawing red over black. Returns the centre pixel.
uint32_t draw_scene(Device &dev) {
  const uint32_t target = dev.target();
  const uint32_t vs[2] = {dev.shader(NV_STAGE_VERTEX, "vs_color"), dev.shader(NV_STAGE_VERTEX, "vs_constants")};
  const uint32_t ps[2] = {dev.shader(NV_STAGE_PIXEL, "ps_color"), dev.shader(NV_STAGE_PIXEL, "ps_constants")};
  const uint32_t vb = dev.quad(kRed);
  dev.push(nv_cmd_set_vertex_buffer{0, vb, 0, sizeof(Vertex)});
  const float zero[4] = {0, 0, 0, 0}, white[4] = {1, 1, 1, 1};
  dev.push(nv_cmd_set_constants{NV_STAGE_VERTEX, sizeof zero}, zero, sizeof zero);
  dev.push(nv_cmd_set_constants{NV_STAGE_PIXEL, sizeof white}, white, sizeof white);
  dev.clear(kBlackF);
  for (int variant : {0, 1, 2}) {
    dev.push(nv_cmd_set_pipeline{pipeline(vs[variant == 2], ps[variant == 2], variant)});
    dev.draw();
  }
  return dev.centre(target);
}

std::vector<fs::path> files_in(const fs::path &dir) {
  std::vector<fs::path> files;
  if (fs::exists(dir))
    for (const auto &e : fs::recursive_directory_iterator(dir))
      if (e.is_regular_file()) files.push_back(e.path());
  return files;
}

void each_plugin(const std::function<void(const std::string &, const nv_plugin *)> &fn) {
  for (const char *name : {"vulkan", "opengl"}) {
    DYNAMIC_SECTION(name) {
      std::string skip;
      const nv_plugin *api = load_plugin(name, skip);
      if (!api) {
        WARN("skipped: " << skip);
        continue;
      }
      fn(name, api);
    }
  }
}

// The counters of one run of draw_scene with a cache folder.
struct Run {
  uint64_t created, loaded, rejected;
  uint32_t pixel;
};
Run run_scene(const nv_plugin *api) {
  Device dev(api);
  Run r{};
  r.pixel = draw_scene(dev);
  dev.close();
  r.created = dev.channel().pipelines_created.load();
  r.loaded = dev.channel().pipelines_loaded.load();
  r.rejected = dev.channel().pipeline_cache_rejected.load();
  return r;
}

// What a second run must show. GL: every program comes from its binary. Vulkan: every pipeline
// is created through the loaded VkPipelineCache; whether the driver built it from scratch is
// what creation feedback says, and a driver whose cache is a stub (lavapipe up to Mesa 23) says
// so every time — then the file is still accepted, never rejected.
void check_second_run(const std::string &name, const Run &first, const Run &second) {
  CHECK(second.pixel == kRed);
  CHECK(second.rejected == 0);
  if (name == "opengl") {
    CHECK(second.created == 0);
    CHECK(second.loaded == first.created);
  } else {
    CHECK(second.created + second.loaded == first.created + first.loaded);
    if (second.loaded == 0) WARN("vulkan: the driver reports no pipeline cache hits (its VkPipelineCache is a stub)");
    else CHECK(second.created == 0);
  }
}

} // namespace

TEST_CASE("pipeline cache on disk: a second run creates no pipeline from scratch") {
  each_plugin([](const std::string &name, const nv_plugin *api) {
    TempDir dir;
    ScopedEnv env;
    env.set("NOVEM_CACHE_DIR", dir.path.c_str());
    const Run first = run_scene(api);
    CHECK(first.pixel == kRed);
    CHECK(first.rejected == 0);
    CHECK(first.loaded == 0); // an empty folder
    // GL: one link per shader pair; Vulkan: blending is dynamic state (VK_EXT_extended_dynamic_state3),
    // so the two blend variants of one shader pair share a pipeline.
    CHECK(first.created == 2u);
    CHECK_FALSE(files_in(dir.path).empty());
    const Run second = run_scene(api);
    check_second_run(name, first, second);
  });
}

TEST_CASE("pipeline cache on disk: corrupt, truncated and foreign files are ignored, then replaced") {
  each_plugin([](const std::string &name, const nv_plugin *api) {
    TempDir dir;
    ScopedEnv env;
    env.set("NOVEM_CACHE_DIR", dir.path.c_str());
    const Run first = run_scene(api);
    const std::vector<fs::path> files = files_in(dir.path);
    REQUIRE_FALSE(files.empty());

    // One way of spoiling a file after another: each is refused, everything is built again and
    // renders right, and the file written at the end of the run is sound again.
    for (const char *how : {"corrupt", "truncated", "foreign"}) {
      INFO(how);
      for (const fs::path &f : files) {
        std::fstream io(f, std::ios::in | std::ios::out | std::ios::binary);
        REQUIRE(io.good());
        const auto size = fs::file_size(f);
        if (std::string(how) == "corrupt") {
          io.seekp(std::streamoff(size - 1));
          io.put('\x5A' ^ char(size));
        } else if (std::string(how) == "foreign") {
          io.seekp(8); // the identity: another driver or device
          io.put('\x01');
          io.put('\x02');
        }
        io.close();
        if (std::string(how) == "truncated") fs::resize_file(f, size / 2);
      }
      const Run spoiled = run_scene(api);
      CHECK(spoiled.pixel == kRed);
      CHECK(spoiled.rejected == files.size());
      CHECK(spoiled.loaded == 0);
      CHECK(spoiled.created == first.created);
      const Run again = run_scene(api);
      check_second_run(name, spoiled, again);
    }
  });
}

TEST_CASE("pipeline cache switched off: a pipeline per change, nothing on disk") {
  each_plugin([](const std::string &name, const nv_plugin *api) {
    TempDir dir;
    ScopedEnv env;
    env.set("NOVEM_CACHE_DIR", dir.path.c_str());
    env.set(name == "vulkan" ? "NOVEM_VK_PIPELINE_CACHE" : "NOVEM_GL_PIPELINE_CACHE", "0");
    Device dev(api);
    const uint32_t target = dev.target();
    const uint32_t vs = dev.shader(NV_STAGE_VERTEX, "vs_color"), ps = dev.shader(NV_STAGE_PIXEL, "ps_color");
    dev.push(nv_cmd_set_vertex_buffer{0, dev.quad(kRed), 0, sizeof(Vertex)});
    dev.clear(kBlackF);
    for (int i = 0; i < 10; ++i) {
      dev.push(nv_cmd_set_pipeline{pipeline(vs, ps, i & 1)});
      dev.draw();
    }
    CHECK(dev.centre(target) == kRed);
    dev.close();
    CHECK(dev.channel().pipelines_created.load() == 10);
    CHECK(dev.channel().pipelines_loaded.load() == 0);
    CHECK(files_in(dir.path).empty());
  });
}

// N frames of `draws` draws each (a clear, draws, a present), then the centre pixel.
uint32_t frames(Device &dev, int count, int draws) {
  const uint32_t target = dev.target();
  const uint32_t vs = dev.shader(NV_STAGE_VERTEX, "vs_color"), ps = dev.shader(NV_STAGE_PIXEL, "ps_color");
  dev.push(nv_cmd_set_vertex_buffer{0, dev.quad(kRed), 0, sizeof(Vertex)});
  dev.push(nv_cmd_set_pipeline{pipeline(vs, ps, 0)});
  for (int f = 0; f < count; ++f) {
    dev.clear(kBlackF);
    for (int i = 0; i < draws; ++i) dev.draw();
    dev.push(nv_cmd_present{target});
  }
  return dev.centre(target);
}

struct Counts {
  uint64_t barriers, submits, gpu_waits, allocations, api_draw_calls;
};
Counts run_frames(const nv_plugin *api, const std::vector<std::pair<const char *, const char *>> &switches) {
  ScopedEnv env;
  env.set("NOVEM_CACHE_DIR", "");
  for (auto &[k, v] : switches) env.set(k, v);
  Device dev(api);
  CHECK(frames(dev, 3, 20) == kRed);
  dev.close();
  nv_channel &c = dev.channel();
  return {c.barriers.load(), c.submits.load(), c.gpu_waits.load(), c.device_allocations.load(), c.api_draw_calls.load()};
}

TEST_CASE("switches: batching, barrier tracking, suballocation change their counters") {
  each_plugin([](const std::string &name, const nv_plugin *api) {
    const bool vk = name == "vulkan";
    const Counts on = run_frames(api, {});
    // Batching off: a submit (Vulkan) and a wait for the GPU after every draw and clear.
    const Counts unbatched = run_frames(api, {{vk ? "NOVEM_VK_BATCHING" : "NOVEM_GL_BATCHING", "0"}});
    CHECK(unbatched.gpu_waits >= 3 * 21);
    if (vk) {
      CHECK(unbatched.submits >= 3 * 21);
      CHECK(on.submits < 3 * 21);
    }
    // Barrier tracking off: more barriers (GL: one per API draw call, against none at all; the
    // 20 draws of a frame are one multi-draw, or 20 draws with NOVEM_GL_MULTI_DRAW=0).
    const Counts untracked = run_frames(api, {{vk ? "NOVEM_VK_BARRIERS" : "NOVEM_GL_BARRIERS", "0"}});
    CHECK(untracked.barriers > on.barriers);
    if (!vk) {
      CHECK(on.barriers == 0);
      CHECK(untracked.api_draw_calls == 3);
      CHECK(untracked.barriers == untracked.api_draw_calls);
      const Counts single =
          run_frames(api, {{"NOVEM_GL_BARRIERS", "0"}, {"NOVEM_GL_MULTI_DRAW", "0"}});
      CHECK(single.barriers == 3 * 20);
    }
    // Suballocation off (Vulkan): a VkDeviceMemory per resource.
    if (vk) {
      const Counts dedicated = run_frames(api, {{"NOVEM_VK_SUBALLOC", "0"}});
      CHECK(dedicated.allocations > on.allocations);
    }
    // Dirty-state tracking off re-sends everything; the picture is the same.
    run_frames(api, {{vk ? "NOVEM_VK_DIRTY" : "NOVEM_GL_STATE_CACHE", "0"}});
  });
}

TEST_CASE("switches: read from the config file when the environment does not set them") {
  each_plugin([](const std::string &name, const nv_plugin *api) {
    TempDir dir;
    const fs::path conf = dir.path / "novem.conf";
    const char *var = name == "vulkan" ? "NOVEM_VK_BATCHING" : "NOVEM_GL_BATCHING";
    std::ofstream(conf) << "# test\n" << var << " = off\n";
    ScopedEnv env;
    env.set("NOVEM_CONFIG", conf.c_str());
    env.set(var, nullptr);
    const Counts from_file = run_frames(api, {});
    CHECK(from_file.gpu_waits >= 3 * 21);
    const Counts overridden = run_frames(api, {{var, "1"}});
    CHECK(overridden.gpu_waits < 3 * 21);
  });
}

TEST_CASE("UPDATE_CONSTANTS writes part of a stage's block and keeps the rest") {
  each_plugin([](const std::string &, const nv_plugin *api) {
    ScopedEnv env;
    env.set("NOVEM_CACHE_DIR", "");
    Device dev(api);
    const uint32_t target = dev.target();
    const uint32_t vs = dev.shader(NV_STAGE_VERTEX, "vs_constants"), ps = dev.shader(NV_STAGE_PIXEL, "ps_constants");
    dev.push(nv_cmd_set_vertex_buffer{0, dev.quad(0xFFFFFFFFu), 0, sizeof(Vertex)});
    dev.push(nv_cmd_set_pipeline{pipeline(vs, ps, 0)});
    const float offset[4] = {0, 0, 0, 0}, tint[8] = {1, 0, 0, 1, 9, 9, 9, 9}; // tint, then bytes the shader does not read
    dev.push(nv_cmd_set_constants{NV_STAGE_VERTEX, sizeof offset}, offset, sizeof offset);
    dev.push(nv_cmd_set_constants{NV_STAGE_PIXEL, sizeof tint}, tint, sizeof tint);
    dev.clear(kBlackF);
    dev.draw();
    CHECK(dev.centre(target) == 0xFFFF0000u); // white * (1, 0, 0, 1)
    const float green = 1.0f; // tint.g only
    dev.push(nv_cmd_update_constants{NV_STAGE_PIXEL, 4, sizeof green}, &green, sizeof green);
    dev.draw();
    CHECK(dev.centre(target) == 0xFFFFFF00u); // (1, 1, 0, 1): red kept, green written
    CHECK(dev.channel().executed[NV_OP_UPDATE_CONSTANTS].load() == 1);
  });
}

// The plugins bind vertex buffers at the draw and skip a binding they think is there: a buffer
// destroyed and another made after it (which GL may give the same name) must still be bound.
TEST_CASE("vertex buffers: one destroyed and another made draw their own vertices, with and without suballocation") {
  each_plugin([](const std::string &name, const nv_plugin *api) {
    for (const char *value : {"1", "0"}) {
      INFO("suballocation " << value);
      ScopedEnv env;
      env.set("NOVEM_CACHE_DIR", "");
      env.set(name == "vulkan" ? "NOVEM_VK_SUBALLOC" : "NOVEM_GL_SUBALLOC", value);
      Device dev(api);
      const uint32_t target = dev.target();
      const uint32_t vs = dev.shader(NV_STAGE_VERTEX, "vs_color"), ps = dev.shader(NV_STAGE_PIXEL, "ps_color");
      dev.push(nv_cmd_set_pipeline{pipeline(vs, ps, 0)});
      uint32_t colors[3] = {0xFF0000FFu, kRed, 0xFF00FF00u};
      for (uint32_t color : colors) {
        dev.clear(kBlackF);
        const uint32_t vb = dev.quad(color);
        dev.push(nv_cmd_set_vertex_buffer{0, vb, 0, sizeof(Vertex)});
        dev.draw();
        CHECK(dev.centre(target) == color);
        dev.push(nv_cmd_destroy_buffer{vb});
      }
      dev.close();
    }
  });
}

TEST_CASE("suballocation: many buffers share a few device allocations") {
  each_plugin([](const std::string &name, const nv_plugin *api) {
    auto run = [&](const char *value) {
      ScopedEnv env;
      env.set("NOVEM_CACHE_DIR", "");
      env.set(name == "vulkan" ? "NOVEM_VK_SUBALLOC" : "NOVEM_GL_SUBALLOC", value);
      Device dev(api);
      const uint32_t target = dev.target();
      const uint32_t vs = dev.shader(NV_STAGE_VERTEX, "vs_color"), ps = dev.shader(NV_STAGE_PIXEL, "ps_color");
      dev.push(nv_cmd_set_pipeline{pipeline(vs, ps, 0)});
      dev.clear(kBlackF);
      const uint64_t before = dev.channel().device_allocations.load();
      for (int i = 0; i < 40; ++i) { // each buffer drawn: the last one covers the target in red
        const uint32_t vb = dev.quad(i == 39 ? kRed : 0xFF0000FFu);
        dev.push(nv_cmd_set_vertex_buffer{0, vb, 0, sizeof(Vertex)});
        dev.draw();
      }
      CHECK(dev.centre(target) == kRed);
      const uint64_t allocations = dev.channel().device_allocations.load() - before;
      dev.close();
      return allocations;
    };
    const uint64_t shared = run("1"), separate = run("0");
    CHECK(separate >= 40);
    CHECK(shared <= 2);
  });
}

TEST_CASE("dynamic state: cull mode and depth-test changes build no new pipeline, and take effect") {
  each_plugin([](const std::string &, const nv_plugin *api) {
    RedQuad q(api);
    Device &dev = q.dev;
    const uint32_t target = q.target;
    dev.clear(kBlackF);
    nv_pipeline_desc d = pipeline(q.vs, q.ps, 0);
    d.cull = NV_CULL_CW; // the quad's triangles are clockwise on screen: culled
    dev.push(nv_cmd_set_pipeline{d});
    dev.draw();
    CHECK(dev.centre(target) == 0xFF000000u);
    d.cull = NV_CULL_CCW;
    d.depth_test = 1; // no depth target: no effect, and no new pipeline
    d.depth_compare = NV_COMPARE_NEVER;
    dev.push(nv_cmd_set_pipeline{d});
    dev.draw();
    CHECK(dev.centre(target) == kRed);
    dev.close();
    CHECK(dev.channel().pipelines_created.load() == 1);
  });
}

TEST_CASE("render states: SET_RENDER_STATES of dynamic state builds no new pipeline, and takes effect") {
  each_plugin([](const std::string &, const nv_plugin *api) {
    RedQuad q(api);
    Device &dev = q.dev;
    const uint32_t target = q.target;
    const nv_pipeline_desc d = pipeline(q.vs, q.ps, 0);
    dev.push(nv_cmd_set_pipeline{d});
    nv_render_states states = novem::render_states_of(d);
    for (uint8_t cull : {NV_CULL_CW, NV_CULL_CCW, NV_CULL_CW}) { // the quad is clockwise on screen
      states.cull = cull;
      dev.push(nv_cmd_set_render_states{states});
      dev.clear(kBlackF);
      dev.draw();
      CHECK(dev.centre(target) == (cull == NV_CULL_CW ? 0xFF000000u : kRed));
    }
    dev.close();
    CHECK(dev.channel().pipelines_created.load() == 1);
  });
}

// A blue target, then a red quad: without blending, with ONE + ONE (magenta) and again without.
uint32_t blend_changes(Device &dev) {
  const uint32_t target = dev.target();
  const uint32_t vs = dev.shader(NV_STAGE_VERTEX, "vs_color"), ps = dev.shader(NV_STAGE_PIXEL, "ps_color");
  dev.push(nv_cmd_set_vertex_buffer{0, dev.quad(kRed), 0, sizeof(Vertex)});
  const float blue[4] = {0, 0, 1, 1};
  dev.clear(blue);
  dev.push(nv_cmd_set_pipeline{pipeline(vs, ps, 2)});
  dev.draw();
  const uint32_t added = dev.centre(target);
  dev.push(nv_cmd_set_pipeline{pipeline(vs, ps, 0)});
  dev.draw();
  CHECK(dev.centre(target) == kRed);
  nv_pipeline_desc green_only = pipeline(vs, ps, 0);
  green_only.color_write_mask = 0x2 | 0x8; // G, A: the red quad writes green 0 over red
  dev.push(nv_cmd_set_pipeline{green_only});
  dev.draw();
  CHECK(dev.centre(target) == kRed);
  return added;
}

TEST_CASE("dynamic blend: blend and write-mask changes build no new pipeline, and take effect") {
  each_plugin([](const std::string &name, const nv_plugin *api) {
    for (const char *dynamic : {"1", "0"}) {
      INFO("NOVEM_VK_DYNAMIC_BLEND=" << dynamic);
      ScopedEnv env;
      env.set("NOVEM_CACHE_DIR", "");
      env.set("NOVEM_VK_DYNAMIC_BLEND", dynamic);
      Device dev(api);
      CHECK(blend_changes(dev) == 0xFFFF00FFu); // red + blue
      dev.close();
      // Vulkan with dynamic blend (lavapipe has the three features), and GL: one pipeline/program.
      const bool one = name == "opengl" || std::string(dynamic) == "1";
      CHECK(dev.channel().pipelines_created.load() == (one ? 1u : 3u));
    }
  });
}

// Vulkan only: the counters of the slab allocator and the constants ring (ABI 5).
const nv_plugin *vulkan_plugin() {
  std::string skip;
  const nv_plugin *api = load_plugin("vulkan", skip);
  if (!api) WARN("skipped: " << skip);
  return api;
}

TEST_CASE("slabs: small buffers are slots of shared slabs, recycled once their batch completes") {
  const nv_plugin *api = vulkan_plugin();
  if (!api) return;
  for (const char *slabs : {"1", "0"}) {
    INFO("NOVEM_VK_SLABS=" << slabs);
    const bool on = std::string(slabs) == "1";
    ScopedEnv env;
    env.set("NOVEM_CACHE_DIR", "");
    env.set("NOVEM_VK_SLABS", slabs);
    Device dev(api);
    const uint32_t target = dev.target();
    const uint32_t vs = dev.shader(NV_STAGE_VERTEX, "vs_color"), ps = dev.shader(NV_STAGE_PIXEL, "ps_color");
    dev.push(nv_cmd_set_pipeline{pipeline(vs, ps, 0)});
    dev.clear(kBlackF);
    // 40 small buffers, each drawn: the last covers the target in red.
    for (int i = 0; i < 40; ++i) {
      const uint32_t vb = dev.quad(i == 39 ? kRed : 0xFF0000FFu);
      dev.push(nv_cmd_set_vertex_buffer{0, vb, 0, sizeof(Vertex)});
      dev.draw();
    }
    CHECK(dev.centre(target) == kRed);
    CHECK(dev.channel().slab_allocations.load() == (on ? 40u : 0u));

    // A 64 KiB dynamic buffer updated with DISCARD 8 times a frame, each frame waited for. An
    // update renames the buffer only while a batch still reads it, which depends on when the
    // worker submits, so frames go on until 600 renames (over 37 MiB of copies, more than a
    // 32 MiB memory block) have happened; slots of completed batches are reused, so the slabs hold
    // only what is in flight and no memory is allocated.
    constexpr uint32_t kBig = 64u << 10;
    constexpr uint64_t kRenames = 600;
    const uint32_t dyn = 1000;
    dev.push(nv_cmd_create_buffer{dyn, NV_BUFFER_VERTEX, kBig});
    std::vector<uint8_t> bytes(kBig, 0);
    const uint64_t allocations = dev.channel().device_allocations.load();
    const uint64_t slots = dev.channel().slab_allocations.load();
    for (int frame = 0; frame < (on ? 2000 : 80); ++frame) {
      for (int i = 0; i < 8; ++i) {
        const uint32_t color = i == 7 ? 0xFF00FF00u : kRed;
        const Vertex v[6] = {{-1, 1, 0.5f, color}, {1, 1, 0.5f, color},  {-1, -1, 0.5f, color},
                             {1, 1, 0.5f, color},  {1, -1, 0.5f, color}, {-1, -1, 0.5f, color}};
        std::memcpy(bytes.data(), v, sizeof v);
        dev.push(nv_cmd_update_buffer{dyn, NV_UPDATE_DISCARD, 0, kBig}, bytes.data(), kBig);
        dev.push(nv_cmd_set_vertex_buffer{0, dyn, 0, sizeof(Vertex)});
        dev.draw();
      }
      dev.push(nv_cmd_present{target});
      dev.centre(target); // waits for the frame
      if (on && dev.channel().slab_allocations.load() - slots >= kRenames) break;
    }
    CHECK(dev.centre(target) == 0xFF00FF00u);
    if (on) {
      CHECK(dev.channel().slab_allocations.load() - slots >= kRenames);
      CHECK(dev.channel().device_allocations.load() == allocations);
    }
    dev.close();
  }
}

TEST_CASE("upload ring: each changed constant block takes a range, unchanged ones none") {
  const nv_plugin *api = vulkan_plugin();
  if (!api) return;
  ScopedEnv env;
  env.set("NOVEM_CACHE_DIR", "");
  Device dev(api);
  const uint32_t target = dev.target();
  const uint32_t vs = dev.shader(NV_STAGE_VERTEX, "vs_constants"), ps = dev.shader(NV_STAGE_PIXEL, "ps_constants");
  dev.push(nv_cmd_set_vertex_buffer{0, dev.quad(0xFFFFFFFFu), 0, sizeof(Vertex)});
  dev.push(nv_cmd_set_pipeline{pipeline(vs, ps, 0)});
  const float offset[4] = {0, 0, 0, 0}, red[4] = {1, 0, 0, 1};
  dev.push(nv_cmd_set_constants{NV_STAGE_VERTEX, sizeof offset}, offset, sizeof offset);
  dev.push(nv_cmd_set_constants{NV_STAGE_PIXEL, sizeof red}, red, sizeof red);
  dev.clear(kBlackF);
  dev.draw(); // both blocks
  CHECK(dev.centre(target) == kRed);
  const uint64_t first = dev.channel().ring_allocations.load();
  CHECK(first >= 2u);
  for (int i = 0; i < 10; ++i) dev.draw(); // nothing changed
  CHECK(dev.centre(target) == kRed);
  CHECK(dev.channel().ring_allocations.load() == first);
  for (int i = 0; i < 10; ++i) { // the pixel block changes before every draw
    const float green = (i & 1) ? 1.0f : 0.0f;
    dev.push(nv_cmd_update_constants{NV_STAGE_PIXEL, 4, sizeof green}, &green, sizeof green);
    dev.draw();
  }
  CHECK(dev.centre(target) == 0xFFFFFF00u);
  CHECK(dev.channel().ring_allocations.load() == first + 10);
}

// Four quads, one per quadrant of the target (6 vertices each, quadrant q from vertex 6q):
// top left red, top right green, bottom left blue, bottom right white.
constexpr uint32_t kQuadrantColors[4] = {0xFFFF0000u, 0xFF00FF00u, 0xFF0000FFu, 0xFFFFFFFFu};
void quadrant_vertices(int q, uint32_t color, Vertex (&v)[6]) {
  const float x0 = (q & 1) ? 0.0f : -1.0f, y1 = (q & 2) ? 0.0f : 1.0f, x1 = x0 + 1, y0 = y1 - 1;
  const Vertex quad[6] = {{x0, y1, 0.5f, color}, {x1, y1, 0.5f, color}, {x0, y0, 0.5f, color},
                          {x1, y1, 0.5f, color}, {x1, y0, 0.5f, color}, {x0, y0, 0.5f, color}};
  std::memcpy(v, quad, sizeof quad);
}
uint32_t quadrant_pixel(Device &dev, uint32_t target, int q) {
  return dev.pixel(target, (q & 1) ? kSize * 3 / 4 : kSize / 4, (q & 2) ? kSize * 3 / 4 : kSize / 4);
}

TEST_CASE("multi-draw: consecutive draws are one API draw call, and any other command but a NOOVERWRITE update or a vertex shift ends the run") {
  each_plugin([](const std::string &name, const nv_plugin *api) {
    for (const char *multi : {"1", "0"}) {
      const bool on = std::string(multi) == "1";
      INFO("NOVEM_*_MULTI_DRAW=" << multi);
      ScopedEnv env;
      env.set("NOVEM_CACHE_DIR", "");
      env.set(name == "vulkan" ? "NOVEM_VK_MULTI_DRAW" : "NOVEM_GL_MULTI_DRAW", multi);
      Device dev(api);
      const uint32_t target = dev.target();
      const uint32_t vs = dev.shader(NV_STAGE_VERTEX, "vs_color"), ps = dev.shader(NV_STAGE_PIXEL, "ps_color");
      dev.push(nv_cmd_set_pipeline{pipeline(vs, ps, 0)});
      Vertex v[4][6];
      for (int q = 0; q < 4; ++q) quadrant_vertices(q, kQuadrantColors[q], v[q]);
      const uint32_t vb = 500, ib = 501;
      dev.push(nv_cmd_create_buffer{vb, NV_BUFFER_VERTEX, sizeof v});
      dev.push(nv_cmd_update_buffer{vb, NV_UPDATE_DISCARD, 0, sizeof v}, v, sizeof v);
      dev.push(nv_cmd_set_vertex_buffer{0, vb, 0, sizeof(Vertex)});
      auto calls = [&] { return dev.channel().api_draw_calls.load(); };

      // A run of four draws: one call, every quadrant drawn.
      dev.clear(kBlackF);
      uint64_t before = calls();
      for (uint32_t q = 0; q < 4; ++q) dev.push(nv_cmd_draw{6 * q, 6, 1});
      for (int q = 0; q < 4; ++q) CHECK(quadrant_pixel(dev, target, q) == kQuadrantColors[q]);
      CHECK(calls() - before == (on ? 1u : 4u));

      // A command between draws ends the run (here the scissor, set to what it is).
      dev.clear(kBlackF);
      before = calls();
      for (uint32_t q = 0; q < 4; ++q) {
        if (q == 2) dev.push(nv_cmd_set_scissor{{0, 0, int32_t(kSize), int32_t(kSize)}});
        dev.push(nv_cmd_draw{6 * q, 6, 1});
      }
      for (int q = 0; q < 4; ++q) CHECK(quadrant_pixel(dev, target, q) == kQuadrantColors[q]);
      CHECK(calls() - before == (on ? 2u : 4u));

      // A vertex-buffer bind that moves along the bound buffer by whole vertices keeps the run
      // (the plugins' vertex shift); a bind with another stride ends it.
      struct Padded {
        Vertex v;
        uint32_t pad;
      };
      Padded padded[12];
      for (int i = 0; i < 12; ++i) padded[i] = {v[2 + i / 6][i % 6], 0};
      const uint32_t vb20 = 502;
      dev.push(nv_cmd_create_buffer{vb20, NV_BUFFER_VERTEX, sizeof padded});
      dev.push(nv_cmd_update_buffer{vb20, NV_UPDATE_DISCARD, 0, sizeof padded}, padded, sizeof padded);
      for (const bool same_stride : {true, false}) {
        INFO("same stride: " << same_stride);
        dev.clear(kBlackF);
        dev.push(nv_cmd_set_vertex_buffer{0, vb, 0, sizeof(Vertex)});
        before = calls();
        for (uint32_t q = 0; q < 4; ++q) {
          if (q == 2 && same_stride)
            dev.push(nv_cmd_set_vertex_buffer{0, vb, 12 * sizeof(Vertex), sizeof(Vertex)});
          if (q == 2 && !same_stride)
            dev.push(nv_cmd_set_vertex_buffer{0, vb20, 0, sizeof(Padded)});
          dev.push(nv_cmd_draw{6 * (q & 1), 6, 1}); // quadrants 0, 1, then 2, 3 from the new binding
        }
        for (int q = 0; q < 4; ++q) CHECK(quadrant_pixel(dev, target, q) == kQuadrantColors[q]);
        CHECK(calls() - before == (!on ? 4u : same_stride ? 1u : 2u));
      }
      dev.push(nv_cmd_set_vertex_buffer{0, vb, 0, sizeof(Vertex)});

      // A NOOVERWRITE update of vertices no queued draw reads keeps the run, and the draws after
      // it see the new bytes (quadrant 3 turns yellow).
      dev.clear(kBlackF);
      before = calls();
      Vertex yellow[6];
      quadrant_vertices(3, 0xFFFFFF00u, yellow);
      for (uint32_t q = 0; q < 4; ++q) {
        if (q == 2)
          dev.push(nv_cmd_update_buffer{vb, NV_UPDATE_NO_OVERWRITE, sizeof v[0] * 3, sizeof yellow},
                   yellow, sizeof yellow);
        dev.push(nv_cmd_draw{6 * q, 6, 1});
      }
      CHECK(quadrant_pixel(dev, target, 2) == kQuadrantColors[2]);
      CHECK(quadrant_pixel(dev, target, 3) == 0xFFFFFF00u);
      CHECK(calls() - before == (on ? 1u : 4u));

      // Indexed draws: one index list, each quadrant by its base vertex.
      const uint16_t indices[6] = {0, 1, 2, 3, 4, 5};
      dev.push(nv_cmd_create_buffer{ib, NV_BUFFER_INDEX, sizeof indices});
      dev.push(nv_cmd_update_buffer{ib, NV_UPDATE_DISCARD, 0, sizeof indices}, indices, sizeof indices);
      dev.push(nv_cmd_set_index_buffer{ib, 0, 2});
      dev.push(nv_cmd_update_buffer{vb, NV_UPDATE_DISCARD, 0, sizeof v}, v, sizeof v);
      dev.clear(kBlackF);
      before = calls();
      for (int32_t q = 0; q < 4; ++q) dev.push(nv_cmd_draw_indexed{0, 6, 6 * q, 1});
      for (int q = 0; q < 4; ++q) CHECK(quadrant_pixel(dev, target, q) == kQuadrantColors[q]);
      CHECK(calls() - before == (on ? 1u : 4u));
      dev.close();
    }
  });
}

// Vulkan: the barrier tracker moves only the images of slots the pipeline's shaders declare. A
// render target left bound to a slot no shader samples (a common D3D9 habit) keeps its layout:
// rendering into it needs no barrier per draw, and the render pass goes on.
TEST_CASE("barriers: a render target bound to a texture slot the shaders do not declare costs no barrier per draw") {
  const nv_plugin *api = vulkan_plugin();
  if (!api) return;
  ScopedEnv env;
  env.set("NOVEM_CACHE_DIR", "");
  Device dev(api);
  const uint32_t target = dev.target(NV_IMAGE_RENDER_TARGET | NV_IMAGE_SAMPLED);
  const uint32_t vs = dev.shader(NV_STAGE_VERTEX, "vs_color"), ps = dev.shader(NV_STAGE_PIXEL, "ps_color");
  dev.push(nv_cmd_set_pipeline{pipeline(vs, ps, 0)});
  nv_cmd_set_texture t{};
  t.stage = NV_STAGE_PIXEL, t.slot = 3, t.image = target, t.type = NV_IMAGE_TYPE_2D;
  t.sampler.max_anisotropy = 1;
  dev.push(t);
  const uint32_t vb = dev.quad(kRed);
  dev.clear(kBlackF);
  dev.centre(target);
  const uint64_t before = dev.channel().barriers.load();
  for (int i = 0; i < 20; ++i) { // each draw prepared on its own: a command between them
    dev.push(nv_cmd_set_vertex_buffer{0, vb, 0, sizeof(Vertex)});
    dev.draw();
  }
  CHECK(dev.centre(target) == kRed);
  CHECK(dev.channel().barriers.load() - before < 5); // the readback's own, not 20 or more
}
