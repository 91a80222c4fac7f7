#include "creation_answer.hpp"

#include "command_stream.hpp"
#include "device.hpp"

namespace novem {

HRESULT plugin_answer(Device &device, PluginResource kind, uint32_t handle, uint64_t bytes, D3DPOOL pool) {
  if (!handle || bytes < kAnsweredBytes) return D3D_OK;
  CommandStream &cs = device.commands();
  cs.wait(cs.fence());
  const nv_channel &channel = cs.channel();
  const uint32_t failed = (kind == PluginResource::Image ? channel.failed_image : channel.failed_buffer)
                              .load(std::memory_order_acquire);
  if (failed != handle) return D3D_OK;
  return pool == D3DPOOL_DEFAULT && !device.extended() ? D3DERR_OUTOFVIDEOMEMORY : E_OUTOFMEMORY;
}

} // namespace novem
