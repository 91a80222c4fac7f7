// Texture palettes: SetPaletteEntries/GetPaletteEntries/SetCurrentTexturePalette/
// GetCurrentTexturePalette store and answer palettes as Windows' runtime does, though no texture
// reads them: Novem has no palettized formats (CheckDeviceFormat refuses D3DFMT_P8 and A8P8, as
// modern Windows drivers do), as Wine notes of Windows ("the d3d9 palette API is non-functional
// on Windows. Getters and setters are implemented").
#include "device.hpp"

#include <algorithm>
#include <cstring>

namespace novem {

// The refusals are the runtime's: a NULL pointer, a palette number above 0xFFFF, and, because
// GetDeviceCaps does not report D3DPTEXTURECAPS_ALPHAPALETTE, an entry whose alpha (peFlags) is
// not 0xFF (SetPaletteEntries' documentation: "every entry in the palette must have alpha set
// to 1.0 or this method will fail with D3DERR_INVALIDCALL").
HRESULT Device::SetPaletteEntries(UINT number, const PALETTEENTRY *entries) {
  if (!entries || number > Palettes::kMaxNumber) return D3DERR_INVALIDCALL;
  D3DCAPS9 caps{};
  GetDeviceCaps(&caps);
  if (!(caps.TextureCaps & D3DPTEXTURECAPS_ALPHAPALETTE) &&
      std::any_of(entries, entries + Palettes::kEntries, [](const PALETTEENTRY &e) { return e.peFlags != 0xFF; }))
    return D3DERR_INVALIDCALL;
  std::memcpy(palettes_.entries[number].data(), entries, sizeof(PALETTEENTRY) * Palettes::kEntries);
  return D3D_OK;
}

// A palette never set has no entries to answer (the runtime refuses it as "palette not defined").
HRESULT Device::GetPaletteEntries(UINT number, PALETTEENTRY *entries) {
  if (!entries) return D3DERR_INVALIDCALL;
  const auto it = palettes_.entries.find(number);
  if (it == palettes_.entries.end()) return D3DERR_INVALIDCALL;
  std::memcpy(entries, it->second.data(), sizeof(PALETTEENTRY) * Palettes::kEntries);
  return D3D_OK;
}

// Only a palette already set may become the current one.
HRESULT Device::SetCurrentTexturePalette(UINT number) {
  if (!palettes_.entries.contains(number)) return D3DERR_INVALIDCALL;
  palettes_.current = number;
  return D3D_OK;
}

// Before any SetCurrentTexturePalette the answer is 0xFFFF, the runtime's "no palette".
HRESULT Device::GetCurrentTexturePalette(UINT *number) {
  if (!number) return D3DERR_INVALIDCALL;
  *number = palettes_.current;
  return D3D_OK;
}

} // namespace novem
