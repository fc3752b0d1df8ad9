set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "birth_depth_gpt2.svg"
reset
set title "median |log10 error|, measured vs no-fit: 6 of 6 closest to their own"
set xlabel "no-fit prediction of run"
set ylabel "measured profile of run"
set xtics ("gpt2 h1" 0, "gpt2 h2" 1, "gpt2 h4" 2, "gpt2 h8" 3, "gpt2 h16" 4, "gpt2 h32" 5)
set ytics ("gpt2 h1" 0, "gpt2 h2" 1, "gpt2 h4" 2, "gpt2 h8" 3, "gpt2 h16" 4, "gpt2 h32" 5)
set xrange [-0.5:5.5]
set yrange [-0.5:5.5]
set cbrange [0:0.111489]
set cblabel "median |log10 error|"
set palette defined (0 '#f7fbff', 0.5 '#6baed6', 1 '#08306b')
unset grid
unset key
$p0h << EOD
0 0 0.002659
1 0 0.059515
2 0 0.089360
3 0 0.103145
4 0 0.107115
5 0 0.111489
0 1 0.056961
1 1 0.002790
2 1 0.030897
3 1 0.044965
4 1 0.050170
5 1 0.054115
0 2 0.087302
1 2 0.026705
2 2 0.003732
3 2 0.014188
4 2 0.019455
5 2 0.022944
0 3 0.101014
1 3 0.040674
2 3 0.012419
3 3 0.004209
4 3 0.006989
5 3 0.009418
0 4 0.106746
1 4 0.047695
2 4 0.019154
3 4 0.006762
4 4 0.004335
5 4 0.005969
0 5 0.110544
1 5 0.051551
2 5 0.022426
3 5 0.009542
4 5 0.005581
5 5 0.005372
EOD
plot $p0h using 1:2:3 with image pixels, \
     $p0h using 1:2:(valid(3) ? sprintf("%.3f", $3) : ""):($3 > 0.0557446 ? 0xffffff : 0x000000) with labels tc rgb variable font ',8'
unset output
