set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "birth_depth_gpt2_unscaled.svg"
reset
set title "median |log10 error|, measured vs no-fit: 6 of 6 closest to their own"
set xlabel "no-fit prediction of run"
set ylabel "measured profile of run"
set key top right box opaque
set grid
set xtics ("gpt2 unscaled h1" 0, "gpt2 unscaled h2" 1, "gpt2 unscaled h4" 2, "gpt2 unscaled h8" 3, "gpt2 unscaled h16" 4, "gpt2 unscaled h32" 5)
set ytics ("gpt2 unscaled h1" 0, "gpt2 unscaled h2" 1, "gpt2 unscaled h4" 2, "gpt2 unscaled h8" 3, "gpt2 unscaled h16" 4, "gpt2 unscaled h32" 5)
set xrange [-0.5:5.5]
set yrange [-0.5:5.5]
set cbrange [0:0.234824]
set cblabel "median |log10 error|"
set palette defined (0 '#f7fbff', 0.5 '#6baed6', 1 '#08306b')
unset grid
unset key
$p0h << EOD
0 0 0.002690
1 0 0.064188
2 0 0.123124
3 0 0.172928
4 0 0.211235
5 0 0.234824
0 1 0.061617
1 1 0.002861
2 1 0.058026
3 1 0.104136
4 1 0.142388
5 1 0.172115
0 2 0.114348
1 2 0.048217
2 2 0.005947
3 2 0.050494
4 2 0.086148
5 2 0.117294
0 3 0.157999
1 3 0.092175
2 3 0.035036
3 3 0.007778
4 3 0.043930
5 3 0.075556
0 4 0.193562
1 4 0.126492
2 4 0.072068
3 4 0.027053
4 4 0.008027
5 4 0.040151
0 5 0.227532
1 5 0.159290
2 5 0.102001
3 5 0.059972
4 5 0.021689
5 5 0.007740
EOD
plot $p0h using 1:2:3 with image, \
     $p0h using 1:2:(sprintf("%.3f", $3)):($3 > 0.117412 ? 0xffffff : 0x000000) with labels tc rgb variable font ',8'
unset output
