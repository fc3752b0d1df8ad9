set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "birth_depth_qwen2.svg"
reset
set title "median |log10 error|, measured vs no-fit: 6 of 6 closest to their own"
set xlabel "no-fit prediction of run"
set ylabel "measured profile of run"
set xtics ("qwen2 h1" 0, "qwen2 h2" 1, "qwen2 h4" 2, "qwen2 h8" 3, "qwen2 h16" 4, "qwen2 h32" 5)
set ytics ("qwen2 h1" 0, "qwen2 h2" 1, "qwen2 h4" 2, "qwen2 h8" 3, "qwen2 h16" 4, "qwen2 h32" 5)
set xrange [-0.5:5.5]
set yrange [-0.5:5.5]
set cbrange [0:0.522212]
set cblabel "median |log10 error|"
set palette defined (0 '#f7fbff', 0.5 '#6baed6', 1 '#08306b')
unset grid
unset key
$p0h << EOD
0 0 0.002661
1 0 0.169210
2 0 0.323651
3 0 0.411896
4 0 0.469996
5 0 0.522212
0 1 0.124789
1 1 0.038194
2 1 0.191746
3 1 0.282516
4 1 0.348760
5 1 0.409184
0 2 0.276342
1 2 0.134497
2 2 0.038731
3 2 0.122991
4 2 0.194658
5 2 0.256370
0 3 0.367113
1 3 0.244420
2 3 0.068635
3 3 0.037270
4 3 0.084252
5 3 0.146010
0 4 0.445786
1 4 0.326634
2 4 0.151968
3 4 0.055883
4 4 0.040842
5 4 0.058260
0 5 0.504556
1 5 0.394586
2 5 0.229180
3 5 0.116436
4 5 0.054732
5 5 0.041041
EOD
plot $p0h using 1:2:3 with image pixels, \
     $p0h using 1:2:(valid(3) ? sprintf("%.3f", $3) : ""):($3 > 0.261106 ? 0xffffff : 0x000000) with labels tc rgb variable font ',8'
unset output
