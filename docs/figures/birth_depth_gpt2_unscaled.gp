set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "birth_depth_gpt2_unscaled.svg"
reset
set title "median |log10 error|, measured vs no-fit: 6 of 6 closest to their own"
set xlabel "no-fit prediction of run"
set ylabel "measured profile of run"
set xtics ("gpt2 unscaled h1" 0, "gpt2 unscaled h2" 1, "gpt2 unscaled h4" 2, "gpt2 unscaled h8" 3, "gpt2 unscaled h16" 4, "gpt2 unscaled h32" 5)
set ytics ("gpt2 unscaled h1" 0, "gpt2 unscaled h2" 1, "gpt2 unscaled h4" 2, "gpt2 unscaled h8" 3, "gpt2 unscaled h16" 4, "gpt2 unscaled h32" 5)
set xrange [-0.5:5.5]
set yrange [-0.5:5.5]
set cbrange [0:0.243033]
set cblabel "median |log10 error|"
set palette defined (0 '#f7fbff', 0.5 '#6baed6', 1 '#08306b')
unset grid
unset key
$p0h << EOD
0 0 0.002690
1 0 0.065151
2 0 0.125978
3 0 0.176091
4 0 0.216222
5 0 0.243033
0 1 0.061617
1 1 0.004939
2 1 0.062746
3 1 0.109875
4 1 0.146275
5 1 0.178299
0 2 0.114348
1 2 0.046396
2 2 0.009395
3 2 0.054957
4 2 0.092080
5 2 0.123854
0 3 0.157999
1 3 0.090666
2 3 0.032652
3 3 0.013559
4 3 0.049508
5 3 0.080780
0 4 0.193562
1 4 0.125515
2 4 0.070042
3 4 0.022354
4 4 0.014189
5 4 0.044595
0 5 0.227532
1 5 0.157528
2 5 0.099973
3 5 0.056400
4 5 0.017230
5 5 0.014564
EOD
plot $p0h using 1:2:3 with image pixels, \
     $p0h using 1:2:(valid(3) ? sprintf("%.3f", $3) : ""):($3 > 0.121517 ? 0xffffff : 0x000000) with labels tc rgb variable font ',8'
unset output
