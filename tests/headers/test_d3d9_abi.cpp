// The public D3D9 headers (mingw-w64's d3d9.h, d3d9types.h, d3d9caps.h on Novem's Windows-types
// shim, frontend/include) against the Windows x64 ABI: base type sizes, struct sizes and offsets,
// vtable slots of the COM interfaces, GUID values, HRESULT codes and value macros. Each layout is
// checked as C++ sees it and as C sees it (d3d9_abi_c.c), and C calls into a C++ object.
#include <d3d9.h>
#include <d3d9_shader_validator.h>

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

#include "d3d9_abi_c.h"
#include "d3d9_abi_lists.h"

const GUID *novem_initguid_iid_device9_address();  // d3d9_initguid.cpp (INITGUID)
const GUID *novem_decl_iid_device9_address();      // d3d9_guid_decl.cpp

namespace {

// Itanium C++ ABI (GCC and Clang on Linux x86-64): a pointer to a virtual member function is
// {1 + byte offset of its slot in the vtable, this-adjustment}.
template <class PMF>
std::size_t vtable_slot(PMF pmf)
{
    static_assert(std::is_member_function_pointer_v<PMF>);
    static_assert(sizeof(PMF) == 2 * sizeof(std::uintptr_t));
    std::uintptr_t words[2];
    std::memcpy(words, &pmf, sizeof words);
    REQUIRE((words[0] & 1u) == 1u);  // a virtual function
    REQUIRE(words[1] == 0u);         // no this-adjustment (single inheritance, vptr at 0)
    return static_cast<std::size_t>((words[0] - 1u) / sizeof(void *));
}

struct Slots {
    const char *iface;
    std::size_t expected_count;
    std::size_t object_size;
    bool com_shaped;  // polymorphic, abstract, no virtual destructor, derives from IUnknown
    std::vector<std::pair<const char *, std::size_t>> slots;
};

template <class I>
constexpr bool com_shaped()
{
    return std::is_polymorphic_v<I> && std::is_abstract_v<I> && !std::has_virtual_destructor_v<I> &&
           std::is_base_of_v<IUnknown, I>;
}

#define NOVEM_CPP_SLOT(I, m) {#m, vtable_slot(&I::m)},
#define NOVEM_CPP_ENTRY(I, LIST, n) Slots{#I, n, sizeof(I), com_shaped<I>(), {LIST(NOVEM_CPP_SLOT, I)}},

std::vector<Slots> cpp_vtables()
{
    return {NOVEM_D3D9_INTERFACES(NOVEM_CPP_ENTRY)};
}

std::size_t c_slot(const std::string &iface, const std::string &method)
{
    for (std::size_t i = 0; i < novem_c_vtable_count; ++i) {
        const novem_c_vtable &v = novem_c_vtables[i];
        if (iface != v.iface) continue;
        for (std::size_t k = 0; k < v.count; ++k)
            if (method == v.names[k]) return v.slots[k];
    }
    FAIL("no C slot recorded for " << iface << "::" << method);
    return ~std::size_t{0};
}

bool same_guid(const GUID &g, std::uint32_t d1, std::uint16_t d2, std::uint16_t d3,
               std::initializer_list<unsigned> d4)
{
    if (g.Data1 != d1 || g.Data2 != d2 || g.Data3 != d3) return false;
    std::size_t i = 0;
    for (unsigned b : d4)
        if (g.Data4[i++] != b) return false;
    return i == 8;
}

}  // namespace

TEST_CASE("Windows base types keep their LLP64 sizes", "[headers][abi]")
{
    STATIC_REQUIRE(sizeof(BYTE) == 1);
    STATIC_REQUIRE(sizeof(WORD) == 2);
    STATIC_REQUIRE(sizeof(DWORD) == 4);
    STATIC_REQUIRE(sizeof(LONG) == 4);
    STATIC_REQUIRE(sizeof(ULONG) == 4);
    STATIC_REQUIRE(sizeof(UINT) == 4);
    STATIC_REQUIRE(sizeof(INT) == 4);
    STATIC_REQUIRE(sizeof(BOOL) == 4);
    STATIC_REQUIRE(sizeof(WINBOOL) == 4);
    STATIC_REQUIRE(sizeof(HRESULT) == 4);
    STATIC_REQUIRE(sizeof(FLOAT) == 4);
    STATIC_REQUIRE(sizeof(LONGLONG) == 8);
    STATIC_REQUIRE(sizeof(ULONGLONG) == 8);
    STATIC_REQUIRE(sizeof(UINT64) == 8);
    STATIC_REQUIRE(sizeof(UINT_PTR) == sizeof(void *));
    STATIC_REQUIRE(sizeof(ULONG_PTR) == sizeof(void *));
    STATIC_REQUIRE(sizeof(SIZE_T) == sizeof(void *));
    STATIC_REQUIRE(sizeof(HANDLE) == sizeof(void *));
    STATIC_REQUIRE(std::is_same_v<DWORD, std::uint32_t>);
    STATIC_REQUIRE(std::is_same_v<ULONG, std::uint32_t>);
    STATIC_REQUIRE(std::is_same_v<LONG, std::int32_t>);
    STATIC_REQUIRE(std::is_same_v<HRESULT, LONG>);
    STATIC_REQUIRE(std::is_same_v<BOOL, int>);
    STATIC_REQUIRE(std::is_same_v<D3DCOLOR, DWORD>);
    STATIC_REQUIRE(std::is_signed_v<HRESULT>);
    // Handles: distinct opaque pointer types, as with STRICT on Windows.
    STATIC_REQUIRE(std::is_pointer_v<HWND>);
    STATIC_REQUIRE(std::is_pointer_v<HMONITOR>);
    STATIC_REQUIRE(std::is_pointer_v<HDC>);
    STATIC_REQUIRE(!std::is_same_v<HWND, HMONITOR>);
    STATIC_REQUIRE(!std::is_same_v<HWND, HDC>);
    // By-reference GUID parameters in C++.
    STATIC_REQUIRE(std::is_same_v<REFIID, const GUID &>);
    STATIC_REQUIRE(std::is_same_v<REFGUID, const GUID &>);
}

TEST_CASE("D3D9 enums are 4 bytes, as with MSVC", "[headers][abi]")
{
    STATIC_REQUIRE(sizeof(D3DFORMAT) == 4);
    STATIC_REQUIRE(sizeof(D3DDEVTYPE) == 4);
    STATIC_REQUIRE(sizeof(D3DPOOL) == 4);
    STATIC_REQUIRE(sizeof(D3DRESOURCETYPE) == 4);
    STATIC_REQUIRE(sizeof(D3DMULTISAMPLE_TYPE) == 4);
    STATIC_REQUIRE(sizeof(D3DSWAPEFFECT) == 4);
    STATIC_REQUIRE(sizeof(D3DPRIMITIVETYPE) == 4);
    STATIC_REQUIRE(sizeof(D3DRENDERSTATETYPE) == 4);
    STATIC_REQUIRE(sizeof(D3DSAMPLERSTATETYPE) == 4);
    STATIC_REQUIRE(sizeof(D3DTEXTURESTAGESTATETYPE) == 4);
    STATIC_REQUIRE(sizeof(D3DTRANSFORMSTATETYPE) == 4);
    STATIC_REQUIRE(sizeof(D3DCUBEMAP_FACES) == 4);
    STATIC_REQUIRE(sizeof(D3DSTATEBLOCKTYPE) == 4);
    STATIC_REQUIRE(sizeof(D3DQUERYTYPE) == 4);
    STATIC_REQUIRE(sizeof(D3DLIGHTTYPE) == 4);
    STATIC_REQUIRE(sizeof(D3DDECLTYPE) == 4);
    STATIC_REQUIRE(sizeof(D3DBACKBUFFER_TYPE) == 4);
}

TEST_CASE("D3D9 structs have the Windows x64 sizes and offsets in C++", "[headers][abi]")
{
#define NOVEM_CPP_CHECK_SIZE(T, n) \
    {                              \
        INFO("sizeof(" #T ")");    \
        CHECK(sizeof(T) == n);     \
    }
    NOVEM_D3D9_STRUCT_SIZES(NOVEM_CPP_CHECK_SIZE)
#define NOVEM_CPP_CHECK_OFFSET(T, m, off) \
    {                                     \
        INFO("offsetof(" #T ", " #m ")"); \
        CHECK(offsetof(T, m) == off);     \
    }
    NOVEM_D3D9_STRUCT_OFFSETS(NOVEM_CPP_CHECK_OFFSET)
    // The ones the brief of this test names, spelled out.
    CHECK(sizeof(D3DCAPS9) == 304);
    CHECK(sizeof(D3DPRESENT_PARAMETERS) == 64);     // 56 on x86
    CHECK(sizeof(D3DADAPTER_IDENTIFIER9) == 1104);  // 1100 on x86
    CHECK(sizeof(D3DVIEWPORT9) == 24);
    CHECK(sizeof(D3DMATERIAL9) == 68);
    CHECK(sizeof(D3DLIGHT9) == 104);
    CHECK(sizeof(D3DSURFACE_DESC) == 32);
    CHECK(sizeof(D3DLOCKED_RECT) == 16);
    CHECK(sizeof(D3DVERTEXELEMENT9) == 8);
    CHECK(sizeof(D3DMATRIX) == 64);
    CHECK(sizeof(D3DDISPLAYMODE) == 16);
    CHECK(sizeof(GUID) == 16);
    CHECK(sizeof(RECT) == 16);
}

TEST_CASE("D3D9 structs have the same sizes and offsets in C", "[headers][abi]")
{
    std::map<std::string, std::size_t> sizes, offsets;
#define NOVEM_CPP_SIZE(T, n) sizes[#T] = n;
    NOVEM_D3D9_STRUCT_SIZES(NOVEM_CPP_SIZE)
#define NOVEM_CPP_OFFSET(T, m, off) offsets[#T "." #m] = off;
    NOVEM_D3D9_STRUCT_OFFSETS(NOVEM_CPP_OFFSET)

    REQUIRE(novem_c_size_count == sizes.size());
    for (std::size_t i = 0; i < novem_c_size_count; ++i) {
        INFO("C sizeof(" << novem_c_sizes[i].what << ")");
        CHECK(novem_c_sizes[i].value == sizes.at(novem_c_sizes[i].what));
    }
    REQUIRE(novem_c_offset_count == offsets.size());
    for (std::size_t i = 0; i < novem_c_offset_count; ++i) {
        INFO("C offsetof " << novem_c_offsets[i].what);
        CHECK(novem_c_offsets[i].value == offsets.at(novem_c_offsets[i].what));
    }
}

TEST_CASE("C++ interfaces have the COM vtable layout of Windows", "[headers][abi][vtable]")
{
    for (const Slots &v : cpp_vtables()) {
        INFO(v.iface);
        CHECK(v.slots.size() == v.expected_count);
        CHECK(v.object_size == sizeof(void *));  // just the vtable pointer
        CHECK(v.com_shaped);
        for (std::size_t i = 0; i < v.slots.size(); ++i) {
            INFO(v.slots[i].first);
            CHECK(v.slots[i].second == i);
        }
    }

    // Spot checks against the documented slot numbers.
    CHECK(vtable_slot(&IUnknown::QueryInterface) == 0);
    CHECK(vtable_slot(&IUnknown::AddRef) == 1);
    CHECK(vtable_slot(&IUnknown::Release) == 2);
    CHECK(vtable_slot(&IDirect3D9::GetAdapterCount) == 4);
    CHECK(vtable_slot(&IDirect3D9::GetDeviceCaps) == 14);
    CHECK(vtable_slot(&IDirect3D9::CreateDevice) == 16);
    CHECK(vtable_slot(&IDirect3DDevice9::QueryInterface) == 0);
    CHECK(vtable_slot(&IDirect3DDevice9::AddRef) == 1);
    CHECK(vtable_slot(&IDirect3DDevice9::Release) == 2);
    CHECK(vtable_slot(&IDirect3DDevice9::TestCooperativeLevel) == 3);
    CHECK(vtable_slot(&IDirect3DDevice9::Reset) == 16);
    CHECK(vtable_slot(&IDirect3DDevice9::Present) == 17);
    CHECK(vtable_slot(&IDirect3DDevice9::GetBackBuffer) == 18);
    CHECK(vtable_slot(&IDirect3DDevice9::CreateTexture) == 23);
    CHECK(vtable_slot(&IDirect3DDevice9::CreateVertexBuffer) == 26);
    CHECK(vtable_slot(&IDirect3DDevice9::BeginScene) == 41);
    CHECK(vtable_slot(&IDirect3DDevice9::EndScene) == 42);
    CHECK(vtable_slot(&IDirect3DDevice9::Clear) == 43);
    CHECK(vtable_slot(&IDirect3DDevice9::SetTransform) == 44);
    CHECK(vtable_slot(&IDirect3DDevice9::SetRenderState) == 57);
    CHECK(vtable_slot(&IDirect3DDevice9::SetTexture) == 65);
    CHECK(vtable_slot(&IDirect3DDevice9::DrawPrimitive) == 81);
    CHECK(vtable_slot(&IDirect3DDevice9::DrawIndexedPrimitive) == 82);
    CHECK(vtable_slot(&IDirect3DDevice9::DrawPrimitiveUP) == 83);
    CHECK(vtable_slot(&IDirect3DDevice9::SetFVF) == 89);
    CHECK(vtable_slot(&IDirect3DDevice9::CreateVertexShader) == 91);
    CHECK(vtable_slot(&IDirect3DDevice9::SetStreamSource) == 100);
    CHECK(vtable_slot(&IDirect3DDevice9::CreateQuery) == 118);
    CHECK(vtable_slot(&IDirect3DDevice9Ex::PresentEx) == 121);
    CHECK(vtable_slot(&IDirect3DDevice9Ex::GetDisplayModeEx) == 133);
    CHECK(vtable_slot(&IDirect3DSurface9::GetDesc) == 12);
    CHECK(vtable_slot(&IDirect3DSurface9::LockRect) == 13);
    CHECK(vtable_slot(&IDirect3DSurface9::UnlockRect) == 14);
    CHECK(vtable_slot(&IDirect3DVertexBuffer9::GetType) == 10);
    CHECK(vtable_slot(&IDirect3DVertexBuffer9::Lock) == 11);
    CHECK(vtable_slot(&IDirect3DVertexBuffer9::Unlock) == 12);
    CHECK(vtable_slot(&IDirect3DVertexBuffer9::GetDesc) == 13);
    CHECK(vtable_slot(&IDirect3DTexture9::GetLevelCount) == 13);
    CHECK(vtable_slot(&IDirect3DTexture9::GetSurfaceLevel) == 18);
    CHECK(vtable_slot(&IDirect3DTexture9::LockRect) == 19);
    CHECK(vtable_slot(&IDirect3DTexture9::AddDirtyRect) == 21);
}

TEST_CASE("C lpVtbl structs have the same slots", "[headers][abi][vtable]")
{
    const std::vector<Slots> cpp = cpp_vtables();
    REQUIRE(novem_c_vtable_count == cpp.size());
    for (std::size_t i = 0; i < novem_c_vtable_count; ++i) {
        const novem_c_vtable &v = novem_c_vtables[i];
        INFO(v.iface);
        CHECK(std::string(v.iface) == cpp[i].iface);
        CHECK(v.count == cpp[i].expected_count);
        CHECK(v.vtbl_size == v.count * sizeof(void *));  // no method missing or extra
        for (std::size_t k = 0; k < v.count; ++k) {
            INFO(v.names[k]);
            CHECK(v.slots[k] == k);
        }
    }
    CHECK(c_slot("IDirect3D9", "CreateDevice") == 16);
    CHECK(c_slot("IDirect3DDevice9", "TestCooperativeLevel") == 3);
    CHECK(c_slot("IDirect3DDevice9", "Present") == 17);
    CHECK(c_slot("IDirect3DDevice9", "GetBackBuffer") == 18);
    CHECK(c_slot("IDirect3DDevice9", "CreateTexture") == 23);
    CHECK(c_slot("IDirect3DDevice9", "CreateVertexBuffer") == 26);
    CHECK(c_slot("IDirect3DDevice9", "Clear") == 43);
    CHECK(c_slot("IDirect3DDevice9", "SetTransform") == 44);
    CHECK(c_slot("IDirect3DDevice9", "SetRenderState") == 57);
    CHECK(c_slot("IDirect3DDevice9", "DrawPrimitive") == 81);
    CHECK(c_slot("IDirect3DDevice9", "DrawPrimitiveUP") == 83);
    CHECK(c_slot("IDirect3DDevice9", "SetFVF") == 89);
    CHECK(c_slot("IDirect3DDevice9", "CreateVertexShader") == 91);
    CHECK(c_slot("IDirect3DDevice9", "SetStreamSource") == 100);
    CHECK(c_slot("IDirect3DDevice9", "CreateQuery") == 118);
    CHECK(c_slot("IDirect3DSurface9", "LockRect") == 13);
    CHECK(c_slot("IDirect3DVertexBuffer9", "Lock") == 11);
    CHECK(c_slot("IDirect3DTexture9", "GetSurfaceLevel") == 18);
}

TEST_CASE("IIDs have their documented values and one definition", "[headers][guid]")
{
    CHECK(same_guid(IID_IDirect3DDevice9, 0xd0223b96, 0xbf7a, 0x43fd,
                    {0x92, 0xbd, 0xa4, 0x3b, 0x0d, 0x82, 0xb9, 0xeb}));
    CHECK(same_guid(IID_IDirect3D9, 0x81bdcbca, 0x64d4, 0x426d,
                    {0xae, 0x8d, 0xad, 0x01, 0x47, 0xf4, 0x27, 0x5c}));
    CHECK(same_guid(IID_IUnknown, 0x00000000, 0x0000, 0x0000,
                    {0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x46}));

    const GUID documented = {0xd0223b96, 0xbf7a, 0x43fd, {0x92, 0xbd, 0xa4, 0x3b, 0x0d, 0x82, 0xb9, 0xeb}};
    CHECK(IsEqualGUID(IID_IDirect3DDevice9, documented));
    CHECK(IsEqualIID(documented, IID_IDirect3DDevice9));
    CHECK(IID_IDirect3DDevice9 == documented);
    CHECK(IID_IDirect3DDevice9 != IID_IDirect3D9);
    CHECK_FALSE(IsEqualGUID(IID_IDirect3DDevice9, IID_IDirect3DDevice9Ex));
    CHECK(novem_c_iid_device9_matches() == 1);

    // One object, seen from the INITGUID unit, another C++ unit, this one, and C.
    CHECK(novem_initguid_iid_device9_address() == &IID_IDirect3DDevice9);
    CHECK(novem_decl_iid_device9_address() == &IID_IDirect3DDevice9);
    CHECK(static_cast<const void *>(novem_c_iid_device9_address()) == &IID_IDirect3DDevice9);
}

TEST_CASE("HRESULT codes and macros have their Windows values", "[headers][hresult]")
{
    auto bits = [](HRESULT hr) { return static_cast<std::uint32_t>(hr); };
    CHECK(bits(S_OK) == 0x00000000u);
    CHECK(bits(S_FALSE) == 0x00000001u);
    CHECK(bits(E_NOTIMPL) == 0x80004001u);
    CHECK(bits(E_NOINTERFACE) == 0x80004002u);
    CHECK(bits(E_POINTER) == 0x80004003u);
    CHECK(bits(E_FAIL) == 0x80004005u);
    CHECK(bits(E_OUTOFMEMORY) == 0x8007000Eu);
    CHECK(bits(E_INVALIDARG) == 0x80070057u);
    CHECK(bits(D3D_OK) == 0u);
    CHECK(bits(D3DERR_INVALIDCALL) == 0x8876086Cu);
    CHECK(bits(D3DERR_DEVICELOST) == 0x88760868u);
    CHECK(bits(D3DERR_DEVICENOTRESET) == 0x88760869u);
    CHECK(bits(D3DERR_NOTAVAILABLE) == 0x8876086Au);
    CHECK(bits(D3DERR_OUTOFVIDEOMEMORY) == 0x8876017Cu);
    CHECK(bits(D3DERR_WASSTILLDRAWING) == 0x8876021Cu);
    CHECK(bits(D3DERR_NOTFOUND) == 0x88760866u);
    CHECK(bits(D3DOK_NOAUTOGEN) == 0x0876086Fu);
    CHECK(bits(MAKE_HRESULT(1, 0x876, 2156)) == 0x8876086Cu);
    CHECK(HRESULT_CODE(D3DERR_INVALIDCALL) == 2156);
    CHECK(HRESULT_FACILITY(D3DERR_INVALIDCALL) == 0x876);
    CHECK(HRESULT_SEVERITY(D3DERR_INVALIDCALL) == 1);

    CHECK(SUCCEEDED(S_OK));
    CHECK(SUCCEEDED(S_FALSE));
    CHECK(SUCCEEDED(D3DOK_NOAUTOGEN));
    CHECK(FAILED(E_FAIL));
    CHECK(FAILED(D3DERR_INVALIDCALL));
    CHECK_FALSE(FAILED(S_FALSE));

    // They are integral constant expressions, usable as case labels, as on Windows.
    auto name = [](HRESULT hr) -> std::string {
        switch (hr) {
        case D3D_OK: return "D3D_OK";
        case D3DERR_INVALIDCALL: return "D3DERR_INVALIDCALL";
        case D3DERR_DEVICELOST: return "D3DERR_DEVICELOST";
        case E_OUTOFMEMORY: return "E_OUTOFMEMORY";
        default: return "?";
        }
    };
    CHECK(name(D3DERR_INVALIDCALL) == "D3DERR_INVALIDCALL");
    CHECK(name(E_OUTOFMEMORY) == "E_OUTOFMEMORY");
}

TEST_CASE("value macros of d3d9types.h and the shim", "[headers][macros]")
{
    CHECK(D3DCOLOR_ARGB(0x11, 0x22, 0x33, 0x44) == 0x11223344u);
    CHECK(D3DCOLOR_XRGB(0x01, 0x02, 0x03) == 0xFF010203u);
    CHECK(D3DCOLOR_RGBA(0x11, 0x22, 0x33, 0x44) == 0x44112233u);
    CHECK(D3DCOLOR_COLORVALUE(1.0f, 0.0f, 0.0f, 1.0f) == 0xFFFF0000u);
    CHECK(MAKEFOURCC('D', 'X', 'T', '1') == 0x31545844u);
    CHECK(D3DFMT_DXT1 == static_cast<D3DFORMAT>(MAKEFOURCC('D', 'X', 'T', '1')));
    CHECK(D3DFMT_A8R8G8B8 == 21);
    CHECK(D3DFMT_X8R8G8B8 == 22);
    CHECK(D3DFMT_D24S8 == 75);
    CHECK(D3DRS_ZENABLE == 7);
    CHECK(D3DRS_CULLMODE == 22);
    CHECK(D3DRS_LIGHTING == 137);
    CHECK(D3DTS_WORLD == 256);
    CHECK(D3DTS_VIEW == 2);
    CHECK(D3DTS_PROJECTION == 3);
    CHECK(D3DPS_VERSION(3, 0) == 0xFFFF0300u);
    CHECK(D3DVS_VERSION(2, 0) == 0xFFFE0200u);
    CHECK(D3D_SDK_VERSION == 32);
    CHECK(D3DCREATE_HARDWARE_VERTEXPROCESSING == 0x40);
    CHECK(D3DPRESENT_INTERVAL_IMMEDIATE == 0x80000000u);
    CHECK(D3DCLEAR_TARGET == 1);
    CHECK(D3DLOCK_DISCARD == 0x2000);
    CHECK((D3DFVF_XYZ | D3DFVF_DIFFUSE | D3DFVF_TEX1) == 0x142);
    CHECK(MAKEWORD(0x34, 0x12) == 0x1234);
    CHECK(LOWORD(0x12345678u) == 0x5678);
    CHECK(HIWORD(0x12345678u) == 0x1234);

    // A vertex declaration as Windows programs spell it.
    const D3DVERTEXELEMENT9 decl[] = {
        {0, 0, D3DDECLTYPE_FLOAT3, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
        {0, 12, D3DDECLTYPE_D3DCOLOR, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_COLOR, 0},
        D3DDECL_END()};
    CHECK(decl[2].Stream == 0xFF);
    CHECK(decl[2].Type == D3DDECLTYPE_UNUSED);

    D3DMATRIX m;
    ZeroMemory(&m, sizeof m);
    m._11 = m._22 = m._33 = m._44 = 1.0f;
    CHECK(m.m[0][0] == 1.0f);
    CHECK(m.m[3][3] == 1.0f);
    CHECK(m.m[0][1] == 0.0f);

    LARGE_INTEGER li;
    li.QuadPart = 0x0000000500000007LL;
    CHECK(li.LowPart == 7u);
    CHECK(li.HighPart == 5);
}

namespace {

// An IDirect3DVertexBuffer9 implemented in C++ the way Novem's frontend implements interfaces.
class FakeVertexBuffer final : public IDirect3DVertexBuffer9 {
public:
    HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void **out) override
    {
        if (!out) return E_POINTER;
        if (riid == IID_IUnknown || riid == IID_IDirect3DResource9 || riid == IID_IDirect3DVertexBuffer9) {
            *out = this;
            AddRef();
            return S_OK;
        }
        *out = nullptr;
        return E_NOINTERFACE;
    }
    ULONG STDMETHODCALLTYPE AddRef() override { return ++refs; }
    ULONG STDMETHODCALLTYPE Release() override { return --refs; }
    HRESULT STDMETHODCALLTYPE GetDevice(IDirect3DDevice9 **device) override
    {
        if (device) *device = nullptr;
        return D3DERR_INVALIDCALL;
    }
    HRESULT STDMETHODCALLTYPE SetPrivateData(REFGUID, const void *, DWORD, DWORD) override { return E_NOTIMPL; }
    HRESULT STDMETHODCALLTYPE GetPrivateData(REFGUID, void *, DWORD *) override { return E_NOTIMPL; }
    HRESULT STDMETHODCALLTYPE FreePrivateData(REFGUID) override { return E_NOTIMPL; }
    DWORD STDMETHODCALLTYPE SetPriority(DWORD p) override
    {
        const DWORD old = priority;
        priority = p;
        return old;
    }
    DWORD STDMETHODCALLTYPE GetPriority() override { return priority; }
    void STDMETHODCALLTYPE PreLoad() override {}
    D3DRESOURCETYPE STDMETHODCALLTYPE GetType() override { return D3DRTYPE_VERTEXBUFFER; }
    HRESULT STDMETHODCALLTYPE Lock(UINT offset, UINT size, void **data, DWORD flags) override
    {
        if (!data || offset + size > sizeof storage || locked) return D3DERR_INVALIDCALL;
        locked = true;
        last_lock_flags = flags;
        *data = storage + offset;
        return D3D_OK;
    }
    HRESULT STDMETHODCALLTYPE Unlock() override
    {
        if (!locked) return D3DERR_INVALIDCALL;
        locked = false;
        return D3D_OK;
    }
    HRESULT STDMETHODCALLTYPE GetDesc(D3DVERTEXBUFFER_DESC *desc) override
    {
        if (!desc) return D3DERR_INVALIDCALL;
        desc->Format = D3DFMT_VERTEXDATA;
        desc->Type = D3DRTYPE_VERTEXBUFFER;
        desc->Usage = D3DUSAGE_WRITEONLY;
        desc->Pool = D3DPOOL_DEFAULT;
        desc->Size = sizeof storage;
        desc->FVF = D3DFVF_XYZ | D3DFVF_DIFFUSE;
        return D3D_OK;
    }

    ULONG refs = 1;
    DWORD priority = 0;
    DWORD last_lock_flags = 0;
    bool locked = false;
    unsigned char storage[4096] = {};
};

// Typical Windows D3D9 application code, minus the window: it must compile unchanged.
[[maybe_unused]] HRESULT create_device(IDirect3D9 *d3d, HWND window, IDirect3DDevice9 **device)
{
    D3DPRESENT_PARAMETERS pp;
    ZeroMemory(&pp, sizeof(pp));
    pp.Windowed = TRUE;
    pp.SwapEffect = D3DSWAPEFFECT_DISCARD;
    pp.BackBufferFormat = D3DFMT_UNKNOWN;
    pp.EnableAutoDepthStencil = TRUE;
    pp.AutoDepthStencilFormat = D3DFMT_D24S8;
    pp.PresentationInterval = D3DPRESENT_INTERVAL_IMMEDIATE;
    pp.hDeviceWindow = window;
    D3DCAPS9 caps;
    if (FAILED(d3d->GetDeviceCaps(D3DADAPTER_DEFAULT, D3DDEVTYPE_HAL, &caps))) return E_FAIL;
    const DWORD vp = (caps.DevCaps & D3DDEVCAPS_HWTRANSFORMANDLIGHT) ? D3DCREATE_HARDWARE_VERTEXPROCESSING
                                                                     : D3DCREATE_SOFTWARE_VERTEXPROCESSING;
    return d3d->CreateDevice(D3DADAPTER_DEFAULT, D3DDEVTYPE_HAL, window, vp, &pp, device);
}

[[maybe_unused]] HRESULT render_frame(IDirect3DDevice9 *dev, IDirect3DVertexBuffer9 *vb)
{
    struct Vertex {
        float x, y, z;
        D3DCOLOR color;
    };
    D3DMATRIX identity = {{{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}}};
    dev->Clear(0, nullptr, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, D3DCOLOR_XRGB(0, 0, 64), 1.0f, 0);
    if (SUCCEEDED(dev->BeginScene())) {
        dev->SetTransform(D3DTS_WORLD, &identity);
        dev->SetRenderState(D3DRS_LIGHTING, FALSE);
        dev->SetStreamSource(0, vb, 0, sizeof(Vertex));
        dev->SetFVF(D3DFVF_XYZ | D3DFVF_DIFFUSE);
        dev->DrawPrimitive(D3DPT_TRIANGLELIST, 0, 1);
        dev->EndScene();
    }
    IDirect3DSurface9 *back = nullptr;
    if (SUCCEEDED(dev->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &back))) {
        D3DSURFACE_DESC desc;
        back->GetDesc(&desc);
        back->Release();
    }
    IDirect3DDevice9_SetRenderState(dev, D3DRS_ZENABLE, D3DZB_TRUE);  // the C++ forms of the macros
    const HRESULT hr = dev->Present(nullptr, nullptr, nullptr, nullptr);
    return hr == D3DERR_DEVICELOST ? dev->TestCooperativeLevel() : hr;
}

}  // namespace

TEST_CASE("C++ and C call the same object through one vtable", "[headers][vtable]")
{
    FakeVertexBuffer vb;
    IDirect3DVertexBuffer9 *iface = &vb;

    // From C++, through the interface.
    CHECK(iface->AddRef() == 2);
    CHECK(iface->Release() == 1);
    CHECK(iface->GetType() == D3DRTYPE_VERTEXBUFFER);
    CHECK(iface->SetPriority(7) == 0);
    CHECK(iface->GetPriority() == 7);
    IUnknown *unknown = nullptr;
    REQUIRE(iface->QueryInterface(IID_IUnknown, reinterpret_cast<void **>(&unknown)) == S_OK);
    CHECK(static_cast<void *>(unknown) == static_cast<void *>(&vb));
    CHECK(unknown->Release() == 1);

    // From C, through lpVtbl: the same object is a `struct { const IDirect3DVertexBuffer9Vtbl *lpVtbl; }`.
    CHECK(novem_c_drive_vertex_buffer(iface) == 0);
    CHECK(vb.refs == 1);
    CHECK(vb.storage[16] == 0xAB);
    CHECK(vb.last_lock_flags == D3DLOCK_NOOVERWRITE);
    CHECK_FALSE(vb.locked);
}
