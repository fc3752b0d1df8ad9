set terminal pngcairo size 900,540
set output "llm_number_depth.png"
set title "number suite: accuracy against the answer's depth in the context"
set xlabel "depth of the answer (% of the context)"
set ylabel "context length (tokens)"
set xtics ("0" 0, "10" 1, "20" 2, "30" 3, "40" 4, "50" 5)
set ytics ("16" 0, "32" 1, "64" 2, "100" 3, "200" 4, "400" 5, "850" 6)
set xrange [-0.5:5.5]
set yrange [-0.5:6.5]
set cbrange [0:1]
set cblabel "lenient accuracy"
set palette defined (0 '#f7fbff', 0.5 '#6baed6', 1 '#08306b')
unset key
$grid << EOD
0 0 1.0
1 0 1.0
2 0 1.0
3 0 1.0
4 0 1.0
5 0 1.0
0 1 0.2727272727272727
1 1 0.3
2 1 0.21428571428571427
3 1 NaN
4 1 NaN
5 1 NaN
0 2 0.07142857142857142
1 2 0.10526315789473684
2 2 NaN
3 2 NaN
4 2 NaN
5 2 NaN
0 3 0.057692307692307696
1 3 0.14285714285714285
2 3 NaN
3 3 NaN
4 3 NaN
5 3 NaN
0 4 0.1125
1 4 NaN
2 4 NaN
3 4 NaN
4 4 NaN
5 4 NaN
0 5 0.0625
1 5 NaN
2 5 NaN
3 5 NaN
4 5 NaN
5 5 NaN
0 6 0.05
1 6 NaN
2 6 NaN
3 6 NaN
4 6 NaN
5 6 NaN
EOD
plot $grid using 1:2:3 with image pixels, \
     $grid using 1:2:(valid(3) ? sprintf("%.2f", $3) : ""):($3 > 0.5 ? 0xffffff : 0x000000) with labels tc rgb variable font ',8'
