// NOVEM_LOG=trace: every D3D9 call a program makes, with its arguments and its result, one line
// each ("novem: IDirect3DDevice9Ex::SetRenderState(State 7, Value 1) = D3D_OK"), as wined3d's TRACE
// channel gives them. The traced objects' overrides are generated from d3d9.h (com-forward
// --trace, frontend/CMakeLists.txt); each returns traced(...) around the real call. A call the
// implementation makes to its own methods is not a program's call: only the outermost is traced.
#pragma once

#include <cstdio>
#include <string>
#include <type_traits>
#include <utility>

#include "com.hpp"

namespace novem {

// Whether NOVEM_LOG asks for the call trace (read once).
bool call_trace_enabled();

namespace call_trace {

// How deep the calling thread is inside traced methods.
int &depth();
// "D3D_OK", "D3DERR_INVALIDCALL", ... or the number in hex.
std::string result_name(HRESULT result);
void write(const char *method, const std::string &arguments, const std::string &result);

template <class T> void append_value(std::string &out, const T &value) {
  char text[64];
  if constexpr (std::is_pointer_v<T>) {
    if (!value) return void(out += "NULL");
    std::snprintf(text, sizeof text, "%p", static_cast<const void *>(value));
  } else if constexpr (std::is_same_v<T, GUID>) {
    std::snprintf(text, sizeof text, "{%08lx-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x}",
                  static_cast<unsigned long>(value.Data1), value.Data2, value.Data3, value.Data4[0], value.Data4[1],
                  value.Data4[2], value.Data4[3], value.Data4[4], value.Data4[5], value.Data4[6], value.Data4[7]);
  } else if constexpr (std::is_enum_v<T>) {
    std::snprintf(text, sizeof text, "%lld", static_cast<long long>(value));
  } else if constexpr (std::is_floating_point_v<T>) {
    std::snprintf(text, sizeof text, "%g", static_cast<double>(value));
  } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    std::snprintf(text, sizeof text, "%lld", static_cast<long long>(value));
  } else if constexpr (std::is_integral_v<T>) {
    // Flags and colours read best in hex, counts and indices in decimal.
    std::snprintf(text, sizeof text, value > 0xffff ? "%#llx" : "%llu", static_cast<unsigned long long>(value));
  } else {
    std::snprintf(text, sizeof text, "{%zu bytes}", sizeof(T)); // a structure passed by value
  }
  out += text;
}

// "name value, name value" from "name, name" and the values in the same order.
inline std::string arguments(const char *) { return {}; }
template <class... Args> std::string arguments(const char *names, const Args &...values) {
  std::string out;
  const char *name = names;
  auto one = [&](const auto &value) {
    const char *end = name;
    while (*end && *end != ',') ++end;
    if (!out.empty()) out += ", ";
    out.append(name, end);
    out += ' ';
    append_value(out, value);
    name = *end ? end + 2 : end; // ", "
  };
  (one(values), ...);
  return out;
}

} // namespace call_trace

// Runs `call` (a method of the base class) and, for a call from the program, writes its line.
template <class Call, class... Args> auto traced(const char *method, const char *names, Call &&call, const Args &...values) {
  using Result = decltype(call());
  const bool outermost = call_trace::depth()++ == 0;
  struct Leave {
    ~Leave() { --call_trace::depth(); }
  } leave;
  if constexpr (std::is_void_v<Result>) {
    call();
    if (outermost) call_trace::write(method, call_trace::arguments(names, values...), "");
  } else {
    Result result = call();
    if (outermost) {
      std::string text;
      if constexpr (std::is_same_v<Result, HRESULT>) text = call_trace::result_name(result);
      else call_trace::append_value(text, result);
      call_trace::write(method, call_trace::arguments(names, values...), text);
    }
    return result;
  }
}

} // namespace novem
