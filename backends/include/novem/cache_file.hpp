// The on-disk cache file every plugin uses (Vulkan's VkPipelineCache data, GL program binaries).
//
// A file is a header — magic "NOVEMCF1", the identity it was written for (a hash of the driver,
// device and format that produced the payload), the payload's size and FNV-1a hash — then the
// payload. A file whose magic, identity, size or hash does not match is never trusted: read()
// says why, and the plugin warns and starts without it. Writes go to a temporary file renamed
// over the old one, so a reader never sees half a file.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

namespace novem {

inline uint64_t fnv1a(const void *data, size_t size, uint64_t h = 1469598103934665603ull) {
  auto *p = static_cast<const unsigned char *>(data);
  for (size_t i = 0; i < size; ++i) {
    h ^= p[i];
    h *= 1099511628211ull;
  }
  return h;
}

class CacheFile {
public:
  enum class Read { Missing, Ok, Rejected };

  // Reads path into payload when it holds a sound file written for `identity`; on Rejected,
  // `why` says what was wrong.
  static Read read(const std::string &path, uint64_t identity, std::vector<uint8_t> &payload, std::string &why) {
    payload.clear();
    FILE *f = std::fopen(path.c_str(), "rb");
    if (!f) return Read::Missing;
    Header h{};
    std::vector<uint8_t> bytes;
    const bool header_ok = std::fread(&h, sizeof h, 1, f) == 1;
    if (header_ok && std::memcmp(h.magic, kMagic, sizeof h.magic) == 0 && h.identity == identity &&
        h.size <= kMaxPayload) {
      bytes.resize(size_t(h.size));
      if (h.size && std::fread(bytes.data(), 1, bytes.size(), f) != bytes.size()) bytes.clear();
    }
    const bool at_end = std::fgetc(f) == EOF;
    std::fclose(f);
    if (!header_ok) why = "shorter than its header";
    else if (std::memcmp(h.magic, kMagic, sizeof h.magic) != 0) why = "not a Novem cache file";
    else if (h.identity != identity) why = "written for another driver, device or version";
    else if (h.size > kMaxPayload || bytes.size() != h.size || !at_end) why = "truncated or of the wrong size";
    else if (fnv1a(bytes.data(), bytes.size()) != h.hash) why = "corrupt (checksum mismatch)";
    else {
      payload = std::move(bytes);
      return Read::Ok;
    }
    return Read::Rejected;
  }

  // Writes payload for `identity`, creating the folder; false (nothing replaced) on failure.
  static bool write(const std::string &path, uint64_t identity, const void *payload, size_t size) {
    make_parents(path);
    const std::string tmp = path + ".tmp" + std::to_string(::getpid());
    FILE *f = std::fopen(tmp.c_str(), "wb");
    if (!f) return false;
    Header h{};
    std::memcpy(h.magic, kMagic, sizeof h.magic);
    h.identity = identity;
    h.size = size;
    h.hash = fnv1a(payload, size);
    bool ok = std::fwrite(&h, sizeof h, 1, f) == 1 && (!size || std::fwrite(payload, 1, size, f) == size);
    ok = std::fclose(f) == 0 && ok;
    if (ok) ok = std::rename(tmp.c_str(), path.c_str()) == 0;
    if (!ok) std::remove(tmp.c_str());
    return ok;
  }

private:
  struct Header {
    char magic[8];
    uint64_t identity;
    uint64_t size;
    uint64_t hash;
  };
  static constexpr char kMagic[8] = {'N', 'O', 'V', 'E', 'M', 'C', 'F', '1'};
  static constexpr uint64_t kMaxPayload = 1ull << 30;

  static void make_parents(const std::string &path) {
    for (size_t i = 1; i < path.size(); ++i)
      if (path[i] == '/') ::mkdir(path.substr(0, i).c_str(), 0755);
  }
};

} // namespace novem
