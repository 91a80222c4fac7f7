// libFuzzer entry: any bytes as a capture file (novem/capture_file.hpp), which novem-replay reads
// before a plugin sees any record. read() must refuse with a reason or accept without reading
// past the input, and what it accepts must be records that lie inside it, one after another.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "novem/capture_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  novem::capture::Capture capture;
  std::string why;
  if (!novem::capture::read(data, size, capture, why)) {
    if (why.empty()) std::abort();
    return 0;
  }
  size_t expected = sizeof(novem::capture::FileHeader);
  for (size_t at : capture.records) {
    nv_cmd_header h;
    if (at != expected || at + sizeof h > size) std::abort();
    std::memcpy(&h, data + at, sizeof h);
    if (h.size > size - at || h.size < sizeof h) std::abort();
    expected = at + h.size;
  }
  if (expected != size) std::abort();
  return 0;
}
