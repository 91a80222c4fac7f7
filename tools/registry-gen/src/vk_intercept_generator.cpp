// VkModel + a list of command names -> a layer's interception table. Every name must be a command
// of the selection (core up to --version, plus the --extension list): its prototype (return type
// and parameters) and its dispatch level come from vk.xml, never from the layer's own text. The
// header declares each hook as NAMESPACE::hook::Name with that prototype, so a hook the layer
// defines with another signature does not compile ("no declaration matches"), and one it forgets
// does not link; the source casts each hook to the Vulkan header's PFN_vkName as well.
#include "vk_intercept_generator.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "common.hpp"
#include "vk_model.hpp"

namespace regen {
namespace {

bool names_api(pugi::xml_attribute list, const std::string &api) {
  if (!list) return true;
  for (const std::string &a : split(list.as_string(), ','))
    if (a == api) return true;
  return false;
}

// Reads the list: one name per line, blank lines and '#' comments ignored, each name once.
bool read_commands(const std::string &path, std::vector<std::string> &names, std::string &error) {
  std::ifstream in(path);
  if (!in) {
    error = "cannot read " + path;
    return false;
  }
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    line = line.substr(0, line.find('#'));
    std::vector<std::string> words = identifiers(line);
    if (words.empty()) continue;
    if (words.size() != 1 || words[0].rfind("vk", 0) != 0) {
      error = path + ":" + std::to_string(number) + ": expected one vkName per line";
      return false;
    }
    if (std::find(names.begin(), names.end(), words[0]) != names.end()) {
      error = path + ":" + std::to_string(number) + ": " + words[0] + " is listed twice";
      return false;
    }
    names.push_back(words[0]);
  }
  if (names.empty()) {
    error = path + ": no command listed";
    return false;
  }
  return true;
}

// "VkResult", "void", "PFN_vkVoidFunction": the return type as written in <proto>.
std::string return_type(pugi::xml_node prototype) {
  std::string text = flat_text(prototype.child("proto"));
  const std::string name = prototype.child("proto").child_value("name");
  text = text.substr(0, text.rfind(name));
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

std::string parameters(pugi::xml_node prototype, const std::string &api) {
  std::string text;
  for (pugi::xml_node p : prototype.children("param")) {
    if (!names_api(p.attribute("api"), api)) continue;
    std::string param; // vk.xml aligns some parameters with runs of spaces: one space each
    for (char ch : flat_text(p))
      if (ch != ' ' || (!param.empty() && param.back() != ' ')) param += ch;
    text += (text.empty() ? "" : ", ") + param;
  }
  return text.empty() ? "void" : text;
}

std::string level_enum(VkLevel level) {
  switch (level) {
  case VkLevel::Global: return "InterceptLevel::Global";
  case VkLevel::Instance: return "InterceptLevel::Instance";
  case VkLevel::Device: return "InterceptLevel::Device";
  }
  return "?";
}

} // namespace

int run_vk_intercepts(int argc, char **argv) {
  Options opt;
  std::string error;
  auto fail = [&](const std::string &why) {
    std::fprintf(stderr, "novem-registry-gen vk-intercepts: %s\n", why.c_str());
    return 1;
  };
  if (!opt.parse(argc, argv, {"registry", "api", "version", "extension", "commands", "namespace", "out-header",
                              "out-source", "dispatch-header"},
                 error) ||
      !opt.require({"registry", "version", "commands", "namespace", "out-header", "out-source"}, error))
    return fail(error + "\n" + vk_intercepts_usage);

  VkRequest request;
  request.api = opt.get("api", "vulkan");
  if (std::sscanf(opt.get("version").c_str(), "%d.%d", &request.major, &request.minor) != 2)
    return fail("--version wants X.Y");
  for (const std::string &value : opt.get_all("extension"))
    for (const std::string &e : split(value, ','))
      if (std::find(request.extensions.begin(), request.extensions.end(), e) == request.extensions.end())
        request.extensions.push_back(e);
  std::vector<std::string> names;
  if (!read_commands(opt.get("commands"), names, error)) return fail(error);
  pugi::xml_document doc;
  if (!load_registry(opt.get("registry"), doc, error)) return fail(error);
  VkModel model;
  if (!build_vk_model(doc.child("registry"), request, model, error)) return fail(error);

  std::vector<const VkCommand *> selected;
  for (const std::string &name : names) {
    auto it = std::find_if(model.commands.begin(), model.commands.end(),
                           [&](const VkCommand &c) { return c.name == name; });
    if (it == model.commands.end())
      return fail(name + " (listed in " + base_name(opt.get("commands")) + ") is not a command of " + request.api +
                  " " + opt.get("version") + (request.extensions.empty() ? "" : " + the listed extensions"));
    if (!it->protect.empty())
      return fail(name + " needs " + it->protect + ": platform commands are not supported here");
    selected.push_back(&*it);
  }
  // Sorted by name (strcmp order), for the binary search of the lookup.
  std::sort(selected.begin(), selected.end(), [](const VkCommand *a, const VkCommand *b) { return a->name < b->name; });

  const std::string ns = opt.get("namespace"), header_path = opt.get("out-header");
  const std::string include = opt.get("dispatch-header", "");
  const std::string origin = base_name(opt.get("registry")) +
                             (model.header_version.empty() ? "" : " (VK_HEADER_VERSION " + model.header_version + ")");

  std::ostringstream h;
  const std::string guard = include_guard(header_path);
  h << "/* Generated by novem-registry-gen vk-intercepts from " << origin << " and "
    << base_name(opt.get("commands")) << ". Do not edit.\n * " << selected.size()
    << " intercepted commands. */\n#ifndef " << guard << "\n#define " << guard << "\n\n";
  if (include.empty())
    h << "#ifndef VK_NO_PROTOTYPES\n#define VK_NO_PROTOTYPES\n#endif\n#include <vulkan/vulkan.h>\n\n";
  else
    h << "#include \"" << include << "\"\n\n";
  h << "namespace " << ns << " {\n\n"
    << "/* The hooks, with vk.xml's prototypes: the layer defines each one as " << ns << "::hook::Name. */\n"
    << "namespace hook {\n";
  for (const VkCommand *c : selected)
    h << "VKAPI_ATTR " << return_type(c->prototype) << " VKAPI_CALL " << c->member() << "("
      << parameters(c->prototype, request.api) << ");\n";
  h << "} // namespace hook\n\n"
    << "/* How a command is reached (vk.xml's dispatch level): vkGetInstanceProcAddr(NULL, ...),\n"
    << " * vkGetInstanceProcAddr(instance, ...) or vkGetDeviceProcAddr(device, ...). */\n"
    << "enum class InterceptLevel { Global, Instance, Device };\n\n"
    << "struct Intercept {\n  const char *name;\n  InterceptLevel level;\n  PFN_vkVoidFunction hook;\n};\n\n"
    << "/* Every intercepted command, sorted by name. */\ninline constexpr unsigned kInterceptCount = "
    << selected.size() << ";\nextern const Intercept kIntercepts[kInterceptCount];\n\n"
    << "/* The intercept named `name`, or nullptr. */\nconst Intercept *find_intercept(const char *name);\n\n"
    << "} // namespace " << ns << "\n\n#endif\n";

  std::ostringstream s;
  s << "/* Generated by novem-registry-gen vk-intercepts from " << origin << " and "
    << base_name(opt.get("commands")) << ". Do not edit. */\n"
    << "#include \"" << base_name(header_path) << "\"\n\n#include <cstring>\n\nnamespace " << ns << " {\n\n"
    << "/* static_cast: each hook also matches the Vulkan header's PFN_ type of its name. */\n"
    << "const Intercept kIntercepts[kInterceptCount] = {\n";
  for (const VkCommand *c : selected)
    s << "    {\"" << c->name << "\", " << level_enum(c->level)
      << ", reinterpret_cast<PFN_vkVoidFunction>(static_cast<PFN_" << c->name << ">(&hook::" << c->member()
      << "))},\n";
  s << "};\n\nconst Intercept *find_intercept(const char *name) {\n"
    << "  unsigned lo = 0, hi = kInterceptCount;\n"
    << "  while (lo < hi) {\n    const unsigned mid = (lo + hi) / 2;\n"
    << "    const int c = std::strcmp(name, kIntercepts[mid].name);\n"
    << "    if (c == 0) return &kIntercepts[mid];\n    if (c < 0) hi = mid;\n    else lo = mid + 1;\n  }\n"
    << "  return nullptr;\n}\n\n} // namespace " << ns << "\n";

  if (!write_file(header_path, h.str(), error) || !write_file(opt.get("out-source"), s.str(), error)) return fail(error);
  return 0;
}

} // namespace regen
