/* Novem Windows-types shim: the Windows base types, handles and small structs that <d3d9.h>
 * (mingw-w64's, used unchanged) and typical Direct3D 9 code need. Not the Win32 API: window,
 * message and GDI functions are deliberately absent (see README.md).
 *
 * Windows is LLP64. Everything here keeps the Windows sizes on Linux x86-64 (LP64):
 * DWORD/ULONG = uint32_t, LONG = int32_t, HRESULT = LONG, BOOL = int; pointers, handles and
 * *_PTR are 64-bit. Calling-convention macros expand to nothing (x86-64 has one convention). */
#ifndef NOVEM_SHIM_WINDOWS_H
#define NOVEM_SHIM_WINDOWS_H
#if defined(__GNUC__)
#pragma GCC system_header
#endif

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <basetsd.h>
#include <guiddef.h>
#include <winerror.h>

/* ---- calling conventions and declaration decorations ------------------------------------- */
#ifndef __stdcall
# define __stdcall
#endif
#ifndef __cdecl
# define __cdecl
#endif
#define WINAPI              __stdcall
#define WINAPIV             __cdecl
#define APIENTRY            WINAPI
#define CALLBACK            __stdcall
#define STDMETHODCALLTYPE   __stdcall
#define STDMETHODVCALLTYPE  __cdecl
#define STDAPICALLTYPE      __stdcall
#define STDAPIVCALLTYPE     __cdecl
#ifndef EXTERN_C
# ifdef __cplusplus
#  define EXTERN_C extern "C"
# else
#  define EXTERN_C extern
# endif
#endif
#define DECLSPEC_NOVTABLE
#define DECLSPEC_UUID(x)
#define DECLSPEC_IMPORT
#ifndef DECLSPEC_SELECTANY
# define DECLSPEC_SELECTANY __attribute__((weak))
#endif
#define CONST               const
#define VOID                void
/* mingw-w64 spells Windows' long constants __MSABI_LONG(x); LONG is int here, so plain x. */
#ifndef __MSABI_LONG
# define __MSABI_LONG(x)    x
#endif

/* Nameless unions/structs, as Windows compilers allow; define NONAMELESSUNION to name them. */
#ifndef NONAMELESSUNION
# define DUMMYUNIONNAME
# define DUMMYUNIONNAME2
# define DUMMYSTRUCTNAME
# define DUMMYSTRUCTNAME2
#else
# define DUMMYUNIONNAME   u
# define DUMMYUNIONNAME2  u2
# define DUMMYSTRUCTNAME  s
# define DUMMYSTRUCTNAME2 s2
#endif

/* ---- scalar types (LLP64) ------------------------------------------------------------------ */
typedef int                 WINBOOL, BOOL, *PBOOL, *LPBOOL;
typedef unsigned char       BOOLEAN, *PBOOLEAN;
typedef char                CHAR, *PCHAR, *LPCH, *PSTR, *LPSTR;
typedef const char          *PCSTR, *LPCSTR;
typedef unsigned char       UCHAR, *PUCHAR, BYTE, *PBYTE, *LPBYTE;
typedef short               SHORT, *PSHORT;
typedef unsigned short      USHORT, *PUSHORT, WORD, *PWORD, *LPWORD;
typedef int                 INT, *PINT, *LPINT;
typedef unsigned int        UINT, *PUINT;
typedef int32_t             LONG, *PLONG, *LPLONG;
typedef uint32_t            ULONG, *PULONG, DWORD, *PDWORD, *LPDWORD;
typedef long long           LONGLONG, *PLONGLONG;
typedef unsigned long long  ULONGLONG, *PULONGLONG, DWORDLONG, *PDWORDLONG;
typedef float               FLOAT, *PFLOAT;
typedef void                *PVOID, *LPVOID;
typedef const void          *LPCVOID;
typedef LONG                HRESULT;
typedef LONG                SCODE;
/* WCHAR is wchar_t so that L"..." literals work (D3DPERF_* take const WCHAR *). It is 32-bit on
 * Linux, 16-bit on Windows; no struct of the D3D9 API contains a WCHAR. */
typedef wchar_t             WCHAR, *PWCHAR, *PWSTR, *LPWSTR;
typedef const wchar_t       *PCWSTR, *LPCWSTR;

#ifndef TRUE
# define TRUE  1
#endif
#ifndef FALSE
# define FALSE 0
#endif

#define MAKEWORD(lo, hi) ((WORD)(((BYTE)((lo) & 0xff)) | ((WORD)((BYTE)((hi) & 0xff))) << 8))
#define MAKELONG(lo, hi) ((LONG)(((WORD)((lo) & 0xffff)) | ((DWORD)((WORD)((hi) & 0xffff))) << 16))
#define LOWORD(l)        ((WORD)((l) & 0xffff))
#define HIWORD(l)        ((WORD)(((l) >> 16) & 0xffff))
#define LOBYTE(w)        ((BYTE)((w) & 0xff))
#define HIBYTE(w)        ((BYTE)(((w) >> 8) & 0xff))

#define ZeroMemory(dst, len)       memset((dst), 0, (len))
#define FillMemory(dst, len, fill) memset((dst), (fill), (len))
#define CopyMemory(dst, src, len)  memcpy((dst), (src), (len))
#define MoveMemory(dst, src, len)  memmove((dst), (src), (len))

/* ---- handles: opaque pointers (STRICT style, one distinct type each) ------------------------ */
typedef void *HANDLE, **PHANDLE, **LPHANDLE;
#define DECLARE_HANDLE(name) struct name##__ { int unused; }; typedef struct name##__ *name
DECLARE_HANDLE(HWND);       /* Novem: NULL = headless device, or an SDL_Window* cast to HWND */
DECLARE_HANDLE(HMONITOR);
DECLARE_HANDLE(HDC);
DECLARE_HANDLE(HINSTANCE);
typedef HINSTANCE HMODULE;

/* ---- small structs ------------------------------------------------------------------------ */
typedef struct tagRECT {
    LONG left;
    LONG top;
    LONG right;
    LONG bottom;
} RECT, *PRECT, *LPRECT;
typedef const RECT *LPCRECT;

typedef struct tagPOINT {
    LONG x;
    LONG y;
} POINT, *PPOINT, *LPPOINT;

typedef struct tagSIZE {
    LONG cx;
    LONG cy;
} SIZE, *PSIZE, *LPSIZE;

#define RDH_RECTANGLES 1
typedef struct _RGNDATAHEADER {
    DWORD dwSize;
    DWORD iType;
    DWORD nCount;
    DWORD nRgnSize;
    RECT  rcBound;
} RGNDATAHEADER, *PRGNDATAHEADER;

typedef struct _RGNDATA {
    RGNDATAHEADER rdh;
    char          Buffer[1];
} RGNDATA, *PRGNDATA, *LPRGNDATA;

typedef struct tagPALETTEENTRY {
    BYTE peRed;
    BYTE peGreen;
    BYTE peBlue;
    BYTE peFlags;
} PALETTEENTRY, *PPALETTEENTRY, *LPPALETTEENTRY;

typedef struct _LUID {
    DWORD LowPart;
    LONG  HighPart;
} LUID, *PLUID;

typedef union _LARGE_INTEGER {
    struct {
        DWORD LowPart;
        LONG  HighPart;
    } DUMMYSTRUCTNAME;
    struct {
        DWORD LowPart;
        LONG  HighPart;
    } u;
    LONGLONG QuadPart;
} LARGE_INTEGER, *PLARGE_INTEGER;

typedef union _ULARGE_INTEGER {
    struct {
        DWORD LowPart;
        DWORD HighPart;
    } DUMMYSTRUCTNAME;
    struct {
        DWORD LowPart;
        DWORD HighPart;
    } u;
    ULONGLONG QuadPart;
} ULARGE_INTEGER, *PULARGE_INTEGER;

#endif /* NOVEM_SHIM_WINDOWS_H */
