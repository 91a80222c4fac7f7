// IDirect3DStateBlock9: a copy of part of a device's state (a DeviceState) and a mask saying
// which parts the block holds. CreateStateBlock fills the mask with the lists Windows documents
// for D3DSBT_ALL, D3DSBT_PIXELSTATE and D3DSBT_VERTEXSTATE; BeginStateBlock/EndStateBlock fill it
// with what the application set in between (the device calls the record_* methods then, instead
// of changing its own state). Capture refreshes what the block holds from the device; Apply sets
// it on the device through the device's own Set* methods, so the dirty tracking is the same.
//
// The block holds a private reference on each object it holds (buffers, textures, shaders,
// declarations), as the device does for what is bound, and a reference on its device.
#pragma once

#include <bitset>
#include <set>

#include "device_child.hpp"
#include "state.hpp"

namespace novem {

// Which parts of a DeviceState a state block holds.
struct StateMask {
  // Bits for the largest files (kSoftwareVertexConstantFiles); a stage's own files use the first ones.
  struct Constants {
    std::bitset<kSoftwareVertexConstantFiles.f> f;
    std::bitset<kSoftwareVertexConstantFiles.i> i, b;
  };

  std::bitset<D3DRS_BLENDOPALPHA + 1> render_states;
  std::bitset<512> transforms;
  bool viewport = false, scissor_rect = false, material = false;
  bool all_lights = false; // every light the device has when captured (D3DSBT_ALL, D3DSBT_VERTEXSTATE)
  std::set<DWORD> lights;  // lights recorded one by one (parameters and enable together)
  std::bitset<DeviceState::kClipPlanes> clip_planes;
  bool vertex_declaration = false; // the declaration and the FVF together
  bool vertex_shader = false, pixel_shader = false;
  Constants vs_constants, ps_constants;
  std::bitset<NV_MAX_VERTEX_BUFFERS> streams, stream_frequencies;
  bool indices = false;
  std::bitset<DeviceState::kTextureSlots> textures;
  std::array<std::bitset<D3DSAMP_DMAPOFFSET + 1>, DeviceState::kTextureSlots> sampler_states;
  std::array<std::bitset<D3DTSS_CONSTANT + 1>, DeviceState::kTextureStages> texture_stage_states;

  // The documented lists ("Saving Pixel States / Vertex States / All Device States with a
  // Stateblock", Direct3D 9 docs).
  static StateMask for_type(D3DSTATEBLOCKTYPE type);
};

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

  // What the device calls while this block records (after validating the call as usual).
  HRESULT record_render_state(D3DRENDERSTATETYPE state, DWORD value);
  HRESULT record_transform(D3DTRANSFORMSTATETYPE state, const D3DMATRIX &matrix);
  HRESULT record_viewport(const D3DVIEWPORT9 &viewport);
  HRESULT record_scissor_rect(const RECT &rect);
  HRESULT record_material(const D3DMATERIAL9 &material);
  HRESULT record_light(DWORD index, const D3DLIGHT9 &light);
  HRESULT record_light_enable(DWORD index, bool enable);
  HRESULT record_clip_plane(DWORD index, const float plane[4]);
  HRESULT record_vertex_declaration(VertexDeclaration *declaration, DWORD fvf);
  HRESULT record_fvf(DWORD fvf, VertexDeclaration *declaration); // declaration: nullptr for FVF 0
  HRESULT record_vertex_shader(VertexShader *shader);
  HRESULT record_pixel_shader(PixelShader *shader);
  // Float, integer and boolean constants: `kind` 'f', 'i' or 'b'; `data` as the Set* call got it.
  HRESULT record_constants(bool pixel, char kind, UINT start, const void *data, UINT count);
  HRESULT record_stream_source(UINT stream, VertexBuffer *buffer, UINT offset, UINT stride);
  HRESULT record_stream_frequency(UINT stream, UINT frequency);
  HRESULT record_indices(IndexBuffer *buffer);
  HRESULT record_texture(uint32_t slot, Texture *texture);
  HRESULT record_sampler_state(uint32_t slot, D3DSAMPLERSTATETYPE state, DWORD value);
  HRESULT record_texture_stage_state(DWORD stage, D3DTEXTURESTAGESTATETYPE state, DWORD value);

private:
  // Copies what the mask names from `from` into this block's state, references included.
  // `capture`: a Capture after the block was made, which has Windows' two exceptions.
  void copy_from(const DeviceState &from, bool capture);
  void apply_lights();
  void apply_constants(bool pixel);

  StateMask mask_;
  DeviceState state_;
  const bool recorded_; // made by BeginStateBlock/EndStateBlock, not CreateStateBlock
};

} // namespace novem
