// The argument checks every plugin makes (novem/command_checks.hpp): each case a command and the
// words it gets, nullptr for a well-formed one.
#include <cstring>
#include <string>

#include <catch2/catch.hpp>

#include "novem/command_checks.hpp"

using namespace novem;

namespace {

// A 16x8 texture of three levels, and a 4x4x4 volume of two, a cube of 8x8 and a DXT1 16x16.
const checks::ImageShape kTexture{16, 8, 1, 3, 1, NV_IMAGE_TYPE_2D, NV_FORMAT_B8G8R8A8_UNORM, true};
const checks::ImageShape kVolume{4, 4, 4, 2, 1, NV_IMAGE_TYPE_3D, NV_FORMAT_B8G8R8A8_UNORM, true};
const checks::ImageShape kCube{8, 8, 1, 1, 6, NV_IMAGE_TYPE_CUBE, NV_FORMAT_B8G8R8A8_UNORM, true};
const checks::ImageShape kDxt1{16, 16, 1, 1, 1, NV_IMAGE_TYPE_2D, NV_FORMAT_BC1_UNORM, true};
const checks::ImageShape kTarget{16, 8, 1, 1, 1, NV_IMAGE_TYPE_2D, NV_FORMAT_B8G8R8A8_UNORM, false};

struct UpdateCase {
  const char *what;
  const checks::ImageShape *image;
  nv_cmd_update_image command;
  uint64_t payload;
  const char *answer; // nullptr: well formed
};

const UpdateCase kUpdates[] = {
    {"the whole level 0", &kTexture, {1, 0, {0, 0, 16, 8}, 0}, 16 * 8 * 4, nullptr},
    {"the whole of level 2 (4x2)", &kTexture, {1, 2, {0, 0, 4, 2}, 0}, 4 * 2 * 4, nullptr},
    {"a row pitch longer than a row", &kTexture, {1, 0, {0, 0, 2, 2}, 16}, 16 + 8, nullptr},
    {"level 3 of three", &kTexture, {1, 3, {0, 0, 1, 1}, 0}, 4, "no such mip level"},
    {"past the right edge", &kTexture, {1, 0, {15, 0, 2, 1}, 0}, 8, "the rectangle is outside the level"},
    {"an empty rectangle", &kTexture, {1, 0, {0, 0, 0, 1}, 0}, 4, "the rectangle is outside the level"},
    {"a negative corner", &kTexture, {1, 0, {-1, 0, 1, 1}, 0}, 4, "the rectangle is outside the level"},
    {"a short row pitch", &kTexture, {1, 0, {0, 0, 4, 1}, 8}, 16, "row_pitch is shorter than a row"},
    {"a pitch of part of a texel", &kTexture, {1, 0, {0, 0, 1, 2}, 6}, 10, "row_pitch is not a whole number of texels or blocks"},
    {"fewer bytes than rows", &kTexture, {1, 0, {0, 0, 4, 4}, 0}, 63, "the rows run past the record"},
    {"slice 3 of level 0 of a volume", &kVolume, {1, 0, {0, 0, 4, 4}, 0, 3}, 64, nullptr},
    {"slice 2 of level 1 of a volume (two slices)", &kVolume, {1, 1, {0, 0, 2, 2}, 0, 2}, 16, "no such face or slice"},
    {"face 5 of a cube", &kCube, {1, 0, {0, 0, 8, 8}, 0, 5}, 256, nullptr},
    {"face 6 of a cube", &kCube, {1, 0, {0, 0, 8, 8}, 0, 6}, 256, "no such face or slice"},
    {"a DXT1 block", &kDxt1, {1, 0, {4, 4, 4, 4}, 0}, 8, nullptr},
    {"a DXT1 rectangle off the blocks", &kDxt1, {1, 0, {2, 0, 4, 4}, 0}, 16, "the rectangle is not aligned to the format's blocks"},
    {"a render target", &kTarget, {1, 0, {0, 0, 1, 1}, 0}, 4, "the image is not a sampled colour image"},
};

void check(const char *got, const char *expected) {
  if (!expected) CHECK(got == nullptr);
  else CHECK(std::string(got ? got : "(well formed)") == expected);
}

} // namespace

TEST_CASE("command checks: UPDATE_IMAGE's level, face, rectangle, blocks and rows", "[checks]") {
  for (const UpdateCase &c : kUpdates) {
    INFO(c.what);
    check(checks::update_image(c.command, *c.image, c.payload), c.answer);
  }
}

TEST_CASE("command checks: SET_TEXTURE's stage, slot and type, SET_INDEX_BUFFER's index size and offset",
          "[checks]") {
  auto texture = [](uint32_t stage, uint32_t slot, uint32_t type) {
    nv_cmd_set_texture t;
    std::memset(&t, 0, sizeof t);
    t.stage = stage, t.slot = slot, t.type = type;
    return checks::set_texture(t);
  };
  check(texture(NV_STAGE_PIXEL, NV_MAX_PIXEL_TEXTURES - 1, NV_IMAGE_TYPE_CUBE), nullptr);
  check(texture(NV_STAGE_PIXEL, NV_MAX_PIXEL_TEXTURES, NV_IMAGE_TYPE_2D), "no such texture slot");
  check(texture(NV_STAGE_VERTEX, NV_MAX_VERTEX_TEXTURES, NV_IMAGE_TYPE_2D), "no such texture slot");
  check(texture(NV_STAGE_COUNT, 0, NV_IMAGE_TYPE_2D), "no such stage");
  check(texture(NV_STAGE_VERTEX, 0, NV_IMAGE_TYPE_3D + 1), "no such image type");
  check(checks::set_index_buffer({7, 6, 2}), nullptr);
  check(checks::set_index_buffer({0, 3, 3}), nullptr); // no buffer: nothing to check
  check(checks::set_index_buffer({7, 0, 1}), "index_size must be 2 or 4");
  check(checks::set_index_buffer({7, 2, 4}), "offset is not a multiple of index_size");
}

TEST_CASE("command checks: READ_IMAGE, FILL_IMAGE and BLIT_IMAGE's images and rectangles", "[checks]") {
  checks::ImageShape depth{16, 8, 1, 1, 1, NV_IMAGE_TYPE_2D, NV_FORMAT_D24_UNORM_S8_UINT, false, true};
  checks::ImageShape multisampled = kTarget;
  multisampled.samples = 4;
  const uint64_t room = 16 * 8 * 4;
  check(checks::read_image({1, {0, 0, 16, 8}, 0, 0}, kTexture, 4, room), nullptr);
  check(checks::read_image({1, {0, 0, 16, 8}, 0, 0}, kTexture, 4, room - 1), "the channel's readback area is too small");
  check(checks::read_image({1, {0, 0, 4, 2}, 2, 0}, kTexture, 4, room), nullptr);
  check(checks::read_image({1, {0, 0, 5, 2}, 2, 0}, kTexture, 4, room), "the rectangle is empty or outside the level");
  check(checks::read_image({1, {0, 0, 1, 1}, 0, 1}, kTexture, 4, room), "no such level or face");
  check(checks::read_image({1, {0, 0, 1, 1}, 0, 0}, multisampled, 4, room), "a multisampled image cannot be read");
  const float red[4] = {1, 0, 0, 1};
  auto fill = [&](const checks::ImageShape &img, uint32_t level, nv_rect r) {
    nv_cmd_fill_image f{1, level, r, {red[0], red[1], red[2], red[3]}, 0};
    return checks::fill_image(f, img);
  };
  check(fill(kTexture, 1, {0, 0, 8, 4}), nullptr);
  check(fill(kTexture, 1, {0, 0, 8, 5}), "the rectangle is empty or outside the level");
  check(fill(depth, 0, {0, 0, 1, 1}), "not a colour image");
  auto blit = [](const checks::ImageShape &src, nv_rect s, const checks::ImageShape &dst, nv_rect d, uint32_t dst_handle = 2) {
    return checks::blit_image({1, 0, s, dst_handle, 0, d, NV_FILTER_POINT, 0, 0}, src, dst);
  };
  check(blit(kTexture, {0, 0, 16, 8}, kTarget, {0, 0, 4, 4}), nullptr); // scaled
  check(blit(kTexture, {0, 0, 16, 8}, kTarget, {0, 0, 4, 4}, 1), "needs two different images");
  check(blit(multisampled, {0, 0, 16, 8}, kTexture, {0, 0, 16, 8}), nullptr); // a resolve
  check(blit(multisampled, {0, 0, 16, 8}, kTexture, {0, 0, 8, 4}), "a resolve cannot scale");
  check(blit(kTexture, {0, 0, 16, 8}, multisampled, {0, 0, 16, 8}), "the destination is multisampled");
  check(blit(kTexture, {0, 0, 16, 8}, kDxt1, {0, 0, 16, 8}), "the images' formats differ");
  check(blit(kTexture, {0, 0, 17, 8}, kTarget, {0, 0, 16, 8}), "a rectangle is empty or outside its level");
  check(blit(depth, {0, 0, 16, 8}, depth, {0, 0, 16, 8}), nullptr);
  check(blit(depth, {0, 0, 8, 8}, depth, {0, 0, 8, 8}), "a depth-stencil copy needs two whole images of one format and size");
  check(blit(depth, {0, 0, 16, 8}, kTarget, {0, 0, 16, 8}), "needs two colour images");
}
