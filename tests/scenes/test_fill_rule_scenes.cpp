// D3D9's filling convention on every backend: a pixel is drawn when its centre (integer
// coordinates in D3D9) lies inside a triangle, or exactly on a top edge (horizontal, the triangle
// below it) or a left edge (the triangle to its right) — "Rasterization Rules (Direct3D 9)".
// Triangles sharing edges that run through pixel centres (horizontal, vertical, and slopes of
// 1/2, 1 and 2) are drawn in 8 x 8 tiles, each tile its own viewport, through pre-transformed
// vertices, fixed-function transformed vertices and a vs_1_1 shader, on render targets of two
// sizes; each tile's pixels are compared with the rule evaluated exactly here. The same
// geometry nudged by 1/64 pixel each way shows that sub-pixel positions are kept.
#include <catch2/catch.hpp>

#include <array>
#include <optional>
#include <sstream>
#include <vector>

#include "scene_harness.hpp"

using namespace scenes;

namespace {

constexpr int kTile = 8;

struct Point {
  double x, y;
};
using Triangle = std::array<Point, 3>;

// Shapes in a tile's pixel coordinates (centres at integers), every vertex on a pixel centre.
struct Shape {
  const char *name;
  std::vector<Triangle> triangles;
};

const std::vector<Shape> &shapes() {
  static const std::vector<Shape> s = {
      // A square cut into four triangles meeting at its centre: horizontal, vertical and
      // slope +-1 edges through centres.
      {"square fan", {{{{1, 1}, {5, 1}, {3, 3}}}, {{{5, 1}, {5, 5}, {3, 3}}}, {{{5, 5}, {1, 5}, {3, 3}}},
                      {{{1, 5}, {1, 1}, {3, 3}}}}},
      // Two triangles sharing a slope-1/2 diagonal through centres: a right edge of the lower
      // one, a left edge of the upper one.
      {"shallow pair", {{{{0, 0}, {6, 0}, {6, 3}}}, {{{0, 0}, {6, 3}, {0, 3}}}}},
      // Slope 2, the other way round.
      {"steep pair", {{{{1, 0}, {4, 6}, {1, 6}}}, {{{1, 0}, {4, 0}, {4, 6}}}}},
      // A diamond of four triangles around (3, 3) with slopes 2 and 1/2.
      {"diamond", {{{{3, 0}, {4, 2}, {3, 3}}}, {{{4, 2}, {6, 3}, {3, 3}}}, {{{6, 3}, {4, 4}, {3, 3}}},
                   {{{4, 4}, {3, 6}, {3, 3}}}, {{{3, 6}, {2, 4}, {3, 3}}}, {{{2, 4}, {0, 3}, {3, 3}}},
                   {{{0, 3}, {2, 2}, {3, 3}}}, {{{2, 2}, {3, 0}, {3, 3}}}}},
  };
  return s;
}

// Offsets applied to a shape: none (ties everywhere), 1/64 pixel each way (no ties; the
// rasterisers keep 1/256), and half a pixel (edges between centres).
constexpr double kNudge = 1.0 / 64.0;
constexpr Point kOffsets[] = {{0, 0}, {kNudge, 0}, {-kNudge, 0}, {0, kNudge}, {0, -kNudge}, {0.5, 0.5}};

constexpr D3DCOLOR kClear = 0xff202020;
constexpr D3DCOLOR kColours[] = {0xffff0000, 0xff00ff00, 0xff0000ff, 0xffffff00,
                                 0xffff00ff, 0xff00ffff, 0xffffffff, 0xff808000};

// D3D9's rule: inside every edge, or on an edge that is a top or a left one.
bool covers(const Triangle &t, double px, double py) {
  const double area = (t[1].x - t[0].x) * (t[2].y - t[0].y) - (t[1].y - t[0].y) * (t[2].x - t[0].x);
  if (area == 0) return false;
  for (int i = 0; i < 3; ++i) {
    const Point &a = t[i], &b = t[(i + 1) % 3];
    // The edge's normal, pointing into the triangle (y grows downwards).
    double nx = -(b.y - a.y), ny = b.x - a.x;
    if (area < 0) nx = -nx, ny = -ny;
    const double e = nx * (px - a.x) + ny * (py - a.y);
    if (e < 0) return false;
    const bool top = ny > 0 && nx == 0; // horizontal, interior below
    const bool left = nx > 0;           // interior to the right
    if (e == 0 && !top && !left) return false;
  }
  return true;
}

struct Tile {
  const Shape *shape;
  Point offset;
};

std::vector<Tile> tiles() {
  std::vector<Tile> out;
  for (const Shape &s : shapes())
    for (const Point &o : kOffsets) out.push_back({&s, o});
  return out;
}

enum class Path { kPretransformed, kFixedFunction, kVertexShader };

struct Layout {
  UINT width, height; // the back buffer; tiles fill it row by row
};

// The tile's expected colours: the last triangle drawn that covers each centre.
std::array<D3DCOLOR, kTile * kTile> expected(const Tile &tile) {
  std::array<D3DCOLOR, kTile * kTile> out;
  out.fill(kClear);
  for (size_t i = 0; i < tile.shape->triangles.size(); ++i) {
    Triangle t = tile.shape->triangles[i];
    for (Point &p : t) p.x += tile.offset.x, p.y += tile.offset.y;
    for (int y = 0; y < kTile; ++y)
      for (int x = 0; x < kTile; ++x)
        if (covers(t, x, y)) out[size_t(y * kTile + x)] = kColours[i];
  }
  return out;
}

char letter(D3DCOLOR c) {
  if (c == kClear) return '.';
  for (size_t i = 0; i < std::size(kColours); ++i)
    if ((c & 0xffffff) == (kColours[i] & 0xffffff)) return char('a' + i);
  return '?';
}

void draw_tiles(IDirect3DDevice9 *dev, Path path, const Layout &layout) {
  HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kClear, 1.0f, 0));
  HR(dev->SetRenderState(D3DRS_LIGHTING, FALSE));
  HR(dev->SetRenderState(D3DRS_CULLMODE, D3DCULL_NONE));
  const D3DVERTEXELEMENT9 elements[] = {
      {0, 0, D3DDECLTYPE_FLOAT3, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
      {0, 12, D3DDECLTYPE_D3DCOLOR, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_COLOR, 0},
      D3DDECL_END()};
  std::optional<ShaderSet> shaders;
  if (path == Path::kVertexShader) shaders.emplace(dev, "vs11_pass_color", "", elements);
  const UINT columns = layout.width / kTile;
  const std::vector<Tile> all = tiles();
  for (size_t n = 0; n < all.size(); ++n) {
    const DWORD tx = DWORD(n % columns) * kTile, ty = DWORD(n / columns) * kTile;
    D3DVIEWPORT9 vp{tx, ty, kTile, kTile, 0.0f, 1.0f};
    HR(dev->SetViewport(&vp));
    const Tile &tile = all[n];
    for (size_t i = 0; i < tile.shape->triangles.size(); ++i) {
      const Triangle &t = tile.shape->triangles[i];
      if (path == Path::kPretransformed) {
        TLVertex v[3];
        for (int k = 0; k < 3; ++k)
          v[k] = {float(t[k].x + tile.offset.x + tx), float(t[k].y + tile.offset.y + ty), 0.5f, 1.0f, kColours[i]};
        HR(dev->SetFVF(kTLVertexFVF));
        HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLELIST, 1, v, sizeof v[0]));
      } else {
        // Viewport-relative pixels to clip space: x = 2 px / 8 - 1, y = 1 - 2 py / 8 (exact).
        ColorVertex v[3];
        for (int k = 0; k < 3; ++k)
          v[k] = {float(2.0 * (t[k].x + tile.offset.x) / kTile - 1.0), float(1.0 - 2.0 * (t[k].y + tile.offset.y) / kTile),
                  0.5f, kColours[i]};
        if (path == Path::kFixedFunction) HR(dev->SetFVF(kColorVertexFVF));
        HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLELIST, 1, v, sizeof v[0]));
      }
    }
  }
  if (shaders) shaders->release(dev);
}

} // namespace

TEST_CASE("Triangles follow D3D9's top-left filling convention", "[scenes][fill_rule]") {
  struct Case {
    const char *name;
    Path path;
  };
  const Case paths[] = {{"pre-transformed", Path::kPretransformed},
                        {"fixed-function", Path::kFixedFunction},
                        {"vs_1_1", Path::kVertexShader}};
  const Layout layouts[] = {{64, 32}, {40, 48}};
  const std::vector<Tile> all = tiles();
  for (const Case &c : paths)
    for (const Layout &layout : layouts)
      for (const std::string &backend : available_backends()) {
        SceneSetup setup;
        setup.width = layout.width, setup.height = layout.height;
        const novem::image::Image image =
            render(backend, setup, [&](IDirect3DDevice9 *dev) { draw_tiles(dev, c.path, layout); });
        const UINT columns = layout.width / kTile;
        for (size_t n = 0; n < all.size(); ++n) {
          const UINT tx = UINT(n % columns) * kTile, ty = UINT(n / columns) * kTile;
          const auto want = expected(all[n]);
          std::ostringstream got_map, want_map;
          for (int y = 0; y < kTile; ++y) {
            for (int x = 0; x < kTile; ++x) {
              const uint8_t *p = image.at(tx + UINT(x), ty + UINT(y));
              got_map << letter(D3DCOLOR(0xff000000u | p[0] << 16 | p[1] << 8 | p[2]));
              want_map << letter(want[size_t(y * kTile + x)]);
            }
            got_map << '\n', want_map << '\n';
          }
          INFO(backend << ", " << c.name << ", " << layout.width << "x" << layout.height << ", " << all[n].shape->name
                       << " moved by (" << all[n].offset.x << ", " << all[n].offset.y << ")\nexpected:\n"
                       << want_map.str() << "got:\n"
                       << got_map.str());
          CHECK(got_map.str() == want_map.str());
        }
      }
}
