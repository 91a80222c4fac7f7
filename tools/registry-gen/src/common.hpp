// Helpers every generator shares: command-line options, registry text, output files.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include <pugixml.hpp>

namespace regen {

// "--key value" pairs after the subcommand. Unknown keys and missing values are errors. A key
// may be given more than once: get() answers the last value, get_all() every one in order.
class Options {
public:
  bool parse(int argc, char **argv, const std::set<std::string> &known, std::string &error);
  bool has(const std::string &key) const { return values_.count(key) != 0; }
  std::string get(const std::string &key, const std::string &fallback = {}) const;
  std::vector<std::string> get_all(const std::string &key) const;
  // Fails with a message naming the first missing key.
  bool require(const std::vector<std::string> &keys, std::string &error) const;

private:
  std::map<std::string, std::vector<std::string>> values_;
};

std::vector<std::string> split(const std::string &text, char separator);

// The text of a registry element with its markup dropped: "const <ptype>GLfloat</ptype> *<name>v</name>"
// gives "const GLfloat *v". <apientry/> becomes `apientry`.
std::string flat_text(pugi::xml_node node, const std::string &apientry = "KHRONOS_APIENTRY");

// Identifiers (C-style words) in text, in order.
std::vector<std::string> identifiers(const std::string &text);

bool load_registry(const std::string &path, pugi::xml_document &doc, std::string &error);
bool write_file(const std::string &path, const std::string &text, std::string &error);

// "path/to/novem_gl.h" -> "novem_gl.h"
std::string base_name(const std::string &path);

// "path/to/novem_gl.h" -> "NOVEM_GL_H_INCLUDED"
std::string include_guard(const std::string &header_path);

} // namespace regen
