vs_3_0
; colour.xyz = (dp4(v1, c0), dp4(v1, c1), dp4(v1, c2)) + c3: shows any mix of the attribute's
; four components, so a scene can probe each one (test_vertex_format_scenes.cpp).
dcl_position v0
dcl_texcoord v1
dcl_position o0
dcl_color o1
dp4 r0.x, v1, c0
dp4 r0.y, v1, c1
dp4 r0.z, v1, c2
mov r0.w, c3.w
add r0.xyz, r0, c3
mov o0, v0
mov o1, r0
