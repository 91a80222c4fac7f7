// The "com-forward" subcommand: a class's overrides that forward every method of a COM interface
// to a base class, each after the same prologue statement, generated from the interface as a C
// header declares it (DECLARE_INTERFACE_ with STDMETHOD/STDMETHOD_ ... PURE). The frontend's
// LockedDevice takes its device lock this way in each IDirect3DDevice9Ex method of mingw-w64's
// d3d9.h, so a header update reaches it without an edit. With --trace, each override also hands
// the call, its arguments and its result to a trace function (the frontend's NOVEM_LOG=trace).
#pragma once

namespace regen {

int run_com_forward(int argc, char **argv);

inline constexpr const char *com_forward_usage =
    "com-forward: overrides forwarding each method of a COM interface to a base class\n"
    "  --header PATH         the C header that declares the interface (e.g. d3d9.h)\n"
    "  --interface NAME      the interface, e.g. IDirect3DDevice9Ex (its whole declaration,\n"
    "                        inherited methods included, as DECLARE_INTERFACE_ lists them)\n"
    "  --base NAME           the class the overrides call, e.g. Device\n"
    "  --prologue TEXT       a statement each override runs first, e.g. 'DeviceLock lock(*this);'\n"
    "  --skip A,B            methods left out (repeatable), e.g. AddRef,Release\n"
    "  --trace FUNCTION      each override returns FUNCTION(\"Interface::Method\", \"arg, names\",\n"
    "                        [&] { return Base::Method(args); }, args...) instead of the call\n"
    "  --out PATH            the member declarations, to #include inside the class body\n";

} // namespace regen
