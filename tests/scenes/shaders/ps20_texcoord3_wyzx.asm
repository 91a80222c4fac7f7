ps_2_0
dcl t3
mov oC0, t3.wyzx
