// The command state both plugins keep (novem/command_state.hpp): what a state command changes,
// what it leaves dirty, and what it refuses.
#include <cstring>
#include <string>

#include <catch2/catch.hpp>

#include "log_file.hpp"
#include "novem/command_state.hpp"

using namespace novem;

namespace {

// A CommandState with every part clean, as after a plugin's first draw; its lines go to a file.
struct Fixture {
  test::LogFile file;
  Logger logger{nullptr, file.path.c_str()};
  ContractViolations violations{"test", logger};
  CommandState state{violations};
  Fixture() {
    state.limit_constants(NV_STAGE_VERTEX, 64);
    state.limit_constants(NV_STAGE_PIXEL, 64);
    state.take(kEveryPart);
    state.take_textures();
  }
};

nv_pipeline_desc pipeline(uint32_t vs, uint32_t ps) {
  nv_pipeline_desc d{};
  d.vertex_shader = vs;
  d.pixel_shader = ps;
  d.cull = NV_CULL_CCW;
  return d;
}

// One state command, sent twice: the first changes its part, the second (the same) nothing.
struct SetCase {
  const char *what;
  uint32_t part;
  bool (*send)(CommandState &);
};

const SetCase kSets[] = {
    {"SET_RENDER_TARGETS", kTargetsPart,
     [](CommandState &s) { return s.set_render_targets(nv_cmd_set_render_targets{7, 8, {}, {}, {}, 0}); }},
    {"SET_VIEWPORT", kViewportPart, [](CommandState &s) { return s.set_viewport(nv_cmd_set_viewport{0, 0, 64, 32, 0, 1}); }},
    {"SET_SCISSOR", kScissorPart, [](CommandState &s) { return s.set_scissor(nv_cmd_set_scissor{{1, 2, 3, 4}}); }},
    {"SET_DYNAMIC_STATE", kDynamicPart,
     [](CommandState &s) { return s.set_dynamic_state(nv_cmd_set_dynamic_state{3, 0xFF, 0xFF, {0, 0, 0, 0}, 0, 0}); }},
    {"SET_PIPELINE", kPipelinePart, [](CommandState &s) { return s.set_pipeline(pipeline(1, 2)); }},
    {"SET_VERTEX_BUFFER", kVertexBuffersPart,
     [](CommandState &s) { return s.set_vertex_buffer(nv_cmd_set_vertex_buffer{3, 5, 16, 20}); }},
    {"SET_INDEX_BUFFER", kIndexBufferPart,
     [](CommandState &s) { return s.set_index_buffer(nv_cmd_set_index_buffer{5, 4, 2}); }},
};

} // namespace

TEST_CASE("command state: a state command dirties its own part once, and the same command again nothing",
          "[command_state]") {
  for (const SetCase &c : kSets) {
    INFO(c.what);
    Fixture f;
    CHECK(c.send(f.state));
    CHECK(f.state.dirty(c.part));
    CHECK_FALSE(f.state.dirty(kEveryPart & ~c.part)); // no other part
    CHECK(f.state.take(c.part));
    CHECK_FALSE(f.state.dirty(c.part));
    CHECK_FALSE(c.send(f.state));
    CHECK_FALSE(f.state.dirty(kEveryPart));
  }
}

TEST_CASE("command state: every part starts dirty, and a plugin marks parts dirty again", "[command_state]") {
  test::LogFile file;
  Logger logger{nullptr, file.path.c_str()};
  ContractViolations violations{"test", logger};
  CommandState state{violations};
  CHECK(state.take(kEveryPart));
  CHECK(state.take_textures() == kEveryTextureBit);
  CHECK(state.viewport() == nullptr);
  CHECK(state.scissor() == nullptr);
  CHECK(state.pipeline() == nullptr);
  CHECK(state.dynamic().stencil_compare_mask == 0xFF); // the contract's first values
  CHECK(state.dynamic().stencil_write_mask == 0xFF);
  state.mark(kIndexBufferPart | kPixelConstantsPart);
  CHECK(state.take(kIndexBufferPart));
  CHECK_FALSE(state.take(kIndexBufferPart));
  CHECK(state.take(constants_part(NV_STAGE_PIXEL)));
}

TEST_CASE("command state: SET_RENDER_STATES changes the description set, and nothing before the first",
          "[command_state]") {
  Fixture f;
  nv_cmd_set_render_states rs{};
  rs.states.cull = NV_CULL_CW;
  CHECK_FALSE(f.state.set_render_states(rs));
  CHECK(f.state.pipeline() == nullptr);
  CHECK_FALSE(f.state.dirty(kPipelinePart));
  REQUIRE(f.state.set_pipeline(pipeline(1, 2)));
  f.state.take(kPipelinePart);
  CHECK(f.state.set_render_states(rs));
  REQUIRE(f.state.pipeline());
  CHECK(f.state.pipeline()->cull == NV_CULL_CW);
  CHECK(f.state.pipeline()->vertex_shader == 1); // the shaders stay
  CHECK(f.state.take(kPipelinePart));
}

TEST_CASE("command state: a texture slot is one bit, set only when the binding changes", "[command_state]") {
  Fixture f;
  nv_cmd_set_texture t{};
  t.stage = NV_STAGE_VERTEX;
  t.slot = 2;
  t.image = 40;
  CHECK(f.state.set_texture(t));
  CHECK(f.state.take_textures() == texture_bit(NV_STAGE_VERTEX, 2));
  CHECK(texture_bit(NV_STAGE_VERTEX, 2) == 1u << 18);
  CHECK_FALSE(f.state.set_texture(t));
  CHECK(f.state.take_textures() == 0);
  t.sampler.mag_filter = NV_FILTER_LINEAR; // a sampler change is a change
  CHECK(f.state.set_texture(t));
  t.stage = NV_STAGE_PIXEL;
  t.slot = 5;
  CHECK(f.state.set_texture(t));
  CHECK(f.state.take_textures() == (texture_bit(NV_STAGE_VERTEX, 2) | texture_bit(NV_STAGE_PIXEL, 5)));
  CHECK(f.state.texture_slots_binding(40) == (texture_bit(NV_STAGE_VERTEX, 2) | texture_bit(NV_STAGE_PIXEL, 5)));
  CHECK(f.state.texture(NV_MAX_PIXEL_TEXTURES + 2).image == 40); // the vertex slot by its bit's number
}

TEST_CASE("command state: constants are cut at the plugin's limit, and an update names the bytes it wrote",
          "[command_state]") {
  Fixture f;
  uint8_t bytes[100];
  for (uint32_t i = 0; i < sizeof bytes; ++i) bytes[i] = uint8_t(i);
  CHECK(f.state.set_constants(nv_cmd_set_constants{NV_STAGE_PIXEL, 100}, bytes, sizeof bytes));
  CHECK(f.state.constants(NV_STAGE_PIXEL).size() == 64);
  CHECK(f.state.take(kPixelConstantsPart));
  CHECK_FALSE(f.state.dirty(kVertexConstantsPart));

  const CommandState::ConstantRange r = f.state.update_constants(nv_cmd_update_constants{NV_STAGE_VERTEX, 48, 32}, bytes, 32);
  CHECK(r.offset == 48);
  CHECK(r.size == 16); // the rest is past the limit
  CHECK(f.state.constants(NV_STAGE_VERTEX).size() == 64);
  CHECK(f.state.constants(NV_STAGE_VERTEX)[48] == 0);
  CHECK(f.state.constants(NV_STAGE_VERTEX)[0] == 0); // zeros before the bytes written
  CHECK(f.state.take(kVertexConstantsPart));
  CHECK(f.state.update_constants(nv_cmd_update_constants{NV_STAGE_VERTEX, 64, 4}, bytes, 4).size == 0);
  CHECK_FALSE(f.state.dirty(kVertexConstantsPart));
}

TEST_CASE("command state: each stage has its own limit (a software vertex-processing device's vertex block)",
          "[command_state]") {
  Fixture f;
  f.state.limit_constants(NV_STAGE_VERTEX, 96);
  uint8_t bytes[100] = {};
  CHECK(f.state.set_constants(nv_cmd_set_constants{NV_STAGE_VERTEX, 100}, bytes, sizeof bytes));
  CHECK(f.state.constants(NV_STAGE_VERTEX).size() == 96);
  CHECK(f.state.set_constants(nv_cmd_set_constants{NV_STAGE_PIXEL, 100}, bytes, sizeof bytes));
  CHECK(f.state.constants(NV_STAGE_PIXEL).size() == 64);
  CHECK(f.state.update_constants(nv_cmd_update_constants{NV_STAGE_VERTEX, 80, 16}, bytes, 16).size == 16);
  CHECK(f.state.update_constants(nv_cmd_update_constants{NV_STAGE_PIXEL, 80, 16}, bytes, 16).size == 0);
}

TEST_CASE("command state: ill-formed state commands are one line each, and change nothing", "[command_state]") {
  Fixture f;
  CommandState &state = f.state;
  REQUIRE(state.set_index_buffer(nv_cmd_set_index_buffer{5, 0, 2}));
  state.take(kIndexBufferPart);
  const uint8_t bytes[16] = {};

  CHECK_FALSE(state.set_vertex_buffer(nv_cmd_set_vertex_buffer{NV_MAX_VERTEX_BUFFERS, 1, 0, 4}));
  CHECK_FALSE(state.set_constants(nv_cmd_set_constants{NV_STAGE_COUNT, 16}, bytes, 16));
  CHECK_FALSE(state.set_constants(nv_cmd_set_constants{NV_STAGE_PIXEL, 32}, bytes, 16));
  CHECK(state.update_constants(nv_cmd_update_constants{NV_STAGE_PIXEL, 0, 32}, bytes, 16).size == 0);
  nv_cmd_set_texture t{};
  t.stage = NV_STAGE_VERTEX;
  t.slot = NV_MAX_VERTEX_TEXTURES;
  CHECK_FALSE(state.set_texture(t));
  CHECK_FALSE(state.dirty(kEveryPart));
  CHECK(state.take_textures() == 0);
  // An ill-formed index buffer leaves none bound.
  CHECK(state.set_index_buffer(nv_cmd_set_index_buffer{5, 1, 2}));
  CHECK(state.index_buffer().buffer == 0);
  const std::string text = f.file.text();
  for (const char *line : {"SET_VERTEX_BUFFER: no such vertex buffer slot", "SET_CONSTANTS: no such stage",
                           "SET_CONSTANTS: the block runs past the record", "UPDATE_CONSTANTS: the bytes run past the record",
                           "SET_TEXTURE: no such texture slot", "SET_INDEX_BUFFER: offset is not a multiple of index_size"})
    CHECK(text.find(line) != std::string::npos);
}

TEST_CASE("command state: an indexed draw fits the bound index buffer or draws nothing", "[command_state]") {
  Fixture f;
  f.state.set_index_buffer(nv_cmd_set_index_buffer{5, 8, 2});
  CHECK(f.state.indices_fit(nv_cmd_draw_indexed{0, 6, 0, 1}, 20));
  CHECK_FALSE(f.state.indices_fit(nv_cmd_draw_indexed{1, 6, 0, 1}, 20));
  CHECK_FALSE(f.state.indices_fit(nv_cmd_draw_indexed{0xFFFFFFFFu, 0xFFFFFFFFu, 0, 1}, 20)); // no wrap
}

TEST_CASE("command state: targets, and the vertex and index buffers bound", "[command_state]") {
  Fixture f;
  f.state.set_render_targets(nv_cmd_set_render_targets{7, 8, {0, 9, 0}, {}, {}, 0});
  CHECK(f.state.is_target(7));
  CHECK(f.state.is_target(8));
  CHECK(f.state.is_target(9));
  CHECK(f.state.color_target(2) == 9);
  CHECK_FALSE(f.state.is_target(0));
  CHECK_FALSE(f.state.changes_targets(nv_cmd_set_render_targets{7, 8, {0, 9, 0}, {}, {}, 0}));
  f.state.set_vertex_buffer(nv_cmd_set_vertex_buffer{2, 11, 0, 4});
  f.state.set_index_buffer(nv_cmd_set_index_buffer{12, 0, 4});
  CHECK(f.state.binds_buffer(11));
  CHECK(f.state.binds_buffer(12));
  CHECK_FALSE(f.state.binds_buffer(13));
  CHECK(f.state.empty_viewport() == false);
  f.state.set_viewport(nv_cmd_set_viewport{0, 0, 0, 32, 0, 1});
  CHECK(f.state.empty_viewport());
}
