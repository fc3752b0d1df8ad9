set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "s0-influence-64_depths.svg"
reset
set title "share of the answer's influence on the queried needle (L = 64, 1 needle)"
set xlabel "depth of the queried needle (%)"
set ylabel "checkpoint step"
set xtics ("0" 0, "10" 1, "20" 2, "30" 3, "40" 4, "50" 5, "60" 6, "70" 7, "80" 8, "90" 9, "100" 10)
set xtics rotate by 30 right
set ytics ("500" 0, "1000" 1, "1500" 2, "2000" 3, "2500" 4, "3000" 5)
set xrange [-0.5:10.5]
set yrange [-0.5:5.5]
set cbrange [0:0.773527]
set cblabel "mean share on the queried needle's tokens"
set palette defined (0 '#f7fbff', 0.5 '#6baed6', 1 '#08306b')
unset grid
unset key
$p0h << EOD
0 0 0.270956
1 0 0.266912
2 0 0.289635
3 0 0.284148
4 0 0.275590
5 0 0.247272
6 0 0.309697
7 0 0.298709
8 0 0.328207
9 0 0.350814
10 0 0.320418
0 1 0.678507
1 1 0.756340
2 1 0.714697
3 1 0.773527
4 1 0.763241
5 1 0.720833
6 1 0.720675
7 1 0.771970
8 1 0.754415
9 1 0.731293
10 1 0.546230
0 2 0.613516
1 2 0.622790
2 2 0.619797
3 2 0.647107
4 2 0.642117
5 2 0.578793
6 2 0.650187
7 2 0.596645
8 2 0.590131
9 2 0.598142
10 2 0.532414
0 3 0.574945
1 3 0.564688
2 3 0.558891
3 3 0.627022
4 3 0.595271
5 3 0.613906
6 3 0.618141
7 3 0.614987
8 3 0.625943
9 3 0.597447
10 3 0.509865
0 4 0.601035
1 4 0.595563
2 4 0.602614
3 4 0.592114
4 4 0.619797
5 4 0.609728
6 4 0.578083
7 4 0.593862
8 4 0.575740
9 4 0.572013
10 4 0.521428
0 5 0.639242
1 5 0.594211
2 5 0.615635
3 5 0.611485
4 5 0.633793
5 5 0.597950
6 5 0.588099
7 5 0.611033
8 5 0.582583
9 5 0.580461
10 5 0.551674
EOD
plot $p0h using 1:2:3 with image pixels, \
     $p0h using 1:2:(valid(3) ? sprintf("%.3f", $3) : ""):($3 > 0.386764 ? 0xffffff : 0x000000) with labels tc rgb variable font ',8'
unset output
