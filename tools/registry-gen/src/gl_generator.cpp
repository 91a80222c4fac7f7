// gl.xml -> dispatch table. The registry's rules, as the Khronos generator applies them:
//  - a <feature api=A number=N> contributes when A is the chosen api and N <= the version;
//    its <require>/<remove> blocks apply when their profile (and api) attributes are absent or
//    match; features are applied in document order, so a later <remove> drops earlier names;
//  - an <extension> is added on request when its `supported` list names the api (or "glcore"
//    for the core profile);
//  - the types emitted are those the chosen commands use, closed over `requires` and over the
//    type names that appear in a type's own text (GLDEBUGPROC uses GLenum ...).
#include "gl_generator.hpp"

#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "common.hpp"

namespace regen {
namespace {

struct Version {
  int major = 0, minor = 0;
  bool operator<=(const Version &o) const { return major < o.major || (major == o.major && minor <= o.minor); }
};

bool parse_version(const std::string &text, Version &v) {
  return std::sscanf(text.c_str(), "%d.%d", &v.major, &v.minor) == 2;
}

// A feature or extension and the names it added, in registry order.
struct Group {
  std::string name;
  std::vector<std::string> commands, enums;
};

// What is selected, each name with the group that added it last (a name removed by one feature
// and required again by a later one, like GL_QUADS in 3.2 core and 4.0, belongs to the later).
struct Selection {
  std::vector<Group> groups;
  std::map<std::string, size_t> commands, enums, types;
  bool owns(const std::map<std::string, size_t> &set, const std::string &name, size_t group) const {
    auto it = set.find(name);
    return it != set.end() && it->second == group;
  }
};

struct Generator {
  pugi::xml_node registry;
  std::string api, profile;
  std::map<std::string, pugi::xml_node> commands; // name -> <command>
  std::map<std::string, pugi::xml_node> enums;    // name -> <enum> for this api
  Selection sel;

  bool matches(pugi::xml_node block) const {
    std::string p = block.attribute("profile").as_string();
    std::string a = block.attribute("api").as_string();
    return (p.empty() || p == profile) && (a.empty() || a == api);
  }

  void index() {
    for (pugi::xml_node c : registry.child("commands").children("command"))
      commands[c.child("proto").child_value("name")] = c;
    for (pugi::xml_node block : registry.children("enums")) {
      for (pugi::xml_node e : block.children("enum")) {
        std::string a = e.attribute("api").as_string();
        if (!a.empty() && a != api) continue;
        enums[e.attribute("name").as_string()] = e;
      }
    }
  }

  void apply(pugi::xml_node owner) {
    const size_t index = sel.groups.size() - 1;
    Group &group = sel.groups.back();
    for (pugi::xml_node block : owner.children()) {
      std::string kind = block.name();
      if ((kind != "require" && kind != "remove") || !matches(block)) continue;
      bool add = kind == "require";
      for (pugi::xml_node item : block.children()) {
        std::string what = item.name(), name = item.attribute("name").as_string();
        std::map<std::string, size_t> *set = what == "command" ? &sel.commands
                                     : what == "enum"  ? &sel.enums
                                     : what == "type"  ? &sel.types
                                                       : nullptr;
        if (!set) continue;
        if (!add) {
          set->erase(name);
        } else if (set->emplace(name, index).second) {
          if (what == "command") group.commands.push_back(name);
          if (what == "enum") group.enums.push_back(name);
        }
      }
    }
  }

  bool select(const Version &version, const std::vector<std::string> &extensions, std::string &error) {
    for (pugi::xml_node f : registry.children("feature")) {
      Version v;
      if (api != f.attribute("api").as_string() || !parse_version(f.attribute("number").as_string(), v) ||
          !(v <= version))
        continue;
      sel.groups.push_back({f.attribute("name").as_string(), {}, {}});
      apply(f);
    }
    if (sel.groups.empty()) {
      error = "no feature of api '" + api + "' up to the requested version";
      return false;
    }
    for (const std::string &name : extensions) {
      pugi::xml_node ext = registry.child("extensions").find_child_by_attribute("extension", "name", name.c_str());
      if (!ext) {
        error = "no extension " + name + " in the registry";
        return false;
      }
      std::vector<std::string> supported = split(ext.attribute("supported").as_string(), '|');
      bool ok = false;
      for (const auto &s : supported) ok |= s == api || (profile == "core" && s == api + "core");
      if (!ok) {
        error = name + " is not supported by api '" + api + "'";
        return false;
      }
      sel.groups.push_back({name, {}, {}});
      apply(ext);
    }
    for (const auto &[c, group] : sel.commands) {
      if (!commands.count(c)) {
        error = "command " + c + " is required but not defined";
        return false;
      }
    }
    return true;
  }

  // Type definitions in registry order, closed over what they need.
  std::string types_text() {
    std::set<std::string> needed = {"khrplatform"}; // KHRONOS_APIENTRY, the khronos_ integer types
    for (const auto &[t, group] : sel.types) needed.insert(t);
    for (const auto &[c, group] : sel.commands) {
      pugi::xml_node cmd = commands[c];
      for (const pugi::xpath_node &t : cmd.select_nodes(".//ptype")) needed.insert(t.node().child_value());
    }
    std::vector<std::pair<std::string, std::string>> defs; // name, text
    for (pugi::xml_node t : registry.child("types").children("type")) {
      std::string a = t.attribute("api").as_string();
      if (!a.empty() && a != api) continue;
      std::string name = t.attribute("name") ? t.attribute("name").as_string() : t.child_value("name");
      defs.push_back({name, flat_text(t)});
    }
    for (bool grew = true; grew;) { // close over `requires` and names used in the text
      grew = false;
      for (pugi::xml_node t : registry.child("types").children("type")) {
        std::string name = t.attribute("name") ? t.attribute("name").as_string() : t.child_value("name");
        if (!needed.count(name)) continue;
        std::vector<std::string> deps = identifiers(flat_text(t));
        if (t.attribute("requires")) deps.push_back(t.attribute("requires").as_string());
        for (const auto &d : deps)
          for (const auto &def : defs)
            if (def.first == d && d != name) grew |= needed.insert(d).second;
      }
    }
    std::string out;
    for (const auto &[name, text] : defs)
      if (needed.count(name)) out += text + "\n";
    return out;
  }

  std::string member(const std::string &name) const {
    pugi::xml_node cmd = commands.at(name);
    pugi::xml_node proto = cmd.child("proto");
    std::string ret;
    for (pugi::xml_node child : proto.children())
      if (std::string(child.name()) != "name") ret += child.type() == pugi::node_element ? flat_text(child) : child.value();
    while (!ret.empty() && ret.back() == ' ') ret.pop_back();
    std::string params;
    for (pugi::xml_node p : cmd.children("param")) {
      if (!matches(p)) continue;
      params += (params.empty() ? "" : ", ") + flat_text(p);
    }
    std::string field = name.rfind("gl", 0) == 0 ? name.substr(2) : name;
    return "  " + ret + " (KHRONOS_APIENTRY *" + field + ")(" + (params.empty() ? "void" : params) + ");\n";
  }
};

} // namespace

int run_gl(int argc, char **argv) {
  Options opt;
  std::string error;
  auto fail = [&](const std::string &why) {
    std::fprintf(stderr, "novem-registry-gen gl: %s\n", why.c_str());
    return 1;
  };
  if (!opt.parse(argc, argv, {"registry", "api", "version", "profile", "extensions", "out-header", "out-source",
                              "struct", "loader"},
                 error) ||
      !opt.require({"registry", "version", "out-header", "out-source"}, error))
    return fail(error + "\n" + gl_usage);

  Generator gen;
  gen.api = opt.get("api", "gl");
  gen.profile = opt.get("profile", "core");
  Version version;
  if (!parse_version(opt.get("version"), version)) return fail("--version wants X.Y");
  if (gen.profile != "core" && gen.profile != "compatibility") return fail("--profile is core or compatibility");
  pugi::xml_document doc;
  if (!load_registry(opt.get("registry"), doc, error)) return fail(error);
  gen.registry = doc.child("registry");
  gen.index();
  std::vector<std::string> extensions = split(opt.get("extensions"), ',');
  if (!gen.select(version, extensions, error)) return fail(error);

  const std::string struct_name = opt.get("struct", "NovemGL");
  const std::string loader = opt.get("loader", "novem_gl_load");
  const std::string header_path = opt.get("out-header");
  std::ostringstream what;
  what << gen.api << " " << opt.get("version") << " " << gen.profile;
  for (const auto &e : extensions) what << " + " << e;

  // ---- header ----
  std::ostringstream h;
  std::string guard = include_guard(header_path);
  h << "/* Generated by novem-registry-gen from " << base_name(opt.get("registry")) << ": " << what.str()
    << ".\n * Do not edit; " << gen.sel.commands.size() << " commands, " << gen.sel.enums.size()
    << " enums. */\n#ifndef " << guard << "\n#define " << guard << "\n\n"
    << gen.types_text() << "\n";
  for (size_t gi = 0; gi < gen.sel.groups.size(); ++gi) {
    const Group &g = gen.sel.groups[gi];
    bool any = false;
    for (const std::string &e : g.enums) {
      if (!gen.sel.owns(gen.sel.enums, e, gi)) continue; // removed or re-added later
      auto it = gen.enums.find(e);
      if (it == gen.enums.end()) return fail("enum " + e + " is required but not defined");
      if (!any) h << "/* " << g.name << " */\n";
      any = true;
      h << "#define " << e << " " << it->second.attribute("value").as_string() << it->second.attribute("type").as_string()
        << "\n";
    }
  }
  h << "\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
  h << "/* Every entry point of " << what.str() << ", without its gl prefix. */\ntypedef struct " << struct_name << " {\n";
  for (size_t gi = 0; gi < gen.sel.groups.size(); ++gi) {
    const Group &g = gen.sel.groups[gi];
    bool any = false;
    for (const std::string &c : g.commands) {
      if (!gen.sel.owns(gen.sel.commands, c, gi)) continue;
      if (!any) h << "  /* " << g.name << " */\n";
      any = true;
      h << gen.member(c);
    }
  }
  h << "} " << struct_name << ";\n\n"
    << "/* Fills every entry of gl with get_proc(\"glName\") (e.g. eglGetProcAddress), with the\n"
    << " * context that will use them current. Entries the driver lacks are left NULL. */\n"
    << "void " << loader << "(" << struct_name << " *gl, void *(*get_proc)(const char *));\n\n"
    << "#ifdef __cplusplus\n}\n#endif\n\n#endif\n";

  // ---- loader ----
  std::ostringstream s;
  s << "/* Generated by novem-registry-gen from " << base_name(opt.get("registry")) << ": " << what.str()
    << ". Do not edit. */\n#include \"" << base_name(header_path) << "\"\n\n"
    << "void " << loader << "(" << struct_name << " *gl, void *(*get_proc)(const char *)) {\n";
  for (size_t gi = 0; gi < gen.sel.groups.size(); ++gi) {
    for (const std::string &c : gen.sel.groups[gi].commands) {
      if (!gen.sel.owns(gen.sel.commands, c, gi)) continue;
      std::string field = c.substr(2);
      s << "  gl->" << field << " = reinterpret_cast<decltype(gl->" << field << ")>(get_proc(\"" << c << "\"));\n";
    }
  }
  s << "}\n";

  if (!write_file(header_path, h.str(), error) || !write_file(opt.get("out-source"), s.str(), error)) return fail(error);
  return 0;
}

} // namespace regen
