// The HUD's commands (hud.hpp says what it shows). It is drawn into the image Present shows
// (device_presentation.cpp), with the commands a D3D9 draw sends (targets, viewport, scissor,
// pipeline, texture, vertex buffer, draw), each marked NV_CMD_OVERLAY so that the plugin counts them apart from the
// application's. Nothing of the application's D3D9 state is saved or changed: the HUD sends its
// own, then records in the device's sent_* caches what it left bound and marks those groups dirty,
// so the application's next draw sends its own state again.
#include <cstring>

#include "assembler.hpp"
#include "device.hpp"
#include "log.hpp"
#include "parser.hpp"
#include "surface.hpp"
#include "translate.hpp"

namespace novem {

namespace {

// The panel's vertices (hud::Vertex) pass through; the font's texel is multiplied by the colour.
constexpr const char *kVertexShader = R"(vs_2_0
dcl_position v0
dcl_texcoord v1
dcl_color v2
mov oPos, v0
mov oT0, v1
mov oD0, v2
)";
constexpr const char *kPixelShader = R"(ps_2_0
dcl t0.xy
dcl v0
dcl_2d s0
texld r0, t0, s0
mul r0, r0, v0
mov oC0, r0
)";

// The SPIR-V of one of the texts above, with the locations its inputs take.
d3d9::Translation translate_text(const char *text) {
  const d3d9::AssembleResult assembled = d3d9::assemble(text);
  if (!assembled.ok) return d3d9::Translation{{}, {}, assembled.error};
  const d3d9::ParseResult parsed = d3d9::parse_shader(assembled.tokens.data(), assembled.tokens.size());
  if (!parsed.ok) return d3d9::Translation{{}, {}, parsed.error};
  return d3d9::translate(parsed.program);
}

} // namespace

bool Device::create_hud_resources() {
  HudResources &r = hud_resources_;
  if (r.font || r.failed) return !r.failed;
  const d3d9::Translation vs = translate_text(kVertexShader), ps = translate_text(kPixelShader);
  if (!vs.ok() || !ps.ok()) {
    log_warn("NOVEM_HUD: the HUD's shaders cannot be made: %s%s", vs.error.c_str(), ps.error.c_str());
    r.failed = true;
    return false;
  }
  CommandStream &cs = commands();
  r.vertex_shader = create_shader(NV_STAGE_VERTEX, vs.spirv);
  r.pixel_shader = create_shader(NV_STAGE_PIXEL, ps.spirv);
  r.font = cs.new_handle();
  cs.push(nv_cmd_create_image{r.font, NV_FORMAT_B8G8R8A8_UNORM, hud::kFontWidth, hud::kFontHeight, NV_IMAGE_SAMPLED, 1,
                              NV_IMAGE_TYPE_2D, 0, 0});
  const std::vector<uint32_t> texels = hud::font_texels();
  cs.update_image(r.font, NV_FORMAT_B8G8R8A8_UNORM, 0, 0, 0, 0, hud::kFontWidth, hud::kFontHeight,
                  reinterpret_cast<const uint8_t *>(texels.data()), hud::kFontWidth * 4);
  return true;
}

void Device::destroy_hud_resources() {
  HudResources &r = hud_resources_;
  if (r.font) stream_->push(nv_cmd_destroy_image{r.font});
  if (r.vertices) stream_->push(nv_cmd_destroy_buffer{r.vertices});
  if (r.vertex_shader) stream_->push(nv_cmd_destroy_shader{r.vertex_shader});
  if (r.pixel_shader) stream_->push(nv_cmd_destroy_shader{r.pixel_shader});
  r = HudResources{};
}

void Device::draw_hud(uint32_t image, UINT width, UINT height) {
  hud_.frame(std::chrono::steady_clock::now());
  CommandStream &cs = commands();
  cs.set_overlay(true);
  if (!create_hud_resources()) {
    cs.set_overlay(false);
    return;
  }
  HudResources &r = hud_resources_;
  hud::Figures figures;
  figures.draws = frame_draws_;
  // Built from scratch or taken from the plugin's cache on disk: the pipelines in use either way.
  figures.pipelines = cs.channel().pipelines_created.load(std::memory_order_relaxed) +
                      cs.channel().pipelines_loaded.load(std::memory_order_relaxed);
  figures.memory_bytes = video_memory_used_.load(std::memory_order_relaxed);
  figures.backend = plugin_.plugin->name;
  figures.version = NOVEM_VERSION;
  const std::vector<hud::Vertex> vertices = hud_.vertices(width, height, figures);
  const uint32_t bytes = uint32_t(vertices.size() * sizeof(hud::Vertex));
  if (bytes > r.vertex_bytes) {
    if (r.vertices) cs.push(nv_cmd_destroy_buffer{r.vertices});
    r.vertices = cs.new_handle();
    r.vertex_bytes = std::max<uint32_t>(bytes * 2, 64 * 1024);
    cs.push(nv_cmd_create_buffer{r.vertices, NV_BUFFER_VERTEX, r.vertex_bytes});
  }
  cs.update_buffer(r.vertices, 0, vertices.data(), bytes, NV_UPDATE_DISCARD);

  nv_cmd_set_render_targets targets{};
  targets.color = image;
  cs.push(targets);
  // Pixel edges on whole coordinates, as hud::Overlay places them: no half-pixel shift.
  const nv_cmd_set_viewport viewport{0.0f, 0.0f, float(width), float(height), 0.0f, 1.0f};
  const nv_rect scissor{0, 0, int32_t(width), int32_t(height)};
  cs.push(viewport);
  cs.push(nv_cmd_set_scissor{scissor});
  nv_pipeline_desc d{};
  d.vertex_shader = r.vertex_shader;
  d.pixel_shader = r.pixel_shader;
  d.topology = NV_TOPOLOGY_TRIANGLE_LIST;
  d.cull = NV_CULL_NONE;
  d.depth_compare = NV_COMPARE_ALWAYS;
  d.blend_enable = 1;
  d.color_src = NV_BLEND_SRC_ALPHA, d.color_dst = NV_BLEND_ONE_MINUS_SRC_ALPHA, d.color_op = NV_BLEND_OP_ADD;
  d.alpha_src = NV_BLEND_ZERO, d.alpha_dst = NV_BLEND_ONE, d.alpha_op = NV_BLEND_OP_ADD; // the target's alpha stays
  d.color_write_mask = 0xf;
  d.fill_mode = NV_FILL_SOLID;
  d.attribute_count = 3;
  d.attributes[0] = nv_vertex_attribute{0, 0, NV_FORMAT_R32G32_SFLOAT, 0, offsetof(hud::Vertex, x)};
  d.attributes[1] = nv_vertex_attribute{1, 0, NV_FORMAT_R32G32_SFLOAT, 0, offsetof(hud::Vertex, u)};
  d.attributes[2] = nv_vertex_attribute{2, 0, NV_FORMAT_B8G8R8A8_UNORM, 0, offsetof(hud::Vertex, color)};
  cs.push(nv_cmd_set_pipeline{d});
  nv_cmd_set_texture texture{};
  texture.stage = NV_STAGE_PIXEL;
  texture.image = r.font;
  texture.sampler.min_filter = texture.sampler.mag_filter = NV_FILTER_POINT;
  texture.sampler.address_u = texture.sampler.address_v = texture.sampler.address_w = NV_ADDRESS_CLAMP;
  texture.type = NV_IMAGE_TYPE_2D;
  cs.push(texture);
  const nv_cmd_set_vertex_buffer stream{0, r.vertices, 0, sizeof(hud::Vertex)};
  cs.push(stream);
  cs.push(nv_cmd_draw{0, uint32_t(vertices.size()), 1});
  cs.set_overlay(false);

  encoder().sent_by_overlay(d, viewport, scissor, texture, stream);
  live_.dirty |= kDirtyTargets | kDirtyViewport | kDirtyPipeline | kDirtyTextures;
}

} // namespace novem
