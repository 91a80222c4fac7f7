// vk.xml -> VkModel. The registry's rules, as the Khronos generator applies them:
//  - a <feature> contributes when its `api` list names the api and its number is at most the
//    version; features apply in document order, their <require> (and <remove>) blocks when the
//    block's `api` list is absent or names the api;
//  - a requested <extension> must name the api in its `supported` list; a <require> block of it
//    applies when its conditions hold: `feature`/`extension` (vk.xml up to 1.3.2xx) or `depends`
//    (later: names joined by `+` for and, `,` for or, with parentheses), where a VK_*VERSION_X_Y
//    holds up to the version and an extension name holds when it is requested too;
//  - `<command name=A alias=B/>` borrows B's prototype (chains followed); a <command> with an
//    `api` list that does not name the api is another API's variant and ignored.
// The dispatch level comes from the prototype: the global commands are named, vkGetDeviceProcAddr
// is an instance command, and otherwise the first parameter's type decides.
#include "vk_model.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <set>

#include "common.hpp"

namespace regen {
namespace {

bool lists(pugi::xml_attribute attr, const std::string &api) {
  if (!attr) return true;
  for (const std::string &a : split(attr.as_string(), ','))
    if (a == api) return true;
  return false;
}

// "VK_VERSION_1_2", "VK_BASE_VERSION_1_0" -> 1, 2; false for anything else.
bool version_name(const std::string &name, int &major, int &minor) {
  size_t at = name.find("VERSION_");
  return name.rfind("VK_", 0) == 0 && at != std::string::npos &&
         std::sscanf(name.c_str() + at, "VERSION_%d_%d", &major, &minor) == 2;
}

// A `depends` expression: `+` and `,` over names and parenthesized expressions.
class Depends {
public:
  Depends(const std::string &text, const VkRequest &request) : text_(text), request_(request) {}
  bool holds() { return any_of(); }

private:
  bool any_of() { // a,b,...
    bool value = all_of();
    while (pos_ < text_.size() && text_[pos_] == ',') {
      ++pos_;
      value = all_of() || value;
    }
    return value;
  }
  bool all_of() { // a+b+...
    bool value = term();
    while (pos_ < text_.size() && text_[pos_] == '+') {
      ++pos_;
      value = term() && value;
    }
    return value;
  }
  bool term() {
    if (pos_ < text_.size() && text_[pos_] == '(') {
      ++pos_;
      bool value = any_of();
      if (pos_ < text_.size() && text_[pos_] == ')') ++pos_;
      return value;
    }
    std::string name;
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_' ||
                                   text_[pos_] == ':'))
      name += text_[pos_++];
    int major = 0, minor = 0;
    if (version_name(name, major, minor))
      return major < request_.major || (major == request_.major && minor <= request_.minor);
    return std::find(request_.extensions.begin(), request_.extensions.end(), name) != request_.extensions.end();
  }

  std::string text_;
  const VkRequest &request_;
  size_t pos_ = 0;
};

struct Builder {
  pugi::xml_node registry;
  const VkRequest &request;
  VkModel &model;
  std::map<std::string, pugi::xml_node> defined; // name -> <command> with a <proto>
  std::map<std::string, std::string> alias_of;   // alias -> the name it aliases
  std::map<std::string, std::string> protects;   // platform -> its macro

  void index() {
    for (pugi::xml_node c : registry.child("commands").children("command")) {
      if (!lists(c.attribute("api"), request.api)) continue;
      if (c.attribute("alias"))
        alias_of[c.attribute("name").as_string()] = c.attribute("alias").as_string();
      else
        defined[c.child("proto").child_value("name")] = c;
    }
    for (pugi::xml_node p : registry.child("platforms").children("platform"))
      protects[p.attribute("name").as_string()] = p.attribute("protect").as_string();
    for (pugi::xml_node t : registry.child("types").children("type")) {
      if (std::string(t.child_value("name")) != "VK_HEADER_VERSION") continue;
      std::vector<std::string> words = split(flat_text(t), ' ');
      if (!words.empty()) model.header_version = words.back();
      while (!model.header_version.empty() && !std::isdigit(static_cast<unsigned char>(model.header_version.back())))
        model.header_version.pop_back();
    }
  }

  pugi::xml_node prototype(const std::string &name) const {
    std::string n = name;
    for (int hops = 0; hops < 8; ++hops) {
      auto d = defined.find(n);
      if (d != defined.end()) return d->second;
      auto a = alias_of.find(n);
      if (a == alias_of.end()) break;
      n = a->second;
    }
    return {};
  }

  bool classify(VkCommand &c, std::string &error) const {
    const std::string target = c.prototype.child("proto").child_value("name");
    if (target == "vkCreateInstance" || target == "vkGetInstanceProcAddr" || target.rfind("vkEnumerateInstance", 0) == 0) {
      c.level = VkLevel::Global;
      return true;
    }
    if (target == "vkGetDeviceProcAddr") {
      c.level = VkLevel::Instance;
      return true;
    }
    std::string first;
    for (pugi::xml_node p : c.prototype.children("param")) {
      if (!lists(p.attribute("api"), request.api)) continue;
      first = p.child_value("type");
      break;
    }
    if (first == "VkInstance" || first == "VkPhysicalDevice") {
      c.level = VkLevel::Instance;
    } else if (first == "VkDevice" || first == "VkQueue" || first == "VkCommandBuffer") {
      c.level = VkLevel::Device;
    } else {
      error = "cannot classify " + c.name + " (first parameter '" + first + "')";
      return false;
    }
    return true;
  }

  // Applies one <require>/<remove> block.
  bool apply(pugi::xml_node block, bool add, const std::string &group, const std::string &protect,
             std::string &error) {
    for (pugi::xml_node item : block.children("command")) {
      const std::string name = item.attribute("name").as_string();
      auto it = std::find_if(model.commands.begin(), model.commands.end(),
                             [&](const VkCommand &c) { return c.name == name; });
      if (!add) {
        if (it != model.commands.end()) model.commands.erase(it);
        continue;
      }
      if (it != model.commands.end()) continue; // selected already, by an earlier group
      VkCommand c;
      c.name = name;
      c.prototype = prototype(name);
      c.group = group;
      c.protect = protect;
      if (!c.prototype) {
        error = "command " + name + " (required by " + group + ") is not defined";
        return false;
      }
      if (!classify(c, error)) return false;
      model.commands.push_back(std::move(c));
    }
    return true;
  }

  bool select(std::string &error) {
    for (pugi::xml_node f : registry.children("feature")) {
      int major = 0, minor = 0;
      if (!lists(f.attribute("api"), request.api) ||
          std::sscanf(f.attribute("number").as_string(), "%d.%d", &major, &minor) != 2 ||
          major > request.major || (major == request.major && minor > request.minor))
        continue;
      model.groups.push_back(f.attribute("name").as_string());
      for (pugi::xml_node block : f.children()) {
        std::string kind = block.name();
        if ((kind != "require" && kind != "remove") || !lists(block.attribute("api"), request.api)) continue;
        if (!apply(block, kind == "require", model.groups.back(), {}, error)) return false;
      }
    }
    if (model.groups.empty()) {
      error = "no feature of api '" + request.api + "' up to the requested version";
      return false;
    }
    for (const std::string &name : request.extensions) {
      pugi::xml_node ext = registry.child("extensions").find_child_by_attribute("extension", "name", name.c_str());
      if (!ext) {
        error = "no extension " + name + " in the registry";
        return false;
      }
      if (!lists(ext.attribute("supported"), request.api)) {
        error = name + " is not supported by api '" + request.api + "'";
        return false;
      }
      std::string protect;
      if (ext.attribute("platform")) protect = protects[ext.attribute("platform").as_string()];
      model.groups.push_back(name);
      for (pugi::xml_node block : ext.children()) {
        std::string kind = block.name();
        if ((kind != "require" && kind != "remove") || !lists(block.attribute("api"), request.api)) continue;
        bool applies = true;
        for (const char *condition : {"feature", "extension", "depends"})
          if (block.attribute(condition)) applies = applies && Depends(block.attribute(condition).as_string(), request).holds();
        if (applies && !apply(block, kind == "require", name, protect, error)) return false;
      }
    }
    return true;
  }

  void link_aliases() {
    std::map<std::string, std::vector<std::string>> families; // the defining name -> selected names
    for (const VkCommand &c : model.commands) families[c.prototype.child("proto").child_value("name")].push_back(c.name);
    for (VkCommand &c : model.commands)
      for (const std::string &other : families[c.prototype.child("proto").child_value("name")])
        if (other != c.name) c.aliases.push_back(other);
  }
};

} // namespace

const char *level_name(VkLevel level) {
  switch (level) {
  case VkLevel::Global: return "global";
  case VkLevel::Instance: return "instance";
  case VkLevel::Device: return "device";
  }
  return "?";
}

std::string VkCommand::member() const { return name.rfind("vk", 0) == 0 ? name.substr(2) : name; }

size_t VkModel::count(VkLevel level) const {
  return size_t(std::count_if(commands.begin(), commands.end(), [&](const VkCommand &c) { return c.level == level; }));
}

bool build_vk_model(pugi::xml_node registry, const VkRequest &request, VkModel &model, std::string &error) {
  model = VkModel{};
  Builder builder{registry, request, model, {}, {}, {}};
  builder.index();
  if (!builder.select(error)) return false;
  builder.link_aliases();
  return true;
}

} // namespace regen
