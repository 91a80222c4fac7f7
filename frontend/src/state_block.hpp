// IDirect3DStateBlock9: a copy of part of a device's state (a TrackedState, whose mask says which
// parts the block holds). CreateStateBlock fills the mask with the lists Windows documents for
// D3DSBT_ALL, D3DSBT_PIXELSTATE and D3DSBT_VERTEXSTATE; BeginStateBlock/EndStateBlock fill it with
// what the application set in between (the device's Set* calls write into the block then, through
// the same setters as its live state). Capture refreshes what the block holds from the device; Apply sets
// it on the device through the device's own Set* methods, so the dirty tracking is the same.
//
// The block holds a private reference on each object it holds (buffers, textures, shaders,
// declarations), as the device does for what is bound, and a reference on its device.
#pragma once

#include "device_child.hpp"
#include "tracked_state.hpp"

namespace novem {

// Drops the private reference `state` holds on each object bound in it (buffers, textures,
// declaration, shaders), as the device (Reset) and a state block (its destruction) must.
void release_bound_objects(DeviceState &state);

class StateBlock final : public DeviceObject<IDirect3DStateBlock9> {
public:
  // A block holding what `mask` names of the device's current state (`public_refs` 1), or a
  // block to record into (an empty mask, `public_refs` 0 until EndStateBlock hands it out).
  StateBlock(Device *device, const StateMask &mask, ULONG public_refs);
  ~StateBlock() override;

  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID iid, void **out) override {
    return query(iid, IID_IDirect3DStateBlock9, out);
  }
  HRESULT STDMETHODCALLTYPE Capture() override;
  HRESULT STDMETHODCALLTYPE Apply() override;

  // What the device's Set* calls write while this block records (Device::update_).
  TrackedState &recording() { return block_; }

private:
  // Copies what the mask names from `from` into this block's state, references included.
  // `capture`: a Capture after the block was made, which has Windows' two exceptions.
  void copy_from(const DeviceState &from, bool capture);
  void apply_lights();
  void apply_constants(bool pixel);

  TrackedState block_; // its holds: what the block holds
  const bool recorded_; // made by BeginStateBlock/EndStateBlock, not CreateStateBlock
};

} // namespace novem
