vs_2_0
; vs30_attribute_matrix in shader model 2: colour.xyz = (dp4(v1, c0), dp4(v1, c1), dp4(v1, c2)) + c3.
dcl_position v0
dcl_texcoord v1
dp4 r0.x, v1, c0
dp4 r0.y, v1, c1
dp4 r0.z, v1, c2
mov r0.w, c3.w
add r0.xyz, r0, c3
mov oPos, v0
mov oD0, r0
