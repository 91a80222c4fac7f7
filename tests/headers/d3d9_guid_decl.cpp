// A translation unit without INITGUID: DEFINE_GUID must only declare here. check_guid_symbols.cmake
// checks with nm that this object references IID_IDirect3DDevice9 without defining it.
#include <d3d9.h>

const GUID *novem_decl_iid_device9_address()
{
    return &IID_IDirect3DDevice9;
}
