#include "shader_validator.hpp"

#include <cstdio>

namespace novem {
namespace {

using d3d9::tok::kParam;

// The callback's third argument, as Windows passes it: 0 with messages about the order of calls,
// 6 with those about the version and end tokens, 2 with those about an instruction (the values
// Wine saw; which message gets which is DXVK's choice).
constexpr DWORD_PTR kCategoryCall = 0;
constexpr DWORD_PTR kCategoryToken = 6;
constexpr DWORD_PTR kCategoryInstruction = 2;

bool is_comment(DWORD token) {
  return (token & d3d9::tok::kOpcodeMask) == static_cast<DWORD>(d3d9::Opcode::Comment) && !(token & kParam);
}

} // namespace

HRESULT ShaderValidator::QueryInterface(REFIID iid, void **out) {
  if (!out) return E_POINTER;
  // The interface has no IID anyone knows (no header declares one), so only IUnknown answers.
  if (IsEqualGUID(iid, IID_IUnknown)) {
    AddRef();
    *out = static_cast<IDirect3DShaderValidator9 *>(this);
    return S_OK;
  }
  *out = nullptr;
  return E_NOINTERFACE;
}

ULONG ShaderValidator::AddRef() { return ++refs_; }

// Windows' validator is freed by its last Release (Wine's test records 0 references left).
ULONG ShaderValidator::Release() {
  ULONG refs = --refs_;
  if (refs == 0) delete this;
  return refs;
}

void ShaderValidator::report(const char *file, int line, DWORD_PTR category, ValidatorMessage id,
                             const char *message) const {
  if (callback_) callback_(file, line, category, static_cast<DWORD_PTR>(id), message, context_);
}

HRESULT ShaderValidator::fail(const char *file, int line, DWORD_PTR category, ValidatorMessage id,
                              const char *message) {
  report(file, line, category, id, message);
  state_ = State::kFailed;
  return E_FAIL;
}

HRESULT ShaderValidator::Begin(D3DSHADERVALIDATORCALLBACK callback, void *context, DWORD_PTR flags) {
  (void)flags; // 0 from D3DX, 1 from fxc.exe; what it changes on Windows is unknown
  if (state_ != State::kIdle) {
    // Through the callback of the shader still open (or failed): Windows' test sees the message
    // arrive there, with no file and line 0.
    return fail(nullptr, 0, kCategoryCall, ValidatorMessage::kBeginOutOfOrder,
                "IDirect3DShaderValidator9::Begin: a shader is still open or the validator failed; "
                "End the shader or make a new validator");
  }
  callback_ = callback;
  context_ = context;
  invalid_ = false;
  state_ = State::kVersion;
  return S_OK;
}

HRESULT ShaderValidator::Instruction(const char *file, int line, const DWORD *tokens, DWORD count) {
  if (state_ == State::kFailed) return E_FAIL;
  if (!tokens || count == 0)
    return fail(nullptr, 0, kCategoryCall, ValidatorMessage::kInstructionNoTokens,
                "IDirect3DShaderValidator9::Instruction: no tokens (NULL or a count of 0)");
  switch (state_) {
    case State::kIdle:
      return fail(nullptr, 0, kCategoryCall, ValidatorMessage::kInstructionOutOfOrder,
                  "IDirect3DShaderValidator9::Instruction before Begin");
    case State::kEnded:
      return fail(nullptr, 0, kCategoryCall, ValidatorMessage::kInstructionAfterEnd,
                  "IDirect3DShaderValidator9::Instruction after the end token; End comes next");
    case State::kVersion:
      return version_token(tokens, count);
    case State::kBody:
    case State::kFailed:
      break;
  }

  if (tokens[0] == d3d9::tok::kEnd) {
    if (count != 1)
      return fail(nullptr, 0, kCategoryToken, ValidatorMessage::kEndTokenLength,
                  "IDirect3DShaderValidator9::Instruction: the end token must come alone (a count of 1)");
    state_ = State::kEnded;
    return S_OK;
  }
  const uint32_t expected = expected_length(tokens);
  if (expected != 0 && count != expected) {
    char text[160];
    std::snprintf(text, sizeof text,
                  "IDirect3DShaderValidator9::Instruction: given %u tokens, but the instruction takes %u; "
                  "validation stops",
                  static_cast<unsigned>(count), static_cast<unsigned>(expected));
    return fail(file, line, kCategoryInstruction, ValidatorMessage::kInstructionLength, text);
  }
  if (check_inputs(file, line, tokens, count)) invalid_ = true;
  return S_OK;
}

HRESULT ShaderValidator::End() {
  switch (state_) {
    case State::kFailed:
      return E_FAIL; // no message: Windows' test sees none
    case State::kIdle:
      return fail(nullptr, 0, kCategoryCall, ValidatorMessage::kEndOutOfOrder,
                  "IDirect3DShaderValidator9::End before Begin");
    case State::kVersion:
    case State::kBody:
      return fail(nullptr, 0, kCategoryCall, ValidatorMessage::kMissingEndToken,
                  "IDirect3DShaderValidator9::End: the shader has no end token");
    case State::kEnded:
      break;
  }
  // The shader is over: forget the callback and its context, which the program may free now.
  const bool invalid = invalid_;
  callback_ = nullptr;
  context_ = nullptr;
  invalid_ = false;
  state_ = State::kIdle;
  return invalid ? E_FAIL : S_OK;
}

HRESULT ShaderValidator::version_token(const DWORD *tokens, DWORD count) {
  // Windows reports both problems of a wrong first instruction, the count first (line -1), then
  // the token (line 0), neither with the file; then the call fails.
  bool ok = true;
  if (count != 1) {
    report(nullptr, -1, kCategoryToken, ValidatorMessage::kVersionTokenLength,
           "IDirect3DShaderValidator9::Instruction: the version token must come alone (a count of 1)");
    ok = false;
  }
  if (!d3d9::decode_version(tokens[0], version_)) {
    report(nullptr, 0, kCategoryToken, ValidatorMessage::kVersionTokenType,
           "IDirect3DShaderValidator9::Instruction: the first token is not a shader version Direct3D 9 "
           "knows (vs_1_1, vs_2_0, vs_2_x, vs_3_0, ps_1_1 to ps_1_4, ps_2_0, ps_2_x, ps_3_0)");
    ok = false;
  }
  if (!ok) {
    state_ = State::kFailed;
    return E_FAIL;
  }
  state_ = State::kBody;
  return S_OK;
}

uint32_t ShaderValidator::expected_length(const DWORD *tokens) const {
  const DWORD token = tokens[0];
  // A comment carries its own size (bits 16-30), in every version.
  if (is_comment(token))
    return 1 + ((token & d3d9::tok::kCommentSizeMask) >> d3d9::tok::kCommentSizeShift);
  if (token & kParam) return 0; // not an instruction token: another rule's concern
  // Shader model 2 and later give the length in the instruction token (bits 24-27).
  if (!version_.sm1()) return 1 + ((token & d3d9::tok::kLengthMask) >> d3d9::tok::kLengthShift);
  // Shader model 1 has no length field: the opcode table's operands say it, as for the parser.
  const d3d9::OpInfo *info = d3d9::find_opcode(static_cast<uint16_t>(token & d3d9::tok::kOpcodeMask), version_);
  if (!info) return 0;
  uint32_t length = 1u + info->dst_count + info->src_count;
  switch (info->form) {
    case d3d9::OpForm::Dcl: length += 1; break;                          // the usage token
    case d3d9::OpForm::Def: case d3d9::OpForm::DefI: length += 4; break; // four values
    case d3d9::OpForm::DefB: length += 1; break;                         // one value
    default: break;
  }
  return length;
}

bool ShaderValidator::check_inputs(const char *file, int line, const DWORD *tokens, DWORD count) {
  const DWORD token = tokens[0];
  if (is_comment(token)) return false;
  const auto opcode = static_cast<d3d9::Opcode>(token & d3d9::tok::kOpcodeMask);
  // def's words are values, not registers, whatever their bit 31.
  if (opcode == d3d9::Opcode::Def || opcode == d3d9::Opcode::DefI || opcode == d3d9::Opcode::DefB) return false;
  const bool dcl = opcode == d3d9::Opcode::Dcl;
  const uint32_t inputs = d3d9::register_count(d3d9::RegType::Input, version_);
  // Every operand token (destination, source, relative address, predicate) has bit 31 set; a
  // dcl's usage token (index 1) has too, but it names no register. Only the given tokens are
  // read: an instruction is never read past its count.
  for (DWORD i = dcl ? 2 : 1; i < count; ++i) {
    const DWORD operand = tokens[i];
    if (!(operand & kParam)) continue;
    if (d3d9::tok::reg_type(operand) != static_cast<uint32_t>(d3d9::RegType::Input)) continue;
    const uint32_t index = operand & d3d9::tok::kRegNumMask;
    if (index < inputs) continue;
    // The version's name written here, not through Version::name(): nothing in a COM method
    // may throw, and a std::string may.
    char minor[4];
    if (version_.major == 2 && version_.minor == 1) std::snprintf(minor, sizeof minor, "x");
    else std::snprintf(minor, sizeof minor, "%u", static_cast<unsigned>(version_.minor));
    char text[160];
    std::snprintf(text, sizeof text, "IDirect3DShaderValidator9::Instruction: %s v%u, but %s_%u_%s has v0 to v%u",
                  dcl ? "dcl of" : "operand reads", static_cast<unsigned>(index), version_.is_ps() ? "ps" : "vs",
                  static_cast<unsigned>(version_.major), minor, static_cast<unsigned>(inputs - 1));
    // With the instruction's file and line: the one kind of message Windows' test sees them on.
    report(file, line, kCategoryInstruction, dcl ? ValidatorMessage::kInputDeclaration : ValidatorMessage::kInputRegister,
           text);
    return true;
  }
  return false;
}

} // namespace novem
