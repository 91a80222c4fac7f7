#include "gl_executor.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <numeric>

#include "gl_allocation.hpp"
#include "gl_log.hpp"
#include "gl_shader_translate.hpp"
#include "novem/driver_heap.hpp"
#include "novem/image_layout.hpp"
#include "novem/command_checks.hpp"
#include "novem/command_table.hpp"
#include "novem/options.hpp"
#include "novem/render_states.hpp"

namespace novem_gl {

namespace {

constexpr size_t kRingSize = 4u << 20; // constants in flight: 8 segments of 512 KiB
constexpr size_t kRingSegments = 8;
constexpr GLuint kBinding[NV_STAGE_COUNT] = {0, 1}; // the contract's uniform block bindings

} // namespace

Config Config::from_environment() {
  const novem::Options settings;
  Config c;
  c.debug = settings.flag("NOVEM_GL_DEBUG", false);
  c.check_errors = settings.flag("NOVEM_GL_CHECK_ERRORS", true);
  c.dump_glsl = settings.flag("NOVEM_GL_DUMP_GLSL", false);
  c.batching = settings.flag("NOVEM_GL_BATCHING", true);
  c.state_cache = settings.flag("NOVEM_GL_STATE_CACHE", true);
  c.pipeline_cache = settings.flag("NOVEM_GL_PIPELINE_CACHE", true);
  c.barrier_tracking = settings.flag("NOVEM_GL_BARRIERS", true);
  c.suballocation = settings.flag("NOVEM_GL_SUBALLOC", true);
  // Multi-draws skip a joined draw's state checks, so they go with batching and the state
  // cache: NOVEM_GL_BATCHING=0 or NOVEM_GL_STATE_CACHE=0 turns them off too.
  c.multi_draw = c.batching && c.state_cache && settings.flag("NOVEM_GL_MULTI_DRAW", true);
  if (c.pipeline_cache) c.cache_dir = settings.cache_dir();
  c.quirks = quirk_switches(settings);
  return c;
}

Executor::Executor(nv_channel &channel, Context &context, const Config &config, bool software_vertex)
    : channel_(channel), context_(context), gl_(context.gl), config_(config), software_vertex_(software_vertex),
      check_errors_(config.check_errors && !context.debug_output), state_(gl_, config.state_cache),
      programs_(gl_, channel, violations_, config.dump_glsl) {}

bool Executor::init(std::string &error) {
  // D3D's clip space (+Y up, Z in [0, 1]) with NDC y = +1 on the viewport's first row, which is
  // row 0 of the image in memory and the first row glReadPixels returns. The vertex shaders
  // negate y (gl_shader_translate.cpp) under the lower-left origin rather than the context
  // flipping it with GL_UPPER_LEFT: Mesa applies its edge rule in memory rows, the top-left one
  // only for the lower-left origin (with GL_UPPER_LEFT it takes bottom edges), and D3D9's
  // filling convention is top-left in rows from the top.
  gl_.ClipControl(GL_LOWER_LEFT, GL_ZERO_TO_ONE);
  gl_.FrontFace(kFrontFace);
  gl_.Enable(GL_SCISSOR_TEST); // always on; SET_SCISSOR gives the rectangle
  gl_.Enable(GL_PROGRAM_POINT_SIZE);
  // D3D9's flat shading takes the first vertex's colours (GL's default is the last; Vulkan's is
  // the first).
  gl_.ProvokingVertex(GL_FIRST_VERTEX_CONVENTION);
  // gl_PointCoord (t) runs down the image as Vulkan's PointCoord does: row 0 of the image is
  // window y 0, so that is GL's lower-left sprite origin.
  gl_.PointParameteri(GL_POINT_SPRITE_COORD_ORIGIN, GL_LOWER_LEFT);
  gl_.Disable(GL_DITHER);
  const GLubyte *renderer = gl_.GetString(GL_RENDERER);
  quirks_ = driver_quirks(renderer ? reinterpret_cast<const char *>(renderer) : "", config_.quirks);
  if (quirks_.has(Quirk::driver_heap)) novem::keep_driver_heap();
  gl_.PixelStorei(GL_PACK_ALIGNMENT, 1);
  gl_.PixelStorei(GL_UNPACK_ALIGNMENT, 1);
  images_.query_limits();
  gl_.CreateVertexArrays(1, &vao_);
  gl_.BindVertexArray(vao_);
  state_.init();
  if (!config_.cache_dir.empty()) programs_.enable_disk_cache(config_.cache_dir + "/opengl");

  GLint alignment = 256, max_block = 16384;
  gl_.GetIntegerv(GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT, &alignment);
  gl_.GetIntegerv(GL_MAX_UNIFORM_BLOCK_SIZE, &max_block);
  max_constants_ = size_t(max_block);
  if (software_vertex_) {
    // GL 4.3 lets a driver have no storage buffer in vertex shaders; the storage part is bound
    // at a block's offset plus NV_VERTEX_STORAGE_OFFSET, so that must suit the driver's alignment.
    GLint vertex_blocks = 0, storage_alignment = 256, storage_size = 0;
    gl_.GetIntegerv(GL_MAX_VERTEX_SHADER_STORAGE_BLOCKS, &vertex_blocks);
    gl_.GetIntegerv(GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT, &storage_alignment);
    gl_.GetIntegerv(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &storage_size);
    if (vertex_blocks < 1 || storage_alignment < 1 || NV_VERTEX_STORAGE_OFFSET % GLuint(storage_alignment) != 0 ||
        GLuint(storage_size) < NV_VERTEX_STORAGE_SIZE) {
      error = "software vertex processing needs a storage buffer in vertex shaders, which this context lacks";
      return false;
    }
    alignment = std::max(alignment, storage_alignment);
  }
  if (config_.suballocation) {
    if (!ring_.create(gl_, kRingSize, kRingSegments, size_t(alignment), std::max(size_t(max_block), constants_limit(NV_STAGE_VERTEX)))) {
      error = "cannot map the constant ring (ARB_buffer_storage)";
      return false;
    }
    novem::bump(channel_.device_allocations);
    max_constants_ = std::min(max_constants_, ring_.segment_size());
    arena_.init(gl_, channel_.device_allocations, channel_.gpu_waits);
  } else {
    for (uint32_t s = 0; s < NV_STAGE_COUNT; ++s) {
      gl_.CreateBuffers(1, &stage_ubo_[s]);
      gl_.NamedBufferStorage(stage_ubo_[s], GLsizeiptr(constants_limit(s)), nullptr, GL_DYNAMIC_STORAGE_BIT);
      novem::bump(channel_.device_allocations);
      bind_constants(s, stage_ubo_[s], 0, constants_limit(s));
    }
  }
  for (uint32_t s = 0; s < NV_STAGE_COUNT; ++s) command_state_.limit_constants(s, uint32_t(constants_limit(s)));
  GLint units = 0;
  gl_.GetIntegerv(GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS, &units);
  if (units < GLint(kUnits)) {
    error = "the context has " + std::to_string(units) + " texture units; Novem needs " + std::to_string(kUnits);
    return false;
  }
  copy_fbos_.create(gl_);
  static constexpr uint8_t kOpaqueBlack[4] = {0, 0, 0, 0xFF};
  static constexpr GLenum kTargets[3] = {GL_TEXTURE_2D, GL_TEXTURE_CUBE_MAP, GL_TEXTURE_3D};
  for (uint32_t t = 0; t < 3; ++t) {
    GLuint &tex = default_textures_[t];
    gl_.CreateTextures(kTargets[t], 1, &tex);
    if (t == NV_IMAGE_TYPE_3D) gl_.TextureStorage3D(tex, 1, GL_RGBA8, 1, 1, 1);
    else gl_.TextureStorage2D(tex, 1, GL_RGBA8, 1, 1);
    if (t == NV_IMAGE_TYPE_2D) gl_.TextureSubImage2D(tex, 0, 0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, kOpaqueBlack);
    for (GLint layer = 0; t != NV_IMAGE_TYPE_2D && layer < (t == NV_IMAGE_TYPE_CUBE ? 6 : 1); ++layer)
      gl_.TextureSubImage3D(tex, 0, 0, 0, layer, 1, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, kOpaqueBlack);
  }
  GLenum e = gl_.GetError();
  if (e != GL_NO_ERROR) {
    error = "GL error " + std::to_string(e) + " while setting up the context";
    return false;
  }
  return true;
}

void Executor::shutdown() {
  for (PendingFence &f : fences_) {
    if (f.sync) gl_.DeleteSync(f.sync);
    queries_.resolve(f.value, channel_);
    channel_.complete_fence(f.value);
  }
  fences_.clear();
  queries_.clear();
  for (auto &[handle, window] : windows_) context_.destroy_window_surface(window.surface);
  windows_.clear();
  copy_fbos_.destroy(gl_);
  pipelines_.clear();
  programs_.clear();
  framebuffers_.clear();
  images_.clear();
  for (auto &[key, name] : samplers_) gl_.DeleteSamplers(1, &name);
  samplers_.clear();
  recent_samplers_.clear();
  for (GLuint &tex : default_textures_) {
    if (tex) gl_.DeleteTextures(1, &tex);
    tex = 0;
  }
  for (auto &[handle, b] : buffers_)
    if (!b.range.buffer) gl_.DeleteBuffers(1, &b.name);
  buffers_.clear();
  arena_.destroy();
  ring_.destroy();
  for (GLuint &ubo : stage_ubo_)
    if (ubo) gl_.DeleteBuffers(1, &ubo);
  if (vao_) gl_.DeleteVertexArrays(1, &vao_);
  vao_ = 0;
}

void Executor::check_errors(uint16_t opcode) {
  for (GLenum e; (e = gl_.GetError()) != GL_NO_ERROR;) {
    log("GL error 0x%04x in %s", e, novem::opcode_name(opcode));
    if (e == GL_CONTEXT_LOST) {
      channel_.device_lost.store(true);
      break;
    }
  }
}

void Executor::creation_failed(uint16_t opcode, uint32_t handle, const char *why) {
  if (opcode == NV_OP_CREATE_IMAGE) failed_.fail_image(channel_, handle);
  else failed_.fail_buffer(channel_, handle);
  log("%s %u cannot be made: %s", novem::opcode_name(opcode), handle, why);
}

bool Executor::names_failed_resource(bool indexed) const {
  if (failed_.none()) return false;
  const nv_pipeline_desc *desc = command_state_.pipeline();
  return failed_.names_target(command_state_.targets()) ||
         (desc && failed_.reads_buffer(*desc, [this](uint32_t slot) { return command_state_.vertex_buffer(slot).buffer; },
                                       indexed ? command_state_.index_buffer().buffer : 0));
}

// ---- fences and the worker loop ----

bool Executor::poll() {
  while (!fences_.empty()) {
    PendingFence &f = fences_.front();
    if (f.sync) {
      GLenum r = gl_.ClientWaitSync(f.sync, 0, 0);
      if (r == GL_TIMEOUT_EXPIRED) return true;
      if (r == GL_WAIT_FAILED) {
        log("fence %llu: waiting failed; the device is lost", static_cast<unsigned long long>(f.value));
        channel_.device_lost.store(true);
      }
      gl_.DeleteSync(f.sync);
    }
    queries_.resolve(f.value, channel_);
    channel_.complete_fence(f.value);
    fences_.pop_front();
  }
  return false;
}

void Executor::wait_gpu() {
  if (!fences_.empty() && fences_.front().sync) gl_.ClientWaitSync(fences_.front().sync, 0, 1000000); // 1 ms
}

void Executor::idle() {
  flush_draws();
  if (unflushed_) gl_.Flush();
  unflushed_ = false;
  if (config_.suballocation) arena_.poll(); // not after every command: once per frame is enough
}

void Executor::fence(const nv_cmd_fence &a, const nv_cmd_header *) {
  novem::bump(channel_.submits);
  queries_.fence_issued(a.value);
  if (channel_.device_lost.load(std::memory_order_relaxed)) {
    fences_.push_back({nullptr, a.value}); // completes in order at the next poll
    return;
  }
  fences_.push_back({gl_.FenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0), a.value});
  if (config_.suballocation) arena_.end_serial();
  gl_.Flush();
  unflushed_ = false;
}

// ---- buffers ----

void Executor::create_buffer(const nv_cmd_create_buffer &a, const nv_cmd_header *) {
  if (!buffers_.vacant(a.buffer, NV_OP_CREATE_BUFFER)) return;
  failed_.forget_buffer(a.buffer);
  Buffer b;
  b.size = a.size;
  const uint64_t bytes = std::max<uint64_t>(a.size, 1);
  const auto no_memory = [&] {
    const std::string why = "GL gives no storage for " + std::to_string(bytes) + " bytes";
    creation_failed(NV_OP_CREATE_BUFFER, a.buffer, why.c_str());
  };
  // Larger than a GLsizeiptr holds: GL would take it as negative (GL_INVALID_VALUE).
  if (bytes > uint64_t(PTRDIFF_MAX)) return creation_failed(NV_OP_CREATE_BUFFER, a.buffer, "larger than GL takes");
  if (config_.suballocation) {
    b.range = arena_.allocate(bytes);
    if (!b.range.buffer) return no_memory();
    b.name = b.range.buffer;
    b.base = b.range.offset;
  } else {
    clear_errors(gl_, "CREATE_BUFFER");
    gl_.CreateBuffers(1, &b.name);
    gl_.NamedBufferStorage(b.name, GLsizeiptr(bytes), nullptr, GL_DYNAMIC_STORAGE_BIT);
    novem::bump(channel_.device_allocations);
    if (storage_failed(gl_, "CREATE_BUFFER")) {
      gl_.DeleteBuffers(1, &b.name);
      return no_memory();
    }
  }
  buffers_.insert(a.buffer, b, NV_OP_CREATE_BUFFER);
  rebind_buffer(a.buffer);
}

void Executor::destroy_buffer(const nv_cmd_destroy_buffer &a, const nv_cmd_header *) {
  if (failed_.buffer(a.buffer)) return failed_.forget_buffer(a.buffer); // nothing was made
  const std::optional<Buffer> b = buffers_.take(a.buffer, NV_OP_DESTROY_BUFFER);
  if (!b) return;
  if (b->range.buffer) {
    arena_.retire(b->range); // draws already issued may still read it
    for (uint32_t s = 0; s < NV_MAX_VERTEX_BUFFERS; ++s) // GL must not keep reading it through the VAO
      if (command_state_.vertex_buffer(s).buffer == a.buffer) {
        gl_.BindVertexBuffer(s, 0, 0, GLsizei(bound_[s].stride));
        bound_[s] = {0, 0, bound_[s].stride};
        command_state_.mark(novem::kVertexBuffersPart);
      }
    if (command_state_.index_buffer().buffer == a.buffer && element_buffer_ == b->name) {
      gl_.VertexArrayElementBuffer(vao_, 0);
      element_buffer_ = 0;
    }
  } else {
    gl_.DeleteBuffers(1, &b->name); // GL unbinds it from the vertex array
    if (b->name == element_buffer_) element_buffer_ = 0;
    // GL may give its name to a later buffer: no slot may look bound to it.
    for (novem::VertexBinding &bound : bound_)
      if (bound.buffer == b->name) bound = {0, 0, bound.stride}, command_state_.mark(novem::kVertexBuffersPart);
  }
}

void Executor::update_buffer(const nv_cmd_update_buffer &a, const nv_cmd_header *h) {
  Buffer *found = buffers_.get(a.buffer, NV_OP_UPDATE_BUFFER);
  if (!found) return;
  if (a.offset > found->size || a.size > found->size - a.offset) {
    log("UPDATE_BUFFER %u: %llu bytes at %llu do not fit", a.buffer, static_cast<unsigned long long>(a.size),
        static_cast<unsigned long long>(a.offset));
    return;
  }
  const void *data = novem::command_payload<nv_cmd_update_buffer>(h);
  Buffer &b = *found;
  if (!b.range.buffer) {
    // GL orders the write with the draws around it: draws before see the old bytes.
    if (a.flags & NV_UPDATE_DISCARD) gl_.InvalidateBufferData(b.name);
    gl_.NamedBufferSubData(b.name, GLintptr(a.offset), GLsizeiptr(a.size), data);
    return;
  }
  // Suballocated: a range no pending draw reads (or NO_OVERWRITE's promise) is written in place;
  // otherwise the buffer moves to a fresh range, and the old one is freed when its draws are done.
  if (!arena_.busy(b.range) || (a.flags & NV_UPDATE_NO_OVERWRITE)) {
    std::memcpy(b.range.map + a.offset, data, a.size);
    return;
  }
  BufferArena::Range fresh = arena_.allocate(b.size, b.alignment);
  if (!fresh.buffer) {
    // No memory for a fresh range: GL writes into this one, after the draws that read it.
    gl_.NamedBufferSubData(b.range.buffer, GLintptr(b.range.offset + a.offset), GLsizeiptr(a.size), data);
    return;
  }
  const bool keep = !(a.flags & NV_UPDATE_DISCARD) && (a.offset != 0 || a.size != b.size);
  if (keep) {
    // The bytes outside the update come from the old range, in GL's order; the update follows it.
    gl_.CopyNamedBufferSubData(b.range.buffer, fresh.buffer, GLintptr(b.range.offset), GLintptr(fresh.offset),
                               GLsizeiptr(b.size));
    gl_.NamedBufferSubData(fresh.buffer, GLintptr(fresh.offset + a.offset), GLsizeiptr(a.size), data);
    arena_.use(b.range); // the copy reads it
    arena_.use(fresh);   // and GL writes this one later: no CPU write into it before that is done
  } else {
    std::memcpy(fresh.map + a.offset, data, a.size);
  }
  arena_.retire(b.range);
  b.range = fresh;
  b.name = fresh.buffer;
  b.base = fresh.offset;
  rebind_buffer(a.buffer);
}

void Executor::rebind_buffer(uint32_t handle) {
  for (uint32_t s = 0; s < NV_MAX_VERTEX_BUFFERS; ++s)
    if (command_state_.vertex_buffer(s).buffer == handle) command_state_.mark(novem::kVertexBuffersPart);
  if (command_state_.index_buffer().buffer == handle) element_buffer_ = ~GLuint(0); // bound again at the next indexed draw
}

void Executor::mark_buffers_used() {
  if (!config_.suballocation) return;
  for (uint32_t slot = 0; slot < NV_MAX_VERTEX_BUFFERS; ++slot) {
    const novem::VertexSlot &s = command_state_.vertex_buffer(slot);
    if (!s.buffer) continue;
    if (Buffer *b = buffers_.find(s.buffer)) arena_.use(b->range);
  }
}

void Executor::set_vertex_buffer(const nv_cmd_set_vertex_buffer &a, const nv_cmd_header *) {
  if (command_state_.set_vertex_buffer(a)) pending_.vertex_buffer_set();
}

uint32_t Executor::pipeline_slots() const {
  uint32_t slots = 0;
  const nv_pipeline_desc &d = pipeline_->desc;
  for (uint32_t i = 0; i < std::min<uint32_t>(d.attribute_count, NV_MAX_VERTEX_ATTRIBUTES); ++i)
    if (d.attributes[i].binding < NV_MAX_VERTEX_BUFFERS) slots |= 1u << d.attributes[i].binding;
  return slots;
}

Executor::VertexBindings Executor::wanted_vertex_buffers() {
  VertexBindings want{};
  for (uint32_t slots = pipeline_slots(); slots; slots &= slots - 1) {
    const uint32_t slot = uint32_t(std::countr_zero(slots));
    const novem::VertexSlot &s = command_state_.vertex_buffer(slot);
    Buffer *b = buffers_.find(s.buffer);
    if (!b) {
      want[slot] = {0, 0, s.stride};
      continue;
    }
    align_to_stride(*b, s.stride);
    want[slot] = {b->name, b->base + s.offset, s.stride};
  }
  return want;
}

// How many vertices further on than the bound bindings `want` starts, if it is them moved
// (novem::vertex_shift); never without the state cache.
std::optional<uint32_t> Executor::vertex_shift(const VertexBindings &want) const {
  if (!bound_valid_ || !config_.state_cache) return std::nullopt;
  return novem::vertex_shift(bound_.data(), want.data(), pipeline_slots(), pipeline_->desc.instance_slots);
}

// Binds the slots that changed, each as far back in its buffer as a common shift allows.
void Executor::bind_vertex_buffers() {
  if (!command_state_.take(novem::kVertexBuffersPart) && config_.state_cache) return;
  const VertexBindings want = wanted_vertex_buffers();
  if (std::optional<uint32_t> shift = vertex_shift(want)) {
    vertex_shift_ = *shift;
    return;
  }
  const uint32_t slots = pipeline_slots(), instanced = pipeline_->desc.instance_slots;
  vertex_shift_ = novem::lowest_vertex_shift(want.data(), slots, instanced);
  for (uint32_t left = slots; left; left &= left - 1) {
    const uint32_t slot = uint32_t(std::countr_zero(left));
    const novem::VertexBinding b = novem::shifted_binding(want[slot], slot, instanced, vertex_shift_);
    if (!config_.state_cache || !bound_valid_ || !(b == bound_[slot]))
      gl_.BindVertexBuffer(slot, GLuint(b.buffer), GLintptr(b.offset), GLsizei(b.stride));
    bound_[slot] = b;
  }
  bound_valid_ = true;
}

void Executor::settle_vertex_moves() {
  pending_.vertex_moved = false;
  if (pending_.empty() || !command_state_.dirty(novem::kVertexBuffersPart)) return;
  if (std::optional<uint32_t> shift = vertex_shift(wanted_vertex_buffers())) {
    vertex_shift_ = *shift;
    command_state_.take(novem::kVertexBuffersPart);
    mark_buffers_used(); // the new buffers are read by the run too
    return;
  }
  flush_draws(); // issued with the bindings it was held for; the next draw binds anew
}

// A buffer bound with a stride that does not divide its start moves, once, to a range that
// starts on a multiple of it (and of the arena's alignment), its bytes copied in GL's order.
void Executor::align_to_stride(Buffer &b, uint32_t stride) {
  if (!b.range.buffer || b.alignment || stride == 0 || b.base % stride == 0) return;
  const uint64_t alignment = std::lcm(uint64_t(BufferArena::kAlignment), uint64_t(stride));
  if (alignment > 4096) return;
  BufferArena::Range fresh = arena_.allocate(b.size, alignment);
  if (!fresh.buffer) return;
  gl_.CopyNamedBufferSubData(b.range.buffer, fresh.buffer, GLintptr(b.range.offset), GLintptr(fresh.offset),
                             GLsizeiptr(b.size));
  arena_.use(b.range); // the copy reads it
  arena_.use(fresh);   // and GL writes this one later: no CPU write into it before that is done
  arena_.retire(b.range);
  b.alignment = alignment;
  b.range = fresh;
  b.name = fresh.buffer;
  b.base = fresh.offset; // an index buffer's offset is taken per draw, its name compared there
}

void Executor::set_constants(const nv_cmd_set_constants &a, const nv_cmd_header *h) {
  command_state_.set_constants(a, novem::command_payload<nv_cmd_set_constants>(h), novem::payload_bytes<nv_cmd_set_constants>(h));
}

// With the ring the block goes into a new slice at the next draw (draws before it keep reading
// the old one); without it, the bytes are written into the stage's buffer now.
void Executor::update_constants(const nv_cmd_update_constants &a, const nv_cmd_header *h) {
  const bool stale = a.stage < NV_STAGE_COUNT && command_state_.dirty(novem::constants_part(a.stage));
  const novem::CommandState::ConstantRange r = command_state_.update_constants(
      a, novem::command_payload<nv_cmd_update_constants>(h), novem::payload_bytes<nv_cmd_update_constants>(h));
  if (!r.size || config_.suballocation) return;
  if (!stale) command_state_.take(novem::constants_part(a.stage)); // written here, not owed at the draw
  gl_.NamedBufferSubData(stage_ubo_[a.stage], GLintptr(r.offset), GLsizeiptr(r.size),
                         command_state_.constants(a.stage).data() + r.offset);
}

// The stage's block into a fresh ring slice, the bytes the bound shader reads (bound whole; the
// rest is never read), or all of it into the stage's own buffer without the ring.
void Executor::upload_constants(uint32_t stage, const novem::UniformFootprint &reads) {
  const std::vector<uint8_t> &block = command_state_.constants(stage);
  if (block.empty()) return;
  if (config_.suballocation) {
    const uint32_t size = uint32_t(block.size());
    const uint32_t span = reads.whole ? size : std::min(reads.end(), size);
    const size_t offset = ring_.allocate(span);
    novem::copy_footprint(reads, ring_.data() + offset, block.data(), size, span);
    bind_constants(stage, ring_.buffer(), offset, block.size());
    pushed_reads_[stage] = reads;
  } else {
    gl_.NamedBufferSubData(stage_ubo_[stage], 0, GLsizeiptr(block.size()), block.data());
  }
}

void Executor::bind_constants(uint32_t stage, GLuint buffer, size_t offset, size_t size) {
  if (stage != NV_STAGE_VERTEX || !software_vertex_) {
    gl_.BindBufferRange(GL_UNIFORM_BUFFER, kBinding[stage], buffer, GLintptr(offset), GLsizeiptr(size));
    return;
  }
  // The storage part is bound whole: the ring's tail (or the stage's buffer) holds it past a
  // shorter block, and the shader reads only what the frontend sent.
  gl_.BindBufferRange(GL_UNIFORM_BUFFER, kBinding[stage], buffer, GLintptr(offset),
                      GLsizeiptr(std::min<size_t>(size, NV_VERTEX_STORAGE_OFFSET)));
  gl_.BindBufferRange(GL_SHADER_STORAGE_BUFFER, NV_VERTEX_STORAGE_BINDING, buffer,
                      GLintptr(offset + NV_VERTEX_STORAGE_OFFSET), GLsizeiptr(NV_VERTEX_STORAGE_SIZE));
}

// ---- images and targets ----

void Executor::create_image(const nv_cmd_create_image &a, const nv_cmd_header *) {
  if (!images_.vacant(a.image)) return;
  failed_.forget_image(a.image);
  std::string why;
  if (!images_.create(a, why)) return creation_failed(NV_OP_CREATE_IMAGE, a.image, why.c_str());
  if (command_state_.is_target(a.image)) command_state_.mark(novem::kTargetsPart); // bound before it was made
}

void Executor::destroy_image(const nv_cmd_destroy_image &a, const nv_cmd_header *) {
  if (failed_.image(a.image)) return failed_.forget_image(a.image); // nothing was made
  if (const Image *img = images_.find(a.image)) {
    forget_texture(img->name), forget_texture(img->srgb_view);
    framebuffers_.forget(a.image);
    state_.framebuffers_deleted();
  }
  if (images_.destroy(a.image) && command_state_.is_target(a.image)) command_state_.mark(novem::kTargetsPart);
}

void Executor::set_render_targets(const nv_cmd_set_render_targets &a, const nv_cmd_header *) {
  if (!command_state_.changes_targets(a)) return;
  if (const char *why = novem::checks::render_targets(a, [this](uint32_t image) { return images_.find(image); }))
    return violations_.report(NV_OP_SET_RENDER_TARGETS, why);
  command_state_.set_render_targets(a);
}

bool Executor::bind_targets() {
  if (command_state_.take(novem::kTargetsPart)) {
    const nv_cmd_set_render_targets &targets = command_state_.targets();
    Framebuffers::Colors colors;
    for (uint32_t i = 0; i < NV_MAX_COLOR_TARGETS; ++i)
      colors[i] = {command_state_.color_target(i), targets.color_levels[i], targets.color_layers[i]};
    fbo_ = framebuffers_.framebuffer(colors, targets.depth_stencil, targets.srgb_write != 0);
    // The contract counts the depth bias' constant in 2^-n steps of a UNORM depth format; halved
    // where the driver counts twice that (Quirk::depth_bias_units).
    const Image *depth = images_.find(targets.depth_stencil);
    const bool unorm = depth && (depth->nv_format == NV_FORMAT_D16_UNORM || depth->nv_format == NV_FORMAT_D24_UNORM_S8_UINT);
    const float scale = unorm && quirks_.has(Quirk::depth_bias_units) ? 0.5f : 1.0f;
    if (scale != depth_bias_scale_) {
      depth_bias_scale_ = scale;
      pipeline_dirty_ = true; // glPolygonOffset goes with the pipeline
    }
    // ABI 5: encode into the sRGB views the framebuffer attaches (other attachments are linear, so
    // GL leaves them alone); blending then happens in linear space.
    state_.framebuffer_srgb(targets.srgb_write != 0);
  }
  if (!fbo_) return false;
  state_.draw_framebuffer(fbo_);
  return true;
}

void Executor::set_viewport(const nv_cmd_set_viewport &a, const nv_cmd_header *) { command_state_.set_viewport(a); }

void Executor::set_scissor(const nv_cmd_set_scissor &a, const nv_cmd_header *) { command_state_.set_scissor(a); }

// Clears and copies set a scissor of their own and mark the commands' one to be set again.
void Executor::apply_viewport() {
  if (command_state_.take(novem::kViewportPart) && command_state_.viewport()) {
    // Window y grows with the image's rows (row 0 is window y 0, the vertex shaders flip clip
    // space), so D3D's top-left viewport goes in as it is.
    const nv_cmd_set_viewport &v = *command_state_.viewport();
    gl_.ViewportIndexedf(0, v.x, v.y, std::max(v.width, 0.0f), std::max(v.height, 0.0f));
    gl_.DepthRangeIndexed(0, v.min_depth, v.max_depth);
  }
  if (command_state_.take(novem::kScissorPart)) {
    const nv_rect *scissor = command_state_.scissor();
    state_.scissor(scissor ? *scissor : nv_rect{0, 0, 16384, 16384});
  }
}

void Executor::clear(const nv_cmd_clear &a, const nv_cmd_header *h) {
  if (failed_.names_target(command_state_.targets()) || !bind_targets()) return;
  // Every colour target is cleared (D3D9's Clear with several render targets).
  bool colors[NV_MAX_COLOR_TARGETS];
  bool any_color = false;
  for (uint32_t i = 0; i < NV_MAX_COLOR_TARGETS; ++i) {
    const Image *c = images_.find(command_state_.color_target(i));
    any_color |= colors[i] = c && !c->format->depth;
  }
  const Image *ds = images_.find(command_state_.targets().depth_stencil);
  bool do_color = (a.flags & NV_CLEAR_COLOR) && any_color;
  bool do_depth = (a.flags & NV_CLEAR_DEPTH) && ds;
  bool do_stencil = (a.flags & NV_CLEAR_STENCIL) && ds && ds->format->stencil;
  if (!do_color && !do_depth && !do_stencil) return;
  // A clear ignores the pipeline's write masks and the stencil write mask (GL's clears obey them) and the scissor (each
  // rectangle becomes the scissor for its clear). The next draw puts the pipeline's masks back.
  if (do_color) state_.color_mask(0xF);
  if (do_depth) state_.depth_mask(true);
  if (do_stencil) state_.stencil_write_mask(0xFF);
  pipeline_dirty_ = true;
  const auto *rects = static_cast<const nv_rect *>(novem::command_payload<nv_cmd_clear>(h));
  const GLint stencil = GLint(a.stencil & 0xFF);
  for (uint32_t i = 0; i < a.rect_count; ++i) {
    if (rects[i].width <= 0 || rects[i].height <= 0) continue;
    state_.scissor(rects[i]);
    for (GLint c = 0; c < GLint(NV_MAX_COLOR_TARGETS) && do_color; ++c)
      if (colors[c]) gl_.ClearBufferfv(GL_COLOR, c, a.color);
    if (do_depth && do_stencil)
      gl_.ClearBufferfi(GL_DEPTH_STENCIL, 0, a.depth, stencil);
    else if (do_depth)
      gl_.ClearBufferfv(GL_DEPTH, 0, &a.depth);
    else if (do_stencil)
      gl_.ClearBufferiv(GL_STENCIL, 0, &stencil);
  }
  command_state_.mark(novem::kScissorPart);
  unflushed_ = true;
  if (!config_.batching) finish();
}

void Executor::read_image(const nv_cmd_read_image &a, const nv_cmd_header *) {
  const Image *img = images_.get(a.image, NV_OP_READ_IMAGE);
  if (!img) return;
  const nv_rect &r = a.rect;
  // ABI 5: a level and a cube face of the image.
  if (const char *why = novem::checks::read_image(a, img->shape(), img->format->bytes_per_pixel,
                                                  channel_.readback ? channel_.readback_size : 0))
    return violations_.report(NV_OP_READ_IMAGE, why);
  GLuint fbo = img->format->depth ? framebuffers_.framebuffer(Framebuffers::Target{}, a.image)
                                  : framebuffers_.framebuffer(Framebuffers::Target{a.image, a.level, a.layer}, 0);
  if (!fbo) return;
  state_.read_framebuffer(fbo);
  // Row r.y is the image's row r.y counted from the top, and glReadPixels returns rows in
  // increasing window y: top first, as the contract wants, tightly packed (GL_PACK_ALIGNMENT 1).
  gl_.ReadPixels(r.x, r.y, r.width, r.height, img->format->read_format, img->format->read_type, channel_.readback);
}


// ---- textures ----

void Executor::update_image(const nv_cmd_update_image &a, const nv_cmd_header *h) {
  // ABI 5: a discarding write into a one-level 2D texture renames it: fresh storage takes the
  // texels, and the draws queued with the old texture keep it. llvmpipe would otherwise finish
  // every queued draw that samples the texture before writing into it (about 70 us a write in
  // novem-bench's texture workload with ten DISCARD updates a frame).
  bool renamed = false;
  if (a.flags & NV_UPDATE_DISCARD) {
    const Image *old = images_.find(a.image);
    const GLuint name = old ? old->name : 0, view = old ? old->srgb_view : 0;
    renamed = images_.rename(a.image);
    if (renamed) {
      if (framebuffers_.forget(a.image)) state_.framebuffers_deleted(); // they attach the old texture
      forget_texture(name); // GL may hand the names out again
      if (view) forget_texture(view);
    }
  }
  const Image *img = images_.get(a.image, NV_OP_UPDATE_IMAGE);
  if (!img) return;
  // The payload is in the nv_format's layout: rows of texels, or of 4x4 blocks.
  if (const char *why =
          novem::checks::update_image(a, img->shape(), h->size - sizeof(nv_cmd_header) - sizeof(nv_cmd_update_image)))
    return violations_.report(NV_OP_UPDATE_IMAGE, why);
  const uint32_t w = std::max(img->width >> a.level, 1u), hgt = std::max(img->height >> a.level, 1u);
  // Cube faces and 3D slices are GL's z offset (DSA addresses a cube map's faces as layers).
  const GLint z = GLint(a.layer);
  const nv_rect &r = a.rect;
  const novem::ImageLayout layout = novem::image_layout(img->nv_format);
  const size_t row = novem::image_row_bytes(img->nv_format, uint32_t(r.width));
  const uint32_t rows = novem::image_block_rows(img->nv_format, uint32_t(r.height));
  const size_t pitch = a.row_pitch ? a.row_pitch : row;
  const auto *payload = static_cast<const uint8_t *>(novem::command_payload<nv_cmd_update_image>(h));
  // ABI 5: a discarding write into an image that was not renamed lets the driver give the level
  // fresh storage instead of ordering the write after the draws that still sample it
  // (glInvalidateTexSubImage, the texture counterpart of the buffers' glInvalidateBufferData).
  if ((a.flags & NV_UPDATE_DISCARD) && !renamed)
    gl_.InvalidateTexSubImage(img->name, GLint(a.level), 0, 0, z, GLsizei(w), GLsizei(hgt), 1);
  // Rows are top first and row 0 is the top row in GL's texture space here too (the contract's
  // convention, as for render targets): no flip. GL orders the write with the draws around it.
  if (img->format->compressed) {
    // Compressed rows cannot be strided: pack them when the payload's are.
    const void *data = payload;
    if (pitch != row) {
      staging_.resize(row * rows);
      for (uint32_t y = 0; y < rows; ++y) std::memcpy(staging_.data() + y * row, payload + y * pitch, row);
      data = staging_.data();
    }
    if (img->type == NV_IMAGE_TYPE_2D)
      gl_.CompressedTextureSubImage2D(img->name, GLint(a.level), r.x, r.y, r.width, r.height,
                                      img->format->internal_format, GLsizei(row * rows), data);
    else
      gl_.CompressedTextureSubImage3D(img->name, GLint(a.level), r.x, r.y, z, r.width, r.height, 1,
                                      img->format->internal_format, GLsizei(row * rows), data);
  } else if (img->format->expand_l4a4) {
    staging_.resize(size_t(r.width) * 2 * rows);
    for (uint32_t y = 0; y < rows; ++y)
      novem::expand_l4a4(payload + y * pitch, staging_.data() + size_t(y) * r.width * 2, uint32_t(r.width));
    sub_image(*img, a.level, r, z, staging_.data());
  } else {
    gl_.PixelStorei(GL_UNPACK_ROW_LENGTH, GLint(pitch / layout.block_bytes));
    sub_image(*img, a.level, r, z, payload);
    gl_.PixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  }
  unflushed_ = true;
}

void Executor::sub_image(const Image &img, uint32_t level, const nv_rect &r, GLint z, const void *texels) {
  if (img.type == NV_IMAGE_TYPE_2D)
    gl_.TextureSubImage2D(img.name, GLint(level), r.x, r.y, r.width, r.height, img.format->read_format,
                          img.format->read_type, texels);
  else
    gl_.TextureSubImage3D(img.name, GLint(level), r.x, r.y, z, r.width, r.height, 1, img.format->read_format,
                          img.format->read_type, texels);
}

void Executor::generate_mips(const nv_cmd_generate_mips &a, const nv_cmd_header *) {
  const Image *img = images_.get(a.image, NV_OP_GENERATE_MIPS);
  if (!img) return;
  if (const char *why = novem::checks::generate_mips(img->shape())) return violations_.report(NV_OP_GENERATE_MIPS, why);
  if (img->levels < 2) return;
  if (a.filter == NV_FILTER_POINT && img->type != NV_IMAGE_TYPE_3D) {
    // glGenerateMipmap picks its own filter (a box filter in Mesa): POINT is a nearest blit of
    // each level from the one above, as the Vulkan plugin's.
    point_mips(*img);
  } else {
    gl_.GenerateTextureMipmap(img->name);
  }
  unflushed_ = true;
}

void Executor::set_texture(const nv_cmd_set_texture &a, const nv_cmd_header *) { command_state_.set_texture(a); }

GLuint Executor::sampler(const nv_sampler_desc &desc, bool compare) {
  SamplerKey key;
  std::memcpy(key.data(), &desc, sizeof desc);
  key.back() = compare ? 1 : 0;
  if (const GLuint *s = recent_samplers_.find(key)) return *s;
  auto it = samplers_.find(key);
  if (it != samplers_.end()) {
    recent_samplers_.remember(key, it->second);
    return it->second;
  }
  auto address = [](uint8_t a) -> GLint {
    switch (a) {
    case NV_ADDRESS_MIRROR: return GL_MIRRORED_REPEAT;
    case NV_ADDRESS_CLAMP: return GL_CLAMP_TO_EDGE;
    case NV_ADDRESS_BORDER: return GL_CLAMP_TO_BORDER;
    default: return GL_REPEAT;
    }
  };
  const bool min_linear = desc.min_filter == NV_FILTER_LINEAR;
  GLint min_filter;
  if (desc.mip_filter == NV_FILTER_LINEAR) min_filter = min_linear ? GL_LINEAR_MIPMAP_LINEAR : GL_NEAREST_MIPMAP_LINEAR;
  else min_filter = min_linear ? GL_LINEAR_MIPMAP_NEAREST : GL_NEAREST_MIPMAP_NEAREST;
  GLuint s = 0;
  gl_.CreateSamplers(1, &s);
  gl_.SamplerParameteri(s, GL_TEXTURE_MIN_FILTER, min_filter);
  gl_.SamplerParameteri(s, GL_TEXTURE_MAG_FILTER, desc.mag_filter == NV_FILTER_LINEAR ? GL_LINEAR : GL_NEAREST);
  gl_.SamplerParameteri(s, GL_TEXTURE_WRAP_S, address(desc.address_u));
  gl_.SamplerParameteri(s, GL_TEXTURE_WRAP_T, address(desc.address_v));
  gl_.SamplerParameteri(s, GL_TEXTURE_WRAP_R, address(desc.address_w));
  gl_.SamplerParameterfv(s, GL_TEXTURE_BORDER_COLOR, desc.border_color);
  gl_.SamplerParameterf(s, GL_TEXTURE_LOD_BIAS, desc.mip_lod_bias);
  // At most the adapter's max_anisotropy (the contract), which is 1 without the extension.
  if (desc.max_anisotropy > 1) gl_.SamplerParameterf(s, GL_TEXTURE_MAX_ANISOTROPY_EXT, float(desc.max_anisotropy));
  // max_mip_level is the most detailed level; MIPFILTER NONE stays on it (nearest selection).
  gl_.SamplerParameterf(s, GL_TEXTURE_MIN_LOD, float(desc.max_mip_level));
  gl_.SamplerParameterf(s, GL_TEXTURE_MAX_LOD, desc.mip_filter == NV_FILTER_NONE ? float(desc.max_mip_level) + 0.25f : 1000.0f);
  // ABI 5: D3D9's shadow-map test, lit (1) where the reference is at most the stored depth.
  if (compare) {
    gl_.SamplerParameteri(s, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
    gl_.SamplerParameteri(s, GL_TEXTURE_COMPARE_FUNC, GL_LEQUAL);
  }
  samplers_.emplace(key, s);
  recent_samplers_.remember(key, s);
  return s;
}

void Executor::bind_textures() {
  uint32_t slots = command_state_.take_textures();
  // Without the state cache (NOVEM_GL_STATE_CACHE=0) every slot is bound again at every draw.
  if (!config_.state_cache) slots = novem::kEveryTextureBit;
  for (; slots; slots &= slots - 1) {
    const uint32_t bit = uint32_t(std::countr_zero(slots));
    const novem::TextureSlot &slot = command_state_.texture(bit);
    const Image *img = images_.find(slot.image);
    GLuint tex = default_textures_[slot.type], smp = 0;
    if (img && img->sampled && !img->renderbuffer && img->type == slot.type) {
      // ABI 5: sRGB decoding reads through the sRGB view; a depth texture compares only with
      // NV_TEXTURE_COMPARE_DEPTH (the shader's sampler2DShadow).
      tex = (slot.flags & NV_TEXTURE_SRGB) && img->srgb_view ? img->srgb_view : img->name;
      const bool compare = (slot.flags & NV_TEXTURE_COMPARE_DEPTH) && img->format->depth;
      nv_sampler_desc desc = slot.sampler;
      // Depth values (INTZ) are read with nearest filtering, as on the Vulkan plugin (commands.h).
      if (img->format->depth && !compare) desc.min_filter = desc.mag_filter = desc.mip_filter = NV_FILTER_POINT;
      smp = sampler(desc, compare);
    }
    // A slot's bit is its texture unit: the translator moves pixel sN (binding 16 + N) to unit N
    // and vertex sN (binding 32 + N) to unit 16 + N.
    static_assert(texture_unit(16) == 0 && texture_unit(32) == 16 && novem::texture_bit(NV_STAGE_VERTEX, 0) == 1u << 16);
    const uint32_t unit = bit;
    if (unit_texture_[unit] != tex || !config_.state_cache) {
      gl_.BindTextureUnit(unit, tex);
      unit_texture_[unit] = tex;
    }
    if (unit_sampler_[unit] != smp || !config_.state_cache) {
      gl_.BindSampler(unit, smp);
      unit_sampler_[unit] = smp;
    }
  }
}

void Executor::forget_texture(GLuint name) {
  for (GLuint &t : unit_texture_)
    if (t == name) t = 0;
  command_state_.mark_textures(novem::kEveryTextureBit);
}

// ---- shaders, pipelines, draws ----

void Executor::pipeline_changed(uint32_t shader) {
  pipelines_.forget_shader(shader);
  const nv_pipeline_desc *desc = command_state_.pipeline();
  if (desc && (desc->vertex_shader == shader || desc->pixel_shader == shader))
    command_state_.mark(novem::kPipelinePart); // found again at the next draw
}

void Executor::create_shader(const nv_cmd_create_shader &a, const nv_cmd_header *h) {
  if (const char *why = novem::checks::create_shader(a, novem::payload_bytes<nv_cmd_create_shader>(h)))
    return violations_.report(NV_OP_CREATE_SHADER, why);
  const auto *words = static_cast<const uint32_t *>(novem::command_payload<nv_cmd_create_shader>(h));
  if (programs_.create_shader(a.shader, a.stage, words, a.word_count)) pipeline_changed(a.shader);
}

void Executor::destroy_shader(const nv_cmd_destroy_shader &a, const nv_cmd_header *) {
  if (programs_.destroy_shader(a.shader)) pipeline_changed(a.shader);
}

void Executor::set_pipeline(const nv_cmd_set_pipeline &a, const nv_cmd_header *) { command_state_.set_pipeline(a.desc); }

void Executor::set_render_states(const nv_cmd_set_render_states &a, const nv_cmd_header *) {
  command_state_.set_render_states(a);
}

// Applied with the pipeline; the state cache drops what did not change.
void Executor::set_dynamic_state(const nv_cmd_set_dynamic_state &a, const nv_cmd_header *) {
  command_state_.set_dynamic_state(a);
}

bool Executor::apply_pipeline(const Pipeline &p) {
  state_.program(p.program);
  state_.blend({p.blend, p.color_src, p.color_dst, p.color_op, p.alpha_src, p.alpha_dst, p.alpha_op});
  const nv_cmd_set_dynamic_state &dynamic = command_state_.dynamic();
  const uint8_t *more_masks = command_state_.pipeline()->more_color_write_masks;
  state_.blend_color(dynamic.blend_constant);
  state_.color_masks({p.color_mask, uint8_t(more_masks[0] & 0xF), uint8_t(more_masks[1] & 0xF), uint8_t(more_masks[2] & 0xF)});
  state_.depth(p.depth_test, p.depth_write, p.depth_func);
  state_.cull(p.cull, p.cull_face);
  state_.polygon_mode(p.polygon_mode);
  state_.depth_clamp(p.depth_clamp);
  state_.sample_mask(p.masked_samples);
  // glPolygonOffset's units are the depth format's least resolvable difference, as the
  // contract's, once scaled for the driver (bind_targets).
  state_.depth_bias(p.depth_bias, p.depth_bias ? dynamic.depth_bias_slope : 0.0f,
                    p.depth_bias ? dynamic.depth_bias_constant * depth_bias_scale_ : 0.0f);
  StencilState stencil;
  stencil.enable = p.stencil;
  if (p.stencil) {
    std::memcpy(stencil.ops, p.stencil_ops, sizeof stencil.ops);
    std::memcpy(stencil.func, p.stencil_func, sizeof stencil.func);
    stencil.reference = GLint(dynamic.stencil_reference & 0xFF);
    stencil.compare_mask = dynamic.stencil_compare_mask & 0xFF;
  }
  state_.stencil(stencil);
  state_.stencil_write_mask(dynamic.stencil_write_mask & 0xFF);
  return apply_vertex_input(p.desc);
}

bool Executor::apply_vertex_input(const nv_pipeline_desc &d) {
  const uint32_t count = std::min<uint32_t>(d.attribute_count, NV_MAX_VERTEX_ATTRIBUTES);
  if (config_.state_cache && input_valid_ && applied_input_.attribute_count == d.attribute_count &&
      applied_input_.instance_slots == d.instance_slots &&
      std::memcmp(applied_input_.instance_divisors, d.instance_divisors, sizeof d.instance_divisors) == 0 &&
      std::memcmp(applied_input_.attributes, d.attributes, count * sizeof d.attributes[0]) == 0)
    return false;
  // Slots read per instance advance every instance_divisors[slot] instances (0 reads as 1); the
  // others per vertex (divisor 0).
  auto divisor = [](const nv_pipeline_desc &p, uint32_t slot) {
    return ((p.instance_slots >> slot) & 1) ? std::max<uint32_t>(p.instance_divisors[slot], 1) : 0u;
  };
  for (uint32_t slot = 0; slot < NV_MAX_VERTEX_BUFFERS; ++slot) {
    if (!input_valid_ || !config_.state_cache || divisor(applied_input_, slot) != divisor(d, slot))
      gl_.VertexArrayBindingDivisor(vao_, slot, divisor(d, slot));
  }
  uint32_t enabled = 0;
  for (uint32_t i = 0; i < count; ++i) {
    const nv_vertex_attribute &a = d.attributes[i];
    const VertexFormat *f = vertex_format(a.format);
    if (!f || a.location >= NV_MAX_VERTEX_ATTRIBUTES || a.binding >= NV_MAX_VERTEX_BUFFERS) {
      log("vertex attribute %u: format %u, location %u, binding %u not supported", i, a.format, a.location,
          a.binding);
      continue;
    }
    gl_.VertexAttribFormat(a.location, f->size, f->type, f->normalized, a.offset);
    gl_.VertexAttribBinding(a.location, a.binding);
    enabled |= 1u << a.location;
  }
  for (uint32_t loc = 0; loc < NV_MAX_VERTEX_ATTRIBUTES; ++loc) {
    uint32_t bit = 1u << loc;
    if ((enabled & bit) && (!(enabled_attributes_ & bit) || !config_.state_cache))
      gl_.EnableVertexAttribArray(loc);
    else if (!(enabled & bit) && ((enabled_attributes_ & bit) || !config_.state_cache))
      gl_.DisableVertexAttribArray(loc);
  }
  enabled_attributes_ = enabled;
  applied_input_ = d;
  input_valid_ = true;
  return true;
}

bool Executor::prepare_draw() {
  if (!bind_targets()) return false;
  // Every write Novem makes reaches GL through GL calls, which GL orders with the draws, and the
  // constant ring is coherent: no draw needs glMemoryBarrier. Without barrier tracking
  // (NOVEM_GL_BARRIERS=0) each draw pays for a full one, as a layer that cannot tell would.
  if (!config_.barrier_tracking) {
    gl_.MemoryBarrier(GL_ALL_BARRIER_BITS);
    novem::bump(channel_.barriers);
  }
  bind_textures();
  apply_viewport();
  if (command_state_.take(novem::kPipelinePart)) {
    if (!config_.pipeline_cache) { // NOVEM_GL_PIPELINE_CACHE=0: every pipeline change links anew
      pipelines_.clear();
      programs_.forget_programs();
    }
    const nv_pipeline_desc *desc = command_state_.pipeline();
    pipeline_ = desc ? pipelines_.get(*desc, programs_) : nullptr; // links a new (vs, ps) pair now
    pipeline_dirty_ = true;
  }
  if (command_state_.take(novem::kDynamicPart)) pipeline_dirty_ = true;
  if (!pipeline_) return false;
  if (pipeline_dirty_) {
    // New attributes may read other slots, or read them per instance: the slots are bound again.
    // The same attributes read what they read before (a shader-only change keeps the bindings).
    if (apply_pipeline(*pipeline_)) command_state_.mark(novem::kVertexBuffersPart);
    pipeline_dirty_ = false;
    for (uint32_t s = 0; s < NV_STAGE_COUNT; ++s)
      if (!pushed_reads_[s].covers(pipeline_->uniform_reads[s])) command_state_.mark(novem::constants_part(s));
  }
  bind_vertex_buffers();
  for (uint32_t s = 0; s < NV_STAGE_COUNT; ++s)
    if (command_state_.take(novem::constants_part(s))) upload_constants(s, pipeline_->uniform_reads[s]);
  return true;
}

void Executor::flush_draws() {
  const Draws &d = pending_.draws;
  const GLsizei n = GLsizei(d.size());
  if (n == 0) return;
  const bool indexed = pending_.indexed;
  if (!indexed && n == 1) gl_.DrawArrays(pipeline_->mode, d.first[0], d.count[0]);
  if (!indexed && n > 1) gl_.MultiDrawArrays(pipeline_->mode, d.first.data(), d.count.data(), n);
  if (indexed && n == 1)
    gl_.DrawElementsBaseVertex(pipeline_->mode, d.count[0], d.index_type, d.offset[0], d.base_vertex[0]);
  if (indexed && n > 1)
    gl_.MultiDrawElementsBaseVertex(pipeline_->mode, d.count.data(), d.index_type, d.offset.data(), n,
                                    d.base_vertex.data());
  novem::bump(pending_.overlay ? channel_.overlay_api_draw_calls : channel_.api_draw_calls);
  pending_.clear();
  if (check_errors_) check_errors(NV_OP_DRAW);
}

void Executor::hold_arrays(GLint first, const nv_cmd_draw &a) {
  pending_.indexed = false;
  pending_.draws.first.push_back(first);
  pending_.draws.count.push_back(GLsizei(a.vertex_count));
}

void Executor::hold_elements(const nv_cmd_draw_indexed &a, const void *offset) {
  pending_.indexed = true;
  pending_.draws.count.push_back(GLsizei(a.index_count));
  pending_.draws.offset.push_back(offset);
  pending_.draws.base_vertex.push_back(GLint(std::clamp<int64_t>(int64_t(a.base_vertex) + vertex_shift_, INT32_MIN, INT32_MAX)));
}

void Executor::draw(const nv_cmd_draw &a, const nv_cmd_header *h) {
  if (!a.vertex_count || names_failed_resource(false)) return;
  const bool single = a.instance_count <= 1;
  if (pending_.vertex_moved) settle_vertex_moves();
  // A draw that joins a run has the run's vertex shift: no other command came between them.
  const auto first = [&] { return GLint(std::min<int64_t>(int64_t(a.first_vertex) + vertex_shift_, INT32_MAX)); };
  // Instanced draws are never held (GL has no instanced multi-draw): a run is of single instances.
  if (single && pending_.joins(false, 1, SIZE_MAX)) return hold_arrays(first(), a);
  flush_draws();
  if (!prepare_draw()) return;
  mark_buffers_used();
  unflushed_ = true;
  pending_.overlay = h->flags & NV_CMD_OVERLAY;
  if (single && config_.multi_draw) return hold_arrays(first(), a);
  gl_.DrawArraysInstanced(pipeline_->mode, first(), GLsizei(a.vertex_count), GLsizei(std::max(a.instance_count, 1u)));
  novem::bump(pending_.overlay ? channel_.overlay_api_draw_calls : channel_.api_draw_calls);
  if (!config_.batching) finish();
}

void Executor::set_index_buffer(const nv_cmd_set_index_buffer &a, const nv_cmd_header *) {
  command_state_.set_index_buffer(a);
}

void Executor::draw_indexed(const nv_cmd_draw_indexed &a, const nv_cmd_header *h) {
  if (!a.index_count || names_failed_resource(true)) return;
  const nv_cmd_set_index_buffer &index = command_state_.index_buffer();
  Buffer *indices = buffers_.find(index.buffer);
  if (!indices) return;
  if (!command_state_.indices_fit(a, indices->size)) return;
  const uint64_t first = uint64_t(index.offset) + uint64_t(a.first_index) * index.index_size;
  const bool single = a.instance_count <= 1;
  if (pending_.vertex_moved) settle_vertex_moves();
  const void *offset = reinterpret_cast<const void *>(uintptr_t(indices->base + first));
  if (single && pending_.joins(true, 1, SIZE_MAX)) return hold_elements(a, offset);
  flush_draws();
  if (!prepare_draw()) return;
  mark_buffers_used();
  if (indices->range.buffer) arena_.use(indices->range);
  // The element buffer is VAO state; the buffer's GL name changes when its handle is re-created.
  if (element_buffer_ != indices->name) {
    gl_.VertexArrayElementBuffer(vao_, indices->name);
    element_buffer_ = indices->name;
  }
  const GLenum type = index.index_size == 4 ? GL_UNSIGNED_INT : GL_UNSIGNED_SHORT;
  unflushed_ = true;
  pending_.overlay = h->flags & NV_CMD_OVERLAY;
  if (single && config_.multi_draw) {
    pending_.draws.index_type = type;
    return hold_elements(a, offset);
  }
  gl_.DrawElementsInstancedBaseVertex(pipeline_->mode, GLsizei(a.index_count), type, offset,
                                      GLsizei(std::max(a.instance_count, 1u)),
                                      GLint(std::clamp<int64_t>(int64_t(a.base_vertex) + vertex_shift_, INT32_MIN, INT32_MAX)));
  novem::bump(pending_.overlay ? channel_.overlay_api_draw_calls : channel_.api_draw_calls);
  if (!config_.batching) finish();
}

// Batching off (NOVEM_GL_BATCHING=0): the naive way, the GPU drained after each draw and clear.
void Executor::finish() {
  gl_.Finish();
  unflushed_ = false;
  novem::bump(channel_.gpu_waits);
}

} // namespace novem_gl
