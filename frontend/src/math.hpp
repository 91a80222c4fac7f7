// The small amount of arithmetic on D3D types the frontend needs.
#pragma once

#include <d3d9.h>

namespace novem {

// a * b for D3D's row-vector matrices (a applied first).
inline D3DMATRIX multiply(const D3DMATRIX &a, const D3DMATRIX &b) {
  D3DMATRIX r{};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 4; ++k) r.m[i][j] += a.m[i][k] * b.m[k][j];
  return r;
}

// D3DCOLOR (A8R8G8B8 in a DWORD) to floats r, g, b, a in [0, 1].
inline void color_to_floats(D3DCOLOR c, float out[4]) {
  out[0] = float((c >> 16) & 0xff) / 255.0f;
  out[1] = float((c >> 8) & 0xff) / 255.0f;
  out[2] = float(c & 0xff) / 255.0f;
  out[3] = float((c >> 24) & 0xff) / 255.0f;
}

} // namespace novem
