/* What the C translation unit of test_d3d9_abi (d3d9_abi_c.c) measures and exports to the C++
 * test: d3d9.h compiled as C, its lpVtbl structs, its struct layouts, and C-side COM calls. */
#ifndef NOVEM_TEST_D3D9_ABI_C_H
#define NOVEM_TEST_D3D9_ABI_C_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct IDirect3DVertexBuffer9;
struct _GUID;

struct novem_c_vtable {
    const char *iface;
    size_t vtbl_size;           /* sizeof(IFooVtbl) */
    size_t count;               /* methods in the expected list */
    const size_t *slots;        /* offsetof(IFooVtbl, method) / sizeof(void *), in list order */
    const char *const *names;
};
extern const struct novem_c_vtable novem_c_vtables[];
extern const size_t novem_c_vtable_count;

struct novem_c_layout {
    const char *what;           /* "TYPE" or "TYPE.member" */
    size_t value;               /* sizeof or offsetof as the C compiler sees it */
};
extern const struct novem_c_layout novem_c_sizes[];
extern const size_t novem_c_size_count;
extern const struct novem_c_layout novem_c_offsets[];
extern const size_t novem_c_offset_count;

/* IsEqualGUID (C form, pointer arguments) of IID_IDirect3DDevice9 against its documented value. */
int novem_c_iid_device9_matches(void);
/* The address C sees for IID_IDirect3DDevice9 (a declaration here; defined in another unit). */
const struct _GUID *novem_c_iid_device9_address(void);

/* Drives a vertex buffer (implemented in C++) through the C macros, i.e. through lpVtbl:
 * AddRef, Lock(offset 16, size 32), writes 0xAB, Unlock, GetDesc, QueryInterface for
 * IID_IDirect3DResource9, Release x2. Returns 0 on success, else the number of the failed step. */
int novem_c_drive_vertex_buffer(struct IDirect3DVertexBuffer9 *vb);

#ifdef __cplusplus
}
#endif

#endif /* NOVEM_TEST_D3D9_ABI_C_H */
