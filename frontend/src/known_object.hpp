// Turning an interface pointer the application hands back (SetTexture, SetStreamSource,
// StretchRect, ...) into Novem's object without calling through it, as native d3d9 does: the first
// word of every COM object is its vtable pointer, and each of Novem's final classes has one of its
// own. A pointer whose vtable is not that class's (an object the application wrapped, or whose
// memory it overwrote) is not Novem's object: the caller answers D3DERR_INVALIDCALL, and none of
// the application's code runs inside Novem.
#pragma once

#include <atomic>
#include <cstring>

namespace novem {

namespace detail {
template <class Impl> inline std::atomic<const void *> known_vtable{nullptr};
inline const void *first_word(const void *object) {
  const void *word;
  std::memcpy(&word, object, sizeof word);
  return word;
}
} // namespace detail

// Called by Impl's constructor on itself: Impl is final, so its vtable is the object's by then.
// Iface is the interface at the object's start (Impl's first base).
template <class Impl, class Iface> void remember_vtable(Impl *self) {
  detail::known_vtable<Impl>.store(detail::first_word(static_cast<Iface *>(self)), std::memory_order_relaxed);
}

// The Impl behind iface, or nullptr when iface is null or not an Impl of Novem's. Iface may be a
// base of Impl's interface (IDirect3DBaseTexture9): the cast is made only once the vtable says
// the object is an Impl.
template <class Impl, class Iface> Impl *known_object(Iface *iface) {
  if (!iface) return nullptr;
  const void *vtable = detail::known_vtable<Impl>.load(std::memory_order_relaxed);
  return vtable && detail::first_word(iface) == vtable ? static_cast<Impl *>(iface) : nullptr;
}

} // namespace novem
