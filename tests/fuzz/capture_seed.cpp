// novem-fuzz-capture-seed OUT_FILE: writes a small capture file (novem/capture_file.hpp) with a
// record of every command that carries a payload, the capture fuzzer's starting input.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <vector>

#include "novem/capture_file.hpp"

namespace {

std::vector<uint8_t> file;

template <class Args> void add(const Args &args, const void *payload = nullptr, size_t payload_size = 0) {
  const size_t size = (sizeof(nv_cmd_header) + sizeof args + payload_size + NV_CMD_ALIGN - 1) & ~size_t(NV_CMD_ALIGN - 1);
  const nv_cmd_header h{uint16_t(novem::opcode_of<Args>), 0, uint32_t(size)};
  const size_t at = file.size();
  file.resize(at + size);
  std::memcpy(file.data() + at, &h, sizeof h);
  std::memcpy(file.data() + at + sizeof h, &args, sizeof args);
  if (payload_size) std::memcpy(file.data() + at + sizeof h + sizeof args, payload, payload_size);
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: novem-fuzz-capture-seed OUT_FILE\n");
    return 2;
  }
  novem::capture::FileHeader h{};
  std::memcpy(h.magic, novem::capture::kMagic, sizeof h.magic);
  h.format_version = novem::capture::kFormatVersion;
  h.abi_version = NV_BACKEND_ABI_VERSION;
  h.ring_capacity = novem::capture::kMinRing;
  h.first_frame = h.last_frame = 1;
  std::strncpy(h.plugin, "null", sizeof h.plugin - 1);
  file.resize(sizeof h);
  std::memcpy(file.data(), &h, sizeof h);
  const uint8_t bytes[64] = {1, 2, 3, 4};
  const nv_rect rect{0, 0, 4, 4};
  add(nv_cmd_create_buffer{1, NV_BUFFER_VERTEX, 64});
  add(nv_cmd_update_buffer{1, 0, 0, 64}, bytes, 64);
  add(nv_cmd_create_image{2, NV_FORMAT_B8G8R8A8_UNORM, 4, 4, NV_IMAGE_SAMPLED | NV_IMAGE_RENDER_TARGET, 1, 0, 0, 0});
  add(nv_cmd_update_image{2, 0, {0, 0, 4, 4}, 0, 0, 0}, bytes, 64);
  add(nv_cmd_create_shader{3, NV_STAGE_VERTEX, 4}, bytes, 16);
  add(nv_cmd_set_constants{NV_STAGE_VERTEX, 16}, bytes, 16);
  add(nv_cmd_update_constants{NV_STAGE_VERTEX, 0, 16}, bytes, 16);
  add(nv_cmd_set_render_targets{2, 0, {}, {}, {}, 0});
  add(nv_cmd_clear{NV_CLEAR_COLOR, {0, 0, 0, 1}, 1, 0, 1}, &rect, sizeof rect);
  add(nv_cmd_fence{1});
  add(nv_cmd_present{2, 0, {}, {}});
  std::ofstream out(argv[1], std::ios::binary);
  out.write(reinterpret_cast<const char *>(file.data()), std::streamsize(file.size()));
  return out ? 0 : 1;
}
