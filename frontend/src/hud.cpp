#include "hud.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "hud_font.hpp"
#include "novem/options.hpp"

namespace novem::hud {

namespace {

constexpr uint32_t kWhite = 0xFFFFFFFFu;
constexpr uint32_t kPanel = 0x99000000u;      // black, alpha 0.6
constexpr uint32_t kBar = 0xFF40E040u;         // a frame within 1/30 s
constexpr uint32_t kSlowBar = 0xFFFF5040u;     // a slower one
constexpr uint32_t kSixtyHz = 0x80FFFFFFu;     // the 16.7 ms line
constexpr float kGraphMs = 50.0f;              // the graph's top

// Builds the triangle list: screen pixels in, clip space out.
class Quads {
public:
  Quads(uint32_t width, uint32_t height) : width_(float(width)), height_(float(height)) {}
  // A rectangle [x0, x1) x [y0, y1) in pixels with glyph c stretched over it.
  void add(float x0, float y0, float x1, float y1, uint32_t c, uint32_t color) {
    const uint32_t g = c - kFirstGlyph;
    float u0 = float(g % kFontColumns * 8) / kFontWidth, v0 = float(g / kFontColumns * 8) / kFontHeight;
    float u1 = u0 + 8.0f / kFontWidth, v1 = v0 + 8.0f / kFontHeight;
    if (c == kSolidGlyph) u0 = u1 = (u0 + u1) / 2, v0 = v1 = (v0 + v1) / 2; // every pixel the block's middle
    const Vertex tl{x(x0), y(y0), u0, v0, color}, tr{x(x1), y(y0), u1, v0, color};
    const Vertex bl{x(x0), y(y1), u0, v1, color}, br{x(x1), y(y1), u1, v1, color};
    out_.insert(out_.end(), {tl, tr, bl, bl, tr, br});
  }
  std::vector<Vertex> take() { return std::move(out_); }

private:
  float x(float px) const { return px / width_ * 2.0f - 1.0f; }
  float y(float py) const { return 1.0f - py / height_ * 2.0f; } // clip y = +1 is row 0
  float width_, height_;
  std::vector<Vertex> out_;
};

std::string printf_string(const char *format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

std::string memory_text(uint64_t bytes) {
  if (bytes >= (1ull << 30)) return printf_string("memory %.1f GiB", double(bytes) / double(1ull << 30));
  if (bytes >= (1ull << 20)) return printf_string("memory %.1f MiB", double(bytes) / double(1ull << 20));
  return printf_string("memory %.0f KiB", double(bytes) / 1024.0);
}

} // namespace

Settings settings(const Options &options) {
  Settings s;
  if (const char *items = options.checked("NOVEM_HUD")) {
    constexpr const char *kNames[] = {"fps", "frametimes", "draws", "pipelines", "memory", "backend", "version"};
    for (const char *w = items; *w;) {
      const size_t n = std::strcspn(w, ",");
      const std::string word(w, n);
      if (word == "full") s.items |= kFull;
      for (uint32_t i = 0; i < std::size(kNames); ++i)
        if (word == kNames[i]) s.items |= 1u << i;
      w += n + (w[n] ? 1 : 0);
    }
  }
  s.scale = uint32_t(options.number("NOVEM_HUD_SCALE", 1));
  if (const char *corner = options.checked("NOVEM_HUD_POSITION")) {
    const std::string c = corner;
    s.corner = c == "top-right" ? Corner::kTopRight
               : c == "bottom-left" ? Corner::kBottomLeft
               : c == "bottom-right" ? Corner::kBottomRight
                                     : Corner::kTopLeft;
  }
  return s;
}

std::vector<uint32_t> font_texels() {
  std::vector<uint32_t> texels(kFontWidth * kFontHeight, 0x00FFFFFFu);
  for (uint32_t g = 0; g < kGlyphCount; ++g)
    for (uint32_t row = 0; row < kGlyphSize; ++row)
      for (uint32_t col = 0; col < kGlyphSize; ++col)
        if (kFont[g][row] >> col & 1u)
          texels[(g / kFontColumns * 8 + row) * kFontWidth + g % kFontColumns * 8 + col] = kWhite;
  return texels;
}

void Overlay::frame(std::chrono::steady_clock::time_point now) {
  if (started_) {
    frame_ms_[next_] = std::chrono::duration<float, std::milli>(now - last_).count();
    next_ = (next_ + 1) % kFrames;
    count_ = std::min(count_ + 1, kFrames);
  }
  started_ = true;
  last_ = now;
}

std::vector<std::string> Overlay::lines(const Figures &f) const {
  const uint32_t items = settings_.items;
  std::vector<std::string> out;
  float total_ms = 0.0f;
  for (uint32_t i = 0; i < count_; ++i) total_ms += frame_ms_[i];
  const float last_ms = count_ ? frame_ms_[(next_ + kFrames - 1) % kFrames] : 0.0f;
  // Before the second Present there is no frame time to show.
  if (items & kFps) out.push_back(count_ && total_ms > 0.0f ? printf_string("fps %.1f", 1000.0 * count_ / total_ms) : "fps -");
  if (items & kFrameTimes) out.push_back(count_ ? printf_string("frame %.1f ms", last_ms) : "frame -");
  if (items & kDraws) out.push_back("draws " + std::to_string(f.draws));
  if (items & kPipelines) out.push_back("pipelines " + std::to_string(f.pipelines));
  if (items & kMemory) out.push_back(memory_text(f.memory_bytes));
  if (items & kBackend) out.push_back("backend " + f.backend);
  if (items & kVersion) out.push_back("novem " + f.version);
  for (std::string &line : out) line.resize(std::min<size_t>(line.size(), kPanelChars));
  return out;
}

std::vector<Vertex> Overlay::vertices(uint32_t width, uint32_t height, const Figures &figures) const {
  const std::vector<std::string> text = lines(figures);
  const bool graph = settings_.items & kFrameTimes;
  const float s = float(settings_.scale);
  const float panel_w = kPanelWidth * s;
  const float panel_h = (2 * kPadding + kLineHeight * text.size() + (graph ? kGraphHeight + kPadding : 0)) * s;
  const bool right = settings_.corner == Corner::kTopRight || settings_.corner == Corner::kBottomRight;
  const bool bottom = settings_.corner == Corner::kBottomLeft || settings_.corner == Corner::kBottomRight;
  const float left = right ? float(width) - kMargin * s - panel_w : kMargin * s;
  const float top = bottom ? float(height) - kMargin * s - panel_h : kMargin * s;

  Quads q(width, height);
  q.add(left, top, left + panel_w, top + panel_h, kSolidGlyph, kPanel);
  float y = top + kPadding * s;
  for (size_t i = 0; i < text.size(); ++i) {
    float x = left + kPadding * s;
    for (char ch : text[i]) {
      const uint32_t c = uint8_t(ch);
      if (c > kFirstGlyph && c < kSolidGlyph) q.add(x, y, x + 8 * s, y + 8 * s, c, kWhite);
      x += 8 * s;
    }
    y += kLineHeight * s;
    // The graph goes under the frame-time line: the oldest frame on the left.
    const bool frame_line = graph && i == ((settings_.items & kFps) ? 1u : 0u);
    if (!frame_line) continue;
    const float base = y + kGraphHeight * s;
    for (uint32_t k = 0; k < count_; ++k) {
      const float ms = frame_ms_[(next_ + kFrames - count_ + k) % kFrames];
      const float h = std::max(1.0f, std::min(ms / kGraphMs, 1.0f) * kGraphHeight) * s;
      const float x0 = left + kPadding * s + float((kFrames - count_ + k) * kBarWidth) * s;
      q.add(x0, std::round(base - h), x0 + kBarWidth * s, base, kSolidGlyph, ms > 1000.0f / 30 ? kSlowBar : kBar);
    }
    const float sixty = std::round(base - 1000.0f / 60 / kGraphMs * kGraphHeight * s);
    q.add(left + kPadding * s, sixty, left + panel_w - kPadding * s, sixty + s, kSolidGlyph, kSixtyHz);
    y += (kGraphHeight + kPadding) * s;
  }
  return q.take();
}

} // namespace novem::hud
