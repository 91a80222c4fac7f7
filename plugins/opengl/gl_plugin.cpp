// The plugin's entry point: probe, create_device, destroy_device. Each device is a submission
// thread that owns its EGL context and runs novem::run_worker with the GL executor; probe()
// starts GL on a short-lived thread of its own and describes the device.
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <unistd.h>

#include "gl_context.hpp"
#include "gl_executor.hpp"
#include "gl_formats.hpp"
#include "novem/backend.h"
#include "novem/device_thread.hpp"
#include "novem/worker.hpp"

namespace {

using novem_gl::Config;
using novem_gl::Context;
using novem_gl::Executor;

void set_error(char *error, size_t error_size, const std::string &message) {
  if (error && error_size) std::snprintf(error, error_size, "%s", message.c_str());
}

// The submission thread: context, executor, the worker loop until destroy_device, teardown.
// x11_display: the device window's Xlib Display* (its windows can be presented to), or nullptr.
// software_vertex: NV_DEVICE_SOFTWARE_VERTEX_CONSTANTS.
void device_thread(nv_channel &channel, const Config &config, void *x11_display, bool software_vertex,
                   const novem::StartedFn &started) {
  Context context;
  std::string error;
  if (!context.create(config.debug, x11_display, error)) {
    started(error);
    return;
  }
  Executor executor(channel, context, config, software_vertex);
  if (!executor.init(error)) {
    executor.shutdown();
    started(error);
    return;
  }
  started({});
  novem::run_worker(channel, executor);
  executor.shutdown();
}

const char *gl_string(const NovemGL &gl, GLenum name) {
  const GLubyte *s = gl.GetString(name);
  return s ? reinterpret_cast<const char *>(s) : "";
}

// PCI vendor from the GL strings (GL has no query for it); Mesa's software rasterizers report
// VK_VENDOR_ID_MESA as lavapipe does.
uint32_t vendor_id(const std::string &vendor, const std::string &renderer) {
  auto has = [](const std::string &s, const char *w) { return s.find(w) != std::string::npos; };
  if (has(vendor, "NVIDIA")) return 0x10DE;
  if (has(vendor, "AMD") || has(vendor, "ATI") || has(renderer, "Radeon")) return 0x1002;
  if (has(vendor, "Intel") || has(renderer, "Intel")) return 0x8086;
  if (has(renderer, "llvmpipe") || has(renderer, "softpipe")) return 0x10005;
  return 0;
}

void describe(const Context &ctx, nv_adapter_info &info) {
  const NovemGL &gl = ctx.gl;
  const std::string vendor = gl_string(gl, GL_VENDOR), renderer = gl_string(gl, GL_RENDERER);
  std::snprintf(info.device_name, sizeof info.device_name, "%s", renderer.c_str());
  std::snprintf(info.driver_name, sizeof info.driver_name, "OpenGL %s", gl_string(gl, GL_VERSION));
  info.vendor_id = vendor_id(vendor, renderer);
  info.device_id = 0;

  GLint value = 0, dims[2] = {0, 0};
  GLfloat points[2] = {1, 1};
  gl.GetIntegerv(GL_MAX_TEXTURE_SIZE, &value);
  info.max_texture_size = uint32_t(value);
  gl.GetIntegerv(GL_MAX_VIEWPORT_DIMS, dims);
  info.max_viewport_size = uint32_t(dims[0] < dims[1] ? dims[0] : dims[1]);
  gl.GetFloatv(GL_POINT_SIZE_RANGE, points);
  info.max_point_size = points[1];

  // Video memory: what the driver tells (kB), else, for a GPU sharing system memory (llvmpipe),
  // a quarter of RAM.
  GLint kb[4] = {0, 0, 0, 0};
  if (ctx.has_extension("GL_NVX_gpu_memory_info"))
    gl.GetIntegerv(GL_GPU_MEMORY_INFO_DEDICATED_VIDMEM_NVX, kb);
  else if (ctx.has_extension("GL_ATI_meminfo"))
    gl.GetIntegerv(GL_TEXTURE_FREE_MEMORY_ATI, kb);
  if (kb[0] > 0)
    info.video_memory_bytes = uint64_t(kb[0]) * 1024;
  else
    info.video_memory_bytes = uint64_t(sysconf(_SC_PHYS_PAGES)) * uint64_t(sysconf(_SC_PAGE_SIZE)) / 4;

  // Multisampled targets are textures (colour) and renderbuffers (depth): the counts that every
  // target format makes exactly. GL_MAX_SAMPLES alone would claim every power of two below it,
  // and a driver rounds a count it lacks up (llvmpipe: 2 samples become 4), so that targets of
  // "one" count would differ and resolves would not be the count's.
  info.sample_counts = ~0u;
  for (uint32_t f = 1; f < NV_FORMAT_COUNT; ++f) {
    info.format_support[f] = novem_gl::format_support(gl, f);
    if (info.format_support[f] & (NV_SUPPORT_RENDER_TARGET | NV_SUPPORT_DEPTH_STENCIL))
      info.sample_counts &= novem_gl::multisample_counts(gl, f);
  }
  info.sample_counts = (info.sample_counts & 0xFFFEu) | 1u;
  // glVertexArrayBindingDivisor (GL 4.5 core) takes any divisor.
  info.max_instance_divisor = UINT32_MAX;
  info.max_anisotropy = ctx.max_anisotropy();
  while (gl.GetError() != GL_NO_ERROR) {
  }
}

int probe(nv_adapter_info *info, char *error, size_t error_size) {
  std::string failure;
  nv_adapter_info result{};
  std::thread([&] {
    Context ctx;
    if (ctx.create(false, nullptr, failure)) describe(ctx, result);
  }).join();
  if (!failure.empty()) {
    set_error(error, error_size, failure);
    return 1;
  }
  *info = result;
  return 0;
}

nv_device *create_device(const nv_device_desc *desc, nv_channel *channel, char *error, size_t error_size) {
  void *x11_display = nullptr;
  if (desc && desc->struct_size >= offsetof(nv_device_desc, window) + sizeof desc->window && desc->window) {
    const auto *window = static_cast<const nv_window *>(desc->window);
    if (window->system != NV_WINDOW_X11) {
      set_error(error, error_size, "the device window is not an X11 window");
      return nullptr;
    }
    x11_display = reinterpret_cast<void *>(uintptr_t(window->display));
  }
  const bool software_vertex = desc && desc->struct_size >= offsetof(nv_device_desc, flags) + sizeof desc->flags &&
                               (desc->flags & NV_DEVICE_SOFTWARE_VERTEX_CONSTANTS);
  std::string failure;
  nv_device *device = novem::start_device_thread(
      *channel,
      [channel, config = Config::from_environment(), x11_display, software_vertex](const novem::StartedFn &started) {
        device_thread(*channel, config, x11_display, software_vertex, started);
      },
      failure);
  if (!device) set_error(error, error_size, failure);
  return device;
}

void destroy_device(nv_device *device) { novem::destroy_device_thread(device); }

constexpr nv_plugin plugin = {NV_BACKEND_ABI_VERSION, "opengl", probe, create_device, destroy_device};

} // namespace

extern "C" __attribute__((visibility("default"))) const nv_plugin *novem_plugin_entry(void) { return &plugin; }
