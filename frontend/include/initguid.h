/* Novem Windows-types shim: include before <d3d9.h> (in one translation unit) to define, rather
 * than declare, the IID_* GUIDs, as on Windows. */
#if defined(__GNUC__)
#pragma GCC system_header
#endif
#ifndef INITGUID
#define INITGUID
#endif
#include <guiddef.h>
