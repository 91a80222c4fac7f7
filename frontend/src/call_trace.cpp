#include "call_trace.hpp"

#include "novem/log.hpp"

namespace novem {

bool call_trace_enabled() {
  static const bool enabled = process_logger().enabled(LogLevel::trace);
  return enabled;
}

namespace call_trace {

int &depth() {
  thread_local int calls = 0;
  return calls;
}

std::string result_name(HRESULT result) {
  static const struct {
    HRESULT value;
    const char *name;
  } kNames[] = {
      {D3D_OK, "D3D_OK"},
      {S_FALSE, "S_FALSE"},
      {D3DERR_INVALIDCALL, "D3DERR_INVALIDCALL"},
      {D3DERR_NOTAVAILABLE, "D3DERR_NOTAVAILABLE"},
      {D3DERR_OUTOFVIDEOMEMORY, "D3DERR_OUTOFVIDEOMEMORY"},
      {E_OUTOFMEMORY, "E_OUTOFMEMORY"},
      {E_NOINTERFACE, "E_NOINTERFACE"},
      {E_NOTIMPL, "E_NOTIMPL"},
      {E_FAIL, "E_FAIL"},
      {D3DERR_DEVICELOST, "D3DERR_DEVICELOST"},
      {D3DERR_DEVICENOTRESET, "D3DERR_DEVICENOTRESET"},
      {D3DERR_NOTFOUND, "D3DERR_NOTFOUND"},
      {D3DERR_MOREDATA, "D3DERR_MOREDATA"},
      {D3DERR_WASSTILLDRAWING, "D3DERR_WASSTILLDRAWING"},
      {D3DERR_DEVICEREMOVED, "D3DERR_DEVICEREMOVED"},
      {D3DERR_DEVICEHUNG, "D3DERR_DEVICEHUNG"},
      {S_PRESENT_OCCLUDED, "S_PRESENT_OCCLUDED"},
      {S_PRESENT_MODE_CHANGED, "S_PRESENT_MODE_CHANGED"},
      {D3DERR_UNSUPPORTEDTEXTUREFILTER, "D3DERR_UNSUPPORTEDTEXTUREFILTER"},
      {D3DERR_CONFLICTINGRENDERSTATE, "D3DERR_CONFLICTINGRENDERSTATE"},
      {D3DERR_TOOMANYOPERATIONS, "D3DERR_TOOMANYOPERATIONS"},
  };
  for (const auto &n : kNames)
    if (n.value == result) return n.name;
  char text[16];
  std::snprintf(text, sizeof text, "%#lx", static_cast<unsigned long>(static_cast<ULONG>(result)));
  return text;
}

void write(const char *method, const std::string &arguments, const std::string &result) {
  process_logger().write(LogLevel::trace, "novem", "%s(%s)%s%s", method, arguments.c_str(), result.empty() ? "" : " = ",
                         result.c_str());
}

} // namespace call_trace
} // namespace novem
