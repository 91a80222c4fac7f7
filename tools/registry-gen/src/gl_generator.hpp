// The "gl" subcommand: a dispatch table for one GL API version and profile (plus extensions),
// read from gl.xml. Writes a header (GL types, enums, a struct of function pointers) and a
// source file (the loader that fills the struct through a get_proc callback).
#pragma once

namespace regen {

int run_gl(int argc, char **argv);

inline constexpr const char *gl_usage =
    "gl: a GL dispatch table from gl.xml\n"
    "  --registry PATH       gl.xml (e.g. /usr/share/khronos-api/gl.xml)\n"
    "  --api NAME            gl, gles2, ... (default gl)\n"
    "  --version X.Y         highest feature level included, e.g. 4.5\n"
    "  --profile NAME        core or compatibility (default core)\n"
    "  --extensions A,B      extensions whose commands and enums are added (optional)\n"
    "  --out-header PATH     the header to write\n"
    "  --out-source PATH     the loader source (C++) to write\n"
    "  --struct NAME         the table's type (default NovemGL)\n"
    "  --loader NAME         the loader function (default novem_gl_load)\n";

} // namespace regen
