#include "creation_answer.hpp"

#include "command_stream.hpp"
#include "device.hpp"

namespace novem {

HRESULT plugin_answer(Device &device, PluginResource kind, uint32_t handle, uint64_t bytes, D3DPOOL pool) {
  if (!handle) return D3D_OK;
  CommandStream &cs = device.commands();
  const nv_channel &channel = cs.channel();
  Device::CreationFailures &failures = device.creation_failures();
  // More failures than were answered: a creation that did not wait was not made, so the device's
  // memory is spent, and from then on every creation waits for its answer.
  if (channel.creation_failures.load(std::memory_order_relaxed) > failures.answered) failures.memory_spent = true;
  if (bytes < kAnsweredBytes && !failures.memory_spent) return D3D_OK;
  cs.wait(cs.fence());
  const uint32_t failed = (kind == PluginResource::Image ? channel.failed_image : channel.failed_buffer)
                              .load(std::memory_order_acquire);
  if (failed != handle) return D3D_OK;
  ++failures.answered;
  return pool == D3DPOOL_DEFAULT && !device.extended() ? D3DERR_OUTOFVIDEOMEMORY : E_OUTOFMEMORY;
}

} // namespace novem
