// Defines the interface IDs that d3d9.h declares (IID_IDirect3D9, IID_IDirect3DDevice9, ...):
// INITGUID turns DEFINE_GUID into definitions in this one file. The library exports them, so a
// program gets them by linking Novem, where on Windows it would link dxguid.lib.
#define INITGUID
#pragma GCC visibility push(default)
#include <d3d9.h>
#pragma GCC visibility pop
