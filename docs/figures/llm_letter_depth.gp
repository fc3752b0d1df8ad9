set terminal pngcairo size 900,540
set output "llm_letter_depth.png"
set title "letter suite: accuracy against the answer's depth in the context"
set xlabel "depth of the answer (% of the context)"
set ylabel "context length (tokens)"
set xtics ("0" 0, "10" 1, "20" 2, "30" 3, "40" 4, "50" 5, "60" 6, "70" 7, "80" 8, "90" 9, "100" 10)
set ytics ("16" 0, "32" 1, "64" 2, "100" 3, "200" 4, "400" 5, "850" 6)
set xrange [-0.5:10.5]
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
6 0 1.0
7 0 1.0
8 0 1.0
9 0 1.0
10 0 NaN
0 1 1.0
1 1 1.0
2 1 1.0
3 1 1.0
4 1 1.0
5 1 1.0
6 1 1.0
7 1 1.0
8 1 1.0
9 1 1.0
10 1 NaN
0 2 1.0
1 2 1.0
2 2 1.0
3 2 1.0
4 2 1.0
5 2 1.0
6 2 1.0
7 2 1.0
8 2 1.0
9 2 1.0
10 2 1.0
0 3 1.0
1 3 1.0
2 3 1.0
3 3 1.0
4 3 1.0
5 3 1.0
6 3 1.0
7 3 1.0
8 3 1.0
9 3 1.0
10 3 1.0
0 4 1.0
1 4 1.0
2 4 1.0
3 4 1.0
4 4 1.0
5 4 1.0
6 4 1.0
7 4 1.0
8 4 1.0
9 4 1.0
10 4 1.0
0 5 1.0
1 5 1.0
2 5 1.0
3 5 1.0
4 5 1.0
5 5 1.0
6 5 1.0
7 5 1.0
8 5 1.0
9 5 1.0
10 5 1.0
0 6 1.0
1 6 1.0
2 6 1.0
3 6 1.0
4 6 1.0
5 6 1.0
6 6 1.0
7 6 1.0
8 6 1.0
9 6 1.0
10 6 1.0
EOD
plot $grid using 1:2:3 with image pixels, \
     $grid using 1:2:(valid(3) ? sprintf("%.2f", $3) : ""):($3 > 0.5 ? 0xffffff : 0x000000) with labels tc rgb variable font ',8'
