set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "birth_depth_gpt2.svg"
reset
set title "median |log10 error|, measured vs no-fit: 4 of 6 closest to their own"
set xlabel "no-fit prediction of run"
set ylabel "measured profile of run"
set key top right box opaque
set grid
set xtics ("gpt2 h1" 0, "gpt2 h2" 1, "gpt2 h4" 2, "gpt2 h8" 3, "gpt2 h16" 4, "gpt2 h32" 5)
set ytics ("gpt2 h1" 0, "gpt2 h2" 1, "gpt2 h4" 2, "gpt2 h8" 3, "gpt2 h16" 4, "gpt2 h32" 5)
set xrange [-0.5:5.5]
set yrange [-0.5:5.5]
set cbrange [0:0.119123]
set cblabel "median |log10 error|"
set palette defined (0 '#f7fbff', 0.5 '#6baed6', 1 '#08306b')
unset grid
unset key
$p0h << EOD
0 0 0.002659
1 0 0.060589
2 0 0.091466
3 0 0.105586
4 0 0.116301
5 0 0.119123
0 1 0.056961
1 1 0.002492
2 1 0.033888
3 1 0.049370
4 1 0.056895
5 1 0.062655
0 2 0.087302
1 2 0.026775
2 2 0.003586
3 2 0.019445
4 2 0.028037
5 2 0.031494
0 3 0.101014
1 3 0.040652
2 3 0.009536
3 3 0.006334
4 3 0.013940
5 3 0.018020
0 4 0.106746
1 4 0.046826
2 4 0.015530
3 4 0.004060
4 4 0.009427
5 4 0.012306
0 5 0.110544
1 5 0.051631
2 5 0.019501
3 5 0.004986
4 5 0.006705
5 5 0.010626
EOD
plot $p0h using 1:2:3 with image, \
     $p0h using 1:2:(sprintf("%.3f", $3)):($3 > 0.0595617 ? 0xffffff : 0x000000) with labels tc rgb variable font ',8'
unset output
