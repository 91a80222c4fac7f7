// Vertex and index buffer locks as Windows answers them: a draw issued while a buffer is still
// locked reads the bytes written so far (Windows allows it), and the lock flags Windows takes,
// DISCARD and NOOVERWRITE together included (Wine's test_vb_lock_flags). The counting plugin
// (counting_log.hpp) shows what reached the plugin and whether it came before the draw; the
// real plugins show what the draw read.
#include <cstring>
#include <string>

#include "counting_device.hpp"

using namespace api_fixture;

namespace {

struct Vertex {
  float x, y, z, rhw;
  D3DCOLOR colour;
};
constexpr DWORD kFvf = D3DFVF_XYZRHW | D3DFVF_DIFFUSE;

// Two triangles covering a size x size target, in one colour.
void quad(Vertex *v, float size, D3DCOLOR colour) {
  const Vertex corners[4] = {{0, 0, 0.5f, 1, colour}, {size, 0, 0.5f, 1, colour}, {0, size, 0.5f, 1, colour},
                             {size, size, 0.5f, 1, colour}};
  const int order[6] = {0, 1, 2, 2, 1, 3};
  for (int i = 0; i < 6; ++i) v[i] = corners[order[i]];
}

std::vector<CountingUpdate> buffers_only(const std::vector<CountingUpdate> &log) {
  std::vector<CountingUpdate> buffers;
  for (const CountingUpdate &u : log)
    if (u.opcode == NV_OP_UPDATE_BUFFER) buffers.push_back(u);
  return buffers;
}

} // namespace

TEST_CASE("a draw while a vertex buffer is locked sends the bytes written before it", "[api][buffer][lock]") {
  CountingDevice c;
  IDirect3DDevice9 *dev = c.device;
  IDirect3DVertexBuffer9 *vb = nullptr;
  REQUIRE(dev->CreateVertexBuffer(6 * sizeof(Vertex), D3DUSAGE_WRITEONLY, kFvf, D3DPOOL_DEFAULT, &vb, nullptr) == D3D_OK);
  REQUIRE(dev->SetFVF(kFvf) == D3D_OK);
  REQUIRE(dev->SetStreamSource(0, vb, 0, sizeof(Vertex)) == D3D_OK);
  c.updates();

  Vertex *v = nullptr;
  REQUIRE(vb->Lock(0, 0, reinterpret_cast<void **>(&v), 0) == D3D_OK);
  quad(v, 16, 0xffff0000);
  REQUIRE(dev->DrawPrimitive(D3DPT_TRIANGLELIST, 0, 2) == D3D_OK);
  auto sent = buffers_only(c.updates());
  REQUIRE(sent.size() == 1);
  CHECK(sent[0].draws_before == c.executed(NV_OP_DRAW) - 1); // before the draw
  CHECK(sent[0].offset == 0);
  CHECK(sent[0].size == 6 * sizeof(Vertex));
  CHECK(std::memcmp(sent[0].bytes, v, sizeof(Vertex)) == 0);

  // Still locked: what is written now reaches the buffer at the unlock, after the draw.
  quad(v, 16, 0xff00ff00);
  REQUIRE(vb->Unlock() == D3D_OK);
  sent = buffers_only(c.updates());
  REQUIRE(sent.size() == 1);
  CHECK(sent[0].draws_before == c.executed(NV_OP_DRAW));
  CHECK(std::memcmp(sent[0].bytes, v, sizeof(Vertex)) == 0);
  // A draw after the unlock sends nothing more.
  REQUIRE(dev->DrawPrimitive(D3DPT_TRIANGLELIST, 0, 2) == D3D_OK);
  CHECK(buffers_only(c.updates()).empty());
  REQUIRE(dev->SetStreamSource(0, nullptr, 0, 0) == D3D_OK);
  CHECK(vb->Release() == 0);
}

TEST_CASE("a draw while an index buffer is locked sends the indices written before it", "[api][buffer][lock]") {
  CountingDevice c;
  IDirect3DDevice9 *dev = c.device;
  IDirect3DVertexBuffer9 *vb = nullptr;
  IDirect3DIndexBuffer9 *ib = nullptr;
  REQUIRE(dev->CreateVertexBuffer(6 * sizeof(Vertex), 0, kFvf, D3DPOOL_MANAGED, &vb, nullptr) == D3D_OK);
  REQUIRE(dev->CreateIndexBuffer(6 * sizeof(WORD), D3DUSAGE_DYNAMIC, D3DFMT_INDEX16, D3DPOOL_DEFAULT, &ib, nullptr) ==
          D3D_OK);
  Vertex *v = nullptr;
  REQUIRE(vb->Lock(0, 0, reinterpret_cast<void **>(&v), 0) == D3D_OK);
  quad(v, 16, 0xffff0000);
  REQUIRE(vb->Unlock() == D3D_OK);
  REQUIRE(dev->SetFVF(kFvf) == D3D_OK);
  REQUIRE(dev->SetStreamSource(0, vb, 0, sizeof(Vertex)) == D3D_OK);
  REQUIRE(dev->SetIndices(ib) == D3D_OK);
  c.updates();

  WORD *indices = nullptr;
  REQUIRE(ib->Lock(0, 0, reinterpret_cast<void **>(&indices), D3DLOCK_DISCARD) == D3D_OK);
  for (WORD i = 0; i < 6; ++i) indices[i] = i;
  REQUIRE(dev->DrawIndexedPrimitive(D3DPT_TRIANGLELIST, 0, 0, 6, 0, 2) == D3D_OK);
  auto sent = buffers_only(c.updates());
  REQUIRE(sent.size() == 1);
  CHECK(sent[0].draws_before == c.executed(NV_OP_DRAW_INDEXED) - 1);
  CHECK(std::memcmp(sent[0].bytes, indices, 6 * sizeof(WORD)) == 0);
  indices[5] = 0;
  REQUIRE(ib->Unlock() == D3D_OK);
  sent = buffers_only(c.updates());
  REQUIRE(sent.size() == 1);
  CHECK(sent[0].draws_before == c.executed(NV_OP_DRAW_INDEXED));
  // The draw has been recorded with the first bytes, so the unlock's write must not overtake it.
  CHECK((sent[0].flags & NV_UPDATE_NO_OVERWRITE) == 0);
  CHECK(std::memcmp(sent[0].bytes, indices, 6 * sizeof(WORD)) == 0);
  REQUIRE(dev->SetIndices(nullptr) == D3D_OK);
  REQUIRE(dev->SetStreamSource(0, nullptr, 0, 0) == D3D_OK);
  CHECK(ib->Release() == 0);
  CHECK(vb->Release() == 0);
}

TEST_CASE("buffer Lock flags: every combination locks, and DISCARD with NOOVERWRITE is a DISCARD", "[api][buffer][lock]") {
  CountingDevice c;
  IDirect3DDevice9 *dev = c.device;
  IDirect3DVertexBuffer9 *vb = nullptr;
  REQUIRE(dev->CreateVertexBuffer(64, D3DUSAGE_DYNAMIC | D3DUSAGE_WRITEONLY, 0, D3DPOOL_DEFAULT, &vb, nullptr) ==
          D3D_OK);
  uint8_t *p = nullptr;
  REQUIRE(vb->Lock(0, 0, reinterpret_cast<void **>(&p), 0) == D3D_OK);
  for (int i = 0; i < 64; ++i) p[i] = uint8_t(i);
  REQUIRE(vb->Unlock() == D3D_OK);
  c.updates();

  // Windows XP takes every combination (Windows 7 refuses READONLY | DISCARD and unknown bits;
  // a game depends on XP's answer, test_vb_lock_flags): Novem takes them all.
  for (DWORD flags : {DWORD(D3DLOCK_READONLY), DWORD(D3DLOCK_DISCARD), DWORD(D3DLOCK_NOOVERWRITE),
                      DWORD(D3DLOCK_NOOVERWRITE | D3DLOCK_DISCARD), DWORD(D3DLOCK_NOOVERWRITE | D3DLOCK_READONLY),
                      DWORD(D3DLOCK_READONLY | D3DLOCK_DISCARD), DWORD(0xdeadbeef)}) {
    INFO("flags " << std::hex << flags);
    void *data = nullptr;
    CHECK(vb->Lock(0, 0, &data, flags) == D3D_OK);
    CHECK(data != nullptr);
    CHECK(vb->Unlock() == D3D_OK);
  }
  c.updates();

  struct Lock {
    UINT offset, size;
    DWORD flags;
  };
  struct Case {
    const char *what;
    std::vector<Lock> locks; // nested, unlocked in turn
    uint32_t sent_flags;
  };
  const Case cases[] = {
      // The buffer's bytes stay in the frontend, so DISCARD loses nothing; it lets the plugin
      // give the buffer fresh memory when the whole of it is written.
      {"DISCARD | NOOVERWRITE, whole", {{0, 0, D3DLOCK_DISCARD | D3DLOCK_NOOVERWRITE}}, NV_UPDATE_DISCARD},
      {"DISCARD | NOOVERWRITE, part", {{16, 16, D3DLOCK_DISCARD | D3DLOCK_NOOVERWRITE}}, 0},
      {"NOOVERWRITE, then DISCARD nested", {{0, 0, D3DLOCK_NOOVERWRITE}, {0, 0, D3DLOCK_DISCARD}}, NV_UPDATE_DISCARD},
      {"DISCARD, then NOOVERWRITE nested", {{0, 0, D3DLOCK_DISCARD}, {0, 0, D3DLOCK_NOOVERWRITE}}, NV_UPDATE_DISCARD},
      {"NOOVERWRITE, then DISCARD of a part", {{0, 0, D3DLOCK_NOOVERWRITE}, {16, 16, D3DLOCK_DISCARD}}, NV_UPDATE_DISCARD},
      {"NOOVERWRITE of parts", {{0, 16, D3DLOCK_NOOVERWRITE}, {32, 16, D3DLOCK_NOOVERWRITE}}, NV_UPDATE_NO_OVERWRITE},
      // A plain lock may rewrite bytes a queued draw reads: the write is ordered after it.
      {"a plain lock, then NOOVERWRITE nested", {{0, 16, 0}, {32, 16, D3DLOCK_NOOVERWRITE}}, 0},
      {"NOOVERWRITE, then a plain lock nested", {{0, 16, D3DLOCK_NOOVERWRITE}, {32, 16, 0}}, 0},
      {"DISCARD | NOOVERWRITE | READONLY", {{0, 0, D3DLOCK_DISCARD | D3DLOCK_NOOVERWRITE | D3DLOCK_READONLY}}, 0},
  };
  for (const Case &k : cases) {
    INFO(k.what);
    for (const Lock &l : k.locks) {
      void *data = nullptr;
      REQUIRE(vb->Lock(l.offset, l.size, &data, l.flags) == D3D_OK);
      // Whatever the flags, the lock shows the buffer's bytes.
      CHECK(*static_cast<uint8_t *>(data) == uint8_t(l.offset));
    }
    for (size_t i = 0; i < k.locks.size(); ++i) REQUIRE(vb->Unlock() == D3D_OK);
    const auto sent = buffers_only(c.updates());
    const bool reads_only = k.locks.size() == 1 && (k.locks[0].flags & D3DLOCK_READONLY);
    REQUIRE(sent.size() == (reads_only ? 0u : 1u));
    if (!reads_only) CHECK(sent[0].flags == k.sent_flags);
  }
  CHECK(vb->Release() == 0);

  // A buffer that is not dynamic ignores both flags.
  REQUIRE(dev->CreateVertexBuffer(64, 0, 0, D3DPOOL_MANAGED, &vb, nullptr) == D3D_OK);
  c.updates();
  void *data = nullptr;
  REQUIRE(vb->Lock(0, 0, &data, D3DLOCK_DISCARD | D3DLOCK_NOOVERWRITE) == D3D_OK);
  REQUIRE(vb->Unlock() == D3D_OK);
  const auto sent = buffers_only(c.updates());
  REQUIRE(sent.size() == 1);
  CHECK(sent[0].flags == 0);
  CHECK(vb->Release() == 0);
}

TEST_CASE("a draw while a vertex buffer is locked draws the bytes written before it, on Vulkan and OpenGL",
          "[api][buffer][lock][backends]") {
  for (const char *name : {"vulkan", "opengl"}) {
    INFO(name);
    Backend backend(name);
    IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
    REQUIRE(d3d);
    D3DPRESENT_PARAMETERS pp = headless(16, 16);
    IDirect3DDevice9 *dev = nullptr;
    if (d3d->CreateDevice(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &dev) != D3D_OK) {
      WARN(std::string(name) + " cannot start here");
      d3d->Release();
      continue;
    }
    IDirect3DVertexBuffer9 *vb = nullptr;
    REQUIRE(dev->CreateVertexBuffer(6 * sizeof(Vertex), D3DUSAGE_DYNAMIC | D3DUSAGE_WRITEONLY, kFvf, D3DPOOL_DEFAULT,
                                    &vb, nullptr) == D3D_OK);
    REQUIRE(dev->SetRenderState(D3DRS_LIGHTING, FALSE) == D3D_OK);
    REQUIRE(dev->SetRenderState(D3DRS_ZENABLE, FALSE) == D3D_OK);
    REQUIRE(dev->SetRenderState(D3DRS_CULLMODE, D3DCULL_NONE) == D3D_OK);
    REQUIRE(dev->SetFVF(kFvf) == D3D_OK);
    REQUIRE(dev->SetStreamSource(0, vb, 0, sizeof(Vertex)) == D3D_OK);
    REQUIRE(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff0000ff, 1.0f, 0) == D3D_OK);
    REQUIRE(dev->BeginScene() == D3D_OK);
    Vertex *v = nullptr;
    REQUIRE(vb->Lock(0, 0, reinterpret_cast<void **>(&v), D3DLOCK_DISCARD) == D3D_OK);
    quad(v, 16, 0xffff0000);
    REQUIRE(dev->DrawPrimitive(D3DPT_TRIANGLELIST, 0, 2) == D3D_OK); // red, written before the draw
    quad(v, 16, 0xff00ff00); // green, after it
    REQUIRE(vb->Unlock() == D3D_OK);
    REQUIRE(dev->EndScene() == D3D_OK);

    IDirect3DSurface9 *back = nullptr, *readback = nullptr;
    REQUIRE(dev->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &back) == D3D_OK);
    REQUIRE(dev->CreateOffscreenPlainSurface(16, 16, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &readback, nullptr) == D3D_OK);
    auto centre = [&] {
      REQUIRE(dev->GetRenderTargetData(back, readback) == D3D_OK);
      D3DLOCKED_RECT lr;
      REQUIRE(readback->LockRect(&lr, nullptr, D3DLOCK_READONLY) == D3D_OK);
      const uint32_t texel = static_cast<const uint32_t *>(lr.pBits)[8 * lr.Pitch / 4 + 8] & 0xffffff;
      REQUIRE(readback->UnlockRect() == D3D_OK);
      return texel;
    };
    CHECK(centre() == 0xff0000u);
    // The bytes written after the draw are the buffer's now.
    REQUIRE(dev->BeginScene() == D3D_OK);
    REQUIRE(dev->DrawPrimitive(D3DPT_TRIANGLELIST, 0, 2) == D3D_OK);
    REQUIRE(dev->EndScene() == D3D_OK);
    CHECK(centre() == 0x00ff00u);

    readback->Release();
    back->Release();
    REQUIRE(dev->SetStreamSource(0, nullptr, 0, 0) == D3D_OK);
    CHECK(vb->Release() == 0);
    CHECK(dev->Release() == 0);
    CHECK(d3d->Release() == 0);
  }
}
