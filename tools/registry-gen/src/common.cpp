#include "common.hpp"

#include <cctype>
#include <fstream>
#include <sstream>

namespace regen {

bool Options::parse(int argc, char **argv, const std::set<std::string> &known, std::string &error) {
  for (int i = 0; i < argc; ++i) {
    std::string key = argv[i];
    if (key.rfind("--", 0) != 0 || !known.count(key.substr(2))) {
      error = "unknown option '" + key + "'";
      return false;
    }
    if (i + 1 >= argc) {
      error = "option '" + key + "' needs a value";
      return false;
    }
    values_[key.substr(2)].push_back(argv[++i]);
  }
  return true;
}

std::string Options::get(const std::string &key, const std::string &fallback) const {
  auto it = values_.find(key);
  return it == values_.end() ? fallback : it->second.back();
}

std::vector<std::string> Options::get_all(const std::string &key) const {
  auto it = values_.find(key);
  return it == values_.end() ? std::vector<std::string>{} : it->second;
}

bool Options::require(const std::vector<std::string> &keys, std::string &error) const {
  for (const auto &key : keys) {
    if (!has(key)) {
      error = "missing --" + key;
      return false;
    }
  }
  return true;
}

std::vector<std::string> split(const std::string &text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, separator))
    if (!part.empty()) parts.push_back(part);
  return parts;
}

std::string flat_text(pugi::xml_node node, const std::string &apientry) {
  std::string text;
  for (pugi::xml_node child : node.children()) {
    if (child.type() == pugi::node_pcdata || child.type() == pugi::node_cdata)
      text += child.value();
    else if (child.type() == pugi::node_element)
      text += std::string(child.name()) == "apientry" ? apientry : flat_text(child, apientry);
  }
  return text;
}

std::vector<std::string> identifiers(const std::string &text) {
  std::vector<std::string> words;
  std::string word;
  for (char c : text + ' ') {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
      word += c;
    } else if (!word.empty()) {
      if (!std::isdigit(static_cast<unsigned char>(word[0]))) words.push_back(word);
      word.clear();
    }
  }
  return words;
}

bool load_registry(const std::string &path, pugi::xml_document &doc, std::string &error) {
  // Whitespace-only text matters: "<ptype>GLenum</ptype> <name>mode</name>".
  pugi::xml_parse_result result = doc.load_file(path.c_str(), pugi::parse_default | pugi::parse_ws_pcdata);
  if (!result) {
    error = path + ": " + result.description() + " at byte " + std::to_string(result.offset);
    return false;
  }
  if (!doc.child("registry")) {
    error = path + ": no <registry> element";
    return false;
  }
  return true;
}

bool write_file(const std::string &path, const std::string &text, std::string &error) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) {
    error = "cannot write " + path;
    return false;
  }
  return true;
}

std::string base_name(const std::string &path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string include_guard(const std::string &header_path) {
  std::string guard;
  for (char c : base_name(header_path))
    guard += std::isalnum(static_cast<unsigned char>(c)) ? char(std::toupper(c)) : '_';
  return guard + "_INCLUDED";
}

} // namespace regen
