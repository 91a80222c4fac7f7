// Tests of novem-registry-gen com-forward: the overrides it writes for a small COM interface, and
// its one-line refusals of declarations it cannot read.
#include <catch2/catch.hpp>

#include "tools_test_util.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

using novem_test::quote;
using novem_test::RunResult;
using novem_test::TempDir;

namespace {

struct Generated {
  RunResult run;
  std::string text; // the --out file
};

Generated com_forward(const TempDir &dir, const std::string &header_text, const std::string &extra = "") {
  std::ofstream(dir / "iface.h") << header_text;
  const std::string out = (dir / "out.inc").string();
  Generated g;
  g.run = novem_test::run_command(quote(NOVEM_REGISTRY_GEN_PATH) + " com-forward --header " +
                                  quote((dir / "iface.h").string()) +
                                  " --interface IFoo --base Foo --prologue 'Lock l;' --skip AddRef,Release " + extra + " --out " +
                                  quote(out));
  std::stringstream text;
  text << std::ifstream(out).rdbuf();
  g.text = text.str();
  return g;
}

constexpr const char *foo_header = R"(
#define INTERFACE IFoo
DECLARE_INTERFACE_(IFoo, IUnknown)
{
    /* IUnknown */
    STDMETHOD_(HRESULT, QueryInterface)(THIS_ REFIID iid, void **out) PURE;
    STDMETHOD_(ULONG, AddRef)(THIS) PURE;
    STDMETHOD_(ULONG, Release)(THIS) PURE;
    // IFoo
    STDMETHOD(Reset)(THIS) PURE;
    STDMETHOD_(void, Move)(THIS_ int x,
            const RECT *rect) PURE;
};
)";

} // namespace

TEST_CASE("com-forward: one forwarding override per method, in order, skipped ones left out", "[tools][registry-gen]") {
  TempDir dir("com-forward");
  Generated g = com_forward(dir, foo_header);
  INFO(g.run.output);
  REQUIRE(g.run.exit_code == 0);
  CHECK(g.text.find("HRESULT STDMETHODCALLTYPE QueryInterface(REFIID iid, void **out) override { Lock l; return "
                    "Foo::QueryInterface(iid, out); }\n") != std::string::npos);
  CHECK(g.text.find("HRESULT STDMETHODCALLTYPE Reset() override { Lock l; return Foo::Reset(); }\n") != std::string::npos);
  CHECK(g.text.find("void STDMETHODCALLTYPE Move(int x, const RECT *rect) override { Lock l; return Foo::Move(x, rect); }\n") !=
        std::string::npos);
  CHECK(g.text.find("AddRef") == std::string::npos);
  CHECK(g.text.find("Release") == std::string::npos);
  CHECK(g.text.find("QueryInterface") < g.text.find("Reset"));
  CHECK(g.text.find("Reset") < g.text.find("Move"));
}

TEST_CASE("com-forward: --trace hands each call, its argument names and values to the trace function", "[tools][registry-gen]") {
  TempDir dir("com-forward");
  Generated g = com_forward(dir, foo_header, "--trace ::ns::traced");
  INFO(g.run.output);
  REQUIRE(g.run.exit_code == 0);
  CHECK(g.text.find("void STDMETHODCALLTYPE Move(int x, const RECT *rect) override { Lock l; return ::ns::traced(\"IFoo::Move\", "
                    "\"x, rect\", [&] { return Foo::Move(x, rect); }, x, rect); }\n") != std::string::npos);
  CHECK(g.text.find("HRESULT STDMETHODCALLTYPE Reset() override { Lock l; return ::ns::traced(\"IFoo::Reset\", \"\", [&] { "
                    "return Foo::Reset(); }); }\n") != std::string::npos);
}

TEST_CASE("com-forward: an unreadable declaration, a nameless parameter or a missing interface is a one-line error", "[tools][registry-gen]") {
  TempDir dir("com-forward");
  const char *nameless = "DECLARE_INTERFACE_(IFoo, IUnknown) { STDMETHOD(Bar)(THIS_ int) PURE; };";
  const char *garbled = "DECLARE_INTERFACE_(IFoo, IUnknown) { virtual int Bar() PURE; };";
  const char *other = "DECLARE_INTERFACE_(IBar, IUnknown) { STDMETHOD(Bar)(THIS) PURE; };";
  for (const char *header : {nameless, garbled, other}) {
    Generated g = com_forward(dir, header);
    INFO(header << "\n" << g.run.output);
    CHECK(g.run.exit_code == 1);
    CHECK(g.run.output.rfind("novem-registry-gen com-forward: ", 0) == 0);
    CHECK(std::count(g.run.output.begin(), g.run.output.end(), '\n') == 1);
  }
}
