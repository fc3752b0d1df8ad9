set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "birth_depth_qwen2.svg"
reset
set title "median |log10 error|, measured vs no-fit: 6 of 6 closest to their own"
set xlabel "no-fit prediction of run"
set ylabel "measured profile of run"
set key top right box opaque
set grid
set xtics ("qwen2 h1" 0, "qwen2 h2" 1, "qwen2 h4" 2, "qwen2 h8" 3, "qwen2 h16" 4, "qwen2 h32" 5)
set ytics ("qwen2 h1" 0, "qwen2 h2" 1, "qwen2 h4" 2, "qwen2 h8" 3, "qwen2 h16" 4, "qwen2 h32" 5)
set xrange [-0.5:5.5]
set yrange [-0.5:5.5]
set cbrange [0:0.516007]
set cblabel "median |log10 error|"
set palette defined (0 '#f7fbff', 0.5 '#6baed6', 1 '#08306b')
unset grid
unset key
$p0h << EOD
0 0 0.002661
1 0 0.169607
2 0 0.320101
3 0 0.407644
4 0 0.465723
5 0 0.516007
0 1 0.124789
1 1 0.037270
2 1 0.188655
3 1 0.278522
4 1 0.343112
5 1 0.402066
0 2 0.276342
1 2 0.134647
2 2 0.036670
3 2 0.118601
4 2 0.190022
5 2 0.249811
0 3 0.367113
1 3 0.243954
2 3 0.070240
3 3 0.036253
4 3 0.078327
5 3 0.139548
0 4 0.445786
1 4 0.326744
2 4 0.154203
3 4 0.061811
4 4 0.037578
5 4 0.053079
0 5 0.504556
1 5 0.394910
2 5 0.232661
3 5 0.121644
4 5 0.059215
5 5 0.038500
EOD
plot $p0h using 1:2:3 with image, \
     $p0h using 1:2:(sprintf("%.3f", $3)):($3 > 0.258004 ? 0xffffff : 0x000000) with labels tc rgb variable font ',8'
unset output
