ps_3_0
def c0, 0.25, 0.5, 0.75, 0
dcl_texcoord v0
dcl_2d s0
texld r0, v0, s0
add oC0, r0, c0
