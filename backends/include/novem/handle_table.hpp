// A plugin's objects (buffers, images, shaders) under the contract's 32-bit handles, and one
// policy for commands that name a handle wrongly, the same on every plugin.
//
// A handle names one object from its CREATE to its DESTROY. A CREATE of handle 0 or of a handle
// that names an object, and a command that acts on a handle naming none (UPDATE_*, DESTROY_*,
// READ_IMAGE, BLIT_IMAGE, …), are contract violations: one line on the log ("novem-vulkan:
// DESTROY_IMAGE: image 7 does not exist; the command is skipped"), at most kReported of them per
// device, then one saying the rest are not; the command does nothing. Binding commands
// (SET_TEXTURE, SET_VERTEX_BUFFER, SET_RENDER_TARGETS, …) may name a handle with no object, which
// the contract defines (an empty texture slot samples (0, 0, 0, 1)): they look up with find(),
// which is quiet. Handles of creations that failed are for novem/failed_creations.hpp, which the
// plugin asks first.
//
// The frontend takes every handle of every kind from one counter that only grows (never reused,
// for the process's life), so a kind's handles are neither small nor dense: an array indexed by
// handle would grow with every object ever made. A hash table keeps find() O(1) with no
// allocation, as the plugins' draw paths need.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <utility>

#include "novem/command_table.hpp"
#include "novem/log.hpp"

namespace novem {

// Where a device's contract violations are written (a handle named wrongly here, a command's
// arguments in command_checks.hpp), with their flood guard: one line each, the same words on
// every plugin, and the command does nothing.
class ContractViolations {
public:
  static constexpr int kReported = 16;

  // component: the plugin's name on its lines ("novem-vulkan").
  explicit ContractViolations(const char *component, Logger &logger = process_logger())
      : component_(component), logger_(logger) {}

  void report(uint16_t opcode, const char *kind, uint32_t handle, const char *problem) {
    if (budget_.take(logger_, LogLevel::error, component_))
      logger_.write(LogLevel::error, component_, "%s: %s %u %s; the command is skipped", opcode_name(opcode), kind,
                    handle, problem);
  }
  void report(uint16_t opcode, const char *problem) {
    if (budget_.take(logger_, LogLevel::error, component_))
      logger_.write(LogLevel::error, component_, "%s: %s; the command is skipped", opcode_name(opcode), problem);
  }

private:
  const char *component_;
  Logger &logger_;
  LogBudget budget_{kReported};
};

namespace detail {
// What a table slot holds and the object find() answers: a value, or what a unique_ptr owns (for
// objects whose address must outlive their slot, such as one freed later by a retire queue).
template <class T> struct HandleSlot {
  using Object = T;
  static T *object(T &slot) { return &slot; }
};
template <class U, class D> struct HandleSlot<std::unique_ptr<U, D>> {
  using Object = U;
  static U *object(std::unique_ptr<U, D> &slot) { return slot.get(); }
};
} // namespace detail

template <class T> class HandleTable {
public:
  using Object = typename detail::HandleSlot<T>::Object;

  // kind: the objects' name on the violation lines ("buffer").
  HandleTable(const char *kind, ContractViolations &violations) : kind_(kind), violations_(violations) {}

  // The object under handle, or nullptr (0 and handles naming nothing), quietly.
  Object *find(uint32_t handle) {
    if (!handle) return nullptr;
    auto it = slots_.find(handle);
    return it == slots_.end() ? nullptr : detail::HandleSlot<T>::object(it->second);
  }
  const Object *find(uint32_t handle) const { return const_cast<HandleTable *>(this)->find(handle); }

  // The object under handle for a command that acts on it: naming none is a violation.
  Object *get(uint32_t handle, uint16_t opcode) {
    Object *object = find(handle);
    if (!object) violations_.report(opcode, kind_, handle, "does not exist");
    return object;
  }

  // Whether a CREATE may put an object under handle: 0, or a handle naming an object, is a
  // violation. Asked before the object is made, so that a refused CREATE makes nothing.
  bool vacant(uint32_t handle, uint16_t opcode) {
    if (!handle) violations_.report(opcode, kind_, handle, "is no handle");
    else if (slots_.count(handle)) violations_.report(opcode, kind_, handle, "already exists");
    else return true;
    return false;
  }

  // Puts slot under handle (a CREATE, or a rename after take). Where the handle is not vacant(),
  // slot is dropped, the object there stays, and the answer is nullptr.
  Object *insert(uint32_t handle, T slot, uint16_t opcode) {
    if (!vacant(handle, opcode)) return nullptr;
    return detail::HandleSlot<T>::object(slots_.try_emplace(handle, std::move(slot)).first->second);
  }

  // Takes the slot out (a DESTROY); a handle naming nothing is a violation (handle 0, which names
  // nothing by definition, is not).
  std::optional<T> take(uint32_t handle, uint16_t opcode) {
    auto it = slots_.find(handle);
    if (it == slots_.end()) {
      if (handle) violations_.report(opcode, kind_, handle, "does not exist");
      return std::nullopt;
    }
    std::optional<T> slot(std::move(it->second));
    slots_.erase(it);
    return slot;
  }

  size_t size() const { return slots_.size(); }
  // Every (handle, slot), in no particular order.
  auto begin() { return slots_.begin(); }
  auto end() { return slots_.end(); }
  void clear() { slots_.clear(); }

private:
  const char *kind_;
  ContractViolations &violations_;
  std::unordered_map<uint32_t, T> slots_;
};

} // namespace novem
