/* Novem: IDirect3DShaderValidator9 and Direct3DShaderValidatorCreate9.
 *
 * Windows' d3d9.dll exports Direct3DShaderValidatorCreate9, which D3DX and fxc.exe use to
 * validate the shaders they assemble, but no SDK header declares it or its interface (programs
 * declare their own and find the function with GetProcAddress), and mingw-w64's d3d9.h does not
 * either. This is Novem's declaration, so that a Linux program can call the function Novem
 * exports. The names are Novem's; the layout and the argument types are what Wine's d3d9 tests
 * record for Windows (dlls/d3d9/tests/device.c, test_shader_validator):
 *
 *   - Begin(callback, context, flags): callback receives every message of the shader validated
 *     between Begin and End, with context. flags: D3DX passes 0, fxc.exe 1; ignored.
 *   - Instruction(file, line, tokens, token_count): one instruction (the version token first,
 *     the end token last); file and line are handed back with messages about that instruction.
 *   - End(): S_OK when the shader was valid.
 *
 * The callback's category is 0, 2 or 6 (the values seen on Windows); message_id is Windows'
 * message number (fxc.exe prints it plus 5000). What Novem checks is in docs/d3d9-behaviour.md. */
#ifndef NOVEM_D3D9_SHADER_VALIDATOR_H
#define NOVEM_D3D9_SHADER_VALIDATOR_H
#if defined(__GNUC__)
#pragma GCC system_header
#endif

#include <d3d9.h>

/* Its return value is ignored (programs return 0). line is signed: messages that belong to no
 * instruction come with -1 or 0. */
typedef HRESULT (WINAPI *D3DSHADERVALIDATORCALLBACK)(const char *file, int line, DWORD_PTR category,
        DWORD_PTR message_id, const char *message, void *context);

typedef struct IDirect3DShaderValidator9 *LPDIRECT3DSHADERVALIDATOR9, *PDIRECT3DSHADERVALIDATOR9;

#undef INTERFACE
#define INTERFACE IDirect3DShaderValidator9
DECLARE_INTERFACE_(IDirect3DShaderValidator9, IUnknown)
{
    /*** IUnknown methods ***/
    STDMETHOD_(HRESULT, QueryInterface)(THIS_ REFIID riid, void **object) PURE;
    STDMETHOD_(ULONG, AddRef)(THIS) PURE;
    STDMETHOD_(ULONG, Release)(THIS) PURE;
    /*** IDirect3DShaderValidator9 methods ***/
    STDMETHOD(Begin)(THIS_ D3DSHADERVALIDATORCALLBACK callback, void *context, DWORD_PTR flags) PURE;
    STDMETHOD(Instruction)(THIS_ const char *file, int line, const DWORD *tokens, DWORD token_count) PURE;
    STDMETHOD(End)(THIS) PURE;
};
#undef INTERFACE

#if !defined(__cplusplus) || defined(CINTERFACE)
#define IDirect3DShaderValidator9_QueryInterface(p, a, b) (p)->lpVtbl->QueryInterface(p, a, b)
#define IDirect3DShaderValidator9_AddRef(p)               (p)->lpVtbl->AddRef(p)
#define IDirect3DShaderValidator9_Release(p)              (p)->lpVtbl->Release(p)
#define IDirect3DShaderValidator9_Begin(p, a, b, c)       (p)->lpVtbl->Begin(p, a, b, c)
#define IDirect3DShaderValidator9_Instruction(p, a, b, c, d) (p)->lpVtbl->Instruction(p, a, b, c, d)
#define IDirect3DShaderValidator9_End(p)                  (p)->lpVtbl->End(p)
#else
#define IDirect3DShaderValidator9_QueryInterface(p, a, b) (p)->QueryInterface(a, b)
#define IDirect3DShaderValidator9_AddRef(p)               (p)->AddRef()
#define IDirect3DShaderValidator9_Release(p)              (p)->Release()
#define IDirect3DShaderValidator9_Begin(p, a, b, c)       (p)->Begin(a, b, c)
#define IDirect3DShaderValidator9_Instruction(p, a, b, c, d) (p)->Instruction(a, b, c, d)
#define IDirect3DShaderValidator9_End(p)                  (p)->End()
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* A new validator with one reference; NULL when there is no memory for one. */
IDirect3DShaderValidator9 *WINAPI Direct3DShaderValidatorCreate9(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* NOVEM_D3D9_SHADER_VALIDATOR_H */
