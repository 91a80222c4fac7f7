vs_3_0
def c0, 0.5, 0, 0, 1
def c1, 1, 0, 0, 1
def c2, 0, 0, 1, 1
dcl_position v0
dcl_texcoord v1
dcl_position o0
dcl_color o1
mov o0, v0
if_gt v1.x, c0.x
  mov o1, c1
else
  mov o1, c2
endif
