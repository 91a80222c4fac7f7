// The HUD (NOVEM_HUD): a panel of figures the frontend draws into the frame each Present of the
// implicit swap chain shows (never into a back buffer), through the same commands a D3D9 draw
// sends, so that it looks the same on every plugin. This part knows no device: the settings, the frame clock and
// the panel's quads; device_hud.cpp sends them.
//
// The panel, top to bottom, one line of 10 font pixels each (8 of glyph, 2 apart) for the items
// NOVEM_HUD names, in this order whatever the order named: fps ("fps 59.9", over the last
// kFrames frames), frametimes ("frame 16.7 ms", the last frame, then a graph of the last kFrames
// frames, kGraphHeight font pixels high, 0 to 50 ms), draws (the application's draws of the frame
// presented), pipelines (the pipelines the plugin has built or loaded from its cache), memory
// (the video memory the device's resources take, as GetAvailableTextureMem counts it), backend (the plugin's name),
// version (Novem's). The panel is kPanelWidth font pixels wide whatever the figures, so that it
// does not change size from frame to frame, and stands kMargin font pixels from the corner
// NOVEM_HUD_POSITION names; NOVEM_HUD_SCALE multiplies every size.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace novem {
class Options;
}

namespace novem::hud {

enum Item : uint32_t {
  kFps = 1u << 0,
  kFrameTimes = 1u << 1,
  kDraws = 1u << 2,
  kPipelines = 1u << 3,
  kMemory = 1u << 4,
  kBackend = 1u << 5,
  kVersion = 1u << 6,
  kFull = (1u << 7) - 1,
};

enum class Corner : uint8_t { kTopLeft, kTopRight, kBottomLeft, kBottomRight };

struct Settings {
  uint32_t items = 0; // Item bits; 0: no HUD
  uint32_t scale = 1;
  Corner corner = Corner::kTopLeft;
};

// NOVEM_HUD, NOVEM_HUD_SCALE and NOVEM_HUD_POSITION as `options` has them now (the environment is
// read at each call, so each device takes the values of its creation). A bad value reads as
// unset; Options::problems() has said so.
Settings settings(const Options &options);

// Sizes in font pixels (times the scale on screen).
inline constexpr uint32_t kLineHeight = 10, kPadding = 2, kMargin = 4;
inline constexpr uint32_t kFrames = 64, kBarWidth = 2, kGraphHeight = 24;
inline constexpr uint32_t kPanelChars = 16;
inline constexpr uint32_t kPanelWidth = 2 * kPadding + kPanelChars * 8; // the graph's kFrames bars fill it

// The font as an image: kFontColumns x kFontRows glyphs of 8x8, white, alpha 255 where a glyph
// has a pixel; texels in NV_FORMAT_B8G8R8A8_UNORM, rows top first.
inline constexpr uint32_t kFontColumns = 16, kFontRows = 6;
inline constexpr uint32_t kFontWidth = kFontColumns * 8, kFontHeight = kFontRows * 8;
std::vector<uint32_t> font_texels();

// A vertex of the panel's triangle list: position in clip space (x, y; z 0, w 1), texture
// coordinates into the font image, colour as D3DCOLOR (B, G, R, A in memory), which multiplies
// the font's texel.
struct Vertex {
  float x, y;
  float u, v;
  uint32_t color;
};

// What the panel shows of the frame being presented.
struct Figures {
  uint64_t draws = 0;
  uint64_t pipelines = 0;
  uint64_t memory_bytes = 0;
  std::string backend, version;
};

class Overlay {
public:
  explicit Overlay(const Settings &settings) : settings_(settings) {}
  bool on() const { return settings_.items != 0; }
  const Settings &settings() const { return settings_; }

  // A Present at `now`: the time since the previous one is a frame's time.
  void frame(std::chrono::steady_clock::time_point now);
  // The panel on a back buffer of width x height pixels.
  std::vector<Vertex> vertices(uint32_t width, uint32_t height, const Figures &figures) const;
  // The panel's text lines, as vertices() draws them (the graph is not text).
  std::vector<std::string> lines(const Figures &figures) const;

private:
  Settings settings_;
  std::chrono::steady_clock::time_point last_{};
  bool started_ = false;
  std::array<float, kFrames> frame_ms_{}; // a ring: the last `count_` frames' times
  uint32_t next_ = 0, count_ = 0;
};

} // namespace novem::hud
