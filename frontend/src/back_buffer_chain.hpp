// A swap chain's buffers: BackBufferCount back buffers, each a render-target surface whose
// container is the swap chain, and the front buffer, a plugin image that GetFrontBufferData reads
// and a window shows. The device keeps the implicit swap chain's; an additional swap chain has
// its own. Present gives the front buffer back buffer 0's frame as the swap effect says
// (docs/d3d9-behaviour.md, "Presentation"):
//  - FLIP (and D3D9Ex's FLIPEX): the back buffers and the front buffer are a ring that Present
//    turns by one, as D3DSWAPEFFECT documents: back buffer 0's image becomes the front buffer,
//    back buffer i takes i + 1's and the last one the old front buffer's. Images move, the
//    surface objects stay, as in Windows, where a flip exchanges the memory under the surfaces
//    (so GetBackBuffer(0) and render target 0 are still "back buffer 0"). Nothing is copied.
//  - COPY, and DISCARD (whose contents Windows leaves undefined): the back buffers keep their
//    contents and the front buffer gets a copy of back buffer 0, deferred to its next use
//    (Surface::defer_front_copy), or resolved at once from a multisampled one.
#pragma once

#include <cstdint>
#include <vector>

#include <d3d9.h>

namespace novem {

class Device;
class Surface;

class BackBufferChain {
public:
  BackBufferChain() = default;
  // A back buffer owed a front copy points at front_image_: the chain stays where it was made.
  BackBufferChain(const BackBufferChain &) = delete;
  BackBufferChain &operator=(const BackBufferChain &) = delete;

  // Makes the buffers for presentation parameters check_present_parameters accepted:
  // BackBufferCount back buffers (lockable with D3DPRESENTFLAG_LOCKABLE_BACKBUFFER) and a front
  // image like them, opaque black until the first Present. `swap_chain` is the back buffers'
  // container: an additional swap chain, or NULL for the device's implicit one.
  void create(Device &device, const D3DPRESENT_PARAMETERS &pp, IDirect3DSwapChain9 *swap_chain);
  // Lets the buffers go. A back buffer the application still holds (an additional swap chain's,
  // released first) lives on as a plain render target of the device.
  void destroy(Device &device);

  UINT count() const { return UINT(back_buffers_.size()); }
  Surface &back_buffer(UINT index) const { return *back_buffers_[index]; }
  // GetBackBuffer's answer, through the device or a swap chain: back buffer `index` with a
  // reference, or D3DERR_INVALIDCALL past the last one with *surface left as it was (as Windows'
  // swap chains; the device's GetBackBuffer clears it first). The type is not asked: Windows
  // ignores it (no stereo back buffers), as Wine's test_swapchain records.
  HRESULT get(UINT index, IDirect3DSurface9 **surface) const;
  // Whether the application holds one of the back buffers (Reset refuses then).
  bool held() const;
  // Present's part for parameters `pp` (the chain's): gives the front buffer back buffer 0's
  // frame and returns the image that holds that frame now, for a window to show. The back
  // buffers' images may change: render-target bindings must be sent again.
  uint32_t present(Device &device, const D3DPRESENT_PARAMETERS &pp);
  // The front buffer's image for a readback: a copy still owed to it is made first.
  uint32_t front_image() const;

private:
  std::vector<Surface *> back_buffers_; // private references
  uint32_t front_image_ = 0;
};

} // namespace novem
