// PRESENT, CREATE_SWAPCHAIN and DESTROY_SWAPCHAIN: headless presents flush the frame; a window's
// present makes its EGL window surface current, blits the image into the window's back buffer
// (flipped: the window's GL row 0 is its bottom row) with the rest cleared to black, and swaps.
#include "gl_executor.hpp"
#include "gl_log.hpp"

namespace novem_gl {

void Executor::create_swapchain(const nv_cmd_create_swapchain &a, const nv_cmd_header *) {
  if (!a.swapchain) return;
  destroy_swapchain(nv_cmd_destroy_swapchain{a.swapchain}, nullptr);
  WindowSurface &w = windows_[a.swapchain];
  w.interval = a.vsync ? 1 : 0;
  std::string error;
  if (a.window.system != NV_WINDOW_X11)
    error = "not an X11 window";
  else
    w.surface = context_.create_window_surface(reinterpret_cast<void *>(uintptr_t(a.window.display)), a.window.window, error);
  if (!w.surface) log("CREATE_SWAPCHAIN %u: %s; its presents show nothing", a.swapchain, error.c_str());
}

void Executor::destroy_swapchain(const nv_cmd_destroy_swapchain &a, const nv_cmd_header *) {
  auto it = windows_.find(a.swapchain);
  if (it == windows_.end()) return;
  context_.destroy_window_surface(it->second.surface);
  windows_.erase(it);
}

// Blits src_rect of the image's framebuffer src into dst_rect of the current window surface
// (width x height), the rest of the window cleared to black.
void Executor::draw_to_window(const Image &img, GLuint src, const nv_cmd_present &a, int width, int height) {
  // Blits and clears obey the scissor and the mask: opened for the window.
  state_.draw_framebuffer(0);
  state_.scissor(nv_rect{0, 0, width, height});
  state_.color_mask(0xF);
  pipeline_dirty_ = true; // the next draw puts the pipeline's mask back
  const nv_rect s = a.src_rect.width ? a.src_rect : nv_rect{0, 0, int32_t(img.width), int32_t(img.height)};
  const nv_rect d = a.dst_rect.width ? a.dst_rect : nv_rect{0, 0, width, height};
  if (d.x > 0 || d.y > 0 || d.x + d.width < width || d.y + d.height < height) {
    const GLfloat black[4] = {0.0f, 0.0f, 0.0f, 1.0f};
    gl_.ClearNamedFramebufferfv(0, GL_COLOR, 0, black);
  }
  const bool scaled = s.width != d.width || s.height != d.height;
  // The window's rows count from the bottom: its top row d.y is GL row height - d.y.
  gl_.BlitNamedFramebuffer(src, 0, s.x, s.y, s.x + s.width, s.y + s.height, d.x, height - d.y, d.x + d.width,
                           height - (d.y + d.height), GL_COLOR_BUFFER_BIT, scaled ? GL_LINEAR : GL_NEAREST);
  command_state_.mark(novem::kScissorPart);
}

void Executor::present(const nv_cmd_present &a, const nv_cmd_header *) {
  auto it = a.swapchain ? windows_.find(a.swapchain) : windows_.end();
  if (it != windows_.end() && it->second.surface) {
    // An image that could not be made shows nothing, quietly (novem/failed_creations.hpp).
    const Image *img = failed_.image(a.image) ? nullptr : images_.get(a.image, NV_OP_PRESENT);
    int width = 0, height = 0;
    const char *why = img ? novem::checks::present(a, img->shape()) : nullptr;
    if (why) violations_.report(NV_OP_PRESENT, why);
    const GLuint src = img && !why ? framebuffers_.framebuffer(Framebuffers::Target{a.image}, 0) : 0;
    if (src && !context_.bind_window_surface(it->second.surface, it->second.interval, width, height)) {
      log("PRESENT: the window surface of swapchain %u cannot be made current", a.swapchain);
    } else if (src) {
      // Mesa's X11 surfaces learn a new window size at a swap, and that swap shows nothing: after
      // a resize the frame is drawn and swapped once more.
      const int passes = it->second.width && (width != it->second.width || height != it->second.height) ? 2 : 1;
      for (int pass = 0; pass < passes; ++pass) {
        if (pass) context_.bind_window_surface(it->second.surface, it->second.interval, width, height);
        draw_to_window(*img, src, a, width, height);
        if (!context_.swap_buffers(it->second.surface)) log("PRESENT: eglSwapBuffers failed");
      }
      it->second.width = width;
      it->second.height = height;
    }
  }
  // A frame boundary: hand the frame's work to the GPU.
  if (config_.suballocation) {
    arena_.end_serial();
    arena_.poll();
  }
  gl_.Flush();
  unflushed_ = false;
}

} // namespace novem_gl
