// A small JSON reader for novem-diag (RFC 8259: objects, arrays, strings with every escape,
// numbers, true/false/null). Errors carry line and column. Non-negative integers keep their exact
// 64-bit value beside the double. Object members keep their order; a repeated key's last value wins
// for lookups. Nesting deeper than 200 levels is an error (no stack overflow on hostile input).
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace novem::diag {

struct Json {
  enum class Kind { Null, Bool, Number, String, Array, Object };
  Kind kind = Kind::Null;
  bool boolean = false;
  double number = 0;
  bool is_uint = false; // number is a non-negative integer that fits uint64_t exactly: see uint
  std::uint64_t uint = 0;
  std::string text;
  std::vector<Json> items;                            // Array
  std::vector<std::pair<std::string, Json>> members;  // Object, in file order

  bool is_object() const { return kind == Kind::Object; }
  bool is_array() const { return kind == Kind::Array; }
  bool is_number() const { return kind == Kind::Number; }
  bool is_string() const { return kind == Kind::String; }
  // The member's value, or nullptr (also when this is no object).
  const Json *find(std::string_view key) const {
    const Json *found = nullptr;
    for (const auto &m : members)
      if (m.first == key)
        found = &m.second;
    return found;
  }
  // The member as an unsigned integer: its exact value, a non-negative double truncated, or fallback.
  std::uint64_t u64(std::string_view key, std::uint64_t fallback = 0) const {
    const Json *j = find(key);
    if (!j || !j->is_number() || j->number < 0)
      return fallback;
    return j->is_uint ? j->uint : static_cast<std::uint64_t>(j->number);
  }
  std::string str(std::string_view key, std::string fallback = {}) const {
    const Json *j = find(key);
    return j && j->is_string() ? j->text : fallback;
  }
};

class JsonParser {
public:
  // Parses the whole of text; on failure returns false and a one-line error with line and column.
  static bool parse(std::string_view text, Json &out, std::string &error) {
    JsonParser p(text);
    if (p.value(out, 0)) {
      p.skip();
      if (p.pos_ == text.size())
        return true;
      p.fail("unexpected data after the JSON value");
    }
    error = p.error_;
    return false;
  }

private:
  explicit JsonParser(std::string_view s) : s_(s) {}
  std::string_view s_;
  std::size_t pos_ = 0;
  std::string error_;

  bool fail(const std::string &what) {
    if (!error_.empty())
      return false;
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < pos_ && i < s_.size(); ++i) {
      if (s_[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    error_ = "line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + what;
    return false;
  }
  void skip() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r'))
      ++pos_;
  }
  bool peek(char c) {
    skip();
    return pos_ < s_.size() && s_[pos_] == c;
  }
  bool expect(char c) {
    if (!peek(c))
      return fail(std::string("expected '") + c + "'");
    ++pos_;
    return true;
  }
  static void utf8(std::string &out, std::uint32_t cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }
  bool hex4(std::uint32_t &v) {
    if (pos_ + 4 > s_.size())
      return fail("truncated \\u escape");
    v = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = s_[pos_++];
      v <<= 4;
      if (c >= '0' && c <= '9')
        v |= static_cast<std::uint32_t>(c - '0');
      else if (c >= 'a' && c <= 'f')
        v |= static_cast<std::uint32_t>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F')
        v |= static_cast<std::uint32_t>(c - 'A' + 10);
      else
        return fail("bad \\u escape");
    }
    return true;
  }
  bool string(std::string &out) {
    if (!expect('"'))
      return false;
    while (true) {
      if (pos_ >= s_.size())
        return fail("unterminated string");
      const char c = s_[pos_++];
      if (c == '"')
        return true;
      if (static_cast<unsigned char>(c) < 0x20)
        return fail("control character in a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= s_.size())
        return fail("unterminated string");
      const char e = s_[pos_++];
      switch (e) {
      case '"': case '\\': case '/': out += e; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'u': {
        std::uint32_t cp = 0;
        if (!hex4(cp))
          return false;
        if (cp >= 0xD800 && cp < 0xDC00 && pos_ + 6 <= s_.size() && s_[pos_] == '\\' && s_[pos_ + 1] == 'u') {
          pos_ += 2;
          std::uint32_t low = 0;
          if (!hex4(low))
            return false;
          if (low >= 0xDC00 && low < 0xE000)
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          else
            return fail("bad surrogate pair");
        }
        utf8(out, cp);
        break;
      }
      default: pos_--; return fail("bad escape in a string");
      }
    }
  }
  bool number(Json &v) {
    const std::size_t start = pos_;
    if (pos_ < s_.size() && s_[pos_] == '-')
      ++pos_;
    auto digits = [&] {
      const std::size_t d = pos_;
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9')
        ++pos_;
      return pos_ > d;
    };
    if (!digits())
      return fail("bad value");
    bool integral = true;
    if (pos_ < s_.size() && s_[pos_] == '.') {
      ++pos_;
      integral = false;
      if (!digits())
        return fail("bad number");
    }
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      ++pos_;
      integral = false;
      if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-'))
        ++pos_;
      if (!digits())
        return fail("bad number");
    }
    const std::string token(s_.substr(start, pos_ - start));
    v.kind = Json::Kind::Number;
    v.number = std::strtod(token.c_str(), nullptr);
    if (integral && token[0] != '-') {
      errno = 0;
      char *end = nullptr;
      const unsigned long long u = std::strtoull(token.c_str(), &end, 10);
      if (errno == 0 && *end == '\0') {
        v.is_uint = true;
        v.uint = u;
      }
    }
    return true;
  }
  bool literal(std::string_view word) {
    if (s_.substr(pos_, word.size()) != word)
      return fail("bad value");
    pos_ += word.size();
    return true;
  }
  bool value(Json &v, int depth) {
    if (depth > 200)
      return fail("nested too deeply");
    skip();
    if (pos_ >= s_.size())
      return fail("unexpected end of input");
    switch (s_[pos_]) {
    case '{':
      ++pos_;
      v.kind = Json::Kind::Object;
      if (peek('}'))
        return ++pos_, true;
      do {
        std::string key;
        skip();
        if (!string(key) || !expect(':'))
          return false;
        v.members.emplace_back(std::move(key), Json{});
        if (!value(v.members.back().second, depth + 1))
          return false;
      } while (peek(',') && (++pos_, true));
      return expect('}');
    case '[':
      ++pos_;
      v.kind = Json::Kind::Array;
      if (peek(']'))
        return ++pos_, true;
      do {
        v.items.emplace_back();
        if (!value(v.items.back(), depth + 1))
          return false;
      } while (peek(',') && (++pos_, true));
      return expect(']');
    case '"': v.kind = Json::Kind::String; return string(v.text);
    case 't': v.kind = Json::Kind::Bool; v.boolean = true; return literal("true");
    case 'f': v.kind = Json::Kind::Bool; return literal("false");
    case 'n': return literal("null");
    default: return number(v);
    }
  }
};

} // namespace novem::diag
