ps_3_0
dcl_color v0
mov oC0, v0
