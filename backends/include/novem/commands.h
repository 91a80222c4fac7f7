/* The commands a frontend sends to a plugin: opcodes and their POD arguments.
 *
 * Every command in the ring is an nv_cmd_header followed by its argument struct and, for some,
 * a payload (bytes, rectangles, SPIR-V words) that follows the struct in the same record.
 * Objects are named by 32-bit handles that the frontend allocates (0 = none), never by pointers.
 *
 * Conventions the frontend resolves before anything reaches a plugin (so a plugin never
 * re-derives D3D9 rules):
 *  - Window space has row 0 at the top. Viewports are floats in window pixels; clip space has
 *    +Y up and Z in [0, 1] (D3D's), so NDC y = +1 lands on the viewport's top row.
 *  - Winding (nv_cull) is as seen in the render target with row 0 at the top.
 *  - Clear and scissor rectangles arrive already clipped to the target.
 *  - Shaders are SPIR-V. Uniforms: one std140 uniform block per stage, filled from
 *    SET_CONSTANTS: the vertex stage's at set 0, binding 0, the pixel stage's at set 1, binding 1.
 *    On a device created with NV_DEVICE_SOFTWARE_VERTEX_CONSTANTS the vertex stage's block goes
 *    on: its bytes from NV_VERTEX_STORAGE_OFFSET are a read-only storage buffer at set 0,
 *    binding NV_VERTEX_STORAGE_BINDING (see there).
 *    Samplers are set 2 (pixel) and 3 (vertex)
 *    (nv_cmd_set_texture).
 *    Vertex inputs use the locations of nv_vertex_attribute; stage interfaces are matched by
 *    location.
 */
#ifndef NOVEM_COMMANDS_H
#define NOVEM_COMMANDS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum nv_format {
  NV_FORMAT_UNDEFINED = 0,
  NV_FORMAT_B8G8R8A8_UNORM,  /* D3DFMT_A8R8G8B8 / X8R8G8B8 targets; D3DCOLOR vertex data */
  NV_FORMAT_R5G6B5_UNORM,    /* D3DFMT_R5G6B5: 16 bits, R in 15..11, G 10..5, B 4..0 (VK_FORMAT_R5G6B5_UNORM_PACK16, GL_RGB565) */
  NV_FORMAT_D16_UNORM,       /* D3DFMT_D16 */
  NV_FORMAT_D24_UNORM_S8_UINT, /* D3DFMT_D24S8 (a plugin may store it with more depth bits) */
  NV_FORMAT_R32_SFLOAT,      /* vertex data: float1 */
  NV_FORMAT_R32G32_SFLOAT,   /* float2 */
  NV_FORMAT_R32G32B32_SFLOAT, /* float3 */
  NV_FORMAT_R32G32B32A32_SFLOAT, /* float4 */
  /* Texture formats. Each names a memory layout (UPDATE_IMAGE's payload, D3D9's LockRect
   * bytes) and what sampling returns, D3D9's values: a channel the format lacks reads as 1
   * (Microsoft's "Recommended DirectX 9.0 driver support": L, A, G16R16's and the float formats'
   * missing channels, V16U16's B and A), except that A8 reads (0, 0, 0, A). Multi-byte words are
   * little-endian. The image formats above sample as: B8G8R8A8 (R, G, B, A), R5G6B5 (R, G, B, 1),
   * and, as images, R32 (R, 1, 1, 1), R32G32 (R, G, 1, 1), R32G32B32A32 (R, G, B, A). */
  NV_FORMAT_B5G5R5A1_UNORM,  /* D3DFMT_A1R5G5B5 (X1R5G5B5 with NV_IMAGE_ALPHA_ONE): A bit 15, R 14..10, G 9..5, B 4..0 */
  NV_FORMAT_B4G4R4A4_UNORM,  /* D3DFMT_A4R4G4B4: A bits 15..12, R 11..8, G 7..4, B 3..0 */
  NV_FORMAT_A8_UNORM,        /* D3DFMT_A8: samples (0, 0, 0, A) */
  NV_FORMAT_L8_UNORM,        /* D3DFMT_L8: samples (L, L, L, 1) */
  NV_FORMAT_L8A8_UNORM,      /* D3DFMT_A8L8: byte 0 L, byte 1 A; samples (L, L, L, A) */
  NV_FORMAT_L4A4_UNORM,      /* D3DFMT_A4L4: L bits 3..0, A 7..4; samples (L, L, L, A) */
  NV_FORMAT_R8G8_SNORM,      /* D3DFMT_V8U8: byte 0 U, byte 1 V, signed; samples (U, V, 1, 1) */
  NV_FORMAT_R8G8B8A8_SNORM,  /* D3DFMT_Q8W8V8U8: bytes U, V, W, Q, signed; samples (U, V, W, Q) */
  NV_FORMAT_L16_UNORM,       /* D3DFMT_L16: samples (L, L, L, 1) */
  NV_FORMAT_R16G16_UNORM,    /* D3DFMT_G16R16: R in the low word; samples (R, G, 1, 1) */
  NV_FORMAT_R16G16B16A16_UNORM, /* D3DFMT_A16B16G16R16: words R, G, B, A */
  NV_FORMAT_R16_SFLOAT,      /* D3DFMT_R16F: samples (R, 1, 1, 1) */
  NV_FORMAT_R16G16_SFLOAT,   /* D3DFMT_G16R16F: samples (R, G, 1, 1) */
  NV_FORMAT_R16G16B16A16_SFLOAT, /* D3DFMT_A16B16G16R16F */
  NV_FORMAT_B10G10R10A2_UNORM, /* D3DFMT_A2R10G10B10: B bits 9..0, G 19..10, R 29..20, A 31..30 */
  NV_FORMAT_R10G10B10A2_UNORM, /* D3DFMT_A2B10G10R10: R bits 9..0, G 19..10, B 29..20, A 31..30 */
  NV_FORMAT_BC1_UNORM,       /* D3DFMT_DXT1: 4x4 blocks of 8 bytes (1-bit alpha: transparent texels read (0, 0, 0, 0)) */
  NV_FORMAT_BC2_UNORM,       /* D3DFMT_DXT2, DXT3: 4x4 blocks of 16 bytes */
  NV_FORMAT_BC3_UNORM,       /* D3DFMT_DXT4, DXT5: 4x4 blocks of 16 bytes */
  NV_FORMAT_D32_SFLOAT,      /* D3DFMT_D32F_LOCKABLE, and D3DFMT_D32 (its 32-bit integer depth kept as a float) */
  /* Vertex data. Attribute formats; R16G16[B16A16]_UNORM and _SFLOAT above are vertex
   * data too (D3DDECLTYPE_USHORT2N/4N, FLOAT16_2/4). Components are little-endian
   * and in order R, G, B, A = x, y, z, w; a format with fewer than four reads the missing ones as
   * (0, 0, 1): y = 0, z = 0, w = 1. USCALED/SSCALED read the integer as a float (200 -> 200.0);
   * UNORM divides by 2^n - 1; SNORM divides by 2^(n-1) - 1 and clamps to -1 (so -32768 and
   * -32767 both read -1); SFLOAT16 is IEEE half. */
  NV_FORMAT_R8G8B8A8_USCALED,      /* D3DDECLTYPE_UBYTE4 */
  NV_FORMAT_R8G8B8A8_UNORM,        /* D3DDECLTYPE_UBYTE4N */
  NV_FORMAT_R16G16_SSCALED,        /* D3DDECLTYPE_SHORT2 */
  NV_FORMAT_R16G16B16A16_SSCALED,  /* D3DDECLTYPE_SHORT4 */
  NV_FORMAT_R16G16_SNORM,          /* D3DDECLTYPE_SHORT2N; as an image D3DFMT_V16U16: words U, V; samples (U, V, 1, 1) */
  NV_FORMAT_R16G16B16A16_SNORM,    /* D3DDECLTYPE_SHORT4N; as an image D3DFMT_Q16W16V16U16: words U, V, W, Q */
  NV_FORMAT_R10G10B10A2_USCALED,   /* D3DDECLTYPE_UDEC3: R bits 9..0, G 19..10, B 29..20, A 31..30 (w is those 2 bits) */
  NV_FORMAT_R10G10B10A2_SNORM,     /* D3DDECLTYPE_DEC3N: the same layout, each field signed (A: -1, 0 or 1) */
  /* 3Dc texture formats. */
  NV_FORMAT_BC4_UNORM, /* FOURCC ATI1: 4x4 blocks of 8 bytes (BC4's one channel); samples (R, R, R, R) */
  NV_FORMAT_BC5_UNORM, /* FOURCC ATI2: 4x4 blocks of 16 bytes (BC5), the first 8 bytes' channel X and the
                        * next 8 bytes' Y; samples (Y, X, 1, 1) */
  NV_FORMAT_COUNT
} nv_format;

typedef enum nv_topology {
  NV_TOPOLOGY_POINT_LIST = 0,
  NV_TOPOLOGY_LINE_LIST,
  NV_TOPOLOGY_LINE_STRIP,
  NV_TOPOLOGY_TRIANGLE_LIST,
  NV_TOPOLOGY_TRIANGLE_STRIP,
  NV_TOPOLOGY_TRIANGLE_FAN,
} nv_topology;

typedef enum nv_cull { NV_CULL_NONE = 0, NV_CULL_CW, NV_CULL_CCW } nv_cull;

typedef enum nv_compare {
  NV_COMPARE_NEVER = 0, NV_COMPARE_LESS, NV_COMPARE_EQUAL, NV_COMPARE_LESS_EQUAL,
  NV_COMPARE_GREATER, NV_COMPARE_NOT_EQUAL, NV_COMPARE_GREATER_EQUAL, NV_COMPARE_ALWAYS,
} nv_compare;

typedef enum nv_blend_factor {
  NV_BLEND_ZERO = 0, NV_BLEND_ONE,
  NV_BLEND_SRC_COLOR, NV_BLEND_ONE_MINUS_SRC_COLOR,
  NV_BLEND_SRC_ALPHA, NV_BLEND_ONE_MINUS_SRC_ALPHA,
  NV_BLEND_DST_ALPHA, NV_BLEND_ONE_MINUS_DST_ALPHA,
  NV_BLEND_DST_COLOR, NV_BLEND_ONE_MINUS_DST_COLOR,
  NV_BLEND_SRC_ALPHA_SATURATE,
  NV_BLEND_CONSTANT_COLOR, NV_BLEND_ONE_MINUS_CONSTANT_COLOR,
} nv_blend_factor;

typedef enum nv_blend_op {
  NV_BLEND_OP_ADD = 0, NV_BLEND_OP_SUBTRACT, NV_BLEND_OP_REVERSE_SUBTRACT, NV_BLEND_OP_MIN,
  NV_BLEND_OP_MAX,
} nv_blend_op;

/* Stencil operations, in VkStencilOp's order. */
typedef enum nv_stencil_op {
  NV_STENCIL_OP_KEEP = 0, NV_STENCIL_OP_ZERO, NV_STENCIL_OP_REPLACE, NV_STENCIL_OP_INCREMENT_CLAMP,
  NV_STENCIL_OP_DECREMENT_CLAMP, NV_STENCIL_OP_INVERT, NV_STENCIL_OP_INCREMENT_WRAP, NV_STENCIL_OP_DECREMENT_WRAP,
} nv_stencil_op;

/* How triangles are rasterised. Points and lines are drawn as they are. */
typedef enum nv_fill_mode { NV_FILL_SOLID = 0, NV_FILL_WIREFRAME, NV_FILL_POINT } nv_fill_mode;

/* The stencil test of one facing. */
typedef struct nv_stencil_face {
  uint8_t fail_op;       /* nv_stencil_op: the stencil test fails */
  uint8_t depth_fail_op; /* the stencil test passes, the depth test fails */
  uint8_t pass_op;       /* both pass */
  uint8_t compare;       /* nv_compare: (reference & compare_mask) OP (stored & compare_mask) */
} nv_stencil_face;

typedef enum nv_shader_stage { NV_STAGE_VERTEX = 0, NV_STAGE_PIXEL = 1, NV_STAGE_COUNT } nv_shader_stage;

enum nv_image_usage {
  NV_IMAGE_RENDER_TARGET = 1u << 0,
  NV_IMAGE_DEPTH_STENCIL = 1u << 1,
  NV_IMAGE_SAMPLED = 1u << 2,
  /* Sampling reads alpha as 1 whatever the image holds (D3DFMT_X8R8G8B8 textures). Only
   * with NV_IMAGE_SAMPLED, also with NV_IMAGE_RENDER_TARGET (render-target textures), where
   * it changes sampling only. */
  NV_IMAGE_ALPHA_ONE = 1u << 3,
  /* NV_IMAGE_DEPTH_STENCIL | NV_IMAGE_SAMPLED is a depth texture (D3D9's hardware shadow
   * map): a 2D depth image of one level, a depth-stencil target and sampled by its depth. A
   * SET_TEXTURE with NV_TEXTURE_COMPARE_DEPTH compares; without it sampling reads the depth in all
   * four channels (D, D, D, D), as D3D9's INTZ, with nearest filtering whatever the sampler says. Only formats with NV_SUPPORT_DEPTH_SAMPLED. */
};

enum nv_buffer_usage { NV_BUFFER_VERTEX = 1u << 0, NV_BUFFER_INDEX = 1u << 1 };

enum nv_update_flags {
  NV_UPDATE_DISCARD = 1u << 0,     /* the old contents are no longer needed */
  NV_UPDATE_NO_OVERWRITE = 1u << 1 /* bytes that pending draws read are not touched */
};

enum nv_clear_flags { NV_CLEAR_COLOR = 1u << 0, NV_CLEAR_DEPTH = 1u << 1, NV_CLEAR_STENCIL = 1u << 2 };

typedef struct nv_rect { int32_t x, y, width, height; } nv_rect;

#define NV_MAX_VERTEX_ATTRIBUTES 16
#define NV_MAX_COLOR_TARGETS 4
#define NV_MAX_VERTEX_BUFFERS 16

typedef struct nv_vertex_attribute {
  uint8_t location;
  uint8_t binding; /* vertex buffer slot */
  uint8_t format;  /* nv_format */
  uint8_t reserved;
  uint32_t offset;
} nv_vertex_attribute;

/* The state that shapes a pipeline. A plugin hashes it (plus the formats of the targets it has
 * bound) to find or build its pipeline. Unused bytes must be zero so that equal states hash
 * equally. */
typedef struct nv_pipeline_desc {
  uint32_t vertex_shader; /* shader handles */
  uint32_t pixel_shader;
  uint8_t topology; /* nv_topology */
  uint8_t cull;     /* nv_cull */
  uint8_t depth_test;
  uint8_t depth_write;
  uint8_t depth_compare; /* nv_compare */
  uint8_t blend_enable;
  uint8_t color_src, color_dst, color_op; /* nv_blend_factor, nv_blend_op */
  uint8_t alpha_src, alpha_dst, alpha_op;
  uint8_t color_write_mask; /* bit 0 R, 1 G, 2 B, 3 A */
  uint8_t attribute_count;
  uint8_t reserved[2];
  nv_vertex_attribute attributes[NV_MAX_VERTEX_ATTRIBUTES];
  /* The stencil test runs only with stencil_enable and a depth-stencil target that has
   * stencil. stencil_front applies to clockwise triangles (the front face, row 0 at the top) and
   * to points and lines, stencil_back to counter-clockwise triangles; the reference and masks
   * are dynamic (SET_DYNAMIC_STATE). */
  uint8_t stencil_enable;
  uint8_t fill_mode;         /* nv_fill_mode */
  uint8_t depth_bias_enable; /* apply SET_DYNAMIC_STATE's depth bias */
  /* Depth outside the viewport's range is clamped to it per fragment instead of clipped
   * (Vulkan's depthClamp, GL_DEPTH_CLAMP); a device without depth clamping clips. */
  uint8_t depth_clamp;
  nv_stencil_face stencil_front;
  nv_stencil_face stencil_back;
  /* Bit n: vertex buffer slot n advances once per instance instead of once per vertex. */
  uint16_t instance_slots;
  uint16_t reserved5;
  /* The write masks of colour targets 1..3 (color_write_mask is target 0's); blending
   * applies to every target alike. */
  uint8_t more_color_write_masks[NV_MAX_COLOR_TARGETS - 1];
  uint8_t reserved2;
  /* For a slot in instance_slots, the number of instances that read each element before
   * the slot advances to the next (D3DSTREAMSOURCE_INSTANCEDATA | n); 0 reads as 1. Zero for
   * the other slots. At most nv_adapter_info.max_instance_divisor. */
  uint32_t instance_divisors[NV_MAX_VERTEX_BUFFERS];
  /* Bit n set leaves sample n of a multisampled target alone: draws write only the samples
   * whose bit is clear (D3DRS_MULTISAMPLEMASK inverted, so that zero, the default, writes every
   * sample). Bits past the target's sample count mean nothing, a single-sampled target ignores
   * it (the plugin sees to both), and CLEAR writes every sample. */
  uint32_t masked_samples;
} nv_pipeline_desc;

/* The command vocabulary: one line per command, in opcode order (the order is the ABI: a new
 * command goes at the end). X(NAME, name, run) gives the opcode NV_OP_NAME, its argument struct
 * nv_cmd_name (below), the handler a plugin's executor names `name`, and how it treats a held run
 * of draws (novem/draw_run.hpp): `ends` it, is a `draw` that joins it, is `kept` out of it (the
 * plugin settles it at the next draw), or ends it `unless_no_overwrite` (its flags hold
 * NV_UPDATE_NO_OVERWRITE). novem/command_table.hpp makes the C++ side from it: names, the
 * struct-to-opcode trait, the draw-run rules and each plugin's dispatch table. */
#define NV_COMMANDS(X)                                   \
  X(CREATE_BUFFER, create_buffer, ends)                  \
  X(DESTROY_BUFFER, destroy_buffer, ends)                \
  X(UPDATE_BUFFER, update_buffer, unless_no_overwrite)   \
  X(CREATE_IMAGE, create_image, ends)                    \
  X(DESTROY_IMAGE, destroy_image, ends)                  \
  X(CREATE_SHADER, create_shader, ends)                  \
  X(DESTROY_SHADER, destroy_shader, ends)                \
  X(SET_RENDER_TARGETS, set_render_targets, ends)        \
  X(SET_VIEWPORT, set_viewport, ends)                    \
  X(SET_SCISSOR, set_scissor, ends)                      \
  X(SET_PIPELINE, set_pipeline, ends)                    \
  X(SET_VERTEX_BUFFER, set_vertex_buffer, kept)          \
  X(SET_CONSTANTS, set_constants, ends)                  \
  X(CLEAR, clear, ends)                                  \
  X(DRAW, draw, draw)                                    \
  X(READ_IMAGE, read_image, ends)                        \
  X(PRESENT, present, ends)                              \
  X(FENCE, fence, ends)                                  \
  X(SET_INDEX_BUFFER, set_index_buffer, ends)            \
  X(DRAW_INDEXED, draw_indexed, draw)                    \
  X(UPDATE_IMAGE, update_image, ends)                    \
  X(SET_TEXTURE, set_texture, ends)                      \
  X(SET_DYNAMIC_STATE, set_dynamic_state, ends)          \
  X(BEGIN_QUERY, begin_query, ends)                      \
  X(END_QUERY, end_query, ends)                          \
  X(BLIT_IMAGE, blit_image, ends)                        \
  X(FILL_IMAGE, fill_image, ends)                        \
  X(GENERATE_MIPS, generate_mips, ends)                  \
  X(UPDATE_CONSTANTS, update_constants, ends)            \
  X(CREATE_SWAPCHAIN, create_swapchain, ends)            \
  X(DESTROY_SWAPCHAIN, destroy_swapchain, ends)          \
  X(SET_RENDER_STATES, set_render_states, ends)

#define NV_OPCODE_ENUMERATOR(NAME, name, run) NV_OP_##NAME,
typedef enum nv_opcode {
  NV_OP_PAD = 0, /* filler the ring writes before wrapping; never dispatched */
  NV_COMMANDS(NV_OPCODE_ENUMERATOR)
  NV_OP_COUNT
} nv_opcode;
#undef NV_OPCODE_ENUMERATOR

/* Every record starts with this; size counts header, arguments and payload, rounded up to
 * NV_CMD_ALIGN. flags: nv_cmd_flags. */
typedef struct nv_cmd_header {
  uint16_t opcode;
  uint16_t flags;
  uint32_t size;
} nv_cmd_header;

enum nv_cmd_flags {
  /* The frontend's own drawing (the HUD), not the application's: executed as any command, but
   * counted in nv_channel::overlay_executed instead of executed, so that the application's
   * counters (nv_statistics.draws) do not include it. */
  NV_CMD_OVERLAY = 1u << 0,
};

#define NV_CMD_ALIGN 16u

typedef struct nv_cmd_create_buffer { uint32_t buffer; uint32_t usage; uint64_t size; } nv_cmd_create_buffer;
typedef struct nv_cmd_destroy_buffer { uint32_t buffer; } nv_cmd_destroy_buffer;
/* payload: size bytes, written at offset */
typedef struct nv_cmd_update_buffer { uint32_t buffer; uint32_t flags; uint64_t offset; uint64_t size; } nv_cmd_update_buffer;
/* What an image is. A cube image has six square faces (layers), in D3DCUBEMAP_FACES'
 * order: +X, -X, +Y, -Y, +Z, -Z, each with row 0 at the top as every image; a shader samples it
 * with a direction, the face and texel chosen as in D3D9 (the same table as Vulkan's and GL's).
 * A 3D image has `depth` slices. Only 2D images may be render targets or depth-stencil images,
 * except that a cube image both NV_IMAGE_SAMPLED and NV_IMAGE_RENDER_TARGET is a
 * render-target texture whose faces and levels are rendered into (SET_RENDER_TARGETS' layers). */
typedef enum nv_image_type { NV_IMAGE_TYPE_2D = 0, NV_IMAGE_TYPE_CUBE, NV_IMAGE_TYPE_3D } nv_image_type;

/* Initial contents are undefined. levels: mip levels, 1..log2(max(width, height[, depth]))
 * + 1; 0 reads as 1. Level n is max(width >> n, 1) x max(height >> n, 1) (x max(depth >> n, 1)).
 * Render targets and depth-stencil images have one level, except that a 2D image both
 * NV_IMAGE_SAMPLED and NV_IMAGE_RENDER_TARGET (a render-target texture) keeps its levels and is
 * rendered into at the level SET_RENDER_TARGETS chooses. type: nv_image_type; depth:
 * slices of a 3D image, 0 reads as 1, ignored for other types. */
/* samples: 0 or 1 single-sampled; N > 1 (a count in nv_adapter_info.sample_counts) a
 * multisampled 2D render target or depth-stencil image (one level, never sampled, never read with
 * READ_IMAGE; BLIT_IMAGE from it to a single-sampled image of the same rectangle size resolves). */
typedef struct nv_cmd_create_image {
  uint32_t image; uint32_t format; uint32_t width, height; uint32_t usage; uint32_t levels;
  uint32_t type; uint32_t depth;
  uint32_t samples;
} nv_cmd_create_image;
typedef struct nv_cmd_destroy_image { uint32_t image; } nv_cmd_destroy_image;
/* payload: word_count SPIR-V words, entry point "main" */
typedef struct nv_cmd_create_shader { uint32_t shader; uint32_t stage; uint32_t word_count; } nv_cmd_create_shader;
typedef struct nv_cmd_destroy_shader { uint32_t shader; } nv_cmd_destroy_shader;
/* Any may be 0. color is colour target 0; more_colors are targets 1..3, which a pixel
 * shader's outputs at locations 1..3 write. The targets render over the area they all cover. */
/* color_levels[N] and color_layers[N] choose the mip level and the layer (cube face) of
 * colour target N (0 = color, 1..3 = more_colors) that is rendered into; only render-target
 * textures (NV_IMAGE_SAMPLED | NV_IMAGE_RENDER_TARGET) have levels or faces to choose, other
 * targets take 0. The render area is the chosen levels' sizes (a larger depth-stencil image is
 * fine; a smaller one limits the area as a smaller target does). */
/* srgb_write: non-zero makes draws write every colour target whose format has
 * NV_SUPPORT_SRGB_WRITE sRGB-encoded (linear -> sRGB), blending in linear space (the target's
 * texels are decoded before blending, as D3D10-class hardware does); other formats are written
 * as they are. CLEAR encodes its colour likewise (D3D9's clear colour is linear, "Gamma
 * (Direct3D 9)"); blits and fills are not encoded. */
typedef struct nv_cmd_set_render_targets {
  uint32_t color; uint32_t depth_stencil;
  uint32_t more_colors[NV_MAX_COLOR_TARGETS - 1];
  uint32_t color_levels[NV_MAX_COLOR_TARGETS];
  uint32_t color_layers[NV_MAX_COLOR_TARGETS];
  uint32_t srgb_write;
} nv_cmd_set_render_targets;
typedef struct nv_cmd_set_viewport { float x, y, width, height, min_depth, max_depth; } nv_cmd_set_viewport;
typedef struct nv_cmd_set_scissor { nv_rect rect; } nv_cmd_set_scissor;
typedef struct nv_cmd_set_pipeline { nv_pipeline_desc desc; } nv_cmd_set_pipeline;
/* The render-state fields of nv_pipeline_desc, the same names and meanings. */
typedef struct nv_render_states {
  uint8_t cull, depth_test, depth_write, depth_compare;
  uint8_t blend_enable, color_src, color_dst, color_op;
  uint8_t alpha_src, alpha_dst, alpha_op, color_write_mask;
  uint8_t stencil_enable, fill_mode, depth_bias_enable, reserved;
  nv_stencil_face stencil_front, stencil_back;
  uint8_t more_color_write_masks[NV_MAX_COLOR_TARGETS - 1];
  uint8_t reserved2;
  uint32_t masked_samples;
} nv_render_states;
/* The same as a SET_PIPELINE of the description last set with its render-state fields
 * replaced by these (novem/render_states.hpp), in 48 bytes instead of 256: a D3D9 render-state
 * change, the common case, leaves shaders and vertex input alone. Before any SET_PIPELINE it sets
 * nothing. */
typedef struct nv_cmd_set_render_states { nv_render_states states; } nv_cmd_set_render_states;
/* What a draw reads past the end of a vertex buffer is undefined, as in D3D9: a plugin may bind
 * more than the buffer (the Vulkan plugin binds to the end of a shared VkBuffer). */
typedef struct nv_cmd_set_vertex_buffer { uint32_t slot; uint32_t buffer; uint32_t offset; uint32_t stride; } nv_cmd_set_vertex_buffer;
/* payload: size bytes, the whole uniform block of that stage */
typedef struct nv_cmd_set_constants { uint32_t stage; uint32_t size; } nv_cmd_set_constants;
/* Software vertex processing's constant files (a device created with
 * NV_DEVICE_SOFTWARE_VERTEX_CONSTANTS): the vertex stage's block is up to NV_VERTEX_STORAGE_OFFSET +
 * NV_VERTEX_STORAGE_SIZE bytes. Its first NV_VERTEX_STORAGE_OFFSET bytes are the uniform block
 * (set 0, binding 0); the NV_VERTEX_STORAGE_SIZE bytes from NV_VERTEX_STORAGE_OFFSET are a
 * read-only storage buffer at set 0, binding NV_VERTEX_STORAGE_BINDING, bound at every draw
 * (bytes past the block's size read as anything: the frontend sends what its shaders read).
 * The frontend's docs/shader-conventions.md gives their layout (8192 float, 2048 integer and
 * 2048 boolean registers). Without the flag, no shader declares the binding. */
#define NV_VERTEX_STORAGE_BINDING 2u
#define NV_VERTEX_STORAGE_OFFSET 4864u
#define NV_VERTEX_STORAGE_SIZE 164096u
/* payload: rect_count nv_rect; ignores scissor and viewport */
typedef struct nv_cmd_clear {
  uint32_t flags; /* nv_clear_flags */
  float color[4]; /* r, g, b, a in [0, 1] */
  float depth;
  uint32_t stencil;
  uint32_t rect_count;
} nv_cmd_clear;
/* instance_count: instances drawn; 0 reads as 1. */
typedef struct nv_cmd_draw { uint32_t first_vertex; uint32_t vertex_count; uint32_t instance_count; } nv_cmd_draw;
/* Copies rect of image, rows top first and tightly packed, into the channel's readback area.
 * The bytes are there once a FENCE that follows has completed. level and layer: the mip
 * level and the cube face read (0 for images without levels or faces); rect is inside that level. */
typedef struct nv_cmd_read_image {
  uint32_t image; nv_rect rect;
  uint32_t level;
  uint32_t layer;
} nv_cmd_read_image;
/* The frame in image is done. swapchain 0 (headless): a frame boundary only.
 * With swapchain != 0 (made by CREATE_SWAPCHAIN): src_rect of image (level 0 of a
 * single-sampled colour image; width 0 = the whole image) is shown in dst_rect of the window
 * (window pixels, row 0 at the top; width 0 = the whole window as it is now), scaled with linear
 * filtering; the rest of the window shows black. The window's size is read at each PRESENT, so a
 * resized window is filled again (Vulkan: the swapchain is made again when it is out of date or
 * of another size; GL: the window surface follows the window). */
typedef struct nv_cmd_present {
  uint32_t image;
  uint32_t swapchain;
  nv_rect src_rect;
  nv_rect dst_rect;
} nv_cmd_present;
/* Submits what came before. When the API has finished it, the plugin stores value into the
 * channel's completed fence (values increase by one each time). */
typedef struct nv_cmd_fence { uint64_t value; } nv_cmd_fence;
/* The index buffer DRAW_INDEXED reads: an NV_BUFFER_INDEX buffer (created and updated with the
 * buffer commands), indices from byte offset (a multiple of index_size), index_size 2 or 4
 * (unsigned). buffer 0 unbinds. */
typedef struct nv_cmd_set_index_buffer { uint32_t buffer; uint32_t offset; uint32_t index_size; } nv_cmd_set_index_buffer;
/* Draws index_count indices starting at index first_index of the bound index buffer; each index
 * has base_vertex added before it selects a vertex. A draw that would read past the end of the
 * index buffer, or with no index buffer bound, draws nothing. There is no primitive restart. */
/* instance_count: instances drawn (instance slots advance once per instance, see
 * nv_pipeline_desc.instance_slots); 0 reads as 1. */
typedef struct nv_cmd_draw_indexed {
  uint32_t first_index; uint32_t index_count; int32_t base_vertex; uint32_t instance_count;
} nv_cmd_draw_indexed;

/* Texture sampling. */
typedef enum nv_filter { NV_FILTER_NONE = 0, NV_FILTER_POINT, NV_FILTER_LINEAR } nv_filter;
typedef enum nv_address {
  NV_ADDRESS_WRAP = 0, NV_ADDRESS_MIRROR, NV_ADDRESS_CLAMP, NV_ADDRESS_BORDER,
} nv_address;

/* How a slot samples its image. min/mag: POINT or LINEAR (NONE reads as POINT); mip: NONE (only
 * level max_mip_level is read), POINT or LINEAR between levels. max_mip_level is the most detailed
 * level used (D3D9's MAXMIPLEVEL / SetLOD). max_anisotropy: above 1, min and mag LINEAR
 * filter anisotropically with up to that many samples (at most nv_adapter_info.max_anisotropy);
 * 0 and 1 are off.
 * border_color (r, g, b, a) is used with NV_ADDRESS_BORDER; a plugin without arbitrary border
 * colours uses the nearest of transparent black, opaque black and opaque white. Unused bytes zero. */
typedef struct nv_sampler_desc {
  uint8_t min_filter, mag_filter, mip_filter; /* nv_filter */
  uint8_t address_u, address_v, address_w;    /* nv_address */
  uint8_t max_anisotropy;
  uint8_t max_mip_level;
  float mip_lod_bias;
  float border_color[4];
} nv_sampler_desc;

/* Writes rect of mip level `level` of an NV_IMAGE_SAMPLED image. payload: rect.height rows, top
 * first, each row_pitch bytes apart (0: tightly packed, rect.width * texel bytes); a row holds
 * rect.width texels in the format's memory layout. Block-compressed formats: rect.x and
 * rect.y are multiples of 4, rect.width and rect.height multiples of 4 or reaching the level's
 * edge; a "row" is a row of 4x4 blocks (ceil(rect.height / 4) of them, each ceil(rect.width / 4)
 * blocks). Ordered with draws like UPDATE_BUFFER: draws
 * before it sample the old texels, draws after it the new. */
typedef struct nv_cmd_update_image {
  uint32_t image; uint32_t level; nv_rect rect; uint32_t row_pitch;
  uint32_t layer; /* the face of a cube image (0..5), the z slice of a 3D image's level; 0 for 2D */
  /* nv_update_flags. NV_UPDATE_DISCARD: the level's texels outside rect are no longer
   * needed, so the plugin may give the image fresh storage instead of ordering the write after
   * the draws before it (which still sample the old texels). NV_UPDATE_NO_OVERWRITE: no draw
   * before it samples rect. Either way the result is the same as without the flag. */
  uint32_t flags;
} nv_cmd_update_image;

/* How SET_TEXTURE reads its image. */
enum nv_texture_flags {
  /* The image is a depth texture (NV_IMAGE_DEPTH_STENCIL | NV_IMAGE_SAMPLED) and the shader samples
   * it with a depth reference (OpImageSample*Dref*, a 2D depth image type): the result is 1 where
   * reference <= the stored depth, else 0 (compare LESS_OR_EQUAL, D3D9's shadow-map test), the
   * four (or two) texels compared then filtered with a LINEAR filter (percentage-closer filtering). */
  NV_TEXTURE_COMPARE_DEPTH = 1u << 0,
  /* Texels are sRGB-decoded (sRGB -> linear, alpha unchanged) before filtering; only for formats
   * with NV_SUPPORT_SRGB_READ (ignored for others). */
  NV_TEXTURE_SRGB = 1u << 1,
};

#define NV_MAX_PIXEL_TEXTURES 16
#define NV_MAX_VERTEX_TEXTURES 4

/* Binds image (0: none) with sampler to texture slot `slot` of stage (NV_STAGE_VERTEX: 0..3,
 * NV_STAGE_PIXEL: 0..15). The shader's combined image sampler sN of that stage is set 2, binding
 * 16 + N (pixel), or set 3, binding 32 + N (vertex). A slot with no image
 * samples (0, 0, 0, 1). */
typedef struct nv_cmd_set_texture {
  uint32_t stage; uint32_t slot; uint32_t image; nv_sampler_desc sampler;
  /* The nv_image_type the shader declares for sN (dcl_2d, dcl_cube, dcl_volume). An image
   * of another type, like no image, samples a (0, 0, 0, 1) image of this type. */
  uint32_t type;
  uint32_t flags; /* nv_texture_flags; NV_TEXTURE_COMPARE_DEPTH only with a depth texture */
} nv_cmd_set_texture;

/* The state draws use that may change without a new pipeline. Until the first one, the
 * values are those below as zero, except the masks, which start at 0xFF.
 * stencil_*: the reference (low 8 bits used), the mask ANDed with reference and stored value
 * before comparing, and the mask of stencil bits a draw may write.
 * blend_constant: r, g, b, a in [0, 1] for NV_BLEND_CONSTANT_COLOR / ONE_MINUS_CONSTANT_COLOR.
 * depth_bias_constant: in units of the depth format's least resolvable difference (the value
 * vkCmdSetDepthBias / glPolygonOffset take: 2^-16 for D16, 2^-24 for D24S8; a plugin whose driver
 * counts a UNORM format's unit otherwise scales it); depth_bias_slope
 * multiplies the primitive's greatest depth slope. Used while the pipeline's depth_bias_enable. */
typedef struct nv_cmd_set_dynamic_state {
  uint32_t stencil_reference;
  uint32_t stencil_compare_mask;
  uint32_t stencil_write_mask;
  float blend_constant[4];
  float depth_bias_constant;
  float depth_bias_slope;
} nv_cmd_set_dynamic_state;
/* Queries. A query slot (0..NV_MAX_QUERIES - 1, chosen by the frontend) receives its
 * result in the channel's query_results[slot]; the value is there once a FENCE that follows the
 * END_QUERY has completed. */
#define NV_MAX_QUERIES 1024
typedef enum nv_query_type {
  NV_QUERY_OCCLUSION = 0, /* samples of draws that passed the depth and stencil tests */
  NV_QUERY_TIMESTAMP = 1, /* the GPU's time in nanoseconds when the commands before it finished */
} nv_query_type;

/* NV_QUERY_OCCLUSION only: starts counting, for `slot`, the samples that later draws write
 * (that pass the depth and stencil tests). Several slots may count at once; beginning a slot
 * that counts restarts it. Clears, blits and fills are not counted. */
typedef struct nv_cmd_begin_query { uint32_t slot; uint32_t type; } nv_cmd_begin_query;
/* NV_QUERY_OCCLUSION: stops the slot's count and stores it (0 when the slot was never begun).
 * NV_QUERY_TIMESTAMP: stores the time at which the commands before it have finished. */
typedef struct nv_cmd_end_query { uint32_t slot; uint32_t type; } nv_cmd_end_query;

/* Copies between colour images. Copies src_rect of level src_level of src into dst_rect
 * of level dst_level of dst, scaling when the sizes differ, with filter POINT or LINEAR (NONE
 * reads as POINT). The images are colour images of the same format; the rectangles lie inside
 * their levels and are not empty; src and dst are different images. Ordered with draws: draws
 * before it are in src, draws after it see dst's new texels.
 * Also between two different depth-stencil images of one format, size and sample count:
 * both rectangles the whole image at level 0; copies depth and stencil unscaled (filter ignored).
 * src_layer and dst_layer are the cube faces of cube images (0 for 2D images). */
typedef struct nv_cmd_blit_image {
  uint32_t src; uint32_t src_level; nv_rect src_rect;
  uint32_t dst; uint32_t dst_level; nv_rect dst_rect;
  uint32_t filter; /* nv_filter */
  uint32_t src_layer;
  uint32_t dst_layer;
} nv_cmd_blit_image;
/* Fills rect (inside the level, not empty) of level `level` of a colour image with color
 * (r, g, b, a in [0, 1], converted to the image's format as a clear is). Ignores viewport,
 * scissor, write masks and the bound targets; ordered with draws. layer: the cube face of
 * a cube image (0 for 2D images). A rectangle smaller than the level needs a render target's
 * level (a render-target texture's any level, another target's level 0). */
typedef struct nv_cmd_fill_image {
  uint32_t image; uint32_t level; nv_rect rect; float color[4];
  uint32_t layer;
} nv_cmd_fill_image;

/* Fills levels 1.. of every layer of an NV_IMAGE_SAMPLED colour image from level 0, each
 * level from the one above, with `filter` (NV_FILTER_POINT or LINEAR; a plugin whose API picks its
 * own filter may ignore it). Only for formats with NV_SUPPORT_GENERATE_MIPS. Ordered with draws
 * like UPDATE_IMAGE (D3DUSAGE_AUTOGENMIPMAP). */
typedef struct nv_cmd_generate_mips { uint32_t image; uint32_t filter; } nv_cmd_generate_mips;

/* Writes size bytes (the payload) at byte offset of stage's uniform block, which keeps
 * its other bytes — what changed since the last SET_CONSTANTS/UPDATE_CONSTANTS, so that one
 * changed register does not resend the whole block. Bytes past the block's current size extend
 * it (the gap reads as zero). Ordered with draws like SET_CONSTANTS. */
typedef struct nv_cmd_update_constants { uint32_t stage; uint32_t offset; uint32_t size; } nv_cmd_update_constants;

/* A native window. X11 (the only system so far): display is the Xlib Display* the window
 * lives on (the application's connection; a plugin calls nothing on it but what its API does
 * through xcb, which is thread-safe), window its Window (XID). */
typedef enum nv_window_system { NV_WINDOW_NONE = 0, NV_WINDOW_X11 = 1 } nv_window_system;
typedef struct nv_window {
  uint32_t system; /* nv_window_system */
  uint32_t reserved;
  uint64_t display;
  uint64_t window;
} nv_window;

/* Makes `swapchain` (a handle of its own kind) the presentation target of window:
 * Vulkan a VkSurfaceKHR and a VkSwapchainKHR, GL an EGL window surface (on a device created with
 * a window on the same display: the GL context lives on that display). A swapchain that cannot be
 * made is reported once on stderr and its PRESENTs show nothing. vsync: 1 waits for the
 * display's vertical blank (D3DPRESENT_INTERVAL_ONE), 0 does not (INTERVAL_IMMEDIATE). */
typedef struct nv_cmd_create_swapchain { uint32_t swapchain; uint32_t vsync; nv_window window; } nv_cmd_create_swapchain;
typedef struct nv_cmd_destroy_swapchain { uint32_t swapchain; } nv_cmd_destroy_swapchain;

#ifdef __cplusplus
}
#endif

#endif
