/* Novem Windows-types shim: 4-byte structure packing until <poppack.h> (no include guard, as on Windows). */
#if defined(__GNUC__)
#pragma GCC system_header
#endif
#pragma pack(push, 4)
