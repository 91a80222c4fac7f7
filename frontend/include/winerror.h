/* Novem Windows-types shim: HRESULT helpers and the common COM codes (Windows winerror.h subset).
 * The D3DERR_* codes come from <d3d9.h> itself (MAKE_D3DHRESULT). HRESULT is a 32-bit LONG,
 * typedef'd in <windows.h>; these are macros, so the typedef is only needed where they are used. */
#ifndef NOVEM_SHIM_WINERROR_H
#define NOVEM_SHIM_WINERROR_H
#if defined(__GNUC__)
#pragma GCC system_header
#endif

#define _HRESULT_TYPEDEF_(x) ((HRESULT)(x))

#define SEVERITY_SUCCESS 0
#define SEVERITY_ERROR   1
#define FACILITY_NULL    0
#define FACILITY_ITF     4
#define FACILITY_WIN32   7

#define MAKE_HRESULT(sev, fac, code) \
    ((HRESULT)(((unsigned int)(sev) << 31) | ((unsigned int)(fac) << 16) | ((unsigned int)(code))))
#define MAKE_SCODE(sev, fac, code) MAKE_HRESULT(sev, fac, code)
#define SUCCEEDED(hr)        (((HRESULT)(hr)) >= 0)
#define FAILED(hr)           (((HRESULT)(hr)) < 0)
#define IS_ERROR(hr)         ((((unsigned int)(hr)) >> 31) == SEVERITY_ERROR)
#define HRESULT_CODE(hr)     ((hr) & 0xFFFF)
#define HRESULT_FACILITY(hr) (((hr) >> 16) & 0x1FFF)
#define HRESULT_SEVERITY(hr) ((((unsigned int)(hr)) >> 31) & 0x1)
#define HRESULT_FROM_WIN32(x) \
    ((HRESULT)(x) <= 0 ? ((HRESULT)(x)) \
                       : ((HRESULT)(((unsigned int)(x) & 0x0000FFFF) | (FACILITY_WIN32 << 16) | 0x80000000)))

#define ERROR_SUCCESS    0
#define NO_ERROR         0

#define S_OK             _HRESULT_TYPEDEF_(0x00000000)
#define S_FALSE          _HRESULT_TYPEDEF_(0x00000001)
#define E_NOTIMPL        _HRESULT_TYPEDEF_(0x80004001)
#define E_NOINTERFACE    _HRESULT_TYPEDEF_(0x80004002)
#define E_POINTER        _HRESULT_TYPEDEF_(0x80004003)
#define E_ABORT          _HRESULT_TYPEDEF_(0x80004004)
#define E_FAIL           _HRESULT_TYPEDEF_(0x80004005)
#define E_UNEXPECTED     _HRESULT_TYPEDEF_(0x8000FFFF)
#define E_ACCESSDENIED   _HRESULT_TYPEDEF_(0x80070005)
#define E_HANDLE         _HRESULT_TYPEDEF_(0x80070006)
#define E_OUTOFMEMORY    _HRESULT_TYPEDEF_(0x8007000E)
#define E_INVALIDARG     _HRESULT_TYPEDEF_(0x80070057)

#endif /* NOVEM_SHIM_WINERROR_H */
