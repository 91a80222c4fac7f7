// IDirect3DQuery9: EVENT, OCCLUSION, TIMESTAMP, TIMESTAMPDISJOINT and TIMESTAMPFREQ queries.
//
// An issued query remembers the fence value its answer comes with; GetData compares it with the
// channel's completed fence and never waits. Occlusion and timestamp answers come from the
// plugin through the channel's query_results[slot] (BEGIN_QUERY / END_QUERY); event,
// disjoint and frequency answers need no plugin work.
#pragma once

#include "device_child.hpp"

namespace novem {

class Query final : public DeviceObject<IDirect3DQuery9> {
public:
  // Whether Novem answers this type (CreateQuery with a NULL out pointer asks this).
  static bool supported(D3DQUERYTYPE type);
  // slot: a query slot of the device's (0 for the types that need none).
  Query(Device *device, D3DQUERYTYPE type, uint32_t slot);
  ~Query() override;

  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID iid, void **out) override { return query(iid, IID_IDirect3DQuery9, out); }
  D3DQUERYTYPE STDMETHODCALLTYPE GetType() override { return type_; }
  DWORD STDMETHODCALLTYPE GetDataSize() override;
  HRESULT STDMETHODCALLTYPE Issue(DWORD flags) override;
  HRESULT STDMETHODCALLTYPE GetData(void *data, DWORD size, DWORD flags) override;

  static bool needs_slot(D3DQUERYTYPE type) { return type == D3DQUERYTYPE_OCCLUSION || type == D3DQUERYTYPE_TIMESTAMP; }

private:
  enum class State { kSignaled, kBuilding, kIssued };
  void begin();
  void end();

  D3DQUERYTYPE type_;
  uint32_t slot_;
  State state_ = State::kSignaled;
  bool ever_issued_ = false;
  uint64_t fence_ = 0; // the fence value the answer comes with (kIssued)
};

} // namespace novem
