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
set cbrange [0:0.764474]
set cblabel "mean share on the queried needle's tokens"
set palette defined (0 '#f7fbff', 0.5 '#6baed6', 1 '#08306b')
unset grid
unset key
$p0h << EOD
0 0 0.093127
1 0 0.090224
2 0 0.078121
3 0 0.079859
4 0 0.090906
5 0 0.085070
6 0 0.090858
7 0 0.089215
8 0 0.092267
9 0 0.090596
10 0 0.089411
0 1 0.333378
1 1 0.282119
2 1 0.318029
3 1 0.362184
4 1 0.365532
5 1 0.319080
6 1 0.373210
7 1 0.293524
8 1 0.359626
9 1 0.336166
10 1 0.253339
0 2 0.764474
1 2 0.718195
2 2 0.716526
3 2 0.715680
4 2 0.731599
5 2 0.726252
6 2 0.714868
7 2 0.724484
8 2 0.698511
9 2 0.712518
10 2 0.698041
0 3 0.685205
1 3 0.676889
2 3 0.647670
3 3 0.669808
4 3 0.670482
5 3 0.649357
6 3 0.661870
7 3 0.685926
8 3 0.679567
9 3 0.637846
10 3 0.663863
0 4 0.674424
1 4 0.639533
2 4 0.638909
3 4 0.641352
4 4 0.627327
5 4 0.654470
6 4 0.649207
7 4 0.667113
8 4 0.633919
9 4 0.620622
10 4 0.633857
0 5 0.625965
1 5 0.616571
2 5 0.622633
3 5 0.617539
4 5 0.621204
5 5 0.604613
6 5 0.605677
7 5 0.638660
8 5 0.626830
9 5 0.611664
10 5 0.605155
EOD
plot $p0h using 1:2:3 with image pixels, \
     $p0h using 1:2:(valid(3) ? sprintf("%.3f", $3) : ""):($3 > 0.382237 ? 0xffffff : 0x000000) with labels tc rgb variable font ',8'
unset output
