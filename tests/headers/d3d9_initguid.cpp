// The one translation unit of test_d3d9_abi that defines the IID_* GUIDs: INITGUID before
// <d3d9.h>, as a Windows program does when it does not link dxguid.lib. check_guid_symbols.cmake
// checks with nm that this object defines them.
#define INITGUID
#include <d3d9.h>

const GUID *novem_initguid_iid_device9_address()
{
    return &IID_IDirect3DDevice9;
}
