// IDirect3DShaderValidator9 (Direct3DShaderValidatorCreate9): D3DX and shader tools hand it a
// shader one instruction at a time, between Begin and End, and learn through a callback what is
// wrong with it.
//
// Windows' behaviour is what Wine's d3d9 tests record (dlls/d3d9/tests/device.c,
// test_shader_validator); where they are silent, message numbers come from DXVK's validator
// (src/d3d9/d3d9_shader_validator.*), whose numbering agrees with Windows wherever Wine's tests
// check it. The validator
// checks the stream's shape (call order, the version token, instruction lengths, the end token)
// and the input registers of each instruction; docs/d3d9-behaviour.md says which rule comes
// from where.
//
// Two kinds of error, as on Windows:
//   - an error in the use of the interface or the stream's shape fails the call (E_FAIL) and
//     leaves the validator failed: every later call fails, Begin with message 0xeb. A program
//     makes a new validator (Windows' and Wine's tests do).
//   - an error in an instruction's registers is a message; the call succeeds and the shader goes
//     on, and End answers E_FAIL and makes the validator ready for the next Begin.
//
// A validator belongs to one thread at a time (D3DX makes one per shader); it takes no lock.
#pragma once

#include <atomic>
#include <cstdint>

#include <d3d9_shader_validator.h>

#include "bytecode.hpp"

namespace novem {

// The message numbers a callback receives (message_id), Windows' numbering.
enum class ValidatorMessage : uint32_t {
  kBeginOutOfOrder = 0xeb,       // Begin while a shader is open, or after a failure
  kInstructionOutOfOrder = 0xec, // Instruction before Begin
  kInstructionAfterEnd = 0xed,   // Instruction after the end token
  kInstructionNoTokens = 0xee,   // Instruction with no tokens, or a token count of 0
  kVersionTokenLength = 0xef,    // the version token given with other tokens
  kVersionTokenType = 0xf0,      // the first token is not a version Direct3D 9 knows
  kEndTokenLength = 0xf1,        // the end token given with other tokens
  kEndOutOfOrder = 0xf2,         // End before Begin
  kMissingEndToken = 0xf3,       // End before the end token
  kInputDeclaration = 0x12c,     // dcl of an input register the version does not have
  kInputRegister = 0x167,        // an operand reads an input register the version does not have
  kInstructionLength = 0x21e,    // the token count is not the instruction's length
};

class ShaderValidator final : public IDirect3DShaderValidator9 {
public:
  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID iid, void **out) override;
  ULONG STDMETHODCALLTYPE AddRef() override;
  ULONG STDMETHODCALLTYPE Release() override;
  HRESULT STDMETHODCALLTYPE Begin(D3DSHADERVALIDATORCALLBACK callback, void *context, DWORD_PTR flags) override;
  HRESULT STDMETHODCALLTYPE Instruction(const char *file, int line, const DWORD *tokens, DWORD count) override;
  HRESULT STDMETHODCALLTYPE End() override;

private:
  enum class State {
    kIdle,        // waiting for Begin
    kVersion,     // waiting for the version token
    kBody,        // instructions, until the end token
    kEnded,       // the end token was seen; waiting for End
    kFailed,      // a call or the stream's shape was wrong: everything fails from now on
  };

  // Hands a message to the callback (if any). file is NULL and line 0 or -1 for messages that
  // belong to no instruction, as on Windows.
  void report(const char *file, int line, DWORD_PTR category, ValidatorMessage id, const char *message) const;
  // Reports, then leaves the validator failed: the answer of every call that ends here.
  HRESULT fail(const char *file, int line, DWORD_PTR category, ValidatorMessage id, const char *message);
  HRESULT version_token(const DWORD *tokens, DWORD count);
  // The token count an instruction must be given with, or 0 when Novem cannot tell (an opcode
  // the version does not have: not this validator's concern).
  uint32_t expected_length(const DWORD *tokens) const;
  // Messages for input registers past what the version has; true when there was one.
  bool check_inputs(const char *file, int line, const DWORD *tokens, DWORD count);

  std::atomic<ULONG> refs_{1};
  State state_ = State::kIdle;
  D3DSHADERVALIDATORCALLBACK callback_ = nullptr;
  void *context_ = nullptr;
  d3d9::Version version_;
  bool invalid_ = false; // an instruction had a register error: End answers E_FAIL
};

} // namespace novem
