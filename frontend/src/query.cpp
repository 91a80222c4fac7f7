#include "query.hpp"

#include <cstring>

namespace novem {

namespace {

// Plugins report timestamps in nanoseconds.
constexpr UINT64 kTimestampFrequency = 1000000000ull;

} // namespace

bool Query::supported(D3DQUERYTYPE type) {
  switch (type) {
  case D3DQUERYTYPE_EVENT:
  case D3DQUERYTYPE_OCCLUSION:
  case D3DQUERYTYPE_TIMESTAMP:
  case D3DQUERYTYPE_TIMESTAMPDISJOINT:
  case D3DQUERYTYPE_TIMESTAMPFREQ:
    return true;
  default:
    return false;
  }
}

Query::Query(Device *device, D3DQUERYTYPE type, uint32_t slot) : DeviceObject(device, 1), type_(type), slot_(slot) {}

Query::~Query() {
  // A query released while counting stops counting, so its slot is free for another query.
  if (state_ == State::kBuilding && type_ == D3DQUERYTYPE_OCCLUSION)
    device_->commands().push(nv_cmd_end_query{slot_, NV_QUERY_OCCLUSION});
  if (needs_slot(type_)) device_->release_query_slot(slot_);
}

DWORD Query::GetDataSize() {
  switch (type_) {
  case D3DQUERYTYPE_EVENT: return sizeof(BOOL);
  case D3DQUERYTYPE_OCCLUSION: return sizeof(DWORD);
  case D3DQUERYTYPE_TIMESTAMP: return sizeof(UINT64);
  case D3DQUERYTYPE_TIMESTAMPDISJOINT: return sizeof(BOOL);
  case D3DQUERYTYPE_TIMESTAMPFREQ: return sizeof(UINT64);
  default: return 0;
  }
}

void Query::begin() {
  if (type_ == D3DQUERYTYPE_OCCLUSION)
    device_->commands().push(nv_cmd_begin_query{slot_, NV_QUERY_OCCLUSION});
  state_ = State::kBuilding;
}

void Query::end() {
  CommandStream &cs = device_->commands();
  if (type_ == D3DQUERYTYPE_OCCLUSION)
    cs.push(nv_cmd_end_query{slot_, NV_QUERY_OCCLUSION});
  else if (type_ == D3DQUERYTYPE_TIMESTAMP)
    cs.push(nv_cmd_end_query{slot_, NV_QUERY_TIMESTAMP});
  // The answer comes with the next fence; it is pushed by GetData(FLUSH), Present or a readback,
  // never here, so that many queries cost no submission each.
  fence_ = cs.next_fence();
  state_ = State::kIssued;
  ever_issued_ = true;
}

// BEGIN is meaningful for OCCLUSION and TIMESTAMPDISJOINT (beginning one that is building
// restarts it); for the other types it is accepted and ignored, as DXVK does. END on an
// OCCLUSION query that was not begun measures an empty interval (0 samples).
HRESULT Query::Issue(DWORD flags) {
  DeviceLock lock(*device_); // pushes to the ring other threads' calls push to
  if (flags == D3DISSUE_BEGIN) {
    if (type_ == D3DQUERYTYPE_OCCLUSION || type_ == D3DQUERYTYPE_TIMESTAMPDISJOINT) begin();
    return D3D_OK;
  }
  if (flags != D3DISSUE_END) return D3DERR_INVALIDCALL;
  end();
  return D3D_OK;
}

// S_FALSE until the answer is there; never waits. A query that was never issued is in D3D9's
// initial (signaled) state and answers at once: an event TRUE, counts and times 0.
HRESULT Query::GetData(void *data, DWORD size, DWORD flags) {
  if ((size && !data) || (data && size < GetDataSize()) || (flags & ~DWORD(D3DGETDATA_FLUSH))) return D3DERR_INVALIDCALL;
  DeviceLock lock(*device_); // reads the fences and pushes one, as other threads' calls do
  CommandStream &cs = device_->commands();
  if (state_ == State::kBuilding) return S_FALSE;
  if (state_ == State::kIssued) {
    if (!cs.completed(fence_)) {
      if ((flags & D3DGETDATA_FLUSH) && fence_ == cs.next_fence()) cs.fence();
      return cs.channel().device_lost.load() ? D3DERR_DEVICELOST : S_FALSE;
    }
    state_ = State::kSignaled;
  }
  if (!data) return S_OK;
  const uint64_t result = ever_issued_ && needs_slot(type_) ? cs.channel().query_results[slot_].load() : 0;
  switch (type_) {
  case D3DQUERYTYPE_EVENT: {
    BOOL signaled = TRUE;
    std::memcpy(data, &signaled, sizeof signaled);
    break;
  }
  case D3DQUERYTYPE_OCCLUSION: {
    DWORD samples = DWORD(std::min<uint64_t>(result, 0xFFFFFFFFu));
    std::memcpy(data, &samples, sizeof samples);
    break;
  }
  case D3DQUERYTYPE_TIMESTAMP: {
    UINT64 time = result;
    std::memcpy(data, &time, sizeof time);
    break;
  }
  case D3DQUERYTYPE_TIMESTAMPDISJOINT: {
    BOOL disjoint = FALSE; // the timestamp clock never changes frequency
    std::memcpy(data, &disjoint, sizeof disjoint);
    break;
  }
  case D3DQUERYTYPE_TIMESTAMPFREQ: {
    UINT64 frequency = kTimestampFrequency;
    std::memcpy(data, &frequency, sizeof frequency);
    break;
  }
  default:
    break;
  }
  return S_OK;
}

HRESULT Device::CreateQuery(D3DQUERYTYPE type, IDirect3DQuery9 **out) {
  if (!Query::supported(type)) {
    if (out) *out = nullptr;
    return D3DERR_NOTAVAILABLE;
  }
  if (!out) return D3D_OK; // asks only whether the type is supported
  *out = nullptr;
  uint32_t slot = 0;
  if (Query::needs_slot(type) && !acquire_query_slot(slot)) return E_OUTOFMEMORY;
  *out = new Query(this, type, slot);
  AddRef();
  return D3D_OK;
}

bool Device::acquire_query_slot(uint32_t &slot) {
  if (!free_query_slots_.empty()) {
    slot = free_query_slots_.back();
    free_query_slots_.pop_back();
    return true;
  }
  if (query_slots_used_ == NV_MAX_QUERIES) return false;
  slot = query_slots_used_++;
  return true;
}

void Device::release_query_slot(uint32_t slot) { free_query_slots_.push_back(slot); }

} // namespace novem
