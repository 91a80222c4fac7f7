/* Novem Windows-types shim: sized and pointer-sized integers (Windows basetsd.h subset).
 * Windows is LLP64: (U)LONG and DWORD are 32-bit, pointers and *_PTR are 64-bit on x86-64. */
#ifndef NOVEM_SHIM_BASETSD_H
#define NOVEM_SHIM_BASETSD_H
#if defined(__GNUC__)
#pragma GCC system_header
#endif

#include <stddef.h>
#include <stdint.h>

typedef signed char        INT8, *PINT8;
typedef unsigned char      UINT8, *PUINT8;
typedef short              INT16, *PINT16;
typedef unsigned short     UINT16, *PUINT16;
typedef int                INT32, *PINT32, LONG32, *PLONG32;
typedef unsigned int       UINT32, *PUINT32, ULONG32, *PULONG32, DWORD32, *PDWORD32;
/* Windows' __int64 is long long; keep that so printf("%lld") and overloads behave as there. */
typedef long long          INT64, *PINT64, LONG64, *PLONG64;
typedef unsigned long long UINT64, *PUINT64, ULONG64, *PULONG64, DWORD64, *PDWORD64;

typedef intptr_t           INT_PTR, *PINT_PTR, LONG_PTR, *PLONG_PTR;
typedef uintptr_t          UINT_PTR, *PUINT_PTR, ULONG_PTR, *PULONG_PTR, DWORD_PTR, *PDWORD_PTR;
typedef size_t             SIZE_T, *PSIZE_T;
typedef ptrdiff_t          SSIZE_T, *PSSIZE_T;

#endif /* NOVEM_SHIM_BASETSD_H */
