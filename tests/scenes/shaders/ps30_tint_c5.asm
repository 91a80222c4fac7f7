ps_3_0
dcl_color v0
mul oC0, v0, c5
