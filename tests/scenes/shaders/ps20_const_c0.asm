ps_2_0
mov oC0, c0
