/* Novem Windows-types shim: the COM interface-declaration macros (Windows objbase.h /
 * combaseapi.h subset) in the form mingw-w64's d3d9.h uses them:
 *
 *   #define INTERFACE IFoo
 *   DECLARE_INTERFACE_(IFoo, IUnknown) { STDMETHOD(Bar)(THIS_ int x) PURE; ... };
 *
 * C++ (no CINTERFACE): `struct IFoo : public IUnknown` with pure virtual methods, in declaration
 * order after the base's. C, or C++ with CINTERFACE: `struct IFoo { const IFooVtbl *lpVtbl; }`
 * and `struct IFooVtbl` holding one function pointer per method, `This` first. Both give the
 * Windows COM vtable layout on x86-64. CoCreateInstance and friends are not provided.
 *
 * Windows also defines the keyword-like macro `interface` (= struct). It is not defined here by
 * default because Linux headers use `interface` as an identifier (Wayland, for one); define
 * NOVEM_D3D9_INTERFACE_KEYWORD before including to get it. */
#ifndef NOVEM_SHIM_OBJBASE_H
#define NOVEM_SHIM_OBJBASE_H
#if defined(__GNUC__)
#pragma GCC system_header
#endif

#include <windows.h>
#include <unknwn.h>

#if defined(NOVEM_D3D9_INTERFACE_KEYWORD) && !defined(interface)
# define interface struct
#endif

#if defined(__cplusplus) && !defined(CINTERFACE)
# define STDMETHOD(method)        virtual HRESULT STDMETHODCALLTYPE method
# define STDMETHOD_(type, method) virtual type STDMETHODCALLTYPE method
# define STDMETHODV(method)       virtual HRESULT STDMETHODVCALLTYPE method
# define STDMETHODV_(type, method) virtual type STDMETHODVCALLTYPE method
# define PURE                     = 0
# define THIS_
# define THIS                     void
# define DECLARE_INTERFACE(iface)              struct DECLSPEC_NOVTABLE iface
# define DECLARE_INTERFACE_(iface, baseiface)  struct DECLSPEC_NOVTABLE iface : public baseiface
#else
# define STDMETHOD(method)        HRESULT (STDMETHODCALLTYPE *method)
# define STDMETHOD_(type, method) type (STDMETHODCALLTYPE *method)
# define STDMETHODV(method)       HRESULT (STDMETHODVCALLTYPE *method)
# define STDMETHODV_(type, method) type (STDMETHODVCALLTYPE *method)
# define PURE
# define THIS_                    INTERFACE *This,
# define THIS                     INTERFACE *This
# ifdef __cplusplus  /* C++ with CINTERFACE: a typedef may not add const to a class name */
#  define NOVEM_VTBL_TYPEDEF(iface) typedef struct iface##Vtbl iface##Vtbl;
# else
#  define NOVEM_VTBL_TYPEDEF(iface) typedef const struct iface##Vtbl iface##Vtbl;
# endif
# define DECLARE_INTERFACE(iface) \
     typedef struct iface { const struct iface##Vtbl *lpVtbl; } iface; \
     NOVEM_VTBL_TYPEDEF(iface) \
     struct iface##Vtbl
# define DECLARE_INTERFACE_(iface, baseiface) DECLARE_INTERFACE(iface)
#endif

/* For implementations of interfaces. */
#define STDMETHODIMP              HRESULT STDMETHODCALLTYPE
#define STDMETHODIMP_(type)       type STDMETHODCALLTYPE
#define STDAPI                    EXTERN_C HRESULT STDAPICALLTYPE
#define STDAPI_(type)             EXTERN_C type STDAPICALLTYPE

#endif /* NOVEM_SHIM_OBJBASE_H */
