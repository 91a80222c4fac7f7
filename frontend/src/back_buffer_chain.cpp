#include "back_buffer_chain.hpp"

#include "device.hpp"
#include "surface.hpp"

namespace novem {

void BackBufferChain::create(Device &device, const D3DPRESENT_PARAMETERS &pp, IDirect3DSwapChain9 *swap_chain) {
  const bool lockable = pp.Flags & D3DPRESENTFLAG_LOCKABLE_BACKBUFFER;
  for (UINT i = 0; i < pp.BackBufferCount; ++i) {
    // Public count 0, as native d3d9's implicit surfaces: GetBackBuffer's reference is the first,
    // and it holds the device (DeviceObject::AddRef).
    Surface *back = Surface::create_image(&device, 0, pp.BackBufferWidth, pp.BackBufferHeight, pp.BackBufferFormat,
                                          D3DUSAGE_RENDERTARGET, pp.MultiSampleType, pp.MultiSampleQuality, lockable);
    back->add_private_ref();
    back->set_swap_chain(swap_chain);
    back_buffers_.push_back(back);
  }
  // Back buffer 0's size, format and usage, single-sampled (a multisampled frame is resolved into
  // it), so that a FLIP Present and Clear's exchange (Surface::take_front) can swap the images.
  CommandStream &cs = device.commands();
  const Surface &back = *back_buffers_[0];
  front_image_ = cs.new_handle();
  cs.push(nv_cmd_create_image{front_image_, back.format().storage, pp.BackBufferWidth,
                                                  pp.BackBufferHeight, back.image_usage(), 1});
  const nv_rect whole{0, 0, int32_t(pp.BackBufferWidth), int32_t(pp.BackBufferHeight)};
  cs.push(nv_cmd_fill_image{front_image_, 0, whole, {0.0f, 0.0f, 0.0f, 1.0f}});
}

void BackBufferChain::destroy(Device &device) {
  for (Surface *back : back_buffers_) {
    back->forget_front(); // front_image_ goes away with the chain
    back->leave_swap_chain();
    back->release_private_ref();
  }
  back_buffers_.clear();
  if (front_image_) device.commands().push(nv_cmd_destroy_image{front_image_});
  front_image_ = 0;
}

HRESULT BackBufferChain::get(UINT index, IDirect3DSurface9 **surface) const {
  if (index >= back_buffers_.size()) return D3DERR_INVALIDCALL;
  back_buffers_[index]->AddRef();
  *surface = back_buffers_[index];
  return D3D_OK;
}

bool BackBufferChain::held() const {
  for (const Surface *back : back_buffers_)
    if (back->public_count()) return true;
  return false;
}

uint32_t BackBufferChain::present(Device &device, const D3DPRESENT_PARAMETERS &pp) {
  Surface &first = *back_buffers_[0];
  if (pp.SwapEffect == D3DSWAPEFFECT_FLIP || pp.SwapEffect == D3DSWAPEFFECT_FLIPEX) {
    // The ring [back 0, ..., back n-1, front] turns by one. A flip chain is single-sampled
    // (check_present_parameters: multisampling needs DISCARD) and never owes a front copy.
    uint32_t image = front_image_;
    for (size_t i = back_buffers_.size(); i-- > 0;) back_buffers_[i]->exchange_image(image);
    front_image_ = image; // back buffer 0's: the frame
    return front_image_;
  }
  if (pp.MultiSampleType != D3DMULTISAMPLE_NONE) {
    const nv_rect whole{0, 0, int32_t(pp.BackBufferWidth), int32_t(pp.BackBufferHeight)};
    device.commands().push(nv_cmd_blit_image{first.image(), 0, whole, front_image_, 0, whole, NV_FILTER_POINT}); // resolves
    return front_image_;
  }
  // A single-sampled back buffer is shown as it is, and its copy into the front image waits for
  // the back buffer's next use (Surface::defer_front_copy): a frame that starts with a clear of
  // the whole back buffer exchanges the two images instead, and no copy is made. More than a copy
  // is saved: on llvmpipe a GL copy waits until the frame is rasterized, so a copy at every Present
  // kept the next frame's draws from overlapping this frame's rasterization.
  first.forget_front(); // a copy still owed by the previous Present: the back buffer is unchanged since
  const uint32_t shown = first.image();
  first.defer_front_copy(&front_image_);
  return shown;
}

uint32_t BackBufferChain::front_image() const {
  back_buffers_[0]->image(); // makes a deferred front copy
  return front_image_;
}

} // namespace novem
