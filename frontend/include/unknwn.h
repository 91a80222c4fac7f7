/* Novem Windows-types shim: IUnknown (Windows unknwn.h subset).
 * C++: a struct with three pure virtual methods and no virtual destructor, so with the Itanium
 * C++ ABI (GCC, Clang on Linux) the vtable pointer is at offset 0 and slots 0..2 are
 * QueryInterface, AddRef, Release, exactly the COM layout. C (or C++ with CINTERFACE): the
 * explicit lpVtbl struct, same layout. */
#ifndef NOVEM_SHIM_UNKNWN_H
#define NOVEM_SHIM_UNKNWN_H
#if defined(__GNUC__)
#pragma GCC system_header
#endif

#include <windows.h>

DEFINE_GUID(IID_IUnknown, 0x00000000, 0x0000, 0x0000, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x46);

#if defined(__cplusplus) && !defined(CINTERFACE)
struct IUnknown {
    virtual HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void **ppvObject) = 0;
    virtual ULONG STDMETHODCALLTYPE AddRef(void) = 0;
    virtual ULONG STDMETHODCALLTYPE Release(void) = 0;
};
#else
typedef struct IUnknown IUnknown;
typedef struct IUnknownVtbl {
    HRESULT (STDMETHODCALLTYPE *QueryInterface)(IUnknown *This, REFIID riid, void **ppvObject);
    ULONG (STDMETHODCALLTYPE *AddRef)(IUnknown *This);
    ULONG (STDMETHODCALLTYPE *Release)(IUnknown *This);
} IUnknownVtbl;
struct IUnknown {
    const IUnknownVtbl *lpVtbl;
};
#define IUnknown_QueryInterface(p, a, b) (p)->lpVtbl->QueryInterface(p, a, b)
#define IUnknown_AddRef(p)               (p)->lpVtbl->AddRef(p)
#define IUnknown_Release(p)              (p)->lpVtbl->Release(p)
#endif

typedef struct IUnknown *LPUNKNOWN;

#endif /* NOVEM_SHIM_UNKNWN_H */
