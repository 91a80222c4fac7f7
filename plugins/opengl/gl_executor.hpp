// The executor: what the submission thread does with each command, on the GL context it owns.
// One small member function per opcode, listed in table() for novem::run_worker; fences,
// flushing and GPU waits in poll()/wait_gpu()/idle().
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

#include "gl_buffer_arena.hpp"
#include "gl_context.hpp"
#include "gl_copy.hpp"
#include "gl_framebuffers.hpp"
#include "gl_images.hpp"
#include "gl_pipelines.hpp"
#include "gl_programs.hpp"
#include "gl_quirks.hpp"
#include "gl_query.hpp"
#include "gl_state.hpp"
#include "gl_upload_ring.hpp"
#include "novem/cache_file.hpp"
#include "novem/command_state.hpp"
#include "novem/draw_run.hpp"
#include "novem/failed_creations.hpp"
#include "novem/handle_table.hpp"
#include "novem/recent_answers.hpp"
#include "novem/vertex_shift.hpp"
#include "novem/worker.hpp"

namespace novem_gl {

// Switches, read from the environment or the config file when a device starts
// (novem/options.hpp: "0", "off", "false", "no" are off, anything else on).
struct Config {
  bool debug = false;        // NOVEM_GL_DEBUG: debug context, KHR_debug messages to stderr
  bool check_errors = true;  // NOVEM_GL_CHECK_ERRORS: glGetError after each command (without debug)
  bool dump_glsl = false;    // NOVEM_GL_DUMP_GLSL: print each shader's GLSL
  // The five techniques of issue 6, each switchable to measure it:
  bool batching = true;      // NOVEM_GL_BATCHING: 0 = glFinish after every draw and clear
  bool state_cache = true;   // NOVEM_GL_STATE_CACHE: drop redundant GL state calls (dirty state)
  bool pipeline_cache = true; // NOVEM_GL_PIPELINE_CACHE: programs kept per pair and on disk; 0 = link per SET_PIPELINE
  bool barrier_tracking = true; // NOVEM_GL_BARRIERS: 0 = glMemoryBarrier(ALL) before every draw
  bool multi_draw = true;    // NOVEM_GL_MULTI_DRAW: 0 (or BATCHING=0, STATE_CACHE=0) = every draw its own glDraw* call
  bool suballocation = true; // NOVEM_GL_SUBALLOC: buffers split from large mapped storage, constants through a ring
  std::string cache_dir;     // NOVEM_CACHE_DIR: where program binaries live ("" = none)
  DriverQuirks::Switches quirks = DriverQuirks::Switches().set(); // the workarounds gl_quirks.cpp's settings leave on
  static Config from_environment();
};

class Executor {
public:
  // software_vertex: the device's vertex constants go on in a storage buffer
  // (NV_DEVICE_SOFTWARE_VERTEX_CONSTANTS); init fails where vertex shaders cannot read one.
  Executor(nv_channel &channel, Context &context, const Config &config, bool software_vertex);
  Executor(const Executor &) = delete;
  Executor &operator=(const Executor &) = delete;

  // The context's fixed state and the executor's own GL objects; false with one line in error.
  bool init(std::string &error);
  // Frees every GL object the device created; the context must still be current.
  void shutdown();

  bool poll();     // completes finished fences, in order; true while some are pending
  // glClientWaitSync with no timeout after every command cost `game` about 5 % of its draws/s
  // (4 alternating runs each); every 32 commands still notices a fence within microseconds.
  static constexpr unsigned kCommandsPerPoll = 32;
  void wait_gpu(); // waits up to 1 ms for the oldest fence
  void idle();     // the ring ran dry: flush what was issued

  NOVEM_COMMAND_HANDLERS // one per command (commands.h), each in the file of its concern
  void copy_depth_stencil(const Image &src, const Image &dst, const nv_cmd_blit_image &a); // gl_copy.cpp (ABI 5)
  void attach_copy(GLuint fbo, const Image *img, uint32_t level, uint32_t layer);       // gl_copy.cpp
  void point_mips(const Image &img);                                                       // gl_copy.cpp

  // The dispatch table's entry for every command (novem/worker.hpp): the held draws issued first
  // where the command ends their run, nothing done for a command that names what could not be
  // made, the handler, then (unless KHR_debug reports them) any GL error it raised.
  template <nv_opcode Op> static void execute(Executor &ex, const nv_cmd_header *h) {
    if (novem::ends_draw_run<Op>(h)) ex.flush_draws();
    if (ex.failed_.skips(h)) return; // it acts on what could not be made: nothing to do
    novem::Command<Op>::call(ex, h);
    // While a run is held, its GL calls are checked when it is issued (flush_draws).
    if (ex.check_errors_ && ex.pending_.empty()) ex.check_errors(h->opcode);
  }

private:
  void check_errors(uint16_t opcode);
  // A CREATE_IMAGE or CREATE_BUFFER that made nothing: one line, and the channel's answer (ABI 9).
  void creation_failed(uint16_t opcode, uint32_t handle, const char *why);
  // A clear or draw (indexed: with the index buffer) that names an image or buffer the plugin
  // could not make draws nothing (novem/failed_creations.hpp).
  bool names_failed_resource(bool indexed) const;
  bool bind_targets();          // binds the current framebuffer; false when there is none
  void apply_viewport();        // the viewport and scissor the commands set, where they changed
  bool apply_pipeline(const Pipeline &p);          // true when the vertex input changed
  bool apply_vertex_input(const nv_pipeline_desc &d); // the same
  // The vertex buffers the pipeline reads, bound lazily: where the new bindings are the bound
  // ones moved by a whole number of vertices (the same GL buffer object and strides, every
  // per-vertex slot moved by the same count, per-instance and zero-stride slots in place),
  // nothing is bound and the draws start vertex_shift_ vertices further on. Buffers share the
  // arena's buffer objects, and a buffer first bound with a stride that does not divide its
  // start moves once to one that does (align_to_stride), so switching between buffers of one
  // stride (a DrawPrimitiveUP, a dynamic buffer and back) binds nothing and keeps a held run.
  using VertexBindings = std::array<novem::VertexBinding, NV_MAX_VERTEX_BUFFERS>; // by slot
  uint32_t pipeline_slots() const; // the binding slots pipeline_'s attributes read
  VertexBindings wanted_vertex_buffers();
  std::optional<uint32_t> vertex_shift(const VertexBindings &want) const;
  void bind_vertex_buffers();
  void settle_vertex_moves(); // SET_VERTEX_BUFFERs inside a held run: shift, or issue the run
  bool prepare_draw(); // targets and pipeline; false when the draw cannot happen
  void finish();       // glFinish, counted: batching off
  // Issues the run held in pending_ (one glMultiDraw*, or one glDraw*) and checks its errors.
  void flush_draws();
  void hold_arrays(GLint first, const nv_cmd_draw &a);                     // a draw joins the run
  void hold_elements(const nv_cmd_draw_indexed &a, const void *offset);
  void pipeline_changed(uint32_t shader); // a shader went away or came back
  GLuint sampler(const nv_sampler_desc &desc, bool compare = false); // cached by desc and compare (ABI 5)
  void bind_textures(); // the dirty slots' textures and samplers, on their units (texture_unit)
  // glTextureSubImage2D, or 3D at z (the face of a cube, the slice of a 3D texture).
  void sub_image(const Image &img, uint32_t level, const nv_rect &r, GLint z, const void *texels);
  void forget_texture(GLuint name);            // a texture was deleted: its units need binding again

  struct Buffer {
    GLuint name = 0;   // the GL buffer holding it
    uint64_t base = 0; // where it starts in that buffer (suballocated: its range's offset)
    uint64_t size = 0;
    BufferArena::Range range; // suballocated only
    uint64_t alignment = 0;   // of every range's start once align_to_stride moved it; 0: none
  };
  void mark_buffers_used(); // the bound vertex and index buffers' ranges: read by this serial
  void rebind_buffer(uint32_t handle); // its GL buffer or base moved
  void align_to_stride(Buffer &b, uint32_t stride);
  struct PendingFence {
    GLsync sync; // nullptr: nothing to wait for (lost device)
    uint64_t value;
  };

  nv_channel &channel_;
  Context &context_;
  const NovemGL &gl_;
  Config config_;
  // A software vertex-processing device's vertex block: the uniform block, then from
  // NV_VERTEX_STORAGE_OFFSET the storage buffer bound at NV_VERTEX_STORAGE_BINDING.
  bool software_vertex_ = false;
  bool check_errors_;
  StateCache state_; // what the GL context has
  novem::ContractViolations violations_{"novem-opengl"};
  novem::CommandState command_state_{violations_}; // what the commands set
  Programs programs_;
  Pipelines pipelines_;
  Images images_{gl_, violations_};
  Framebuffers framebuffers_{gl_, images_};
  UploadRing ring_;
  BufferArena arena_;

  GLuint vao_ = 0;
  GLuint stage_ubo_[NV_STAGE_COUNT] = {}; // without the ring: one buffer per stage
  size_t max_constants_ = 0;
  static constexpr size_t kSoftwareVertexBlock = NV_VERTEX_STORAGE_OFFSET + NV_VERTEX_STORAGE_SIZE;
  // The most bytes the stage's block holds here.
  size_t constants_limit(uint32_t stage) const {
    return stage == NV_STAGE_VERTEX && software_vertex_ ? kSoftwareVertexBlock : max_constants_;
  }
  // Binds the stage's block at `offset` of `buffer` (of `size` bytes): its uniform part, and a
  // software vertex-processing block's storage part.
  void bind_constants(uint32_t stage, GLuint buffer, size_t offset, size_t size);
  // Blocks are uploaded at the draw that follows a change, and with the ring only the bytes the
  // bound shader reads (novem/spirv_uniforms.hpp); pushed_reads_: those the bound slice holds.
  novem::UniformFootprint pushed_reads_[NV_STAGE_COUNT];
  void upload_constants(uint32_t stage, const novem::UniformFootprint &reads);
  novem::HandleTable<Buffer> buffers_{"buffer", violations_};
  novem::FailedCreations failed_; // images and buffers that could not be made (ABI 9)
  VertexBindings bound_{};  // what the vertex array has bound (bound_valid_: meaningful)
  bool bound_valid_ = false;
  uint32_t vertex_shift_ = 0; // vertices the draws start further on than bound_ says
  GLuint element_buffer_ = 0; // the GL buffer bound as the VAO's GL_ELEMENT_ARRAY_BUFFER

  GLuint fbo_ = 0;
  DriverQuirks quirks_; // the driver's habits worked around (init)
  float depth_bias_scale_ = 1.0f;       // the factor for the bound depth target

  const Pipeline *pipeline_ = nullptr; // the program and state of the description set
  bool pipeline_dirty_ = true; // pipeline_'s state (and the dynamic state) to apply again
  nv_pipeline_desc applied_input_{}; // the vertex input last set on the VAO
  bool input_valid_ = false;
  uint32_t enabled_attributes_ = 0;

  // What the texture units have: unit N is texture slot N as novem::texture_bit numbers them.
  static constexpr uint32_t kUnits = novem::kTextureSlotCount; // 16 pixel, then the vertex ones (texture_unit)
  GLuint unit_texture_[kUnits] = {};
  GLuint unit_sampler_[kUnits] = {};
  // 1x1 (0, 0, 0, 1) textures per nv_image_type: what a slot with no image (or one of another
  // type than its shader declares) samples.
  GLuint default_textures_[3] = {};
  // A sampler object per nv_sampler_desc and comparison: the desc's bytes, then the flag.
  using SamplerKey = std::array<uint8_t, sizeof(nv_sampler_desc) + 1>;
  struct SamplerKeyHash {
    size_t operator()(const SamplerKey &k) const { return size_t(novem::fnv1a(k.data(), k.size())); }
  };
  std::unordered_map<SamplerKey, GLuint, SamplerKeyHash> samplers_;
  novem::RecentAnswers<SamplerKey, GLuint> recent_samplers_; // a texture change mostly keeps the sampler
  std::vector<uint8_t> staging_; // uploads GL cannot take as they come (packed blocks, widened L4A4)

  Queries queries_{gl_};
  struct WindowSurface {
    void *surface = nullptr; // EGLSurface; nullptr when it could not be made
    int interval = 1;        // eglSwapInterval
    int width = 0, height = 0; // the size last presented at
  };
  void draw_to_window(const Image &img, GLuint src, const nv_cmd_present &a, int width, int height);
  std::unordered_map<uint32_t, WindowSurface> windows_; // by swapchain handle
  CopyFramebuffers copy_fbos_;

  std::deque<PendingFence> fences_;
  bool unflushed_ = false;
  // A run of single-instance draws issued together as one glMultiDrawArrays or
  // glMultiDrawElementsBaseVertex (novem/draw_run.hpp): a draw after a draw only joins the run;
  // a command that ends the run, and idle(), issue it first. Indexed or not, never both.
  // The draws as glMultiDraw* takes them, one array per argument.
  struct Draws {
    GLenum index_type = GL_UNSIGNED_SHORT;
    std::vector<GLsizei> count;
    std::vector<GLint> first;              // arrays: first vertex
    std::vector<const void *> offset;      // elements: byte offset into the element buffer
    std::vector<GLint> base_vertex;        // elements
    size_t size() const { return count.size(); }
    void clear() { count.clear(), first.clear(), offset.clear(), base_vertex.clear(); }
  };
  novem::HeldDraws<Draws> pending_;
};

static_assert(novem::kHandlesEveryCommand<Executor> && novem::WrapsCommands<Executor>);

} // namespace novem_gl
