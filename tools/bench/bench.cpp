// novem-bench: D3D9 draw-call throughput and application-thread cost, per workload and backend.
// A benchmark, not a test. An ordinary D3D9 program written against <d3d9.h> only: it builds
// unchanged against Windows' d3d9.h with mingw-w64. The only platform code is the block marked
// PLATFORM below (environment, path of this executable, running a child and reading its output).
//
//   novem-bench [--backend vulkan|opengl|null|all] [--frames N] [--draws-per-frame N[,N...]]
//               [--workload NAME|all] [--repeat N] [--ablation] [--wined3d 'COMMAND']
//
// Each backend runs in a child process of its own (this program again, with NOVEM_BACKEND set and
// --child), which prints one machine-readable line per workload; the parent prints the table.
// --repeat N runs every child N times, in turn, and keeps each row's run of median draws/s.
// --ablation runs each plugin again with its five techniques off, then on one by one.
// --wined3d runs COMMAND (this program built for Windows, under Wine) as one more child.
#include <d3d9.h>

#include "novem/statistics.h" // plain C: the counters a Novem d3d9 exports (none elsewhere)

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

// ---- PLATFORM (the only OS-specific code) -------------------------------------------------------
#ifdef _WIN32
#define NOVEM_BENCH_POPEN _popen
#define NOVEM_BENCH_PCLOSE _pclose
static void set_env(const char *name, const char *value) { _putenv_s(name, value); }
static nv_get_statistics_fn statistics_entry() {
  HMODULE d3d9 = GetModuleHandleA("d3d9.dll");
  return d3d9 ? reinterpret_cast<nv_get_statistics_fn>(reinterpret_cast<void *>(GetProcAddress(d3d9, NV_STATISTICS_ENTRY_NAME)))
              : nullptr;
}
// The device window (window code: Windows' D3D9 needs one; it is never shown).
static HWND device_window() {
  return CreateWindowA("STATIC", "novem-bench", WS_OVERLAPPEDWINDOW, 0, 0, 256, 256, nullptr, nullptr, nullptr, nullptr);
}
static std::string self_path(const char *argv0) {
  char path[MAX_PATH];
  DWORD n = GetModuleFileNameA(nullptr, path, MAX_PATH);
  return n && n < MAX_PATH ? std::string(path) : std::string(argv0);
}
static std::string quote(const std::string &s) { return "\"" + s + "\""; }
static double context_switches() { return -1; } // not counted on Windows
// CPU time the calling thread has used, in ns.
static double thread_cpu_ns() {
  FILETIME created, exited, kernel, user;
  if (!GetThreadTimes(GetCurrentThread(), &created, &exited, &kernel, &user)) return -1;
  auto ticks = [](const FILETIME &t) { return double((ULONGLONG(t.dwHighDateTime) << 32) | t.dwLowDateTime); };
  return (ticks(kernel) + ticks(user)) * 100.0;
}
#else
#include <sys/resource.h> // getrusage (POSIX)
#include <time.h>         // clock_gettime (POSIX)
#include <dlfcn.h>  // dlsym (Linux-only)
#include <unistd.h> // readlink (Linux-only)
#define NOVEM_BENCH_POPEN popen
#define NOVEM_BENCH_PCLOSE pclose
static void set_env(const char *name, const char *value) { setenv(name, value, 1); }
static nv_get_statistics_fn statistics_entry() {
  return reinterpret_cast<nv_get_statistics_fn>(dlsym(RTLD_DEFAULT, NV_STATISTICS_ENTRY_NAME));
}
static HWND device_window() { return nullptr; } // headless
static std::string self_path(const char *argv0) {
  char path[4096];
  ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  return n > 0 ? std::string(path, size_t(n)) : std::string(argv0);
}
// The process's context switches so far, voluntary and not, every thread's: the application
// thread's, the plugin's and the driver's.
static double context_switches() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return -1;
  return double(usage.ru_nvcsw) + double(usage.ru_nivcsw);
}
// CPU time the calling thread has used, in ns.
static double thread_cpu_ns() {
  timespec t{};
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0) return -1;
  return double(t.tv_sec) * 1e9 + double(t.tv_nsec);
}
static std::string quote(const std::string &s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}
#endif
// ---- end PLATFORM -------------------------------------------------------------------------------

namespace {

using Clock = std::chrono::steady_clock;

constexpr UINT kWidth = 256, kHeight = 256;
constexpr int kWarmupFrames = 3;
constexpr UINT kGrid = 16;                   // triangles on a 16x16 grid of 16-pixel cells
constexpr UINT kTriangles = kGrid * kGrid;   // in the static vertex buffers
constexpr UINT kDynamicTriangles = 4096;     // capacity of the dynamic vertex buffer

struct RhwVertex {
  float x, y, z, rhw;
  D3DCOLOR color;
};
constexpr DWORD kRhwFvf = D3DFVF_XYZRHW | D3DFVF_DIFFUSE;
struct ClipVertex {
  float x, y, z;
  D3DCOLOR color;
};
constexpr DWORD kClipFvf = D3DFVF_XYZ | D3DFVF_DIFFUSE;
struct TexVertex {
  float x, y, z, rhw;
  D3DCOLOR color;
  float u, v;
};
constexpr DWORD kTexFvf = D3DFVF_XYZRHW | D3DFVF_DIFFUSE | D3DFVF_TEX1;
constexpr UINT kTextureSize = 8;

// Shaders, assembled once with `build/bin/novem-shader asm X.asm -o X.bin`; the tokens are the
// .bin's little-endian DWORDs, the assembly is beside them.
//   vs_2_0
//   dcl_position v0
//   dcl_color v1
//   add r0, v0, c0
//   mov oPos, r0
//   mov oD0, v1
const DWORD kVs0[] = {
    0xfffe0200, 0x0200001f, 0x80000000, 0x900f0000, 0x0200001f, 0x8000000a, 0x900f0001, 0x03000002,
    0x800f0000, 0x90e40000, 0xa0e40000, 0x02000001, 0xc00f0000, 0x80e40000, 0x02000001, 0xd00f0000,
    0x90e40001, 0x0000ffff
};
//   vs_2_0
//   dcl_position v0
//   dcl_color v1
//   add r0, v0, c0
//   mov oPos, r0
//   mov oD0, v1.zyxw
const DWORD kVs1[] = {
    0xfffe0200, 0x0200001f, 0x80000000, 0x900f0000, 0x0200001f, 0x8000000a, 0x900f0001, 0x03000002,
    0x800f0000, 0x90e40000, 0xa0e40000, 0x02000001, 0xc00f0000, 0x80e40000, 0x02000001, 0xd00f0000,
    0x90c60001, 0x0000ffff
};
//   ps_2_0
//   dcl v0
//   mov oC0, v0
const DWORD kPs0[] = {
    0xffff0200, 0x0200001f, 0x80000000, 0x900f0000, 0x02000001, 0x800f0800, 0x90e40000, 0x0000ffff
};
//   ps_2_0
//   def c0, 0.5, 1, 1, 1
//   dcl v0
//   mul r0, v0, c0
//   mov oC0, r0
const DWORD kPs1[] = {
    0xffff0200, 0x05000051, 0xa00f0000, 0x3f000000, 0x3f800000, 0x3f800000, 0x3f800000, 0x0200001f,
    0x80000000, 0x900f0000, 0x03000005, 0x800f0000, 0x90e40000, 0xa0e40000, 0x02000001, 0x800f0800,
    0x80e40000, 0x0000ffff
};

enum Workload { kDraw, kState, kTexture, kShader, kUp, kDynamic, kGame, kStream, kWorkloadCount };
const char *const kWorkloads[kWorkloadCount] = {"draw", "state", "texture", "shader", "up", "dynamic", "game", "stream"};
const char *const kWorkloadText[kWorkloadCount] = {
    "DrawPrimitive, no state change", "SRCBLEND change per draw", "texture change per draw",
    "VS+PS pair change per draw",     "DrawPrimitiveUP",          "dynamic VB, NOOVERWRITE/DISCARD",
    "game-like mix",                  "texture change per draw, 10 DISCARD texture rewrites per frame"};
// How many times a frame the stream workload rewrites one of its two dynamic textures.
constexpr int kStreamUpdates = 10;
const char *const kBackends[] = {"vulkan", "opengl", "null"};

// The five techniques of issue 6 and each plugin's switch for them (see the plugins' READMEs).
const char *const kTechniques[] = {"batching", "dirty state", "pipeline cache", "barrier tracker", "suballocator"};
const char *const kVulkanSwitches[] = {"NOVEM_VK_BATCHING", "NOVEM_VK_DIRTY", "NOVEM_VK_PIPELINE_CACHE",
                                       "NOVEM_VK_BARRIERS", "NOVEM_VK_SUBALLOC"};
const char *const kOpenGLSwitches[] = {"NOVEM_GL_BATCHING", "NOVEM_GL_STATE_CACHE", "NOVEM_GL_PIPELINE_CACHE",
                                       "NOVEM_GL_BARRIERS", "NOVEM_GL_SUBALLOC"};

struct Options {
  std::string backend = "all";
  std::string workload = "all";
  int frames = 200;
  std::vector<int> draws{1000}; // frame sizes, each workload run at each
  int repeat = 1;
  bool child = false;
  bool ablation = false;
  std::string wined3d; // the command that runs this program's Windows build under Wine
};

// Counters over one workload run (warm-up included), from novem_get_statistics; -1: not available.
// The last four are per measured frame: the process's context switches (getrusage), and the
// times the application thread slept because the command ring was full inside a call, or at
// Present until the ring had room for the next frame, and the ring's wake-ups.
struct Counters {
  double created = -1, loaded = -1, barriers = -1, allocations = -1, waits = -1, api_draws = -1;
  double switches = -1, full_waits = -1, room_waits = -1, wakes = -1;
};

struct Result {
  std::string backend, workload;
  int draws = 0; // per frame
  bool ok = false;
  double draws_per_s = 0, ns_per_call = 0, ns_per_draw = 0, median_ms = 0, p99_ms = 0;
  double cpu_ns_per_draw = -1; // the application thread's CPU time in the calls, per draw
  Counters counters;
};

// One triangle per grid cell, clockwise (D3D9's default front face), a few pixels big.
void rhw_triangle(RhwVertex out[3], UINT i, D3DCOLOR color) {
  float x = float(i % kGrid) * 16.0f + 2.0f, y = float((i / kGrid) % kGrid) * 16.0f + 2.0f;
  out[0] = {x, y, 0.5f, 1.0f, color};
  out[1] = {x + 10.0f, y, 0.5f, 1.0f, color};
  out[2] = {x, y + 10.0f, 0.5f, 1.0f, color};
}

void clip_triangle(ClipVertex out[3], UINT i, D3DCOLOR color) {
  RhwVertex r[3];
  rhw_triangle(r, i, color);
  for (int v = 0; v < 3; ++v)
    out[v] = {r[v].x / float(kWidth) * 2.0f - 1.0f, 1.0f - r[v].y / float(kHeight) * 2.0f, 0.5f, color};
}

D3DCOLOR color_of(UINT i) { return 0xff000000u | (i * 0x00371d53u & 0x00ffffffu); }

#define CHECK_HR(call)                                                                             \
  do {                                                                                             \
    HRESULT hr_ = (call);                                                                          \
    if (FAILED(hr_)) {                                                                             \
      std::fprintf(stderr, "novem-bench: %s failed: 0x%08x\n", #call, unsigned(hr_));              \
      return false;                                                                                \
    }                                                                                              \
  } while (0)

// Every object the workloads use, created once per device.
struct Scene {
  IDirect3DDevice9 *device = nullptr;
  IDirect3DVertexBuffer9 *rhw_vb = nullptr, *clip_vb = nullptr, *dynamic_vb = nullptr, *tex_vb = nullptr;
  IDirect3DTexture9 *texture[2] = {};
  IDirect3DTexture9 *stream_texture[2] = {}; // D3DUSAGE_DYNAMIC, rewritten with DISCARD
  nv_get_statistics_fn statistics = statistics_entry();
  IDirect3DVertexShader9 *vs[2] = {};
  IDirect3DPixelShader9 *ps[2] = {};
  IDirect3DSurface9 *back = nullptr, *readback = nullptr;
  UINT dynamic_next = 0; // next free triangle in dynamic_vb

  bool create(IDirect3DDevice9 *d) {
    device = d;
    std::vector<RhwVertex> rhw(kTriangles * 3);
    std::vector<ClipVertex> clip(kTriangles * 3);
    for (UINT i = 0; i < kTriangles; ++i) {
      rhw_triangle(&rhw[i * 3], i, color_of(i));
      clip_triangle(&clip[i * 3], i, color_of(i));
    }
    CHECK_HR(fill(UINT(rhw.size() * sizeof(RhwVertex)), kRhwFvf, rhw.data(), &rhw_vb));
    CHECK_HR(fill(UINT(clip.size() * sizeof(ClipVertex)), kClipFvf, clip.data(), &clip_vb));
    std::vector<TexVertex> tex(kTriangles * 3);
    for (UINT i = 0; i < kTriangles * 3; ++i) {
      const RhwVertex &r = rhw[i];
      const float uv[3][2] = {{0, 0}, {1, 0}, {0, 1}};
      tex[i] = {r.x, r.y, r.z, r.rhw, 0xffffffffu, uv[i % 3][0], uv[i % 3][1]};
    }
    CHECK_HR(fill(UINT(tex.size() * sizeof(TexVertex)), kTexFvf, tex.data(), &tex_vb));
    for (int t = 0; t < 2; ++t) {
      CHECK_HR(device->CreateTexture(kTextureSize, kTextureSize, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &texture[t], nullptr));
      CHECK_HR(device->CreateTexture(kTextureSize, kTextureSize, 1, D3DUSAGE_DYNAMIC, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT,
                                     &stream_texture[t], nullptr));
      if (!paint(texture[t], 0, UINT(t)) || !paint(stream_texture[t], D3DLOCK_DISCARD, UINT(t))) return false;
    }
    CHECK_HR(device->CreateVertexBuffer(kDynamicTriangles * 3 * sizeof(RhwVertex), D3DUSAGE_DYNAMIC | D3DUSAGE_WRITEONLY,
                                        kRhwFvf, D3DPOOL_DEFAULT, &dynamic_vb, nullptr));
    CHECK_HR(device->CreateVertexShader(kVs0, &vs[0]));
    CHECK_HR(device->CreateVertexShader(kVs1, &vs[1]));
    CHECK_HR(device->CreatePixelShader(kPs0, &ps[0]));
    CHECK_HR(device->CreatePixelShader(kPs1, &ps[1]));
    CHECK_HR(device->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &back));
    CHECK_HR(device->CreateOffscreenPlainSurface(kWidth, kHeight, D3DFMT_X8R8G8B8, D3DPOOL_SYSTEMMEM, &readback, nullptr));
    return true;
  }

  // A checkerboard of two colours that `seed` picks, written through LockRect with `flags`.
  static bool paint(IDirect3DTexture9 *tex, DWORD flags, UINT seed) {
    D3DLOCKED_RECT lr;
    CHECK_HR(tex->LockRect(0, &lr, nullptr, flags));
    for (UINT y = 0; y < kTextureSize; ++y)
      for (UINT x = 0; x < kTextureSize; ++x)
        reinterpret_cast<DWORD *>(static_cast<BYTE *>(lr.pBits) + y * UINT(lr.Pitch))[x] =
            ((x ^ y ^ seed) & 1) ? 0xffffffffu : 0xff4080c0u;
    CHECK_HR(tex->UnlockRect(0));
    return true;
  }

  HRESULT fill(UINT bytes, DWORD fvf, const void *data, IDirect3DVertexBuffer9 **vb) {
    HRESULT hr = device->CreateVertexBuffer(bytes, D3DUSAGE_WRITEONLY, fvf, D3DPOOL_DEFAULT, vb, nullptr);
    if (FAILED(hr)) return hr;
    void *p = nullptr;
    if (FAILED(hr = (*vb)->Lock(0, 0, &p, 0))) return hr;
    std::memcpy(p, data, bytes);
    return (*vb)->Unlock();
  }

  // Waits until everything submitted so far has executed (a readback of the back buffer).
  bool finish() {
    CHECK_HR(device->GetRenderTargetData(back, readback));
    return true;
  }

  void release() {
    IUnknown *all[] = {readback,   back,       ps[1],  ps[0],      vs[1],   vs[0], stream_texture[1], stream_texture[0],
                       texture[1], texture[0], tex_vb, dynamic_vb, clip_vb, rhw_vb};
    for (IUnknown *o : all)
      if (o) o->Release();
  }

  bool reset_state() {
    CHECK_HR(device->SetVertexShader(nullptr));
    CHECK_HR(device->SetPixelShader(nullptr));
    CHECK_HR(device->SetTexture(0, nullptr));
    CHECK_HR(device->SetRenderState(D3DRS_LIGHTING, FALSE));
    CHECK_HR(device->SetRenderState(D3DRS_ZENABLE, D3DZB_FALSE));
    CHECK_HR(device->SetRenderState(D3DRS_CULLMODE, D3DCULL_NONE));
    CHECK_HR(device->SetRenderState(D3DRS_ALPHABLENDENABLE, FALSE));
    CHECK_HR(device->SetRenderState(D3DRS_SRCBLEND, D3DBLEND_ONE));
    CHECK_HR(device->SetRenderState(D3DRS_DESTBLEND, D3DBLEND_ZERO));
    CHECK_HR(device->SetFVF(kRhwFvf));
    CHECK_HR(device->SetStreamSource(0, rhw_vb, 0, sizeof(RhwVertex)));
    const float zero[4] = {0, 0, 0, 0};
    CHECK_HR(device->SetVertexShaderConstantF(0, zero, 1));
    return true;
  }

  // One dynamic-buffer triangle: NOOVERWRITE into free space, DISCARD when the buffer is full.
  // Returns its first vertex, or UINT(-1) on failure. Three D3D9 calls (Lock, Unlock, and the
  // caller's draw).
  UINT append_dynamic(UINT i) {
    DWORD flags = D3DLOCK_NOOVERWRITE;
    if (dynamic_next == kDynamicTriangles) dynamic_next = 0, flags = D3DLOCK_DISCARD;
    UINT first = dynamic_next * 3;
    void *p = nullptr;
    if (FAILED(dynamic_vb->Lock(first * sizeof(RhwVertex), 3 * sizeof(RhwVertex), &p, flags))) return UINT(-1);
    rhw_triangle(static_cast<RhwVertex *>(p), i, color_of(i + 7));
    if (FAILED(dynamic_vb->Unlock())) return UINT(-1);
    ++dynamic_next;
    return first;
  }

  // The measured part of one frame: `draws` draws of workload `w`, and the number of D3D9 calls
  // made. Only these calls run between the two clock reads around it.
  bool frame(int w, int draws, long long &calls) {
    IDirect3DDevice9 *d = device;
    switch (w) {
    case kDraw: // no state change
      for (int i = 0; i < draws; ++i) CHECK_HR(d->DrawPrimitive(D3DPT_TRIANGLELIST, UINT(i) % kTriangles * 3, 1));
      calls += draws;
      return true;
    case kState: // SRCBLEND alternates every draw
      for (int i = 0; i < draws; ++i) {
        CHECK_HR(d->SetRenderState(D3DRS_SRCBLEND, (i & 1) ? D3DBLEND_SRCALPHA : D3DBLEND_ONE));
        CHECK_HR(d->DrawPrimitive(D3DPT_TRIANGLELIST, UINT(i) % kTriangles * 3, 1));
      }
      calls += 2LL * draws;
      return true;
    case kTexture: // stage 0's texture alternates every draw
      for (int i = 0; i < draws; ++i) {
        CHECK_HR(d->SetTexture(0, texture[i & 1]));
        CHECK_HR(d->DrawPrimitive(D3DPT_TRIANGLELIST, UINT(i) % kTriangles * 3, 1));
      }
      calls += 2LL * draws;
      return true;
    case kShader: // the VS/PS pair alternates every draw
      for (int i = 0; i < draws; ++i) {
        CHECK_HR(d->SetVertexShader(vs[i & 1]));
        CHECK_HR(d->SetPixelShader(ps[i & 1]));
        CHECK_HR(d->DrawPrimitive(D3DPT_TRIANGLELIST, UINT(i) % kTriangles * 3, 1));
      }
      calls += 3LL * draws;
      return true;
    case kUp: // DrawPrimitiveUP from the application's memory
      for (int i = 0; i < draws; ++i) {
        RhwVertex v[3];
        rhw_triangle(v, UINT(i), color_of(UINT(i) + 3));
        CHECK_HR(d->DrawPrimitiveUP(D3DPT_TRIANGLELIST, 1, v, sizeof(RhwVertex)));
      }
      calls += draws;
      return true;
    case kDynamic: // Lock NOOVERWRITE/DISCARD, write, Unlock, draw
      for (int i = 0; i < draws; ++i) {
        UINT first = append_dynamic(UINT(i));
        if (first == UINT(-1)) return false;
        CHECK_HR(d->DrawPrimitive(D3DPT_TRIANGLELIST, first, 1));
      }
      calls += 3LL * draws;
      return true;
    case kStream: { // as kTexture, and every `every` draws one texture rewritten with DISCARD
      const int every = std::max(draws / kStreamUpdates, 1);
      for (int i = 0; i < draws; ++i) {
        if (i % every == 0) {
          if (!paint(stream_texture[(i / every) & 1], D3DLOCK_DISCARD, UINT(i))) return false;
          calls += 2;
        }
        CHECK_HR(d->SetTexture(0, stream_texture[i & 1]));
        CHECK_HR(d->DrawPrimitive(D3DPT_TRIANGLELIST, UINT(i) % kTriangles * 3, 1));
      }
      calls += 2LL * draws;
      return true;
    }
    default: return game(draws, calls);
    }
  }

  // A game-like frame: the first half "world" (shaders, a constant per draw, a pair change
  // every 16 draws), the second half "effects and UI" (fixed function: static draws with a blend
  // change every 4, a dynamic-buffer draw and a DrawPrimitiveUP every 8).
  bool game(int draws, long long &calls) {
    IDirect3DDevice9 *d = device;
    int world = draws / 2;
    CHECK_HR(d->SetFVF(kClipFvf));
    CHECK_HR(d->SetStreamSource(0, clip_vb, 0, sizeof(ClipVertex)));
    calls += 2;
    for (int i = 0; i < world; ++i) {
      if (i % 16 == 0) {
        CHECK_HR(d->SetVertexShader(vs[(i / 16) & 1]));
        CHECK_HR(d->SetPixelShader(ps[(i / 16) & 1]));
        calls += 2;
      }
      const float offset[4] = {float(i % 5) * 0.01f, 0, 0, 0};
      CHECK_HR(d->SetVertexShaderConstantF(0, offset, 1));
      CHECK_HR(d->DrawPrimitive(D3DPT_TRIANGLELIST, UINT(i) % kTriangles * 3, 1));
      calls += 2;
    }
    CHECK_HR(d->SetVertexShader(nullptr));
    CHECK_HR(d->SetPixelShader(nullptr));
    CHECK_HR(d->SetFVF(kRhwFvf));
    CHECK_HR(d->SetRenderState(D3DRS_ALPHABLENDENABLE, TRUE));
    calls += 4;
    for (int i = world; i < draws; ++i) {
      if (i % 4 == 0) {
        CHECK_HR(d->SetRenderState(D3DRS_SRCBLEND, (i & 4) ? D3DBLEND_SRCALPHA : D3DBLEND_ONE));
        ++calls;
      }
      if (i % 8 == 3) { // UI quad-ish: from application memory
        RhwVertex v[3];
        rhw_triangle(v, UINT(i), color_of(UINT(i)));
        CHECK_HR(d->DrawPrimitiveUP(D3DPT_TRIANGLELIST, 1, v, sizeof(RhwVertex)));
        ++calls;
      } else if (i % 8 == 7) { // particles: the dynamic buffer
        UINT first = append_dynamic(UINT(i));
        if (first == UINT(-1)) return false;
        CHECK_HR(d->SetStreamSource(0, dynamic_vb, 0, sizeof(RhwVertex)));
        CHECK_HR(d->DrawPrimitive(D3DPT_TRIANGLELIST, first, 1));
        CHECK_HR(d->SetStreamSource(0, rhw_vb, 0, sizeof(RhwVertex)));
        calls += 5;
      } else {
        if (i == world || i % 8 == 4) { // DrawPrimitiveUP unbinds stream 0: rebind it
          CHECK_HR(d->SetStreamSource(0, rhw_vb, 0, sizeof(RhwVertex)));
          ++calls;
        }
        CHECK_HR(d->DrawPrimitive(D3DPT_TRIANGLELIST, UINT(i) % kTriangles * 3, 1));
        ++calls;
      }
    }
    CHECK_HR(d->SetRenderState(D3DRS_ALPHABLENDENABLE, FALSE));
    ++calls;
    return true;
  }

  // Before a workload: its fixed state, outside the measurement.
  bool setup(int w) {
    if (!reset_state()) return false;
    if (w == kState) CHECK_HR(device->SetRenderState(D3DRS_ALPHABLENDENABLE, TRUE));
    if (w == kTexture || w == kStream) {
      CHECK_HR(device->SetFVF(kTexFvf));
      CHECK_HR(device->SetStreamSource(0, tex_vb, 0, sizeof(TexVertex)));
    }
    if (w == kShader) {
      CHECK_HR(device->SetFVF(kClipFvf));
      CHECK_HR(device->SetStreamSource(0, clip_vb, 0, sizeof(ClipVertex)));
    }
    if (w == kDynamic) CHECK_HR(device->SetStreamSource(0, dynamic_vb, 0, sizeof(RhwVertex)));
    return true;
  }

  // Runs workload w: warm-up frames, then `frames` measured ones; prints one result line.
  bool sample(nv_statistics &s) { return statistics && statistics(device, &s) == 0; }

  bool run(int w, int frames, int draws) {
    if (!setup(w)) return false;
    nv_statistics before{};
    const bool counted = sample(before);
    long long calls = 0;
    for (int f = 0; f < kWarmupFrames; ++f) {
      CHECK_HR(device->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff101820, 1.0f, 0));
      CHECK_HR(device->BeginScene());
      if (!frame(w, draws, calls)) return false;
      CHECK_HR(device->EndScene());
      CHECK_HR(device->Present(nullptr, nullptr, nullptr, nullptr));
    }
    if (!finish()) return false;

    calls = 0;
    Clock::duration in_calls{};
    double cpu_in_calls = 0;
    nv_statistics measured{};
    const bool counted_frames = sample(measured);
    const double switches = context_switches();
    std::vector<double> frame_ms;
    frame_ms.reserve(size_t(frames));
    Clock::time_point start = Clock::now(), last_present = start;
    for (int f = 0; f < frames; ++f) {
      CHECK_HR(device->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff101820, 1.0f, 0));
      CHECK_HR(device->BeginScene());
      const double cpu0 = thread_cpu_ns();
      Clock::time_point t0 = Clock::now();
      if (!frame(w, draws, calls)) return false;
      in_calls += Clock::now() - t0;
      cpu_in_calls += thread_cpu_ns() - cpu0;
      CHECK_HR(device->EndScene());
      CHECK_HR(device->Present(nullptr, nullptr, nullptr, nullptr));
      Clock::time_point now = Clock::now();
      frame_ms.push_back(std::chrono::duration<double, std::milli>(now - last_present).count());
      last_present = now;
    }
    if (!finish()) return false; // draws per second counts the GPU finishing them
    const double switches_after = context_switches();
    double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    std::sort(frame_ms.begin(), frame_ms.end());
    size_t n = frame_ms.size();
    double median = n % 2 ? frame_ms[n / 2] : (frame_ms[n / 2 - 1] + frame_ms[n / 2]) / 2;
    size_t p99 = std::min(n - 1, size_t(double(n) * 0.99 + 0.999999) - 1); // nearest rank
    double total_draws = double(frames) * double(draws);
    double ns = std::chrono::duration<double, std::nano>(in_calls).count();
    Counters c;
    nv_statistics after{};
    if (counted && sample(after)) {
      c.created = double(after.pipelines_created - before.pipelines_created);
      c.loaded = double(after.pipelines_loaded - before.pipelines_loaded);
      c.barriers = double(after.barriers - before.barriers);
      c.allocations = double(after.device_allocations - before.device_allocations);
      c.waits = double(after.fence_waits - before.fence_waits);
      if (after.struct_size >= offsetof(nv_statistics, api_draw_calls) + sizeof after.api_draw_calls)
        c.api_draws = double(after.api_draw_calls - before.api_draw_calls); // ABI 6
      if (counted_frames && after.struct_size >= offsetof(nv_statistics, ring_wakes) + sizeof after.ring_wakes) {
        c.full_waits = double(after.ring_full_waits - measured.ring_full_waits) / frames; // ABI 10
        c.room_waits = double(after.ring_room_waits - measured.ring_room_waits) / frames;
        c.wakes = double(after.ring_wakes - measured.ring_wakes) / frames;
      }
    }
    if (switches >= 0 && switches_after >= 0) c.switches = (switches_after - switches) / frames;
    std::printf("novem-bench-result %s %d %.1f %.2f %.2f %.4f %.4f %.0f %.0f %.0f %.0f %.0f %.0f %.2f %.2f %.2f %.2f "
                "%.2f\n",
                kWorkloads[w], draws, total_draws / seconds, ns / double(calls), ns / total_draws, median,
                frame_ms[p99], c.created, c.loaded, c.barriers, c.allocations, c.waits, c.api_draws, c.switches,
                c.full_waits, c.room_waits, c.wakes, cpu_in_calls >= 0 ? cpu_in_calls / total_draws : -1.0);
    std::fflush(stdout);
    return true;
  }
};

int usage(const char *why) {
  std::fprintf(stderr,
               "novem-bench: %s\nusage: novem-bench [--backend vulkan|opengl|null|all] [--frames N] "
               "[--draws-per-frame N[,N...]] [--workload draw|state|texture|shader|up|dynamic|game|stream|all]\n"
               "       [--repeat N] [--ablation] [--wined3d 'COMMAND']\n",
               why);
  return 2;
}

int workload_index(const std::string &name) {
  for (int i = 0; i < kWorkloadCount; ++i)
    if (name == kWorkloads[i]) return i;
  return -1;
}

// The child: one device on the backend NOVEM_BACKEND names, the chosen workloads in turn.
int run_child(const Options &o) {
  IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
  if (!d3d) {
    std::fprintf(stderr, "novem-bench: Direct3DCreate9 failed\n");
    return 1;
  }
  D3DPRESENT_PARAMETERS pp{};
  pp.BackBufferWidth = kWidth;
  pp.BackBufferHeight = kHeight;
  pp.BackBufferFormat = D3DFMT_X8R8G8B8;
  pp.SwapEffect = D3DSWAPEFFECT_DISCARD;
  pp.Windowed = TRUE; // no window: headless (on Windows, give it a window here)
  pp.PresentationInterval = D3DPRESENT_INTERVAL_IMMEDIATE;
  pp.hDeviceWindow = device_window();
  IDirect3DDevice9 *device = nullptr;
  HRESULT hr = d3d->CreateDevice(0, D3DDEVTYPE_HAL, pp.hDeviceWindow, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &device);
  if (FAILED(hr)) {
    std::fprintf(stderr, "novem-bench: CreateDevice failed: 0x%08x\n", unsigned(hr));
    d3d->Release();
    return 1;
  }
  Scene scene;
  bool ok = scene.create(device);
  for (int w = 0; ok && w < kWorkloadCount; ++w)
    for (size_t size = 0; ok && size < o.draws.size(); ++size)
      if (o.workload == "all" || o.workload == kWorkloads[w]) ok = scene.run(w, o.frames, o.draws[size]);
  scene.release();
  device->Release();
  d3d->Release();
  return ok ? 0 : 1;
}

// The parent: runs one child (a command line) and parses its result lines as `backend`.
std::vector<Result> run_command(const std::string &command, const std::string &backend, const Options &o) {
  std::vector<Result> results;
  for (int w = 0; w < kWorkloadCount; ++w)
    for (int draws : o.draws)
      if (o.workload == "all" || o.workload == kWorkloads[w]) {
        Result r;
        r.backend = backend, r.workload = kWorkloads[w], r.draws = draws;
        results.push_back(r);
      }
  std::fflush(stdout);
  FILE *child = NOVEM_BENCH_POPEN(command.c_str(), "r");
  if (!child) {
    std::fprintf(stderr, "novem-bench: cannot run %s\n", command.c_str());
    return results;
  }
  char line[512];
  while (std::fgets(line, sizeof line, child)) {
    char name[64];
    Result r;
    Counters &c = r.counters;
    if (std::sscanf(line, "novem-bench-result %63s %d %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf",
                    name, &r.draws, &r.draws_per_s, &r.ns_per_call, &r.ns_per_draw, &r.median_ms, &r.p99_ms,
                    &c.created, &c.loaded, &c.barriers, &c.allocations, &c.waits, &c.api_draws, &c.switches,
                    &c.full_waits, &c.room_waits, &c.wakes, &r.cpu_ns_per_draw) != 18)
      continue;
    for (Result &slot : results)
      if (slot.workload == name && slot.draws == r.draws) {
        r.backend = backend, r.workload = name, r.ok = true;
        slot = r;
      }
  }
  int status = NOVEM_BENCH_PCLOSE(child);
  if (status != 0) std::fprintf(stderr, "novem-bench: the %s child exited with status %d\n", backend.c_str(), status);
  return results;
}

std::string draws_list(const Options &o) {
  std::string list;
  for (int draws : o.draws) list += (list.empty() ? "" : ",") + std::to_string(draws);
  return list;
}

std::string child_arguments(const Options &o) {
  return " --child --frames " + std::to_string(o.frames) + " --draws-per-frame " + draws_list(o) + " --workload " +
         o.workload;
}

std::vector<Result> run_backend(const std::string &self, const std::string &backend, const Options &o) {
  set_env("NOVEM_BACKEND", backend.c_str());
  return run_command(quote(self) + child_arguments(o), backend, o);
}

// Row by row (every run has the same rows in the same order), the run whose draws/s is the
// median (the lower of the two middle ones for an even count); a row that failed in any run fails.
std::vector<Result> median_rows(const std::vector<std::vector<Result>> &runs) {
  std::vector<Result> rows = runs.front();
  for (size_t i = 0; i < rows.size(); ++i) {
    std::vector<Result> column;
    for (const std::vector<Result> &run : runs) column.push_back(run[i]);
    if (std::any_of(column.begin(), column.end(), [](const Result &r) { return !r.ok; })) {
      rows[i].ok = false;
      continue;
    }
    std::sort(column.begin(), column.end(), [](const Result &a, const Result &b) { return a.draws_per_s < b.draws_per_s; });
    rows[i] = column[(column.size() - 1) / 2];
  }
  return rows;
}

const Result *find(const std::vector<Result> &all, const std::string &backend, const Result &like) {
  for (const Result &r : all)
    if (r.backend == backend && r.workload == like.workload && r.draws == like.draws && r.ok) return &r;
  return nullptr;
}

std::string counter(double v, const char *format = "%.0f") {
  char s[32];
  if (v < 0) return "-";
  std::snprintf(s, sizeof s, format, v);
  return s;
}

void print_row(const char *first, const Result &r) {
  if (!r.ok) {
    std::printf("| %s | %s | %d | failed | | | | | | | | | | | | | |\n", first, r.workload.c_str(), r.draws);
    return;
  }
  const Counters &c = r.counters;
  std::printf("| %s | %s | %d | %.0f | %.1f | %.1f | %.3f | %.3f | %s / %s | %s | %s | %s | %s | %s | %s / %s | %s | %s |\n",
              first, r.workload.c_str(), r.draws, r.draws_per_s, r.ns_per_call, r.ns_per_draw, r.median_ms, r.p99_ms,
              counter(c.created).c_str(), counter(c.loaded).c_str(), counter(c.barriers).c_str(),
              counter(c.allocations).c_str(), counter(c.waits).c_str(), counter(c.api_draws).c_str(),
              counter(c.switches, "%.1f").c_str(), counter(c.full_waits, "%.2f").c_str(),
              counter(c.room_waits, "%.2f").c_str(), counter(c.wakes, "%.1f").c_str(),
              counter(r.cpu_ns_per_draw, "%.1f").c_str());
}

const char *kHeader = "| %s | workload | draws/frame | draws/s | ns/call | ns/draw | frame median ms | frame p99 ms | "
                      "pipelines created / loaded | barriers | device allocations | waits on the worker | API draw "
                      "calls | context switches/frame | ring waits/frame: full / room | ring wake-ups/frame | CPU ns/draw |\n"
                      "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
                      "| ---: | ---: | ---: |\n";

void print_table(const std::vector<Result> &all, const Options &o) {
  std::printf("novem-bench: %d frames x %s draws per workload (+%d warm-up frames), %ux%u, one child per backend",
              o.frames, draws_list(o).c_str(), kWarmupFrames, kWidth, kHeight);
  if (o.repeat > 1) std::printf(", %d runs each: every row is the run of median draws/s", o.repeat);
  std::printf("\n\n");
  std::printf(kHeader, "backend");
  for (const Result &r : all) print_row(r.backend.c_str(), r);
  bool any_ratio = false;
  for (const Result &r : all) {
    const Result *null = find(all, "null", r);
    if (!r.ok || !null || r.backend == "null" || r.backend == "wined3d") continue;
    if (!any_ratio) {
      std::printf("\nratios vs the null backend (draws/s: backend / null; ns/call and frame median: backend / null)\n\n");
      std::printf("| backend | workload | draws/frame | draws/s | ns/call | frame median |\n"
                  "| --- | --- | ---: | ---: | ---: | ---: |\n");
      any_ratio = true;
    }
    std::printf("| %s | %s | %d | %.3f | %.2f | %.2f |\n", r.backend.c_str(), r.workload.c_str(), r.draws,
                r.draws_per_s / null->draws_per_s, r.ns_per_call / null->ns_per_call, r.median_ms / null->median_ms);
  }
  any_ratio = false;
  for (const Result &r : all) {
    const Result *wine = find(all, "wined3d", r);
    if (!r.ok || !wine || r.backend == "wined3d") continue;
    if (!any_ratio) {
      std::printf("\nNovem vs wined3d, same program, same machine, same run (draws/s: Novem / wined3d, higher is "
                  "better; app-thread ns/draw: wined3d / Novem, higher is better)\n\n");
      std::printf("| backend | workload | draws/frame | draws/s ratio | ns/draw ratio |\n"
                  "| --- | --- | ---: | ---: | ---: |\n");
      any_ratio = true;
    }
    std::printf("| %s | %s | %d | %.2f | %.2f |\n", r.backend.c_str(), r.workload.c_str(), r.draws,
                r.draws_per_s / wine->draws_per_s,
                wine->ns_per_draw / r.ns_per_draw);
  }
  std::printf("\nworkloads:");
  for (int w = 0; w < kWorkloadCount; ++w)
    std::printf(" %s = %s%s", kWorkloads[w], kWorkloadText[w], w + 1 < kWorkloadCount ? ";" : "\n");
}

// The ablation table: per plugin, every technique off, then turned on one at a time (each step
// keeps the ones before it), the last step being all on.
bool run_ablation(const std::string &self, const Options &o) {
  bool ok = true;
  std::printf("\nablation: %d frames x %s draws, each step a child of its own; speed-up = draws/s / all off\n", o.frames,
              draws_list(o).c_str());
  for (const char *plugin : {"vulkan", "opengl"}) {
    if (o.backend != "all" && o.backend != plugin) continue;
    const char *const *switches = std::string(plugin) == "vulkan" ? kVulkanSwitches : kOpenGLSwitches;
    std::printf("\n%s (switches:", plugin);
    for (int t = 0; t < 5; ++t) std::printf(" %s%s", switches[t], t < 4 ? "," : ")\n\n");
    std::printf(kHeader, "techniques on");
    std::vector<Result> off;
    for (int step = 0; step <= 5; ++step) {
      for (int t = 0; t < 5; ++t) set_env(switches[t], t < step ? "1" : "0");
      std::vector<Result> results = run_backend(self, plugin, o);
      std::string label = step == 0 ? "all off" : step == 5 ? "all on" : std::string("+ ") + kTechniques[step - 1];
      if (step == 0) off = results;
      for (size_t i = 0; i < results.size(); ++i) {
        print_row(label.c_str(), results[i]);
        ok = ok && results[i].ok;
      }
      for (size_t i = 0; step > 0 && i < results.size() && i < off.size(); ++i)
        if (results[i].ok && off[i].ok)
          std::printf("|  | speed-up vs all off (%s) | %d | %.2fx | | | | | | | | | | | | | |\n",
                      results[i].workload.c_str(), results[i].draws, results[i].draws_per_s / off[i].draws_per_s);
    }
    for (int t = 0; t < 5; ++t) set_env(switches[t], "1");
  }
  return ok;
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> const char * { return i + 1 < argc ? argv[++i] : nullptr; };
    if (arg == "--backend") {
      const char *v = value();
      if (!v) return usage("--backend needs a value");
      o.backend = v;
      bool known = o.backend == "all";
      for (const char *b : kBackends) known = known || o.backend == b;
      if (!known) return usage(("unknown backend " + o.backend).c_str());
    } else if (arg == "--frames") {
      const char *v = value();
      if (!v || (o.frames = std::atoi(v)) <= 0) return usage("--frames needs a positive number");
    } else if (arg == "--draws-per-frame") {
      const char *v = value();
      if (!v) return usage("--draws-per-frame needs positive numbers");
      o.draws.clear();
      for (const char *p = v; *p;) {
        char *end = nullptr;
        const long n = std::strtol(p, &end, 10);
        if (end == p || n <= 0 || n > 10000000 || (*end && *end != ',')) return usage("--draws-per-frame needs positive numbers, comma-separated");
        o.draws.push_back(int(n));
        p = *end ? end + 1 : end;
      }
    } else if (arg == "--workload") {
      const char *v = value();
      if (!v) return usage("--workload needs a value");
      o.workload = v;
      if (o.workload != "all" && workload_index(o.workload) < 0) return usage(("unknown workload " + o.workload).c_str());
    } else if (arg == "--repeat") {
      const char *v = value();
      if (!v || (o.repeat = std::atoi(v)) <= 0) return usage("--repeat needs a positive number");
    } else if (arg == "--ablation") {
      o.ablation = true;
    } else if (arg == "--wined3d") {
      const char *v = value();
      if (!v) return usage("--wined3d needs a command");
      o.wined3d = v;
    } else if (arg == "--child") {
      o.child = true;
    } else if (arg == "--help" || arg == "-h") {
      usage("D3D9 draw-call throughput and application-thread cost per workload and backend");
      return 0;
    } else {
      return usage(("unknown argument " + arg).c_str());
    }
  }
  if (o.child) return run_child(o);

  std::string self = self_path(argv[0]);
  // Every backend in turn, `repeat` times over, so that the machine's drift falls on all of them.
  std::vector<std::vector<Result>> runs(size_t(o.repeat));
  for (std::vector<Result> &all : runs) {
    for (const char *b : kBackends)
      if (o.backend == "all" || o.backend == b) {
        std::vector<Result> r = run_backend(self, b, o);
        all.insert(all.end(), r.begin(), r.end());
      }
    if (!o.wined3d.empty()) {
      std::vector<Result> r = run_command(o.wined3d + child_arguments(o), "wined3d", o);
      all.insert(all.end(), r.begin(), r.end());
    }
  }
  const std::vector<Result> all = median_rows(runs);
  print_table(all, o);
  bool ok = true;
  for (const Result &r : all) ok = ok && r.ok;
  if (o.ablation) ok = run_ablation(self, o) && ok;
  return ok ? 0 : 1;
}
