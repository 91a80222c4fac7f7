/* Novem Windows-types shim: restore the packing saved by the last <pshpack*.h> (no include guard). */
#if defined(__GNUC__)
#pragma GCC system_header
#endif
#pragma pack(pop)
