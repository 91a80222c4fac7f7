/* The C half of test_d3d9_abi: <d3d9.h> must compile as C (C99, -Wall -Wextra -Wpedantic), and
 * its C interface declarations (struct IFooVtbl of function pointers) must give the same slots,
 * sizes and offsets as the C++ classes. Results go to the C++ test through d3d9_abi_c.h. */
#include <d3d9.h>
#include <d3d9_shader_validator.h>

#include "d3d9_abi_c.h"
#include "d3d9_abi_lists.h"

/* ---- vtable slots ------------------------------------------------------------------------- */
#define NOVEM_C_SLOT(I, m) offsetof(struct I##Vtbl, m) / sizeof(void *),
#define NOVEM_C_NAME(I, m) #m,
#define NOVEM_C_ARRAYS(I, LIST, n) \
    static const size_t slots_##I[] = { LIST(NOVEM_C_SLOT, I) }; \
    static const char *const names_##I[] = { LIST(NOVEM_C_NAME, I) };
NOVEM_D3D9_INTERFACES(NOVEM_C_ARRAYS)

#define NOVEM_C_ENTRY(I, LIST, n) \
    { #I, sizeof(struct I##Vtbl), sizeof(slots_##I) / sizeof(slots_##I[0]), slots_##I, names_##I },
const struct novem_c_vtable novem_c_vtables[] = { NOVEM_D3D9_INTERFACES(NOVEM_C_ENTRY) };
const size_t novem_c_vtable_count = sizeof(novem_c_vtables) / sizeof(novem_c_vtables[0]);

/* ---- layouts ------------------------------------------------------------------------------ */
#define NOVEM_C_SIZE(T, size) { #T, sizeof(T) },
const struct novem_c_layout novem_c_sizes[] = { NOVEM_D3D9_STRUCT_SIZES(NOVEM_C_SIZE) };
const size_t novem_c_size_count = sizeof(novem_c_sizes) / sizeof(novem_c_sizes[0]);

#define NOVEM_C_OFFSET(T, m, off) { #T "." #m, offsetof(T, m) },
const struct novem_c_layout novem_c_offsets[] = { NOVEM_D3D9_STRUCT_OFFSETS(NOVEM_C_OFFSET) };
const size_t novem_c_offset_count = sizeof(novem_c_offsets) / sizeof(novem_c_offsets[0]);

/* ---- GUIDs -------------------------------------------------------------------------------- */
int novem_c_iid_device9_matches(void)
{
    static const GUID documented = { 0xd0223b96, 0xbf7a, 0x43fd,
                                     { 0x92, 0xbd, 0xa4, 0x3b, 0x0d, 0x82, 0xb9, 0xeb } };
    return IsEqualGUID(&IID_IDirect3DDevice9, &documented) && IsEqualIID(&documented, &IID_IDirect3DDevice9);
}

const GUID *novem_c_iid_device9_address(void)
{
    return &IID_IDirect3DDevice9;
}

/* ---- COM calls from C --------------------------------------------------------------------- */
int novem_c_drive_vertex_buffer(IDirect3DVertexBuffer9 *vb)
{
    void *data = NULL;
    D3DVERTEXBUFFER_DESC desc;
    IDirect3DResource9 *resource = NULL;
    IDirect3DDevice9 *device = (IDirect3DDevice9 *)1;

    if (IDirect3DVertexBuffer9_AddRef(vb) != 2) return 1;
    if (FAILED(IDirect3DVertexBuffer9_Lock(vb, 16, 32, &data, D3DLOCK_NOOVERWRITE)) || !data) return 2;
    ((unsigned char *)data)[0] = 0xAB;
    if (IDirect3DVertexBuffer9_Unlock(vb) != D3D_OK) return 3;
    if (FAILED(IDirect3DVertexBuffer9_GetDesc(vb, &desc))) return 4;
    if (desc.Size != 4096 || desc.Pool != D3DPOOL_DEFAULT || desc.FVF != (D3DFVF_XYZ | D3DFVF_DIFFUSE)) return 5;
    if (IDirect3DVertexBuffer9_GetType(vb) != D3DRTYPE_VERTEXBUFFER) return 6;
    if (IDirect3DVertexBuffer9_QueryInterface(vb, &IID_IDirect3DResource9, (void **)&resource) != S_OK) return 7;
    if ((void *)resource != (void *)vb) return 8;
    if (IDirect3DVertexBuffer9_QueryInterface(vb, &IID_IDirect3DTexture9, (void **)&resource) != E_NOINTERFACE) return 9;
    if (IDirect3DVertexBuffer9_GetDevice(vb, &device) != D3DERR_INVALIDCALL || device != NULL) return 10;
    if (IDirect3DVertexBuffer9_Release(vb) != 2) return 11;   /* the QueryInterface reference */
    if (IDirect3DVertexBuffer9_Release(vb) != 1) return 12;   /* the AddRef above */
    return 0;
}
