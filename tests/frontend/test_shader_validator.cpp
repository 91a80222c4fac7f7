// Direct3DShaderValidatorCreate9 and IDirect3DShaderValidator9 (docs/d3d9-behaviour.md,
// "Sizes, memory and objects that are not Novem's"). The cases marked "Windows" use the shaders
// and the answers Wine's d3d9 tests record for Windows (dlls/d3d9/tests/device.c,
// test_shader_validator); the others pin what Novem chose where those tests are silent.
#include <catch2/catch.hpp>

#include <dlfcn.h>

#include <string>
#include <vector>

#include <d3d9_shader_validator.h>

namespace {

const char *const kFile = "test_file";

// vs_1_1 and ps_1_1, as Wine's tests write them (shader model 1: no length field).
const DWORD kSimpleVs[] = {
    0xfffe0101,                                     // vs_1_1
    0x0000001f, 0x80000000, 0x900f0000,             // dcl_position0 v0
    0x00000009, 0xc0010000, 0x90e40000, 0xa0e40000, // dp4 oPos.x, v0, c0
    0x00000009, 0xc0020000, 0x90e40000, 0xa0e40001, // dp4 oPos.y, v0, c1
    0x00000009, 0xc0040000, 0x90e40000, 0xa0e40002, // dp4 oPos.z, v0, c2
    0x00000009, 0xc0080000, 0x90e40000, 0xa0e40003, // dp4 oPos.w, v0, c3
    0x0000ffff,                                     // end
};
const DWORD kSimplePs[] = {
    0xffff0101,                                                             // ps_1_1
    0x00000051, 0xa00f0001, 0x3f800000, 0x00000000, 0x00000000, 0x00000000, // def c1, 1, 0, 0, 0
    0x00000042, 0xb00f0000,                                                 // tex t0
    0x00000008, 0x800f0000, 0xa0e40001, 0xa0e40000,                         // dp3 r0, c1, c0
    0x00000005, 0x800f0000, 0x90e40000, 0x80e40000,                         // mul r0, v0, r0
    0x00000005, 0x800f0000, 0xb0e40000, 0x80e40000,                         // mul r0, t0, r0
    0x0000ffff,                                                             // end
};
const DWORD kEndToken = 0x0000ffff;

struct Message {
  const char *file;
  int line;
  DWORD_PTR category;
  DWORD_PTR id;
  bool has_text;
};

HRESULT WINAPI record(const char *file, int line, DWORD_PTR category, DWORD_PTR id, const char *text, void *context) {
  static_cast<std::vector<Message> *>(context)->push_back({file, line, category, id, text && *text});
  return S_OK;
}

int g_unexpected_calls = 0;
HRESULT WINAPI unexpected(const char *, int, DWORD_PTR, DWORD_PTR, const char *, void *) {
  ++g_unexpected_calls;
  return S_OK;
}

// Feeds a whole shader one instruction at a time, as D3DX does; the lengths are the caller's.
void feed(IDirect3DShaderValidator9 *validator, const DWORD *shader, std::initializer_list<DWORD> lengths) {
  DWORD at = 0;
  for (DWORD length : lengths) {
    CAPTURE(at, length);
    CHECK(validator->Instruction(nullptr, 0, shader + at, length) == S_OK);
    at += length;
  }
}

} // namespace

TEST_CASE("shader validator: exported, a new object each call, freed by its last Release", "[validator]") {
  // A program that finds it as Windows programs do (GetProcAddress) finds it with dlsym.
  using Create = IDirect3DShaderValidator9 *(WINAPI *)();
  auto create = reinterpret_cast<Create>(dlsym(RTLD_DEFAULT, "Direct3DShaderValidatorCreate9"));
  REQUIRE(create != nullptr);
  IDirect3DShaderValidator9 *a = create();
  IDirect3DShaderValidator9 *b = Direct3DShaderValidatorCreate9();
  REQUIRE(a != nullptr);
  REQUIRE(b != nullptr);
  CHECK(a != b);

  CHECK(a->AddRef() == 2);
  CHECK(a->Release() == 1);
  void *out = reinterpret_cast<void *>(0x1);
  CHECK(a->QueryInterface(IID_IUnknown, &out) == S_OK);
  CHECK(out == static_cast<void *>(static_cast<IUnknown *>(a)));
  CHECK(a->Release() == 1);
  out = reinterpret_cast<void *>(0x1);
  CHECK(a->QueryInterface(IID_IDirect3D9, &out) == E_NOINTERFACE);
  CHECK(out == nullptr);
  CHECK(a->QueryInterface(IID_IUnknown, nullptr) == E_POINTER);

  // Windows: the last Release leaves no reference (Wine's test records 0).
  CHECK(a->Release() == 0);
  CHECK(b->Release() == 0);
}

TEST_CASE("shader validator: valid shaders, instruction by instruction, call no callback (Windows)", "[validator]") {
  IDirect3DShaderValidator9 *validator = Direct3DShaderValidatorCreate9();
  REQUIRE(validator != nullptr);
  g_unexpected_calls = 0;
  // Shader model 1: the lengths come from the opcodes (dcl 3, dp4 4; def 6, tex 2, dp3 4).
  REQUIRE(validator->Begin(unexpected, nullptr, 0) == S_OK);
  feed(validator, kSimpleVs, {1, 3, 4, 4, 4, 4, 1});
  CHECK(validator->End() == S_OK);
  REQUIRE(validator->Begin(unexpected, nullptr, 1) == S_OK); // fxc.exe's flags
  feed(validator, kSimplePs, {1, 6, 2, 4, 4, 4, 1});
  CHECK(validator->End() == S_OK);
  CHECK(g_unexpected_calls == 0);
  CHECK(validator->Release() == 0);
}

TEST_CASE("shader validator: a wrong first instruction fails, and so does all that follows (Windows)", "[validator]") {
  IDirect3DShaderValidator9 *validator = Direct3DShaderValidatorCreate9();
  REQUIRE(validator != nullptr);
  std::vector<Message> messages;
  REQUIRE(validator->Begin(record, &messages, 0) == S_OK);

  // dcl_position0 v0 where the version token belongs: both the count and the token are wrong,
  // and Windows says both, with no file.
  CHECK(validator->Instruction(kFile, 28, &kSimpleVs[1], 3) == E_FAIL);
  REQUIRE(messages.size() == 2);
  CHECK(messages[0].id == 0xef);
  CHECK(messages[0].file == nullptr);
  CHECK(messages[0].line == -1);
  CHECK(messages[0].has_text);
  CHECK(messages[1].id == 0xf0);
  CHECK(messages[1].file == nullptr);
  CHECK(messages[1].line == 0);
  CHECK(messages[1].has_text);

  messages.clear();
  CHECK(validator->End() == E_FAIL);
  CHECK(messages.empty());

  // Begin reports through the callback the validator has.
  CHECK(validator->Begin(record, &messages, 0) == E_FAIL);
  REQUIRE(messages.size() == 1);
  CHECK(messages[0].id == 0xeb);
  CHECK(messages[0].file == nullptr);
  CHECK(messages[0].line == 0);
  CHECK(messages[0].has_text);
  CHECK(validator->Begin(nullptr, &messages, 0) == E_FAIL);
  CHECK(validator->Release() == 0);

  // A new validator is a fresh start; a NULL callback is allowed.
  validator = Direct3DShaderValidatorCreate9();
  REQUIRE(validator != nullptr);
  CHECK(validator->Begin(nullptr, &messages, 0) == S_OK);
  const DWORD ps_3_0 = D3DPS_VERSION(3, 0);
  CHECK(validator->Instruction(kFile, 1, &ps_3_0, 1) == S_OK);
  CHECK(validator->Instruction(kFile, 5, &kEndToken, 1) == S_OK);
  CHECK(validator->End() == S_OK);
  CHECK(validator->Release() == 0);
}

TEST_CASE("shader validator: ps_3_0 input registers past v9 are messages, and End fails (Windows)", "[validator]") {
  struct Case {
    const char *name;
    std::vector<DWORD> decl;        // a dcl before the instruction, or none
    std::vector<DWORD> instruction;
    DWORD_PTR id;                   // the one message, or 0 for none
  };
  const Case cases[] = {
      {"dcl_texcoord9_pp v9", {}, {0x0200001f, 0x80090005, 0x902f0009}, 0},
      {"dcl_texcoord9_pp v10", {}, {0x0200001f, 0x80090005, 0x902f000a}, 0x12c},
      {"dcl_texcoord10_pp v9", {}, {0x0200001f, 0x800a0005, 0x902f0009}, 0},
      {"mov_pp r2.y, v9.w", {0x0200001f, 0x80090005, 0x902f0009}, {0x02000001, 0x80220002, 0x90ff0009}, 0},
      {"mov_pp r2.y, v10.w", {}, {0x02000001, 0x80220002, 0x90ff000a}, 0x167},
  };
  // One validator for all, as Wine's test: End's E_FAIL leaves it ready for the next Begin.
  IDirect3DShaderValidator9 *validator = Direct3DShaderValidatorCreate9();
  REQUIRE(validator != nullptr);
  const DWORD ps_3_0 = D3DPS_VERSION(3, 0);
  for (const Case &c : cases) {
    CAPTURE(c.name);
    std::vector<Message> messages;
    REQUIRE(validator->Begin(record, &messages, 0) == S_OK);
    CHECK(validator->Instruction(kFile, 1, &ps_3_0, 1) == S_OK);
    if (!c.decl.empty()) {
      CHECK(validator->Instruction(kFile, 3, c.decl.data(), static_cast<DWORD>(c.decl.size())) == S_OK);
      CHECK(messages.empty());
    }
    // The message comes with the instruction's file and line, and the call succeeds.
    CHECK(validator->Instruction(kFile, 3, c.instruction.data(), static_cast<DWORD>(c.instruction.size())) == S_OK);
    if (c.id) {
      REQUIRE(messages.size() == 1);
      CHECK(messages[0].id == c.id);
      CHECK(messages[0].file == kFile);
      CHECK(messages[0].line == 3);
      CHECK(messages[0].has_text);
    } else {
      CHECK(messages.empty());
    }
    CHECK(validator->Instruction(kFile, 5, &kEndToken, 1) == S_OK);
    CHECK(validator->End() == (c.id ? E_FAIL : S_OK));
  }
  CHECK(validator->Release() == 0);
}

TEST_CASE("shader validator: call order, token counts and lengths (Novem's choices, DXVK's numbers)", "[validator]") {
  enum class Op { kBegin, kInstruction, kNullTokens, kNoTokens, kEnd };
  struct Step {
    Op op;
    std::vector<DWORD> tokens; // kInstruction
    HRESULT hr;
    std::vector<DWORD_PTR> ids; // the messages this step gives, in order
  };
  struct Case {
    const char *name;
    std::vector<Step> steps;
  };
  const std::vector<DWORD> vs_1_1 = {0xfffe0101}, vs_2_0 = {0xfffe0200}, vs_3_0 = {0xfffe0300};
  const std::vector<DWORD> ps_1_1 = {0xffff0101}, ps_2_0 = {0xffff0200}, ps_3_0 = {0xffff0300};
  const std::vector<DWORD> end = {0x0000ffff};
  const std::vector<DWORD> mov_vs11 = {0x00000001, 0x800f0000, 0x90e40000}; // mov r0, v0 (no length field)
  const Step begin{Op::kBegin, {}, S_OK, {}};
  const Case cases[] = {
      {"Begin twice", {begin, {Op::kBegin, {}, E_FAIL, {0xeb}}, {Op::kInstruction, vs_1_1, E_FAIL, {}}, {Op::kEnd, {}, E_FAIL, {}}}},
      // Before Begin there is no callback to tell.
      {"Instruction before Begin", {{Op::kInstruction, vs_1_1, E_FAIL, {}}, {Op::kBegin, {}, E_FAIL, {}}}},
      {"End before Begin", {{Op::kEnd, {}, E_FAIL, {}}, {Op::kBegin, {}, E_FAIL, {}}}},
      {"Instruction after the end token",
       {begin, {Op::kInstruction, vs_1_1, S_OK, {}}, {Op::kInstruction, end, S_OK, {}},
        {Op::kInstruction, mov_vs11, E_FAIL, {0xed}}, {Op::kEnd, {}, E_FAIL, {}}}},
      {"NULL tokens", {begin, {Op::kNullTokens, {}, E_FAIL, {0xee}}, {Op::kEnd, {}, E_FAIL, {}}}},
      {"a token count of 0", {begin, {Op::kNoTokens, {}, E_FAIL, {0xee}}}},
      {"a first token that is no version", {begin, {Op::kInstruction, {0x00000001}, E_FAIL, {0xf0}}}},
      {"vs_4_0, a version Direct3D 9 does not have", {begin, {Op::kInstruction, {0xfffe0400}, E_FAIL, {0xf0}}}},
      {"the version token with another token", {begin, {Op::kInstruction, {0xfffe0101, 0x0000ffff}, E_FAIL, {0xef}}}},
      {"the end token with another token",
       {begin, {Op::kInstruction, vs_1_1, S_OK, {}}, {Op::kInstruction, {0x0000ffff, 0}, E_FAIL, {0xf1}}}},
      {"End without the end token",
       {begin, {Op::kInstruction, vs_1_1, S_OK, {}}, {Op::kInstruction, mov_vs11, S_OK, {}}, {Op::kEnd, {}, E_FAIL, {0xf3}},
        {Op::kBegin, {}, E_FAIL, {0xeb}}}},
      {"vs_1_1 dp4 given 3 tokens",
       {begin, {Op::kInstruction, vs_1_1, S_OK, {}}, {Op::kInstruction, {0x00000009, 0xc0010000, 0x90e40000}, E_FAIL, {0x21e}},
        {Op::kInstruction, end, E_FAIL, {}}}},
      {"ps_1_1 tex given 3 tokens", {begin, {Op::kInstruction, ps_1_1, S_OK, {}}, {Op::kInstruction, {0x00000042, 0xb00f0000, 0}, E_FAIL, {0x21e}}}},
      {"vs_2_0 mov whose length field says 2, given 3 operands",
       {begin, {Op::kInstruction, vs_2_0, S_OK, {}}, {Op::kInstruction, {0x02000001, 0x800f0000, 0x90e40000, 0x90e40000}, E_FAIL, {0x21e}}}},
      // Words that look like v10 where no register is: a comment's payload, def's values.
      {"ps_3_0 comment and def holding v10-like words",
       {begin, {Op::kInstruction, ps_3_0, S_OK, {}}, {Op::kInstruction, {0x0002fffe, 0x9000000a, 0x9000000b}, S_OK, {}},
        {Op::kInstruction, {0x05000051, 0xa00f0000, 0x9000000a, 0x9000000a, 0, 0}, S_OK, {}},
        {Op::kInstruction, end, S_OK, {}}, {Op::kEnd, {}, S_OK, {}}}},
      // The input check with each version's own count: ps_2_0 has v0 and v1, vs_3_0 v0 to v15.
      {"ps_2_0 reads v2",
       {begin, {Op::kInstruction, ps_2_0, S_OK, {}}, {Op::kInstruction, {0x02000001, 0x800f0000, 0x90e40002}, S_OK, {0x167}},
        {Op::kInstruction, end, S_OK, {}}, {Op::kEnd, {}, E_FAIL, {}}, begin}},
      {"vs_3_0 dcl of v15 and v16",
       {begin, {Op::kInstruction, vs_3_0, S_OK, {}}, {Op::kInstruction, {0x0200001f, 0x80000005, 0x900f000f}, S_OK, {}},
        {Op::kInstruction, {0x0200001f, 0x80010005, 0x900f0010}, S_OK, {0x12c}},
        {Op::kInstruction, end, S_OK, {}}, {Op::kEnd, {}, E_FAIL, {}}}},
  };
  for (const Case &c : cases) {
    CAPTURE(c.name);
    IDirect3DShaderValidator9 *validator = Direct3DShaderValidatorCreate9();
    REQUIRE(validator != nullptr);
    std::vector<Message> messages;
    int line = 0;
    for (const Step &step : c.steps) {
      ++line;
      CAPTURE(line);
      messages.clear();
      HRESULT hr = E_NOTIMPL;
      const DWORD dummy = 0;
      switch (step.op) {
        case Op::kBegin: hr = validator->Begin(record, &messages, 0); break;
        case Op::kInstruction:
          hr = validator->Instruction(kFile, line, step.tokens.data(), static_cast<DWORD>(step.tokens.size()));
          break;
        case Op::kNullTokens: hr = validator->Instruction(kFile, line, nullptr, 1); break;
        case Op::kNoTokens: hr = validator->Instruction(kFile, line, &dummy, 0); break;
        case Op::kEnd: hr = validator->End(); break;
      }
      CHECK(hr == step.hr);
      REQUIRE(messages.size() == step.ids.size());
      for (size_t i = 0; i < messages.size(); ++i) {
        const Message &m = messages[i];
        CAPTURE(i, m.id);
        CHECK(m.id == step.ids[i]);
        CHECK(m.has_text);
        // Messages about an instruction's content carry its file and line, category 2; those
        // about call order 0 and about the version and end tokens 6, without a file.
        const bool content = m.id == 0x21e || m.id == 0x12c || m.id == 0x167;
        const bool token = m.id == 0xef || m.id == 0xf0 || m.id == 0xf1;
        CHECK(m.file == (content ? kFile : nullptr));
        CHECK(m.line == (content ? line : m.id == 0xef ? -1 : 0));
        CHECK(m.category == (content ? 2u : token ? 6u : 0u));
      }
    }
    CHECK(validator->Release() == 0);
  }
}
