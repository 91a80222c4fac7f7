ps_3_0
dcl_color1 v0
mov oC0, v0.wyzx
