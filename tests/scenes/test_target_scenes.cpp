// Render targets, copies between surfaces and queries, on every backend: StretchRect and
// ColorFill probed against the texels D3D9 defines, GetFrontBufferData after Present, and
// occlusion queries with exact sample counts (overlapping queries, depth tests).
#include <catch2/catch.hpp>

#include <thread>

#include "scene_harness.hpp"

using namespace scenes;

namespace {

// A quad over the pixels whose centres lie in [x0, x1) x [y0, y1): edges half a pixel off the
// centres, so no fill rule decides.
void quad(IDirect3DDevice9 *dev, float x0, float y0, float x1, float y1, float z, D3DCOLOR c) {
  TLVertex v[4] = {{x0 - 0.5f, y0 - 0.5f, z, 1, c}, {x1 - 0.5f, y0 - 0.5f, z, 1, c},
                   {x0 - 0.5f, y1 - 0.5f, z, 1, c}, {x1 - 0.5f, y1 - 0.5f, z, 1, c}};
  HR(dev->SetFVF(kTLVertexFVF));
  HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(TLVertex)));
}

// Polls with D3DGETDATA_FLUSH until the answer is there (S_FALSE until then); a count of polls
// bounds it, never a clock.
template <class T> T answer(IDirect3DQuery9 *q) {
  T value{};
  HRESULT hr;
  for (uint64_t polls = 0; (hr = q->GetData(&value, sizeof value, D3DGETDATA_FLUSH)) == S_FALSE; ++polls) {
    REQUIRE(polls < 1000000000ull);
    std::this_thread::yield();
  }
  REQUIRE(hr == S_OK);
  return value;
}

IDirect3DQuery9 *make_query(IDirect3DDevice9 *dev, D3DQUERYTYPE type) {
  IDirect3DQuery9 *q = nullptr;
  HR(dev->CreateQuery(type, &q));
  return q;
}

RECT rect(LONG l, LONG t, LONG r, LONG b) { return RECT{l, t, r, b}; }

// Pixel (x, y) of a 32-bit system-memory surface, as its DWORD.
DWORD pixel_at(IDirect3DSurface9 *s, UINT x, UINT y) {
  D3DLOCKED_RECT lr;
  HR(s->LockRect(&lr, nullptr, D3DLOCK_READONLY));
  const DWORD p = static_cast<const DWORD *>(lr.pBits)[size_t(y) * (UINT(lr.Pitch) / 4) + x];
  HR(s->UnlockRect());
  return p;
}

// A headless device on `backend` with a 64 x 64 back buffer.
IDirect3DDevice9 *make_device(IDirect3D9 **d3d, const std::string &backend, D3DFORMAT format = D3DFMT_X8R8G8B8) {
  setenv("NOVEM_BACKEND", backend.c_str(), 1);
  *d3d = Direct3DCreate9(D3D_SDK_VERSION);
  D3DPRESENT_PARAMETERS pp{};
  pp.BackBufferWidth = 64;
  pp.BackBufferHeight = 64;
  pp.BackBufferFormat = format;
  pp.SwapEffect = D3DSWAPEFFECT_DISCARD;
  pp.Windowed = TRUE;
  IDirect3DDevice9 *dev = nullptr;
  HR((*d3d)->CreateDevice(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &dev));
  return dev;
}

} // namespace

TEST_CASE("StretchRect and ColorFill copy and fill rectangles of render targets", "[scenes][targets]") {
  const D3DCOLOR red = 0xffff0000, green = 0xff00ff00, blue = 0xff0000ff, white = 0xffffffff;
  auto rendered = render_all("stretch_rect", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    IDirect3DSurface9 *back = nullptr, *rt = nullptr;
    HR(dev->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &back));
    HR(dev->CreateRenderTarget(16, 16, D3DFMT_X8R8G8B8, D3DMULTISAMPLE_NONE, 0, FALSE, &rt, nullptr));
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
    // Four 8 x 8 quadrants filled in the 16 x 16 target.
    RECT q[4] = {rect(0, 0, 8, 8), rect(8, 0, 16, 8), rect(0, 8, 8, 16), rect(8, 8, 16, 16)};
    D3DCOLOR colours[4] = {red, green, blue, white};
    for (int i = 0; i < 4; ++i) HR(dev->ColorFill(rt, &q[i], colours[i]));
    // Magnified twice into the back buffer's top-left 32 x 32.
    RECT dst = rect(0, 0, 32, 32);
    HR(dev->StretchRect(rt, nullptr, back, &dst, D3DTEXF_POINT));
    // The white quadrant, unscaled, to (40, 40).
    RECT src = rect(8, 8, 16, 16), dst2 = rect(40, 40, 48, 48);
    HR(dev->StretchRect(rt, &src, back, &dst2, D3DTEXF_NONE));
    // The top half (red | green) stretched to 32 x 4 with linear filtering.
    RECT src3 = rect(0, 0, 16, 8), dst3 = rect(32, 0, 64, 4);
    HR(dev->StretchRect(rt, &src3, back, &dst3, D3DTEXF_LINEAR));
    // A rectangle of the back buffer filled yellow.
    RECT fill = rect(48, 16, 64, 32);
    HR(dev->ColorFill(back, &fill, 0xffffff00));
    // The whole target filled, then copied to the bottom-left corner.
    HR(dev->ColorFill(rt, nullptr, 0xffff00ff));
    RECT dst4 = rect(0, 48, 16, 64);
    HR(dev->StretchRect(rt, nullptr, back, &dst4, D3DTEXF_POINT));
    CHECK(rt->Release() == 0);
    CHECK(back->Release() == 0);
  }, 0);
  for (const Rendered &r : rendered) {
    INFO("backend " << r.backend);
    probe(r, 0, 0, red, 0);
    probe(r, 15, 15, red, 0);
    probe(r, 16, 0, green, 0);
    probe(r, 31, 15, green, 0);
    probe(r, 0, 16, blue, 0);
    probe(r, 15, 31, blue, 0);
    probe(r, 16, 16, white, 0);
    probe(r, 31, 31, white, 0);
    probe(r, 32, 32, 0xff000000, 0); // outside every copy
    probe(r, 40, 40, white, 0);
    probe(r, 47, 47, white, 0);
    probe(r, 48, 48, 0xff000000, 0);
    probe(r, 33, 1, red, 0); // away from the red | green edge, linear filtering gives the texel
    probe(r, 62, 2, green, 0);
    probe(r, 40, 4, 0xff000000, 0); // below the 4 rows written
    probe(r, 48, 16, 0xffffff00, 0);
    probe(r, 63, 31, 0xffffff00, 0);
    probe(r, 47, 16, 0xff000000, 0);
    probe(r, 0, 48, 0xffff00ff, 0);
    probe(r, 15, 63, 0xffff00ff, 0);
    probe(r, 16, 63, 0xff000000, 0);
  }
}

TEST_CASE("Occlusion queries count exactly the samples that pass", "[scenes][queries]") {
  SceneSetup setup;
  setup.depth = D3DFMT_D24S8;
  auto rendered = render_all("occlusion_queries", setup, [&](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, 0xff000000, 1.0f, 0));
    HR(dev->SetRenderState(D3DRS_ZENABLE, D3DZB_TRUE));
    IDirect3DQuery9 *a = make_query(dev, D3DQUERYTYPE_OCCLUSION), *b = make_query(dev, D3DQUERYTYPE_OCCLUSION);
    IDirect3DQuery9 *none = make_query(dev, D3DQUERYTYPE_OCCLUSION), *rejected = make_query(dev, D3DQUERYTYPE_OCCLUSION);
    IDirect3DQuery9 *hidden = make_query(dev, D3DQUERYTYPE_OCCLUSION), *empty = make_query(dev, D3DQUERYTYPE_OCCLUSION);

    // Overlapping queries: a counts the first two quads, b the last two.
    HR(a->Issue(D3DISSUE_BEGIN));
    quad(dev, 8, 8, 24, 40, 0.5f, 0xffff0000); // 16 x 32 = 512
    HR(b->Issue(D3DISSUE_BEGIN));
    quad(dev, 32, 8, 40, 16, 0.5f, 0xff00ff00); // 8 x 8 = 64
    HR(a->Issue(D3DISSUE_END));
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0)); // clears count nothing
    quad(dev, 48, 48, 52, 52, 0.5f, 0xff0000ff); // 4 x 4 = 16
    HR(b->Issue(D3DISSUE_END));
    // Ended without a begin: an empty interval.
    HR(none->Issue(D3DISSUE_END));
    // Begun and ended around no draw.
    HR(empty->Issue(D3DISSUE_BEGIN));
    HR(empty->Issue(D3DISSUE_END));

    // A depth test nothing passes.
    HR(dev->SetRenderState(D3DRS_ZFUNC, D3DCMP_NEVER));
    HR(rejected->Issue(D3DISSUE_BEGIN));
    quad(dev, 8, 8, 24, 40, 0.5f, 0xffffff00);
    HR(rejected->Issue(D3DISSUE_END));
    HR(dev->SetRenderState(D3DRS_ZFUNC, D3DCMP_LESSEQUAL));

    // The depth test: an occluder nearer over rows 0..23 hides the top of the quad.
    quad(dev, 0, 0, 64, 24, 0.2f, 0xff808080);
    HR(hidden->Issue(D3DISSUE_BEGIN));
    quad(dev, 8, 8, 24, 40, 0.5f, 0xff00ffff); // rows 24..39: 16 x 16 = 256
    HR(hidden->Issue(D3DISSUE_END));

    CHECK(answer<DWORD>(a) == 512 + 64);
    CHECK(answer<DWORD>(b) == 64 + 16);
    CHECK(answer<DWORD>(none) == 0);
    CHECK(answer<DWORD>(empty) == 0);
    CHECK(answer<DWORD>(rejected) == 0);
    CHECK(answer<DWORD>(hidden) == 256);
    // Issued again, a query answers for its new interval.
    HR(a->Issue(D3DISSUE_BEGIN));
    quad(dev, 0, 56, 10, 64, 0.5f, 0xffffffff); // 10 x 8 = 80
    HR(a->Issue(D3DISSUE_END));
    CHECK(answer<DWORD>(a) == 80);
    for (IDirect3DQuery9 *q : {a, b, none, rejected, hidden, empty}) CHECK(q->Release() == 0);
  }, 0);
  for (const Rendered &r : rendered) {
    INFO("backend " << r.backend);
    probe(r, 10, 30, 0xff00ffff, 0);
    probe(r, 10, 10, 0xff808080, 0);
    probe(r, 5, 60, 0xffffffff, 0);
  }
}

TEST_CASE("Event and timestamp queries complete and GetData answers S_FALSE first", "[scenes][queries]") {
  render_all("event_queries", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff204060, 1.0f, 0));
    IDirect3DQuery9 *event = make_query(dev, D3DQUERYTYPE_EVENT);
    IDirect3DQuery9 *t0 = make_query(dev, D3DQUERYTYPE_TIMESTAMP), *t1 = make_query(dev, D3DQUERYTYPE_TIMESTAMP);
    IDirect3DQuery9 *freq = make_query(dev, D3DQUERYTYPE_TIMESTAMPFREQ);
    IDirect3DQuery9 *disjoint = make_query(dev, D3DQUERYTYPE_TIMESTAMPDISJOINT);
    HR(disjoint->Issue(D3DISSUE_BEGIN));
    HR(t0->Issue(D3DISSUE_END));
    quad(dev, 0, 0, 64, 64, 0.5f, 0xff00ff00);
    HR(t1->Issue(D3DISSUE_END));
    HR(disjoint->Issue(D3DISSUE_END));
    HR(freq->Issue(D3DISSUE_END));
    HR(event->Issue(D3DISSUE_END));
    // Nothing has submitted the work yet: without FLUSH the answer cannot be there.
    BOOL done = FALSE;
    CHECK(event->GetData(&done, sizeof done, 0) == S_FALSE);
    CHECK(answer<BOOL>(event) == TRUE);
    const UINT64 time0 = answer<UINT64>(t0), time1 = answer<UINT64>(t1);
    CHECK(time0 != 0);
    CHECK(time1 >= time0);
    CHECK(answer<UINT64>(freq) == 1000000000ull);
    CHECK(answer<BOOL>(disjoint) == FALSE);
    for (IDirect3DQuery9 *q : {event, t0, t1, freq, disjoint}) CHECK(q->Release() == 0);
  }, 0);
}

TEST_CASE("GetFrontBufferData reads what the last Present showed", "[scenes][targets]") {
  for (const std::string &backend : available_backends()) {
    INFO("backend " << backend);
    IDirect3D9 *d3d = nullptr;
    IDirect3DDevice9 *dev = make_device(&d3d, backend);
    IDirect3DSurface9 *front = nullptr;
    HR(dev->CreateOffscreenPlainSurface(64, 64, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &front, nullptr));
    auto pixel = [&](UINT x, UINT y) { return pixel_at(front, x, y); };
    HR(dev->GetFrontBufferData(0, front));
    CHECK(pixel(5, 5) == 0xff000000); // nothing presented yet: opaque black
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0x0000ff00, 1.0f, 0));
    HR(dev->Present(nullptr, nullptr, nullptr, nullptr));
    D3DRECT half{0, 0, 64, 32};
    HR(dev->Clear(1, &half, D3DCLEAR_TARGET, 0x00ff0000, 1.0f, 0)); // the back buffer only
    HR(dev->GetFrontBufferData(0, front));
    CHECK(pixel(0, 0) == 0xff00ff00); // X8R8G8B8's X byte reads as opaque
    CHECK(pixel(63, 63) == 0xff00ff00);
    HR(dev->Present(nullptr, nullptr, nullptr, nullptr));
    HR(dev->GetFrontBufferData(0, front));
    CHECK(pixel(10, 10) == 0xffff0000);
    CHECK(pixel(10, 40) == 0xff00ff00);
    // A surface of the screen's size (Windows' rule for windowed devices): the front buffer at the
    // top left (a headless device's place), the rest opaque black.
    D3DDISPLAYMODE mode{};
    HR(d3d->GetAdapterDisplayMode(0, &mode));
    IDirect3DSurface9 *screen = nullptr;
    HR(dev->CreateOffscreenPlainSurface(mode.Width, mode.Height, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &screen, nullptr));
    HR(dev->GetFrontBufferData(0, screen));
    D3DLOCKED_RECT lr;
    HR(screen->LockRect(&lr, nullptr, D3DLOCK_READONLY));
    auto at = [&](UINT x, UINT y) { return static_cast<const DWORD *>(lr.pBits)[size_t(y) * (UINT(lr.Pitch) / 4) + x]; };
    CHECK(at(10, 10) == 0xffff0000);
    CHECK(at(10, 40) == 0xff00ff00);
    CHECK(at(64, 10) == 0xff000000);
    CHECK(at(mode.Width - 1, mode.Height - 1) == 0xff000000);
    HR(screen->UnlockRect());
    CHECK(screen->Release() == 0);
    CHECK(front->Release() == 0);
    CHECK(dev->Release() == 0);
    CHECK(d3d->Release() == 0);
  }
}

TEST_CASE("Multiple render targets: a pixel shader writes oC0 to oC3, each target with its write mask",
          "[scenes][targets]") {
  const D3DVERTEXELEMENT9 elements[] = {{0, 0, D3DDECLTYPE_FLOAT4, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
                                        D3DDECL_END()};
  auto rendered = render_all("mrt", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    IDirect3DSurface9 *rt[4] = {};
    const D3DFORMAT formats[4] = {D3DFMT_UNKNOWN, D3DFMT_X8R8G8B8, D3DFMT_A8R8G8B8, D3DFMT_R5G6B5};
    for (DWORD i = 1; i < 4; ++i) {
      HR(dev->CreateRenderTarget(64, 64, formats[i], D3DMULTISAMPLE_NONE, 0, FALSE, &rt[i], nullptr));
      HR(dev->SetRenderTarget(i, rt[i]));
    }
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff404040, 1.0f, 0)); // clears all four
    ShaderSet shaders(dev, "vs20_pass_position", "ps20_mrt", elements);
    HR(dev->SetRenderState(D3DRS_COLORWRITEENABLE2, D3DCOLORWRITEENABLE_RED | D3DCOLORWRITEENABLE_ALPHA));
    HR(dev->SetRenderState(D3DRS_COLORWRITEENABLE3, 0));
    const float left_half[4][4] = {{-1, 1, 0.5f, 1}, {0, 1, 0.5f, 1}, {-1, -1, 0.5f, 1}, {0, -1, 0.5f, 1}};
    HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, left_half, sizeof left_half[0]));
    for (DWORD i = 1; i < 4; ++i) HR(dev->SetRenderTarget(i, nullptr));
    shaders.release(dev);

    // Target i read back: the pixel at (x, 10) as bytes in its format.
    auto read = [&](DWORD i, UINT x) {
      IDirect3DSurface9 *mem = nullptr;
      HR(dev->CreateOffscreenPlainSurface(64, 64, formats[i], D3DPOOL_SYSTEMMEM, &mem, nullptr));
      HR(dev->GetRenderTargetData(rt[i], mem));
      D3DLOCKED_RECT lr;
      HR(mem->LockRect(&lr, nullptr, D3DLOCK_READONLY));
      const uint8_t *p = static_cast<const uint8_t *>(lr.pBits) + 10 * lr.Pitch;
      DWORD value = formats[i] == D3DFMT_R5G6B5 ? DWORD(p[x * 2] | p[x * 2 + 1] << 8)
                                                : DWORD(p[x * 4] | p[x * 4 + 1] << 8 | p[x * 4 + 2] << 16 | DWORD(p[x * 4 + 3]) << 24);
      HR(mem->UnlockRect());
      CHECK(mem->Release() == 0);
      return value;
    };
    CHECK((read(1, 10) & 0xffffff) == 0x00ff00); // oC1 green
    CHECK((read(1, 50) & 0xffffff) == 0x404040); // cleared only
    CHECK(read(2, 10) == 0xff004040);             // oC2 blue through RED | ALPHA: red 0, alpha 1
    CHECK(read(2, 50) == 0xff404040);
    CHECK(read(3, 10) == 0x4208);                 // write mask 0: the clear's 0x404040 as R5G6B5
    CHECK(read(3, 50) == 0x4208);
    for (DWORD i = 1; i < 4; ++i) CHECK(rt[i]->Release() == 0);
  }, 0);
  for (const Rendered &r : rendered) {
    INFO("backend " << r.backend);
    probe(r, 10, 10, 0xffff0000, 0); // oC0 red
    probe(r, 31, 63, 0xffff0000, 0);
    probe(r, 32, 0, 0xff404040, 0);
  }
}

namespace {

// A triangle over the lower-left half of a 64 x 64 target: its hypotenuse runs through the
// centres of the pixels (i, i), which 4 samples cover half.
void half_triangle(IDirect3DDevice9 *dev, D3DCOLOR c) {
  TLVertex v[3] = {{-0.5f, -0.5f, 0.5f, 1, c}, {63.5f, 63.5f, 0.5f, 1, c}, {-0.5f, 63.5f, 0.5f, 1, c}};
  HR(dev->SetFVF(kTLVertexFVF));
  HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLELIST, 1, v, sizeof(TLVertex)));
}

// Red channel of pixel (x, y) of a D3DFMT_A8R8G8B8 / X8R8G8B8 system-memory surface.
uint32_t red_at(IDirect3DSurface9 *s, UINT x, UINT y) { return (pixel_at(s, x, y) >> 16) & 0xff; }

} // namespace

TEST_CASE("Multisampled render targets resolve through StretchRect and at Present", "[scenes][targets]") {
  for (const std::string &backend : available_backends()) {
    INFO("backend " << backend);
    IDirect3D9 *d3d = nullptr;
    IDirect3DDevice9 *dev = make_device(&d3d, backend);
    DWORD levels = 0;
    // Both plugins' devices here (lavapipe, llvmpipe) render 4 samples.
    REQUIRE(d3d->CheckDeviceMultiSampleType(0, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, TRUE, D3DMULTISAMPLE_4_SAMPLES, &levels) == D3D_OK);
    IDirect3DSurface9 *ms = nullptr, *ms_depth = nullptr, *back = nullptr, *mem = nullptr;
    HR(dev->CreateRenderTarget(64, 64, D3DFMT_X8R8G8B8, D3DMULTISAMPLE_4_SAMPLES, 0, FALSE, &ms, nullptr));
    HR(dev->CreateDepthStencilSurface(64, 64, D3DFMT_D24S8, D3DMULTISAMPLE_4_SAMPLES, 0, FALSE, &ms_depth, nullptr));
    HR(dev->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &back));
    HR(dev->CreateOffscreenPlainSurface(64, 64, D3DFMT_X8R8G8B8, D3DPOOL_SYSTEMMEM, &mem, nullptr));
    HR(dev->SetRenderTarget(0, ms));
    HR(dev->SetDepthStencilSurface(ms_depth));
    HR(dev->BeginScene());
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, 0xff000000, 1.0f, 0));
    half_triangle(dev, 0xffff0000);
    HR(dev->EndScene());
    HR(dev->StretchRect(ms, nullptr, back, nullptr, D3DTEXF_NONE)); // D3D9's resolve
    HR(dev->GetRenderTargetData(back, mem));
    CHECK(red_at(mem, 5, 40) == 0xff);  // inside: every sample
    CHECK(red_at(mem, 40, 5) == 0x00);  // outside: none
    const uint32_t edge = red_at(mem, 20, 20); // on the hypotenuse: some samples
    CHECK(edge > 0x20);
    CHECK(edge < 0xe0);
    for (IDirect3DSurface9 *s : {ms, ms_depth, back, mem}) s->Release();
    CHECK(dev->Release() == 0);
    CHECK(d3d->Release() == 0);

    // A multisampled back buffer: Present resolves what GetFrontBufferData reads.
    setenv("NOVEM_BACKEND", backend.c_str(), 1);
    d3d = Direct3DCreate9(D3D_SDK_VERSION);
    D3DPRESENT_PARAMETERS pp{};
    pp.BackBufferWidth = 64;
    pp.BackBufferHeight = 64;
    pp.BackBufferFormat = D3DFMT_X8R8G8B8;
    pp.SwapEffect = D3DSWAPEFFECT_DISCARD;
    pp.Windowed = TRUE;
    pp.MultiSampleType = D3DMULTISAMPLE_4_SAMPLES;
    pp.EnableAutoDepthStencil = TRUE;
    pp.AutoDepthStencilFormat = D3DFMT_D24S8;
    HR(d3d->CreateDevice(0, D3DDEVTYPE_HAL, nullptr, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &dev));
    HR(dev->BeginScene());
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, 0xff000000, 1.0f, 0));
    half_triangle(dev, 0xffff0000);
    HR(dev->EndScene());
    HR(dev->Present(nullptr, nullptr, nullptr, nullptr));
    IDirect3DSurface9 *front = nullptr;
    HR(dev->CreateOffscreenPlainSurface(64, 64, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &front, nullptr));
    HR(dev->GetFrontBufferData(0, front));
    CHECK(red_at(front, 5, 40) == 0xff);
    CHECK(red_at(front, 40, 5) == 0x00);
    const uint32_t front_edge = red_at(front, 20, 20);
    CHECK(front_edge > 0x20);
    CHECK(front_edge < 0xe0);
    CHECK(front->Release() == 0);
    CHECK(dev->Release() == 0);
    CHECK(d3d->Release() == 0);
  }
}

TEST_CASE("MULTISAMPLEMASK writes only the samples it enables, and only on multisampled targets", "[scenes][targets]") {
  for (const std::string &backend : available_backends()) {
    INFO("backend " << backend);
    IDirect3D9 *d3d = nullptr;
    IDirect3DDevice9 *dev = make_device(&d3d, backend);
    IDirect3DSurface9 *ms = nullptr, *back = nullptr, *mem = nullptr;
    HR(dev->CreateRenderTarget(64, 64, D3DFMT_X8R8G8B8, D3DMULTISAMPLE_4_SAMPLES, 0, FALSE, &ms, nullptr));
    HR(dev->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &back));
    HR(dev->CreateOffscreenPlainSurface(64, 64, D3DFMT_X8R8G8B8, D3DPOOL_SYSTEMMEM, &mem, nullptr));
    // Four columns of whole pixels (every sample covered), each with its mask: all samples, two
    // of the four, none, and bits only above the target's four samples.
    const DWORD masks[4] = {0xffffffff, 0x5, 0x0, 0xfffffff0};
    HR(dev->SetRenderTarget(0, ms));
    HR(dev->BeginScene());
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
    for (int i = 0; i < 4; ++i) {
      HR(dev->SetRenderState(D3DRS_MULTISAMPLEMASK, masks[i]));
      quad(dev, float(16 * i), 0, float(16 * i + 16), 64, 0.5f, 0xffff0000);
    }
    DWORD stored = 0;
    HR(dev->GetRenderState(D3DRS_MULTISAMPLEMASK, &stored));
    CHECK(stored == 0xfffffff0);
    HR(dev->EndScene());
    HR(dev->StretchRect(ms, nullptr, back, nullptr, D3DTEXF_NONE));
    HR(dev->GetRenderTargetData(back, mem));
    CHECK(red_at(mem, 8, 32) == 0xff);
    const uint32_t half = red_at(mem, 24, 32); // two red samples of four: 127.5
    CHECK(half >= 0x7e);
    CHECK(half <= 0x81);
    CHECK(red_at(mem, 40, 32) == 0x00);
    CHECK(red_at(mem, 56, 32) == 0x00);

    // A single-sampled target ignores the mask, even one that enables no sample.
    HR(dev->SetRenderTarget(0, back));
    HR(dev->SetRenderState(D3DRS_MULTISAMPLEMASK, 0));
    HR(dev->BeginScene());
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
    quad(dev, 0, 0, 64, 64, 0.5f, 0xffff0000);
    HR(dev->EndScene());
    HR(dev->GetRenderTargetData(back, mem));
    CHECK(red_at(mem, 32, 32) == 0xff);
    for (IDirect3DSurface9 *s : {ms, back, mem}) s->Release();
    CHECK(dev->Release() == 0);
    CHECK(d3d->Release() == 0);
  }
}

TEST_CASE("GetFrontBufferData converts 16-bit and 10-bit back buffers to A8R8G8B8", "[scenes][targets]") {
  for (const std::string &backend : available_backends()) {
    for (D3DFORMAT format : {D3DFMT_X1R5G5B5, D3DFMT_A1R5G5B5, D3DFMT_R5G6B5, D3DFMT_A2R10G10B10}) {
      INFO("backend " << backend << ", back buffer format " << format);
      IDirect3D9 *d3d = nullptr;
      IDirect3DDevice9 *dev = make_device(&d3d, backend, format);
      IDirect3DSurface9 *front = nullptr;
      HR(dev->CreateOffscreenPlainSurface(64, 64, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &front, nullptr));
      // Channels of 0 and all ones, which every format stores exactly; the 1-bit and 2-bit alphas
      // read back as 0 or 0xFF, X1R5G5B5's unused bit as opaque.
      HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0x0000ffff, 1.0f, 0));
      D3DRECT half{0, 0, 64, 32};
      HR(dev->Clear(1, &half, D3DCLEAR_TARGET, 0xffff0000, 1.0f, 0));
      HR(dev->Present(nullptr, nullptr, nullptr, nullptr));
      HR(dev->GetFrontBufferData(0, front));
      const bool alpha = format == D3DFMT_A1R5G5B5 || format == D3DFMT_A2R10G10B10;
      CHECK(pixel_at(front, 10, 10) == 0xffff0000);
      CHECK(pixel_at(front, 10, 40) == (alpha ? 0x0000ffffu : 0xff00ffffu));
      CHECK(front->Release() == 0);
      CHECK(dev->Release() == 0);
      CHECK(d3d->Release() == 0);
    }
  }
}

TEST_CASE("StretchRect scales the formats the backend can blit and copies every format", "[scenes][targets]") {
  for (const std::string &backend : available_backends()) {
    INFO("backend " << backend);
    IDirect3D9 *d3d = nullptr;
    IDirect3DDevice9 *dev = make_device(&d3d, backend);
    IDirect3DSurface9 *big = nullptr, *same = nullptr, *small = nullptr;
    HR(dev->CreateRenderTarget(64, 64, D3DFMT_A2R10G10B10, D3DMULTISAMPLE_NONE, 0, FALSE, &big, nullptr));
    HR(dev->CreateRenderTarget(64, 64, D3DFMT_A2R10G10B10, D3DMULTISAMPLE_NONE, 0, FALSE, &same, nullptr));
    HR(dev->CreateRenderTarget(32, 32, D3DFMT_A2R10G10B10, D3DMULTISAMPLE_NONE, 0, FALSE, &small, nullptr));
    HR(dev->ColorFill(big, nullptr, 0xffff0000));
    HR(dev->StretchRect(big, nullptr, same, nullptr, D3DTEXF_NONE)); // one size: a copy
    const HRESULT scaled = dev->StretchRect(big, nullptr, small, nullptr, D3DTEXF_LINEAR);
    // lavapipe cannot blit A2R10G10B10: Vulkan refuses the stretch rather than fail validation.
    CHECK(scaled == (backend == "vulkan" ? D3DERR_INVALIDCALL : D3D_OK));
    // The copy holds the fill: opaque red, 10 bits a channel (A 31..30, R 29..20).
    IDirect3DSurface9 *mem = nullptr;
    HR(dev->CreateOffscreenPlainSurface(64, 64, D3DFMT_A2R10G10B10, D3DPOOL_SYSTEMMEM, &mem, nullptr));
    HR(dev->GetRenderTargetData(same, mem));
    CHECK(pixel_at(mem, 20, 40) == 0xfff00000u);
    for (IDirect3DSurface9 *s : {big, same, small, mem}) s->Release();
    CHECK(dev->Release() == 0);
    CHECK(d3d->Release() == 0);
  }
}

TEST_CASE("A new render target (multisampled too), DEFAULT plain surface or back buffer reads as zeros on every plugin",
          "[scenes][targets]") {
  // Windows hands out zeroed video memory; the APIs leave a new image undefined.
  for (const std::string &backend : available_backends()) {
    INFO("backend " << backend);
    IDirect3D9 *d3d = nullptr;
    IDirect3DDevice9 *dev = make_device(&d3d, backend);
    IDirect3DSurface9 *target = nullptr, *plain = nullptr, *back = nullptr, *readback = nullptr;
    // A few resources made and freed first, so that memory the plugin reuses has held texels.
    for (int i = 0; i < 4; ++i) {
      IDirect3DSurface9 *used = nullptr;
      HR(dev->CreateRenderTarget(64, 64, D3DFMT_A8R8G8B8, D3DMULTISAMPLE_NONE, 0, FALSE, &used, nullptr));
      HR(dev->ColorFill(used, nullptr, 0xffabcdef));
      CHECK(used->Release() == 0);
    }
    HR(dev->CreateRenderTarget(64, 64, D3DFMT_A8R8G8B8, D3DMULTISAMPLE_NONE, 0, FALSE, &target, nullptr));
    HR(dev->CreateOffscreenPlainSurface(64, 64, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &plain, nullptr));
    HR(dev->CreateOffscreenPlainSurface(64, 64, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &readback, nullptr));
    HR(dev->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &back));
    auto all_zero = [&](IDirect3DSurface9 *s, DWORD mask) {
      D3DLOCKED_RECT lr;
      HR(s->LockRect(&lr, nullptr, D3DLOCK_READONLY));
      uint32_t nonzero = 0;
      for (UINT y = 0; y < 64; ++y)
        for (UINT x = 0; x < 64; ++x)
          nonzero += (static_cast<const DWORD *>(lr.pBits)[y * UINT(lr.Pitch) / 4 + x] & mask) != 0;
      HR(s->UnlockRect());
      return nonzero;
    };
    HR(dev->GetRenderTargetData(target, readback));
    CHECK(all_zero(readback, 0xffffffff) == 0);
    CHECK(all_zero(plain, 0xffffffff) == 0);
    IDirect3DSurface9 *back_readback = nullptr;
    D3DSURFACE_DESC desc{};
    HR(back->GetDesc(&desc));
    HR(dev->CreateOffscreenPlainSurface(64, 64, desc.Format, D3DPOOL_SYSTEMMEM, &back_readback, nullptr));
    HR(dev->GetRenderTargetData(back, back_readback));
    CHECK(all_zero(back_readback, 0x00ffffff) == 0); // X8R8G8B8's X byte aside
    // A multisampled target, resolved into a single-sampled one.
    if (SUCCEEDED(d3d->CheckDeviceMultiSampleType(0, D3DDEVTYPE_HAL, D3DFMT_A8R8G8B8, TRUE, D3DMULTISAMPLE_4_SAMPLES,
                                                  nullptr))) {
      for (int i = 0; i < 4; ++i) {
        IDirect3DSurface9 *used = nullptr;
        HR(dev->CreateRenderTarget(64, 64, D3DFMT_A8R8G8B8, D3DMULTISAMPLE_4_SAMPLES, 0, FALSE, &used, nullptr));
        HR(dev->ColorFill(used, nullptr, 0xffabcdef));
        CHECK(used->Release() == 0);
        HR(dev->GetRenderTargetData(target, readback)); // the plugin catches up: their memory is free
      }
      IDirect3DSurface9 *ms = nullptr, *resolved = nullptr;
      HR(dev->CreateRenderTarget(64, 64, D3DFMT_A8R8G8B8, D3DMULTISAMPLE_4_SAMPLES, 0, FALSE, &ms, nullptr));
      HR(dev->CreateRenderTarget(64, 64, D3DFMT_A8R8G8B8, D3DMULTISAMPLE_NONE, 0, FALSE, &resolved, nullptr));
      HR(dev->ColorFill(resolved, nullptr, 0xff123456));
      HR(dev->StretchRect(ms, nullptr, resolved, nullptr, D3DTEXF_NONE));
      HR(dev->GetRenderTargetData(resolved, readback));
      CHECK(all_zero(readback, 0xffffffff) == 0);
      CHECK(ms->Release() == 0);
      CHECK(resolved->Release() == 0);
    } else {
      WARN("no 4-sample A8R8G8B8 targets: the multisampled case is not checked");
    }
    for (IDirect3DSurface9 *s : {target, plain, readback, back_readback}) CHECK(s->Release() == 0);
    back->Release();
    CHECK(dev->Release() == 0);
    CHECK(d3d->Release() == 0);
  }
}
