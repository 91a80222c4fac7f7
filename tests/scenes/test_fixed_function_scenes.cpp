// The fixed-function pipeline drawn on every backend: texture stages (operations, arguments,
// TFACTOR, per-stage constants, the temporary register, several textures), lighting (directional,
// point and spot lights, material sources, specular), vertex and table fog, the alpha test,
// texture coordinate generation and transforms, user clip planes, vertex blending, point sprites
// and flat shading. Pixels are probed against the values D3D9's formulas give, computed here.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <string>

#include "scene_harness.hpp"

using namespace scenes;

namespace {

DWORD fbits(float f) { return std::bit_cast<DWORD>(f); }

struct Color {
  float r, g, b, a;
};
Color from_d3d(D3DCOLOR c) {
  return {float((c >> 16) & 0xff) / 255.0f, float((c >> 8) & 0xff) / 255.0f, float(c & 0xff) / 255.0f,
          float(c >> 24) / 255.0f};
}
float sat(float x) { return std::min(std::max(x, 0.0f), 1.0f); }
D3DCOLOR to_d3d(Color c) {
  auto q = [](float x) { return DWORD(std::lround(sat(x) * 255.0f)); };
  return D3DCOLOR(q(c.a) << 24 | q(c.r) << 16 | q(c.g) << 8 | q(c.b));
}

// Pre-transformed vertices with both colours and two texture coordinate sets.
struct TLTex {
  float x, y, z, rhw;
  D3DCOLOR diffuse, specular;
  float u0, v0, u1, v1;
};
constexpr DWORD kTLTexFVF = D3DFVF_XYZRHW | D3DFVF_DIFFUSE | D3DFVF_SPECULAR | D3DFVF_TEX2;

// A pre-transformed quad over pixels [x0, x1) x [y0, y1) with coordinates 0..1 in both sets.
void tl_quad(IDirect3DDevice9 *dev, float x0, float y0, float x1, float y1, D3DCOLOR diffuse, D3DCOLOR specular = 0) {
  TLTex v[4] = {{x0, y0, 0.5f, 1, diffuse, specular, 0, 0, 0, 0},
                {x1, y0, 0.5f, 1, diffuse, specular, 1, 0, 1, 0},
                {x0, y1, 0.5f, 1, diffuse, specular, 0, 1, 0, 1},
                {x1, y1, 0.5f, 1, diffuse, specular, 1, 1, 1, 1}};
  HR(dev->SetFVF(kTLTexFVF));
  HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(TLTex)));
}

void set_stage(IDirect3DDevice9 *dev, DWORD stage, DWORD op, DWORD a1, DWORD a2, DWORD aop, DWORD aa1, DWORD aa2) {
  HR(dev->SetTextureStageState(stage, D3DTSS_COLOROP, op));
  HR(dev->SetTextureStageState(stage, D3DTSS_COLORARG1, a1));
  HR(dev->SetTextureStageState(stage, D3DTSS_COLORARG2, a2));
  HR(dev->SetTextureStageState(stage, D3DTSS_ALPHAOP, aop));
  HR(dev->SetTextureStageState(stage, D3DTSS_ALPHAARG1, aa1));
  HR(dev->SetTextureStageState(stage, D3DTSS_ALPHAARG2, aa2));
}

void identity(D3DMATRIX &m) {
  std::memset(&m, 0, sizeof m);
  m._11 = m._22 = m._33 = m._44 = 1.0f;
}

// Untransformed vertices with a normal and a diffuse colour.
struct LitVertex {
  float x, y, z;
  float nx, ny, nz;
  D3DCOLOR diffuse;
};
constexpr DWORD kLitFVF = D3DFVF_XYZ | D3DFVF_NORMAL | D3DFVF_DIFFUSE;

// A quad in the plane z (identity transforms: x, y in clip space), facing -z.
void lit_quad(IDirect3DDevice9 *dev, float x0, float y0, float x1, float y1, float z, D3DCOLOR diffuse) {
  LitVertex v[4] = {{x0, y1, z, 0, 0, -1, diffuse}, {x1, y1, z, 0, 0, -1, diffuse},
                    {x0, y0, z, 0, 0, -1, diffuse}, {x1, y0, z, 0, 0, -1, diffuse}};
  HR(dev->SetFVF(kLitFVF));
  HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(LitVertex)));
}

constexpr D3DCOLOR kClear = 0xff102030;

} // namespace

TEST_CASE("scene: fixed-function texture stages, operations, arguments, TFACTOR, TEMP and CONSTANT", "[scene][ff]") {
  const D3DCOLOR tex_color = 0x40c08020, diffuse = 0xff6090f0, specular = 0xff302010, tfactor = 0x80405060,
                 constant = 0xffa0a0a0;
  const Color t = from_d3d(tex_color), d = from_d3d(diffuse), s = from_d3d(specular), f = from_d3d(tfactor),
              k = from_d3d(constant);
  auto images = render_all("ff_stages", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kClear, 1.0f, 0));
    IDirect3DTexture9 *tex = filled_texture(dev, 4, [&](UINT, UINT) { return tex_color; });
    HR(dev->SetTexture(0, tex));
    HR(dev->SetRenderState(D3DRS_TEXTUREFACTOR, tfactor));
    // (0, 0): ADDSIGNED texture + diffuse.
    set_stage(dev, 0, D3DTOP_ADDSIGNED, D3DTA_TEXTURE, D3DTA_DIFFUSE, D3DTOP_SELECTARG1, D3DTA_TEXTURE, D3DTA_DIFFUSE);
    tl_quad(dev, 0, 0, 16, 16, diffuse);
    // (16, 0): MODULATE2X texture * TFACTOR into TEMP, then LERP(TFACTOR alpha, TEMP, diffuse).
    set_stage(dev, 0, D3DTOP_MODULATE2X, D3DTA_TEXTURE, D3DTA_TFACTOR, D3DTOP_SELECTARG1, D3DTA_TEXTURE, D3DTA_DIFFUSE);
    HR(dev->SetTextureStageState(0, D3DTSS_RESULTARG, D3DTA_TEMP));
    set_stage(dev, 1, D3DTOP_LERP, D3DTA_TEMP, D3DTA_DIFFUSE, D3DTOP_SELECTARG1, D3DTA_CURRENT, D3DTA_DIFFUSE);
    HR(dev->SetTextureStageState(1, D3DTSS_COLORARG0, D3DTA_TFACTOR | D3DTA_ALPHAREPLICATE));
    tl_quad(dev, 16, 0, 32, 16, diffuse);
    HR(dev->SetTextureStageState(0, D3DTSS_RESULTARG, D3DTA_CURRENT));
    set_stage(dev, 1, D3DTOP_DISABLE, D3DTA_TEXTURE, D3DTA_CURRENT, D3DTOP_DISABLE, D3DTA_TEXTURE, D3DTA_CURRENT);
    // (32, 0): DOTPRODUCT3 texture . TFACTOR.
    set_stage(dev, 0, D3DTOP_DOTPRODUCT3, D3DTA_TEXTURE, D3DTA_TFACTOR, D3DTOP_SELECTARG1, D3DTA_TEXTURE, D3DTA_DIFFUSE);
    tl_quad(dev, 32, 0, 48, 16, diffuse);
    // (48, 0): BLENDTEXTUREALPHA texture / diffuse.
    set_stage(dev, 0, D3DTOP_BLENDTEXTUREALPHA, D3DTA_TEXTURE, D3DTA_DIFFUSE, D3DTOP_SELECTARG1, D3DTA_TEXTURE, D3DTA_DIFFUSE);
    tl_quad(dev, 48, 0, 64, 16, diffuse);
    // (0, 16): SUBTRACT CONSTANT - complement(texture), then stage 1 ADD specular.
    set_stage(dev, 0, D3DTOP_SUBTRACT, D3DTA_CONSTANT, D3DTA_TEXTURE | D3DTA_COMPLEMENT, D3DTOP_SELECTARG1, D3DTA_TEXTURE, D3DTA_DIFFUSE);
    HR(dev->SetTextureStageState(0, D3DTSS_CONSTANT, constant));
    set_stage(dev, 1, D3DTOP_ADD, D3DTA_CURRENT, D3DTA_SPECULAR, D3DTOP_SELECTARG1, D3DTA_CURRENT, D3DTA_DIFFUSE);
    tl_quad(dev, 0, 16, 16, 32, diffuse, specular);
    set_stage(dev, 1, D3DTOP_DISABLE, D3DTA_TEXTURE, D3DTA_CURRENT, D3DTOP_DISABLE, D3DTA_TEXTURE, D3DTA_CURRENT);
    // (16, 16): MODULATEALPHA_ADDCOLOR texture + texture.a * diffuse.
    set_stage(dev, 0, D3DTOP_MODULATEALPHA_ADDCOLOR, D3DTA_TEXTURE, D3DTA_DIFFUSE, D3DTOP_SELECTARG1, D3DTA_TEXTURE, D3DTA_DIFFUSE);
    tl_quad(dev, 16, 16, 32, 32, diffuse);
    // (32, 16): ADDSMOOTH diffuse + TFACTOR.
    set_stage(dev, 0, D3DTOP_ADDSMOOTH, D3DTA_DIFFUSE, D3DTA_TFACTOR, D3DTOP_SELECTARG1, D3DTA_TEXTURE, D3DTA_DIFFUSE);
    tl_quad(dev, 32, 16, 48, 32, diffuse);
    // (48, 16): COLOROP DISABLE on stage 0: the diffuse colour.
    set_stage(dev, 0, D3DTOP_DISABLE, D3DTA_TEXTURE, D3DTA_DIFFUSE, D3DTOP_DISABLE, D3DTA_TEXTURE, D3DTA_DIFFUSE);
    tl_quad(dev, 48, 16, 64, 32, diffuse);
    set_stage(dev, 0, D3DTOP_MODULATE, D3DTA_TEXTURE, D3DTA_CURRENT, D3DTOP_SELECTARG1, D3DTA_TEXTURE, D3DTA_CURRENT);
    HR(dev->SetTexture(0, nullptr));
    CHECK(tex->Release() == 0);
  }, 2);
  auto mix = [](float a, float x, float y) { return x * a + y * (1 - a); };
  const Color addsigned{t.r + d.r - 0.5f, t.g + d.g - 0.5f, t.b + d.b - 0.5f, 1};
  const Color temp{sat(2 * t.r * f.r), sat(2 * t.g * f.g), sat(2 * t.b * f.b), 1};
  const Color lerp{mix(f.a, temp.r, d.r), mix(f.a, temp.g, d.g), mix(f.a, temp.b, d.b), 1};
  const float dp3 = 4 * ((t.r - 0.5f) * (f.r - 0.5f) + (t.g - 0.5f) * (f.g - 0.5f) + (t.b - 0.5f) * (f.b - 0.5f));
  const Color blend{mix(t.a, t.r, d.r), mix(t.a, t.g, d.g), mix(t.a, t.b, d.b), 1};
  const Color sub{sat(k.r - (1 - t.r)) + s.r, sat(k.g - (1 - t.g)) + s.g, sat(k.b - (1 - t.b)) + s.b, 1};
  const Color mad{t.r + t.a * d.r, t.g + t.a * d.g, t.b + t.a * d.b, 1};
  const Color smooth{d.r + f.r - d.r * f.r, d.g + f.g - d.g * f.g, d.b + f.b - d.b * f.b, 1};
  probe(images, {{8, 8, to_d3d(addsigned), 2},
                 {24, 8, to_d3d(lerp), 2},
                 {40, 8, to_d3d({dp3, dp3, dp3, 1}), 2},
                 {56, 8, to_d3d(blend), 2},
                 {8, 24, to_d3d(sub), 2},
                 {24, 24, to_d3d(mad), 2},
                 {40, 24, to_d3d(smooth), 2},
                 {56, 24, diffuse, 1}});
}

TEST_CASE("scene: fixed-function stages with two textures and TEXCOORDINDEX", "[scene][ff]") {
  auto tex0_texel = [](UINT i, UINT j) { return D3DCOLOR(0xff000000u | (i * 60 + 20) << 16 | (j * 60 + 20) << 8); };
  auto tex1_texel = [](UINT i, UINT j) { return D3DCOLOR(0xff000000u | (j * 40 + 10)); (void)i; };
  auto images = render_all("ff_two_textures", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kClear, 1.0f, 0));
    IDirect3DTexture9 *t0 = filled_texture(dev, 4, tex0_texel);
    IDirect3DTexture9 *t1 = filled_texture(dev, 4, tex1_texel);
    HR(dev->SetTexture(0, t0));
    HR(dev->SetTexture(1, t1));
    // Stage 0: texture; stage 1: + texture 1, which reads coordinate set 0 transposed? No: set 1
    // is drawn with (u, v) = (0..1, 0..1) like set 0; TEXCOORDINDEX 0 on stage 1 reads set 0.
    set_stage(dev, 0, D3DTOP_SELECTARG1, D3DTA_TEXTURE, D3DTA_DIFFUSE, D3DTOP_SELECTARG1, D3DTA_TEXTURE, D3DTA_DIFFUSE);
    set_stage(dev, 1, D3DTOP_ADD, D3DTA_TEXTURE, D3DTA_CURRENT, D3DTOP_SELECTARG1, D3DTA_CURRENT, D3DTA_DIFFUSE);
    HR(dev->SetTextureStageState(1, D3DTSS_TEXCOORDINDEX, 0));
    tl_quad(dev, 0, 0, 64, 64, 0xffffffff);
    set_stage(dev, 1, D3DTOP_DISABLE, D3DTA_TEXTURE, D3DTA_CURRENT, D3DTOP_DISABLE, D3DTA_TEXTURE, D3DTA_CURRENT);
    HR(dev->SetTextureStageState(1, D3DTSS_TEXCOORDINDEX, 1));
    set_stage(dev, 0, D3DTOP_MODULATE, D3DTA_TEXTURE, D3DTA_CURRENT, D3DTOP_SELECTARG1, D3DTA_TEXTURE, D3DTA_CURRENT);
    HR(dev->SetTexture(0, nullptr));
    HR(dev->SetTexture(1, nullptr));
    CHECK(t0->Release() == 0);
    CHECK(t1->Release() == 0);
  }, 1);
  for (const auto &r : images)
    for (UINT j = 0; j < 4; ++j)
      for (UINT i = 0; i < 4; ++i) probe(r, i * 16 + 8, j * 16 + 8, tex0_texel(i, j) | (tex1_texel(i, j) & 0xff), 1);
}

namespace {

// Lighting scene: identity world, view and projection; the quad at z = 0.5 faces -z.
struct LightCase {
  D3DLIGHT9 light;
  bool specular;
};

Color reference_light(const D3DMATERIAL9 &m, D3DCOLOR ambient_rs, const D3DLIGHT9 &l, float vx, float vy, float vz,
                      bool specular_on, Color *specular_out, const Color *vertex_diffuse) {
  // N = (0, 0, -1); view space = world space.
  const float nx = 0, ny = 0, nz = -1;
  float Lx, Ly, Lz, atten = 1, spot = 1;
  if (l.Type == D3DLIGHT_DIRECTIONAL) {
    const float len = std::sqrt(l.Direction.x * l.Direction.x + l.Direction.y * l.Direction.y + l.Direction.z * l.Direction.z);
    Lx = -l.Direction.x / len, Ly = -l.Direction.y / len, Lz = -l.Direction.z / len;
  } else {
    Lx = l.Position.x - vx, Ly = l.Position.y - vy, Lz = l.Position.z - vz;
    const float dist = std::sqrt(Lx * Lx + Ly * Ly + Lz * Lz);
    Lx /= dist, Ly /= dist, Lz /= dist;
    atten = dist > l.Range ? 0.0f : 1.0f / (l.Attenuation0 + l.Attenuation1 * dist + l.Attenuation2 * dist * dist);
    if (l.Type == D3DLIGHT_SPOT) {
      const float len = std::sqrt(l.Direction.x * l.Direction.x + l.Direction.y * l.Direction.y + l.Direction.z * l.Direction.z);
      const float rho = -(l.Direction.x * Lx + l.Direction.y * Ly + l.Direction.z * Lz) / len;
      const float ct = std::cos(l.Theta / 2), cp = std::cos(l.Phi / 2);
      spot = rho > ct ? 1.0f : rho <= cp ? 0.0f : std::pow((rho - cp) / (ct - cp), l.Falloff);
    }
  }
  const float ndl = nx * Lx + ny * Ly + nz * Lz;
  const Color ga = from_d3d(ambient_rs);
  const Color cd = vertex_diffuse ? *vertex_diffuse : Color{m.Diffuse.r, m.Diffuse.g, m.Diffuse.b, m.Diffuse.a};
  const float k = atten * spot;
  Color out{m.Emissive.r + m.Ambient.r * (ga.r + l.Ambient.r * k) + cd.r * l.Diffuse.r * std::max(ndl, 0.0f) * k,
            m.Emissive.g + m.Ambient.g * (ga.g + l.Ambient.g * k) + cd.g * l.Diffuse.g * std::max(ndl, 0.0f) * k,
            m.Emissive.b + m.Ambient.b * (ga.b + l.Ambient.b * k) + cd.b * l.Diffuse.b * std::max(ndl, 0.0f) * k, cd.a};
  if (specular_out) {
    *specular_out = {0, 0, 0, 0};
    if (specular_on && ndl > 0) {
      // Local viewer: V = normalize(-position).
      const float vl = std::sqrt(vx * vx + vy * vy + vz * vz);
      float hx = Lx - vx / vl, hy = Ly - vy / vl, hz = Lz - vz / vl;
      const float hl = std::sqrt(hx * hx + hy * hy + hz * hz);
      hx /= hl, hy /= hl, hz /= hl;
      const float p = std::pow(std::max(nx * hx + ny * hy + nz * hz, 0.0f), m.Power) * k;
      *specular_out = {m.Specular.r * l.Specular.r * p, m.Specular.g * l.Specular.g * p, m.Specular.b * l.Specular.b * p, 0};
    }
  }
  return out;
}

} // namespace

TEST_CASE("scene: fixed-function lighting: directional, point and spot lights, material sources, specular", "[scene][ff]") {
  D3DMATERIAL9 material{};
  material.Diffuse = {0.8f, 0.6f, 0.4f, 1.0f};
  material.Ambient = {0.5f, 0.5f, 0.5f, 1.0f};
  material.Specular = {0.6f, 0.6f, 0.6f, 1.0f};
  material.Emissive = {0.05f, 0.0f, 0.1f, 0.0f};
  material.Power = 4.0f;
  const D3DCOLOR ambient = 0x00202020;
  D3DLIGHT9 dir{};
  dir.Type = D3DLIGHT_DIRECTIONAL;
  dir.Diffuse = {0.7f, 0.7f, 0.7f, 1};
  dir.Ambient = {0.1f, 0.1f, 0.1f, 1};
  dir.Direction = {0.3f, 0.0f, 1.0f};
  D3DLIGHT9 point{};
  point.Type = D3DLIGHT_POINT;
  point.Diffuse = {0.9f, 0.5f, 0.2f, 1};
  point.Specular = {1, 1, 1, 1};
  point.Position = {0, 0, -1};
  point.Range = 10;
  point.Attenuation0 = 0.5f, point.Attenuation1 = 0.25f;
  D3DLIGHT9 spot = point;
  spot.Type = D3DLIGHT_SPOT;
  spot.Direction = {0, 0, 1};
  spot.Theta = 0.2f, spot.Phi = 0.8f, spot.Falloff = 1.0f;
  // The quad's corners are what the vertices see; symmetric quads give every vertex the same
  // colour, so that the interpolated colour is that colour.
  const float h = 0.25f;   // half size of each quad (in clip units)
  auto images = render_all("ff_lighting", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kClear, 1.0f, 0));
    HR(dev->SetMaterial(&material));
    HR(dev->SetRenderState(D3DRS_AMBIENT, ambient));
    HR(dev->SetRenderState(D3DRS_DIFFUSEMATERIALSOURCE, D3DMCS_MATERIAL));
    HR(dev->SetRenderState(D3DRS_SPECULARMATERIALSOURCE, D3DMCS_MATERIAL));
    // Directional (top left quadrant), centred on (-0.5, 0.5).
    HR(dev->SetLight(0, &dir));
    HR(dev->LightEnable(0, TRUE));
    D3DMATRIX world;
    identity(world);
    world._41 = -0.5f, world._42 = 0.5f;
    HR(dev->SetTransform(D3DTS_WORLD, &world));
    lit_quad(dev, -h, -h, h, h, 0.5f, 0xffffffff);
    HR(dev->LightEnable(0, FALSE));
    // Point light with specular, local viewer (top right): light and quad both centred on the axis
    // through the quad's centre, so the world matrix moves both.
    identity(world);
    HR(dev->SetTransform(D3DTS_WORLD, &world));
    D3DLIGHT9 p = point;
    p.Position.x = 0.5f, p.Position.y = 0.5f;
    HR(dev->SetLight(1, &p));
    HR(dev->LightEnable(1, TRUE));
    HR(dev->SetRenderState(D3DRS_SPECULARENABLE, TRUE));
    lit_quad(dev, 0.5f - h, 0.5f - h, 0.5f + h, 0.5f + h, 0.5f, 0xffffffff);
    HR(dev->SetRenderState(D3DRS_SPECULARENABLE, FALSE));
    HR(dev->LightEnable(1, FALSE));
    // Spot light (bottom left), diffuse from the vertex colour (DIFFUSEMATERIALSOURCE COLOR1).
    D3DLIGHT9 s = spot;
    s.Position.x = -0.5f, s.Position.y = -0.5f;
    HR(dev->SetLight(2, &s));
    HR(dev->LightEnable(2, TRUE));
    HR(dev->SetRenderState(D3DRS_DIFFUSEMATERIALSOURCE, D3DMCS_COLOR1));
    lit_quad(dev, -0.5f - h, -0.5f - h, -0.5f + h, -0.5f + h, 0.5f, 0xff40c080);
    HR(dev->LightEnable(2, FALSE));
  }, 2);
  // The probe is the quad's centre, the middle of the diagonal the two triangles share: the
  // average of the colours of the corners (cx + h, cy + h) and (cx - h, cy - h). (Diffuse is the
  // same at every corner by symmetry; the local viewer's specular is not.)
  auto at = [&](const D3DLIGHT9 &l, float cx, float cy, bool spec, const Color *vd) {
    Color s1{}, s2{};
    Color c = reference_light(material, ambient, l, cx + h, cy + h, 0.5f, spec, &s1, vd);
    reference_light(material, ambient, l, cx - h, cy - h, 0.5f, spec, &s2, vd);
    c.r = sat(c.r), c.g = sat(c.g), c.b = sat(c.b);
    if (spec) c = {c.r + (sat(s1.r) + sat(s2.r)) / 2, c.g + (sat(s1.g) + sat(s2.g)) / 2, c.b + (sat(s1.b) + sat(s2.b)) / 2, 1};
    return to_d3d(c);
  };
  D3DLIGHT9 p = point;
  p.Position.x = 0.5f, p.Position.y = 0.5f;
  D3DLIGHT9 s = spot;
  s.Position.x = -0.5f, s.Position.y = -0.5f;
  const Color vd = from_d3d(0xff40c080);
  // A light seen from a corner: the same for every corner by symmetry (directional: everywhere).
  const D3DCOLOR want_dir = at(dir, -0.5f, 0.5f, false, nullptr);
  const D3DCOLOR want_point = at(p, 0.5f, 0.5f, true, nullptr);
  const D3DCOLOR want_spot = at(s, -0.5f, -0.5f, false, &vd);
  probe(images, {{16, 16, want_dir, 2},
                 {48, 16, want_point, 2},
                 {16, 48, want_spot, 2},
                 {48, 48, kClear, 0}});
}

TEST_CASE("scene: fixed-function fog: vertex, table (z and w), exp, exp2 and from the specular alpha", "[scene][ff]") {
  const D3DCOLOR fog_color = 0xff2080ff, diffuse = 0xffe0c040;
  const Color fc = from_d3d(fog_color), dc = from_d3d(diffuse);
  const float start = 0.2f, end = 0.9f, density = 0.3f;
  auto fogged = [&](float f) {
    f = sat(f);
    return to_d3d({f * dc.r + (1 - f) * fc.r, f * dc.g + (1 - f) * fc.g, f * dc.b + (1 - f) * fc.b, 1});
  };
  auto images = render_all("ff_fog", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kClear, 1.0f, 0));
    HR(dev->SetRenderState(D3DRS_LIGHTING, FALSE));
    HR(dev->SetRenderState(D3DRS_FOGENABLE, TRUE));
    HR(dev->SetRenderState(D3DRS_FOGCOLOR, fog_color));
    HR(dev->SetRenderState(D3DRS_FOGSTART, fbits(start)));
    HR(dev->SetRenderState(D3DRS_FOGEND, fbits(end)));
    HR(dev->SetRenderState(D3DRS_FOGDENSITY, fbits(density)));
    // Vertex fog, linear, at view depth 0.5 (identity transforms): top left.
    HR(dev->SetRenderState(D3DRS_FOGVERTEXMODE, D3DFOG_LINEAR));
    lit_quad(dev, -1, 0, 0, 1, 0.5f, diffuse);
    // Vertex fog, EXP2: top right.
    HR(dev->SetRenderState(D3DRS_FOGVERTEXMODE, D3DFOG_EXP2));
    lit_quad(dev, 0, 0, 1, 1, 0.5f, diffuse);
    HR(dev->SetRenderState(D3DRS_FOGVERTEXMODE, D3DFOG_NONE));
    // Table fog, linear, z-based (an affine projection): depth 0.7; bottom left.
    HR(dev->SetRenderState(D3DRS_FOGTABLEMODE, D3DFOG_LINEAR));
    lit_quad(dev, -1, -1, 0, 0, 0.7f, diffuse);
    // Table fog, EXP, w-based: a perspective projection with the quad at eye depth 4; bottom right
    // quarter of the target.
    HR(dev->SetRenderState(D3DRS_FOGTABLEMODE, D3DFOG_EXP));
    D3DMATRIX proj{};
    const float zn = 1, zf = 10;
    proj._11 = 1, proj._22 = 1, proj._33 = zf / (zf - zn), proj._34 = 1, proj._43 = -zn * zf / (zf - zn);
    HR(dev->SetTransform(D3DTS_PROJECTION, &proj));
    lit_quad(dev, 0, -4, 4, 0, 4.0f, diffuse);
    D3DMATRIX id;
    identity(id);
    HR(dev->SetTransform(D3DTS_PROJECTION, &id));
    HR(dev->SetRenderState(D3DRS_FOGTABLEMODE, D3DFOG_NONE));
    HR(dev->SetRenderState(D3DRS_FOGENABLE, FALSE));
  }, 2);
  probe(images, {{16, 16, fogged((end - 0.5f) / (end - start)), 2},
                 {48, 16, fogged(std::exp(-(0.5f * density) * (0.5f * density))), 2},
                 {16, 48, fogged((end - 0.7f) / (end - start)), 2},
                 {48, 48, fogged(std::exp(-4.0f * density)), 2}});
}

TEST_CASE("scene: fixed-function fog from the specular alpha of pre-transformed vertices", "[scene][ff]") {
  const D3DCOLOR fog_color = 0xff000000;
  auto images = render_all("ff_fog_specular", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kClear, 1.0f, 0));
    set_stage(dev, 0, D3DTOP_SELECTARG1, D3DTA_DIFFUSE, D3DTA_CURRENT, D3DTOP_SELECTARG1, D3DTA_DIFFUSE, D3DTA_CURRENT);
    HR(dev->SetRenderState(D3DRS_FOGENABLE, TRUE));
    HR(dev->SetRenderState(D3DRS_FOGCOLOR, fog_color));
    tl_quad(dev, 0, 0, 32, 64, 0xffffffff, 0x40000000);   // fog factor 0x40 / 255
    HR(dev->SetRenderState(D3DRS_FOGENABLE, FALSE));
    tl_quad(dev, 32, 0, 64, 64, 0xffffffff, 0x40000000);
    set_stage(dev, 0, D3DTOP_MODULATE, D3DTA_TEXTURE, D3DTA_CURRENT, D3DTOP_SELECTARG1, D3DTA_TEXTURE, D3DTA_CURRENT);
  }, 2);
  const float f = 0x40 / 255.0f;
  for (const auto &r : images) {
    probe(r, 16, 32, to_d3d({f, f, f, 1}), 2);
    probe(r, 48, 32, 0xffffffff, 0);
  }
}

TEST_CASE("scene: fixed-function alpha test with every compare function", "[scene][ff]") {
  // Quads of alpha 0x7f, 0x80, 0x81 against ALPHAREF 0x80 for each D3DCMP function.
  const DWORD alphas[3] = {0x7f, 0x80, 0x81};
  auto images = render_all("ff_alpha_test", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kClear, 1.0f, 0));
    set_stage(dev, 0, D3DTOP_SELECTARG1, D3DTA_DIFFUSE, D3DTA_CURRENT, D3DTOP_SELECTARG1, D3DTA_DIFFUSE, D3DTA_CURRENT);
    HR(dev->SetRenderState(D3DRS_ALPHATESTENABLE, TRUE));
    HR(dev->SetRenderState(D3DRS_ALPHAREF, 0x80));
    for (DWORD func = D3DCMP_NEVER; func <= D3DCMP_ALWAYS; ++func) {
      HR(dev->SetRenderState(D3DRS_ALPHAFUNC, func));
      for (int i = 0; i < 3; ++i)
        tl_quad(dev, float(i * 16), float((func - 1) * 8), float(i * 16 + 16), float(func * 8), alphas[i] << 24 | 0x00ffffff);
    }
    HR(dev->SetRenderState(D3DRS_ALPHATESTENABLE, FALSE));
    tl_quad(dev, 48, 0, 64, 64, 0x00ff00ff);   // the test off: alpha 0 is drawn
    set_stage(dev, 0, D3DTOP_MODULATE, D3DTA_TEXTURE, D3DTA_CURRENT, D3DTOP_SELECTARG1, D3DTA_TEXTURE, D3DTA_CURRENT);
  }, 0);
  for (const auto &r : images) {
    for (DWORD func = D3DCMP_NEVER; func <= D3DCMP_ALWAYS; ++func)
      for (int i = 0; i < 3; ++i) {
        const int a = int(alphas[i]), ref = 0x80;
        bool pass = false;
        switch (func) {
        case D3DCMP_NEVER: pass = false; break;
        case D3DCMP_LESS: pass = a < ref; break;
        case D3DCMP_EQUAL: pass = a == ref; break;
        case D3DCMP_LESSEQUAL: pass = a <= ref; break;
        case D3DCMP_GREATER: pass = a > ref; break;
        case D3DCMP_NOTEQUAL: pass = a != ref; break;
        case D3DCMP_GREATEREQUAL: pass = a >= ref; break;
        default: pass = true;
        }
        INFO("func " << func << " alpha " << a);
        probe(r, UINT(i * 16 + 8), UINT((func - 1) * 8 + 4), pass ? 0xffffffff : kClear, 0);
      }
    probe(r, 56, 32, 0xffff00ff, 0);
  }
}

namespace {

D3DCOLOR grid_texel(UINT i, UINT j) { return D3DCOLOR(0xff000000u | (i * 60 + 20) << 16 | (j * 60 + 20) << 8 | 0x30); }

} // namespace

TEST_CASE("scene: fixed-function texture coordinate generation and texture transforms", "[scene][ff]") {
  auto images = render_all("ff_texgen", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kClear, 1.0f, 0));
    HR(dev->SetRenderState(D3DRS_LIGHTING, FALSE));
    IDirect3DTexture9 *tex = filled_texture(dev, 4, grid_texel);
    HR(dev->SetTexture(0, tex));
    set_stage(dev, 0, D3DTOP_SELECTARG1, D3DTA_TEXTURE, D3DTA_CURRENT, D3DTOP_SELECTARG1, D3DTA_TEXTURE, D3DTA_CURRENT);
    // Left half: camera-space position through a transform u = 0.5 x + 0.5, v = -0.5 y + 0.5 (the
    // quad covers clip x in [-1, 0]: u in [0, 0.5], the texture's left two columns).
    HR(dev->SetTextureStageState(0, D3DTSS_TEXCOORDINDEX, D3DTSS_TCI_CAMERASPACEPOSITION));
    HR(dev->SetTextureStageState(0, D3DTSS_TEXTURETRANSFORMFLAGS, D3DTTFF_COUNT2));
    D3DMATRIX m{};
    m._11 = 0.5f, m._22 = -0.5f, m._41 = 0.5f, m._42 = 0.5f, m._33 = 1, m._44 = 1;
    HR(dev->SetTransform(D3DTS_TEXTURE0, &m));
    lit_quad(dev, -1, -1, 0, 1, 0.5f, 0xffffffff);
    // Right half: the same, projected: the matrix scales everything (q included) by 2, COUNT3 divides
    // by the third component, which is 2 z = 1 at z = 0.5: u, v = 2 (0.5 x + 0.5) / 1 ... so the
    // matrix is halved to give the same coordinates: (x/4 + 1/4, -y/4 + 1/4, z) / (z) at z = 0.5.
    HR(dev->SetTextureStageState(0, D3DTSS_TEXTURETRANSFORMFLAGS, D3DTTFF_COUNT3 | D3DTTFF_PROJECTED));
    D3DMATRIX p{};
    p._11 = 0.25f, p._22 = -0.25f, p._41 = 0.25f, p._42 = 0.25f, p._33 = 1;
    HR(dev->SetTransform(D3DTS_TEXTURE0, &p));
    lit_quad(dev, 0, -1, 1, 1, 0.5f, 0xffffffff);
    HR(dev->SetTextureStageState(0, D3DTSS_TEXTURETRANSFORMFLAGS, D3DTTFF_DISABLE));
    HR(dev->SetTextureStageState(0, D3DTSS_TEXCOORDINDEX, 0));
    set_stage(dev, 0, D3DTOP_MODULATE, D3DTA_TEXTURE, D3DTA_CURRENT, D3DTOP_SELECTARG1, D3DTA_TEXTURE, D3DTA_CURRENT);
    HR(dev->SetTexture(0, nullptr));
    CHECK(tex->Release() == 0);
  }, 1);
  for (const auto &r : images)
    for (UINT j = 0; j < 4; ++j) {
      // Left half: u = 0.5 x + 0.5 over x in [-1, 0] -> texels 0, 1 (16 pixels each).
      probe(r, 8, j * 16 + 8, grid_texel(0, j), 1);
      probe(r, 24, j * 16 + 8, grid_texel(1, j), 1);
      // Right half: u = (x / 4 + 1 / 4) / 0.5 = x / 2 + 1 / 2 over x in [0, 1] -> texels 2, 3.
      probe(r, 40, j * 16 + 8, grid_texel(2, j), 1);
      probe(r, 56, j * 16 + 8, grid_texel(3, j), 1);
    }
}

TEST_CASE("scene: fixed-function 2D texture transform translates through _31 and _32", "[scene][ff]") {
  auto images = render_all("ff_texture_transform", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kClear, 1.0f, 0));
    HR(dev->SetRenderState(D3DRS_LIGHTING, FALSE));
    IDirect3DTexture9 *tex = filled_texture(dev, 4, grid_texel);
    HR(dev->SetTexture(0, tex));
    set_stage(dev, 0, D3DTOP_SELECTARG1, D3DTA_TEXTURE, D3DTA_CURRENT, D3DTOP_SELECTARG1, D3DTA_TEXTURE, D3DTA_CURRENT);
    HR(dev->SetTextureStageState(0, D3DTSS_TEXTURETRANSFORMFLAGS, D3DTTFF_COUNT2));
    D3DMATRIX m;
    identity(m);
    m._11 = 0.5f, m._22 = 0.5f, m._31 = 0.5f, m._32 = 0.25f;   // (u, v, 1, 0): u/2 + 1/2, v/2 + 1/4
    HR(dev->SetTransform(D3DTS_TEXTURE0, &m));
    struct V {
      float x, y, z, u, v;
    } v[4] = {{-1, 1, 0.5f, 0, 0}, {1, 1, 0.5f, 1, 0}, {-1, -1, 0.5f, 0, 1}, {1, -1, 0.5f, 1, 1}};
    HR(dev->SetFVF(D3DFVF_XYZ | D3DFVF_TEX1));
    HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(V)));
    HR(dev->SetTextureStageState(0, D3DTSS_TEXTURETRANSFORMFLAGS, D3DTTFF_DISABLE));
    set_stage(dev, 0, D3DTOP_MODULATE, D3DTA_TEXTURE, D3DTA_CURRENT, D3DTOP_SELECTARG1, D3DTA_TEXTURE, D3DTA_CURRENT);
    HR(dev->SetTexture(0, nullptr));
    CHECK(tex->Release() == 0);
  }, 1);
  // u in [0.5, 1] (texels 2, 3), v in [0.25, 0.75] (texels 1, 2), each over 32 pixels.
  probe(images, {{16, 16, grid_texel(2, 1), 1},
                 {48, 16, grid_texel(3, 1), 1},
                 {16, 48, grid_texel(2, 2), 1},
                 {48, 48, grid_texel(3, 2), 1}});
}

TEST_CASE("scene: fixed-function user clip planes in world space", "[scene][ff]") {
  auto images = render_all("ff_clip_planes", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kClear, 1.0f, 0));
    HR(dev->SetRenderState(D3DRS_LIGHTING, FALSE));
    // The view moves the world left by 0.5: the world plane x >= 0.25 is view x >= -0.25.
    D3DMATRIX view;
    identity(view);
    view._41 = -0.5f;
    HR(dev->SetTransform(D3DTS_VIEW, &view));
    const float plane0[4] = {1, 0, 0, -0.25f};   // keeps world x >= 0.25
    const float plane5[4] = {0, -1, 0, 0.5f};    // keeps world y <= 0.5
    HR(dev->SetClipPlane(0, plane0));
    HR(dev->SetClipPlane(5, plane5));
    HR(dev->SetRenderState(D3DRS_CLIPPLANEENABLE, D3DCLIPPLANE0 | D3DCLIPPLANE5));
    lit_quad(dev, -0.5f, -1, 1.5f, 1, 0.5f, 0xff00ff00);   // world x in [-0.5, 1.5]: the whole target
    HR(dev->SetRenderState(D3DRS_CLIPPLANEENABLE, 0));
    identity(view);
    HR(dev->SetTransform(D3DTS_VIEW, &view));
  }, 0);
  // View x = -0.25 is pixel 24; view y = 0.5 is pixel row 16.
  probe(images, {{20, 40, kClear, 0},
                 {28, 40, 0xff00ff00, 0},
                 {40, 12, kClear, 0},
                 {40, 20, 0xff00ff00, 0}});
}

TEST_CASE("scene: fixed-function vertex blending over two world matrices", "[scene][ff]") {
  struct V {
    float x, y, z, w0;
    D3DCOLOR c;
  };
  auto images = render_all("ff_vertex_blend", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kClear, 1.0f, 0));
    HR(dev->SetRenderState(D3DRS_LIGHTING, FALSE));
    D3DMATRIX w0, w1;
    identity(w0), identity(w1);
    w0._42 = 0.5f;    // world matrix 0 moves up by 0.5
    w1._42 = -0.5f;   // world matrix 1 moves down by 0.5
    HR(dev->SetTransform(D3DTS_WORLDMATRIX(0), &w0));
    HR(dev->SetTransform(D3DTS_WORLDMATRIX(1), &w1));
    HR(dev->SetRenderState(D3DRS_VERTEXBLEND, D3DVBF_1WEIGHTS));
    HR(dev->SetFVF(D3DFVF_XYZB1 | D3DFVF_DIFFUSE));
    // Weight 1 on matrix 0 (left quad, moved up), 0.5 each (middle, not moved), 0 (right, down).
    const float weights[3] = {1.0f, 0.5f, 0.0f};
    for (int i = 0; i < 3; ++i) {
      const float x0 = -1 + i * 0.5f, x1 = x0 + 0.5f, w = weights[i];
      V v[4] = {{x0, 0.25f, 0.5f, w, 0xffff0000}, {x1, 0.25f, 0.5f, w, 0xffff0000},
                {x0, -0.25f, 0.5f, w, 0xffff0000}, {x1, -0.25f, 0.5f, w, 0xffff0000}};
      HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(V)));
    }
    HR(dev->SetRenderState(D3DRS_VERTEXBLEND, D3DVBF_DISABLE));
    identity(w0);
    HR(dev->SetTransform(D3DTS_WORLD, &w0));
  }, 0);
  // Rows: y in [0.25, 0.75] is pixels 8..24, [-0.25, 0.25] 24..40, [-0.75, -0.25] 40..56.
  probe(images, {{8, 16, 0xffff0000, 0},
                 {8, 32, kClear, 0},
                 {24, 32, 0xffff0000, 0},
                 {24, 16, kClear, 0},
                 {40, 48, 0xffff0000, 0},
                 {40, 32, kClear, 0}});
}

TEST_CASE("scene: fixed-function point size and point sprites", "[scene][ff]") {
  auto quadrant = [](UINT i, UINT j) { return D3DCOLOR(0xff000000u | (i ? 0xff0000u : 0x00ff00u) | (j ? 0xffu : 0u)); };
  auto images = render_all("ff_point_sprites", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kClear, 1.0f, 0));
    IDirect3DTexture9 *tex = filled_texture(dev, 2, quadrant);
    HR(dev->SetTexture(0, tex));
    set_stage(dev, 0, D3DTOP_SELECTARG1, D3DTA_TEXTURE, D3DTA_CURRENT, D3DTOP_SELECTARG1, D3DTA_TEXTURE, D3DTA_CURRENT);
    HR(dev->SetRenderState(D3DRS_POINTSIZE, fbits(16.0f)));
    HR(dev->SetRenderState(D3DRS_POINTSPRITEENABLE, TRUE));
    TLTex p{32, 32, 0.5f, 1, 0xffffffff, 0, 0, 0, 0, 0};
    HR(dev->SetFVF(kTLTexFVF));
    HR(dev->DrawPrimitiveUP(D3DPT_POINTLIST, 1, &p, sizeof p));
    HR(dev->SetRenderState(D3DRS_POINTSPRITEENABLE, FALSE));
    HR(dev->SetRenderState(D3DRS_POINTSIZE, fbits(1.0f)));
    set_stage(dev, 0, D3DTOP_MODULATE, D3DTA_TEXTURE, D3DTA_CURRENT, D3DTOP_SELECTARG1, D3DTA_TEXTURE, D3DTA_CURRENT);
    HR(dev->SetTexture(0, nullptr));
    CHECK(tex->Release() == 0);
  }, 0);
  // A 16-pixel sprite centred on (32, 32): pixels 24..39; (0, 0) of the texture at its top left.
  probe(images, {{27, 27, quadrant(0, 0), 0},
                 {36, 27, quadrant(1, 0), 0},
                 {27, 36, quadrant(0, 1), 0},
                 {36, 36, quadrant(1, 1), 0},
                 {21, 32, kClear, 0},
                 {42, 32, kClear, 0}});
}

TEST_CASE("scene: flat shading takes the first vertex's colour", "[scene][ff]") {
  auto images = render_all("ff_flat_shading", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kClear, 1.0f, 0));
    set_stage(dev, 0, D3DTOP_SELECTARG1, D3DTA_DIFFUSE, D3DTA_CURRENT, D3DTOP_SELECTARG1, D3DTA_DIFFUSE, D3DTA_CURRENT);
    HR(dev->SetRenderState(D3DRS_SHADEMODE, D3DSHADE_FLAT));
    TLVertex tri[3] = {{0, 0, 0.5f, 1, 0xffff0000}, {64, 0, 0.5f, 1, 0xff00ff00}, {0, 64, 0.5f, 1, 0xff0000ff}};
    HR(dev->SetFVF(kTLVertexFVF));
    HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLELIST, 1, tri, sizeof(TLVertex)));
    HR(dev->SetRenderState(D3DRS_SHADEMODE, D3DSHADE_GOURAUD));
    set_stage(dev, 0, D3DTOP_MODULATE, D3DTA_TEXTURE, D3DTA_CURRENT, D3DTOP_SELECTARG1, D3DTA_TEXTURE, D3DTA_CURRENT);
  }, 0);
  for (const auto &r : images) {
    probe(r, 4, 4, 0xffff0000, 0);
    probe(r, 40, 8, 0xffff0000, 0);
    probe(r, 8, 40, 0xffff0000, 0);
  }
}

TEST_CASE("scene: fog after ps_2_0 (not ps_3_0) and the alpha test after pixel shaders", "[scene][ff]") {
  const D3DCOLOR fog_color = 0xff0000ff, diffuse = 0xffff8000;
  const Color fc = from_d3d(fog_color), dc = from_d3d(diffuse);
  const float start = 0.0f, end = 1.0f;
  auto images = render_all("ff_pixel_shader_epilogue", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kClear, 1.0f, 0));
    HR(dev->SetRenderState(D3DRS_LIGHTING, FALSE));
    IDirect3DPixelShader9 *ps2 = nullptr, *ps3 = nullptr;
    HR(dev->CreatePixelShader(shader("ps20_pass_color").data(), &ps2));
    HR(dev->CreatePixelShader(shader("ps30_pass_color").data(), &ps3));
    HR(dev->SetRenderState(D3DRS_FOGENABLE, TRUE));
    HR(dev->SetRenderState(D3DRS_FOGCOLOR, fog_color));
    HR(dev->SetRenderState(D3DRS_FOGSTART, fbits(start)));
    HR(dev->SetRenderState(D3DRS_FOGEND, fbits(end)));
    // Fixed-function vertex fog (depth 0.25: f = 0.75) into ps_2_0: fogged (top left).
    HR(dev->SetRenderState(D3DRS_FOGVERTEXMODE, D3DFOG_LINEAR));
    HR(dev->SetPixelShader(ps2));
    lit_quad(dev, -1, 0, 0, 1, 0.25f, diffuse);
    // Table fog (z 0.5: f = 0.5) after ps_2_0 (top right).
    HR(dev->SetRenderState(D3DRS_FOGVERTEXMODE, D3DFOG_NONE));
    HR(dev->SetRenderState(D3DRS_FOGTABLEMODE, D3DFOG_LINEAR));
    lit_quad(dev, 0, 0, 1, 1, 0.5f, diffuse);
    // ps_3_0: no fog (bottom left).
    HR(dev->SetPixelShader(ps3));
    lit_quad(dev, -1, -1, 0, 0, 0.5f, diffuse);
    HR(dev->SetRenderState(D3DRS_FOGTABLEMODE, D3DFOG_NONE));
    HR(dev->SetRenderState(D3DRS_FOGENABLE, FALSE));
    // Alpha test after ps_3_0 and ps_2_0: alpha 0x7f fails GREATEREQUAL 0x80, 0x80 passes
    // (bottom right: left column ps_3_0, right column ps_2_0; top row 0x7f, bottom row 0x80).
    HR(dev->SetRenderState(D3DRS_ALPHATESTENABLE, TRUE));
    HR(dev->SetRenderState(D3DRS_ALPHAREF, 0x80));
    HR(dev->SetRenderState(D3DRS_ALPHAFUNC, D3DCMP_GREATEREQUAL));
    lit_quad(dev, 0, -0.5f, 0.5f, 0, 0.5f, 0x7f00ff00);
    lit_quad(dev, 0, -1, 0.5f, -0.5f, 0.5f, 0x8000ff00);
    HR(dev->SetPixelShader(ps2));
    lit_quad(dev, 0.5f, -0.5f, 1, 0, 0.5f, 0x7f00ff00);
    lit_quad(dev, 0.5f, -1, 1, -0.5f, 0.5f, 0x8000ff00);
    HR(dev->SetRenderState(D3DRS_ALPHATESTENABLE, FALSE));
    HR(dev->SetPixelShader(nullptr));
    CHECK(ps2->Release() == 0);
    CHECK(ps3->Release() == 0);
  }, 2);
  auto fogged = [&](float f) {
    return to_d3d({f * dc.r + (1 - f) * fc.r, f * dc.g + (1 - f) * fc.g, f * dc.b + (1 - f) * fc.b, 1});
  };
  probe(images, {{16, 16, fogged(0.75f), 2},
                 {48, 16, fogged(0.5f), 2},
                 {16, 48, diffuse, 1},
                 {40, 40, kClear, 0},
                 {40, 56, 0xff00ff00, 0},
                 {56, 40, kClear, 0},
                 {56, 56, 0xff00ff00, 0}});
}

TEST_CASE("scene: user clip planes with shaders are in clip space", "[scene][ff]") {
  auto images = render_all("ff_clip_planes_shaders", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kClear, 1.0f, 0));
    const D3DVERTEXELEMENT9 elements[] = {
        {0, 0, D3DDECLTYPE_FLOAT3, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
        {0, 12, D3DDECLTYPE_FLOAT3, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_NORMAL, 0},
        {0, 24, D3DDECLTYPE_D3DCOLOR, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_COLOR, 0},
        D3DDECL_END()};
    ShaderSet s(dev, "vs30_transform_color", "ps30_pass_color", elements);
    const float identity4[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    HR(dev->SetVertexShaderConstantF(0, identity4, 4));
    const float plane0[4] = {-1, 0, 0, 0.5f};   // keeps clip x <= 0.5
    HR(dev->SetClipPlane(0, plane0));
    HR(dev->SetRenderState(D3DRS_CLIPPLANEENABLE, D3DCLIPPLANE0));
    LitVertex v[4] = {{-1, 1, 0.5f, 0, 0, -1, 0xff00ff00}, {1, 1, 0.5f, 0, 0, -1, 0xff00ff00},
                      {-1, -1, 0.5f, 0, 0, -1, 0xff00ff00}, {1, -1, 0.5f, 0, 0, -1, 0xff00ff00}};
    HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(LitVertex)));
    HR(dev->SetRenderState(D3DRS_CLIPPLANEENABLE, 0));
    s.release(dev);
  }, 0);
  // Clip x = 0.5 is pixel 48.
  for (const auto &r : images) {
    probe(r, 44, 32, 0xff00ff00, 0);
    probe(r, 52, 32, kClear, 0);
  }
}

TEST_CASE("scene: fixed-function texture coordinates from camera-space normals", "[scene][ff]") {
  auto images = render_all("ff_texgen_normal", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kClear, 1.0f, 0));
    HR(dev->SetRenderState(D3DRS_LIGHTING, FALSE));
    IDirect3DTexture9 *tex = filled_texture(dev, 4, grid_texel);
    HR(dev->SetTexture(0, tex));
    set_stage(dev, 0, D3DTOP_SELECTARG1, D3DTA_TEXTURE, D3DTA_CURRENT, D3DTOP_SELECTARG1, D3DTA_TEXTURE, D3DTA_CURRENT);
    // u = 0.5 nx + 0.5, v = -0.5 ny + 0.5: normals from (-1, 1) at the top left to (1, -1) at the
    // bottom right walk the whole texture, as positions did in the camera-space position scene.
    HR(dev->SetTextureStageState(0, D3DTSS_TEXCOORDINDEX, D3DTSS_TCI_CAMERASPACENORMAL));
    HR(dev->SetTextureStageState(0, D3DTSS_TEXTURETRANSFORMFLAGS, D3DTTFF_COUNT2));
    D3DMATRIX m{};
    m._11 = 0.5f, m._22 = -0.5f, m._41 = 0.5f, m._42 = 0.5f, m._33 = 1, m._44 = 1;
    HR(dev->SetTransform(D3DTS_TEXTURE0, &m));
    LitVertex v[4] = {{-1, 1, 0.5f, -1, 1, 0, 0xffffffff}, {1, 1, 0.5f, 1, 1, 0, 0xffffffff},
                      {-1, -1, 0.5f, -1, -1, 0, 0xffffffff}, {1, -1, 0.5f, 1, -1, 0, 0xffffffff}};
    HR(dev->SetFVF(kLitFVF));
    HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(LitVertex)));
    HR(dev->SetTextureStageState(0, D3DTSS_TEXTURETRANSFORMFLAGS, D3DTTFF_DISABLE));
    HR(dev->SetTextureStageState(0, D3DTSS_TEXCOORDINDEX, 0));
    set_stage(dev, 0, D3DTOP_MODULATE, D3DTA_TEXTURE, D3DTA_CURRENT, D3DTOP_SELECTARG1, D3DTA_TEXTURE, D3DTA_CURRENT);
    HR(dev->SetTexture(0, nullptr));
    CHECK(tex->Release() == 0);
  }, 1);
  for (const auto &r : images)
    for (UINT j = 0; j < 4; ++j)
      for (UINT i = 0; i < 4; ++i) probe(r, i * 16 + 8, j * 16 + 8, grid_texel(i, j), 1);
}

TEST_CASE("scene: fixed-function point scale with the eye distance", "[scene][ff]") {
  auto images = render_all("ff_point_scale", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kClear, 1.0f, 0));
    HR(dev->SetRenderState(D3DRS_LIGHTING, FALSE));
    set_stage(dev, 0, D3DTOP_SELECTARG1, D3DTA_DIFFUSE, D3DTA_CURRENT, D3DTOP_SELECTARG1, D3DTA_DIFFUSE, D3DTA_CURRENT);
    // size = ViewportHeight * POINTSIZE * sqrt(1 / (A + B De + C De^2)) = 64 * 1 * 1 / De with
    // A = B = 0, C = 1; the point at eye distance 2 is 32 pixels wide.
    HR(dev->SetRenderState(D3DRS_POINTSCALEENABLE, TRUE));
    HR(dev->SetRenderState(D3DRS_POINTSCALE_A, fbits(0.0f)));
    HR(dev->SetRenderState(D3DRS_POINTSCALE_B, fbits(0.0f)));
    HR(dev->SetRenderState(D3DRS_POINTSCALE_C, fbits(1.0f)));
    D3DMATRIX proj;
    identity(proj);
    proj._33 = 0.25f;   // z 2 to depth 0.5, x and y unchanged
    HR(dev->SetTransform(D3DTS_PROJECTION, &proj));
    ColorVertex p{0, 0, 2, 0xffffff00};
    HR(dev->SetFVF(kColorVertexFVF));
    HR(dev->DrawPrimitiveUP(D3DPT_POINTLIST, 1, &p, sizeof p));
    HR(dev->SetRenderState(D3DRS_POINTSCALEENABLE, FALSE));
    identity(proj);
    HR(dev->SetTransform(D3DTS_PROJECTION, &proj));
  }, 0);
  // Centred on (32, 32): pixels 16..47.
  probe(images, {{18, 32, 0xffffff00, 0},
                 {45, 45, 0xffffff00, 0},
                 {13, 32, kClear, 0},
                 {50, 32, kClear, 0}});
}

TEST_CASE("scene: fixed-function BUMPENVMAP perturbs the next stage's coordinates", "[scene][ff]") {
  auto images = render_all("ff_bumpenvmap", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kClear, 1.0f, 0));
    // Stage 0's texture holds (du, dv) = (64 / 255, 0) in red and green; BUMPENVMAT is the
    // identity, so stage 1 reads its texture a quarter texture (plus a little) to the right.
    IDirect3DTexture9 *bump = filled_texture(dev, 4, [](UINT, UINT) { return D3DCOLOR(0xff400000u); });
    IDirect3DTexture9 *tex = filled_texture(dev, 4, grid_texel);
    HR(dev->SetTexture(0, bump));
    HR(dev->SetTexture(1, tex));
    set_stage(dev, 0, D3DTOP_BUMPENVMAP, D3DTA_TEXTURE, D3DTA_CURRENT, D3DTOP_SELECTARG1, D3DTA_DIFFUSE, D3DTA_CURRENT);
    HR(dev->SetTextureStageState(0, D3DTSS_BUMPENVMAT00, fbits(1.0f)));
    HR(dev->SetTextureStageState(0, D3DTSS_BUMPENVMAT11, fbits(1.0f)));
    set_stage(dev, 1, D3DTOP_SELECTARG1, D3DTA_TEXTURE, D3DTA_CURRENT, D3DTOP_SELECTARG1, D3DTA_TEXTURE, D3DTA_CURRENT);
    tl_quad(dev, 0, 0, 64, 64, 0xffffffff);
    set_stage(dev, 1, D3DTOP_DISABLE, D3DTA_TEXTURE, D3DTA_CURRENT, D3DTOP_DISABLE, D3DTA_TEXTURE, D3DTA_CURRENT);
    set_stage(dev, 0, D3DTOP_MODULATE, D3DTA_TEXTURE, D3DTA_CURRENT, D3DTOP_SELECTARG1, D3DTA_TEXTURE, D3DTA_CURRENT);
    HR(dev->SetTexture(0, nullptr));
    HR(dev->SetTexture(1, nullptr));
    CHECK(bump->Release() == 0);
    CHECK(tex->Release() == 0);
  }, 1);
  // Pixel centre u = i / 4 + 1/8 becomes i / 4 + 1/8 + 64/255: texel i + 1 (wrapping).
  for (const auto &r : images)
    for (UINT j = 0; j < 4; ++j)
      for (UINT i = 0; i < 4; ++i) probe(r, i * 16 + 8, j * 16 + 8, grid_texel((i + 1) % 4, j), 1);
}

TEST_CASE("scene: fixed-function BUMPENVMAP(LUMINANCE) with a signed bump map", "[scene][ff]") {
  // Stage 0 is a 1x1 Q8W8V8U8 bump map: du = -64 / 127, dv = 0, W (the luminance) = 64 / 127.
  // BUMPENVMAT is the identity, so stage 1 reads half a texture (plus a little) to the left:
  // pixel centre u = i / 4 + 1/8 reads texel i - 2 (wrapping). With BUMPENVMAPLUMINANCE,
  // LSCALE 1 and LOFFSET 0.25 scale that texel by 64 / 127 + 0.25 (the Bump Mapping Formulas).
  struct Case {
    const char *name;
    DWORD op;
    float scale;
  };
  const Case cases[] = {{"BUMPENVMAP", D3DTOP_BUMPENVMAP, 1.0f},
                        {"BUMPENVMAPLUMINANCE", D3DTOP_BUMPENVMAPLUMINANCE, 64.0f / 127.0f + 0.25f}};
  for (const Case &c : cases) {
    SECTION(c.name) {
      auto images = render_all(std::string("ff_bump_signed_") + c.name, SceneSetup{}, [&](IDirect3DDevice9 *dev) {
        HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, kClear, 1.0f, 0));
        IDirect3DTexture9 *bump = nullptr;
        HR(dev->CreateTexture(1, 1, 1, 0, D3DFMT_Q8W8V8U8, D3DPOOL_MANAGED, &bump, nullptr));
        D3DLOCKED_RECT lr;
        HR(bump->LockRect(0, &lr, nullptr, 0));
        const DWORD quvw = 0x7f4000c0; // Q 127, W 64, V 0, U -64
        std::memcpy(lr.pBits, &quvw, 4);
        HR(bump->UnlockRect(0));
        IDirect3DTexture9 *tex = filled_texture(dev, 4, grid_texel);
        HR(dev->SetTexture(0, bump));
        HR(dev->SetTexture(1, tex));
        set_stage(dev, 0, c.op, D3DTA_TEXTURE, D3DTA_CURRENT, D3DTOP_SELECTARG1, D3DTA_DIFFUSE, D3DTA_CURRENT);
        HR(dev->SetTextureStageState(0, D3DTSS_BUMPENVMAT00, fbits(1.0f)));
        HR(dev->SetTextureStageState(0, D3DTSS_BUMPENVMAT11, fbits(1.0f)));
        HR(dev->SetTextureStageState(0, D3DTSS_BUMPENVLSCALE, fbits(1.0f)));
        HR(dev->SetTextureStageState(0, D3DTSS_BUMPENVLOFFSET, fbits(0.25f)));
        set_stage(dev, 1, D3DTOP_SELECTARG1, D3DTA_TEXTURE, D3DTA_CURRENT, D3DTOP_SELECTARG1, D3DTA_TEXTURE, D3DTA_CURRENT);
        tl_quad(dev, 0, 0, 64, 64, 0xffffffff);
        set_stage(dev, 1, D3DTOP_DISABLE, D3DTA_TEXTURE, D3DTA_CURRENT, D3DTOP_DISABLE, D3DTA_TEXTURE, D3DTA_CURRENT);
        set_stage(dev, 0, D3DTOP_MODULATE, D3DTA_TEXTURE, D3DTA_CURRENT, D3DTOP_SELECTARG1, D3DTA_TEXTURE, D3DTA_CURRENT);
        HR(dev->SetTexture(0, nullptr));
        HR(dev->SetTexture(1, nullptr));
        CHECK(bump->Release() == 0);
        CHECK(tex->Release() == 0);
      }, 1);
      for (const auto &r : images)
        for (UINT j = 0; j < 4; ++j)
          for (UINT i = 0; i < 4; ++i) {
            Color t = from_d3d(grid_texel((i + 2) % 4, j));
            t = {t.r * c.scale, t.g * c.scale, t.b * c.scale, 1.0f};
            probe(r, i * 16 + 8, j * 16 + 8, to_d3d(t), 1);
          }
    }
  }
}
