ps_3_0
dcl_normal v0
mov oC0, v0.wyzx
