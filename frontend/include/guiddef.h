/* Novem Windows-types shim: GUID, IID, REFIID, DEFINE_GUID (Windows guiddef.h subset).
 *
 * DEFINE_GUID(name, ...) declares `extern const GUID name`. In a translation unit that defines
 * INITGUID before the first include (or includes <initguid.h>), it defines the GUID instead.
 * Like Windows' DECLSPEC_SELECTANY, the definition is weak, so more than one such unit links.
 * The DEFINE_GUID part sits outside the include guard on purpose: <initguid.h> re-includes this
 * file to switch DEFINE_GUID to definitions, as on Windows. */
#if defined(__GNUC__)
#pragma GCC system_header
#endif

#ifndef NOVEM_SHIM_GUIDDEF_H
#define NOVEM_SHIM_GUIDDEF_H

#include <stdint.h>

#ifndef EXTERN_C
# ifdef __cplusplus
#  define EXTERN_C extern "C"
# else
#  define EXTERN_C extern
# endif
#endif

#ifndef GUID_DEFINED
#define GUID_DEFINED
typedef struct _GUID {
    uint32_t       Data1;      /* unsigned long on Windows: 32-bit */
    unsigned short Data2;
    unsigned short Data3;
    unsigned char  Data4[8];
} GUID;
#endif

typedef GUID *LPGUID;
typedef const GUID *LPCGUID;
typedef GUID IID, *LPIID;
typedef GUID CLSID, *LPCLSID;
typedef GUID FMTID, *LPFMTID;

#ifdef __cplusplus
# define REFGUID  const GUID &
# define REFIID   const IID &
# define REFCLSID const CLSID &
# define REFFMTID const FMTID &
inline int IsEqualGUID(REFGUID a, REFGUID b)
{
    return a.Data1 == b.Data1 && a.Data2 == b.Data2 && a.Data3 == b.Data3 &&
           a.Data4[0] == b.Data4[0] && a.Data4[1] == b.Data4[1] && a.Data4[2] == b.Data4[2] &&
           a.Data4[3] == b.Data4[3] && a.Data4[4] == b.Data4[4] && a.Data4[5] == b.Data4[5] &&
           a.Data4[6] == b.Data4[6] && a.Data4[7] == b.Data4[7];
}
inline bool operator==(REFGUID a, REFGUID b) { return IsEqualGUID(a, b) != 0; }
inline bool operator!=(REFGUID a, REFGUID b) { return !(a == b); }
#else
# define REFGUID  const GUID *
# define REFIID   const IID *
# define REFCLSID const CLSID *
# define REFFMTID const FMTID *
static __inline__ int IsEqualGUID(REFGUID a, REFGUID b)
{
    int i;
    if (a->Data1 != b->Data1 || a->Data2 != b->Data2 || a->Data3 != b->Data3) return 0;
    for (i = 0; i < 8; ++i)
        if (a->Data4[i] != b->Data4[i]) return 0;
    return 1;
}
#endif
#define IsEqualIID(a, b)   IsEqualGUID(a, b)
#define IsEqualCLSID(a, b) IsEqualGUID(a, b)
#define InlineIsEqualGUID(a, b) IsEqualGUID(a, b)

#ifndef DECLSPEC_SELECTANY
# define DECLSPEC_SELECTANY __attribute__((weak))
#endif

#endif /* NOVEM_SHIM_GUIDDEF_H */

/* Re-evaluated on every inclusion (see above). */
#undef DEFINE_GUID
#ifdef INITGUID
# ifdef __cplusplus
#  define DEFINE_GUID(name, l, w1, w2, b1, b2, b3, b4, b5, b6, b7, b8) \
       extern "C" const GUID DECLSPEC_SELECTANY name = { l, w1, w2, { b1, b2, b3, b4, b5, b6, b7, b8 } }
# else
#  define DEFINE_GUID(name, l, w1, w2, b1, b2, b3, b4, b5, b6, b7, b8) \
       const GUID DECLSPEC_SELECTANY name = { l, w1, w2, { b1, b2, b3, b4, b5, b6, b7, b8 } }
# endif
#else
# define DEFINE_GUID(name, l, w1, w2, b1, b2, b3, b4, b5, b6, b7, b8) EXTERN_C const GUID name
#endif
