// The command vocabulary made from commands.h's one list: each struct names its opcode, the
// opcodes keep their ABI values and names, the draw-run rules, and the dispatch tables.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <tuple>

#include "novem/draw_run.hpp"
#include "novem/worker.hpp"

namespace {

// A command is pushed by its struct alone: an opcode argument, or a struct that is no command,
// does not compile.
struct NotACommand { uint32_t x; };
template <class... A> concept Pushable = requires(novem::CommandRing &ring, A... a) { novem::ring_push(ring, a...); };
static_assert(Pushable<nv_cmd_draw_indexed>);
static_assert(!Pushable<nv_opcode, nv_cmd_draw_indexed>);
static_assert(!Pushable<NotACommand>);

struct OpcodeRow {
  nv_opcode opcode;
  uint16_t abi_value; // what the frontend and the plugins agree on
  const char *name;
};

// Every opcode, with the value it has always had.
constexpr OpcodeRow kOpcodes[] = {
    {NV_OP_PAD, 0, "PAD"},
    {NV_OP_CREATE_BUFFER, 1, "CREATE_BUFFER"},
    {NV_OP_DESTROY_BUFFER, 2, "DESTROY_BUFFER"},
    {NV_OP_UPDATE_BUFFER, 3, "UPDATE_BUFFER"},
    {NV_OP_CREATE_IMAGE, 4, "CREATE_IMAGE"},
    {NV_OP_DESTROY_IMAGE, 5, "DESTROY_IMAGE"},
    {NV_OP_CREATE_SHADER, 6, "CREATE_SHADER"},
    {NV_OP_DESTROY_SHADER, 7, "DESTROY_SHADER"},
    {NV_OP_SET_RENDER_TARGETS, 8, "SET_RENDER_TARGETS"},
    {NV_OP_SET_VIEWPORT, 9, "SET_VIEWPORT"},
    {NV_OP_SET_SCISSOR, 10, "SET_SCISSOR"},
    {NV_OP_SET_PIPELINE, 11, "SET_PIPELINE"},
    {NV_OP_SET_VERTEX_BUFFER, 12, "SET_VERTEX_BUFFER"},
    {NV_OP_SET_CONSTANTS, 13, "SET_CONSTANTS"},
    {NV_OP_CLEAR, 14, "CLEAR"},
    {NV_OP_DRAW, 15, "DRAW"},
    {NV_OP_READ_IMAGE, 16, "READ_IMAGE"},
    {NV_OP_PRESENT, 17, "PRESENT"},
    {NV_OP_FENCE, 18, "FENCE"},
    {NV_OP_SET_INDEX_BUFFER, 19, "SET_INDEX_BUFFER"},
    {NV_OP_DRAW_INDEXED, 20, "DRAW_INDEXED"},
    {NV_OP_UPDATE_IMAGE, 21, "UPDATE_IMAGE"},
    {NV_OP_SET_TEXTURE, 22, "SET_TEXTURE"},
    {NV_OP_SET_DYNAMIC_STATE, 23, "SET_DYNAMIC_STATE"},
    {NV_OP_BEGIN_QUERY, 24, "BEGIN_QUERY"},
    {NV_OP_END_QUERY, 25, "END_QUERY"},
    {NV_OP_BLIT_IMAGE, 26, "BLIT_IMAGE"},
    {NV_OP_FILL_IMAGE, 27, "FILL_IMAGE"},
    {NV_OP_GENERATE_MIPS, 28, "GENERATE_MIPS"},
    {NV_OP_UPDATE_CONSTANTS, 29, "UPDATE_CONSTANTS"},
    {NV_OP_CREATE_SWAPCHAIN, 30, "CREATE_SWAPCHAIN"},
    {NV_OP_DESTROY_SWAPCHAIN, 31, "DESTROY_SWAPCHAIN"},
    {NV_OP_SET_RENDER_STATES, 32, "SET_RENDER_STATES"},
};
static_assert(std::size(kOpcodes) == NV_OP_COUNT, "a row for every opcode");

// Each command's struct, with what its record must say: its opcode, and whether it ends a run
// of held draws.
struct PushRow {
  nv_opcode opcode;
  bool ends_run;
};
const auto kPushes = std::make_tuple(
    std::make_pair(nv_cmd_draw{0, 3, 1}, PushRow{NV_OP_DRAW, false}),
    std::make_pair(nv_cmd_draw_indexed{0, 6, 0, 1}, PushRow{NV_OP_DRAW_INDEXED, false}),
    std::make_pair(nv_cmd_set_vertex_buffer{0, 1, 0, 16}, PushRow{NV_OP_SET_VERTEX_BUFFER, false}),
    std::make_pair(nv_cmd_update_buffer{1, NV_UPDATE_NO_OVERWRITE, 0, 4}, PushRow{NV_OP_UPDATE_BUFFER, false}),
    std::make_pair(nv_cmd_update_buffer{1, NV_UPDATE_DISCARD, 0, 4}, PushRow{NV_OP_UPDATE_BUFFER, true}),
    std::make_pair(nv_cmd_update_buffer{1, 0, 0, 4}, PushRow{NV_OP_UPDATE_BUFFER, true}),
    std::make_pair(nv_cmd_update_image{1, 0, {0, 0, 1, 1}, 0, 0, NV_UPDATE_NO_OVERWRITE}, PushRow{NV_OP_UPDATE_IMAGE, true}),
    std::make_pair(nv_cmd_set_index_buffer{1, 0, 2}, PushRow{NV_OP_SET_INDEX_BUFFER, true}),
    std::make_pair(nv_cmd_set_texture{}, PushRow{NV_OP_SET_TEXTURE, true}),
    std::make_pair(nv_cmd_begin_query{0, NV_QUERY_OCCLUSION}, PushRow{NV_OP_BEGIN_QUERY, true}),
    std::make_pair(nv_cmd_end_query{0, NV_QUERY_OCCLUSION}, PushRow{NV_OP_END_QUERY, true}),
    std::make_pair(nv_cmd_set_render_states{}, PushRow{NV_OP_SET_RENDER_STATES, true}),
    std::make_pair(nv_cmd_fence{1}, PushRow{NV_OP_FENCE, true}));

// Handlers for two commands only, as the null plugin has: the others get no table entry.
struct TwoCommands {
  std::string seen;
  void fence(const nv_cmd_fence &a, const nv_cmd_header *) { seen += "fence " + std::to_string(a.value) + ";"; }
  void draw(const nv_cmd_draw &a, const nv_cmd_header *) { seen += "draw " + std::to_string(a.vertex_count) + ";"; }
};

// The same, wrapped: every entry goes through execute<Op>, which calls the handler.
struct Wrapped : TwoCommands {
  template <nv_opcode Op> static void execute(Wrapped &ex, const nv_cmd_header *h) {
    ex.seen += std::string("[") + novem::opcode_name(Op) + "]";
    novem::Command<Op>::call(ex, h);
  }
};

template <class Executor> std::string run_table(const novem::DispatchTable<Executor> &table) {
  novem::CommandRing ring(4096);
  novem::ring_push(ring, nv_cmd_draw{0, 3, 1});
  novem::ring_push(ring, nv_cmd_present{1});
  novem::ring_push(ring, nv_cmd_fence{7});
  Executor ex;
  while (const nv_cmd_header *h = ring.peek()) {
    if (table[h->opcode]) table[h->opcode](ex, h);
    ring.pop(h);
  }
  return ex.seen;
}

} // namespace

TEST_CASE("opcodes keep their ABI values and names", "[commands]") {
  for (const OpcodeRow &row : kOpcodes) {
    CAPTURE(row.name);
    CHECK(uint16_t(row.opcode) == row.abi_value);
    CHECK(std::string(novem::opcode_name(row.opcode)) == row.name);
  }
  CHECK(std::string(novem::opcode_name(NV_OP_COUNT)) == "unknown");
}

TEST_CASE("a command's struct gives its record the opcode and the draw-run rule", "[commands]") {
  std::apply(
      [](const auto &...rows) {
        auto check = [](const auto &row) {
          using Args = std::decay_t<decltype(row.first)>;
          constexpr nv_opcode op = novem::opcode_of<Args>;
          static_assert(std::is_same_v<typename novem::Command<op>::Args, Args>, "struct and opcode name each other");
          CAPTURE(novem::opcode_name(row.second.opcode));
          novem::CommandRing ring(4096);
          novem::ring_push(ring, row.first);
          const nv_cmd_header *h = ring.peek();
          REQUIRE(h != nullptr);
          CHECK(h->opcode == row.second.opcode);
          CHECK(std::memcmp(&novem::command_args<Args>(h), &row.first, sizeof(Args)) == 0);
          CHECK(novem::ends_draw_run<op>(h) == row.second.ends_run);
        };
        (check(rows), ...);
      },
      kPushes);
}

TEST_CASE("a dispatch table holds the handlers an executor has, wrapped when it wraps them", "[commands]") {
  constexpr auto plain = novem::dispatch_table<TwoCommands>();
  constexpr auto wrapped = novem::dispatch_table<Wrapped>();
  for (const OpcodeRow &row : kOpcodes) {
    CAPTURE(row.name);
    const bool handled = row.opcode == NV_OP_FENCE || row.opcode == NV_OP_DRAW;
    CHECK((plain[row.opcode] != nullptr) == handled);
    CHECK((wrapped[row.opcode] != nullptr) == handled);
  }
  CHECK(run_table(plain) == "draw 3;fence 7;");
  CHECK(run_table(wrapped) == "[DRAW]draw 3;[FENCE]fence 7;");
  static_assert(!novem::kHandlesEveryCommand<TwoCommands>);
}
