// State blocks on the device's side: CreateStateBlock, BeginStateBlock, EndStateBlock. The
// blocks themselves are in state_block.cpp.
#include "device.hpp"
#include "state_block.hpp"

namespace novem {

HRESULT Device::CreateStateBlock(D3DSTATEBLOCKTYPE type, IDirect3DStateBlock9 **block) {
  if (!block) return D3DERR_INVALIDCALL;
  *block = nullptr;
  if (type != D3DSBT_ALL && type != D3DSBT_PIXELSTATE && type != D3DSBT_VERTEXSTATE) return D3DERR_INVALIDCALL;
  if (recording_) return D3DERR_INVALIDCALL; // as Wine and DXVK do
  *block = new StateBlock(this, StateMask::for_type(type), 1);
  AddRef();
  return D3D_OK;
}

HRESULT Device::BeginStateBlock() {
  if (recording_) return D3DERR_INVALIDCALL; // no nesting
  // The block holds no reference on the device until EndStateBlock hands it out, so that a
  // device released while recording is still destroyed.
  recording_ = new StateBlock(this, StateMask{}, 0);
  recording_->add_private_ref();
  update_ = &recording_->recording();
  return D3D_OK;
}

HRESULT Device::EndStateBlock(IDirect3DStateBlock9 **block) {
  if (!block || !recording_) return D3DERR_INVALIDCALL;
  StateBlock *recorded = recording_;
  recording_ = nullptr;
  update_ = &live_;
  recorded->AddRef(); // the application's reference (and the block's on the device)
  recorded->release_private_ref();
  *block = recorded;
  return D3D_OK;
}

} // namespace novem
