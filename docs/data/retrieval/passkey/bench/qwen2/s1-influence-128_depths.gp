set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "s1-influence-128_depths.svg"
reset
set title "share of the answer's influence on the queried needle (L = 128, 1 needle)"
set xlabel "depth of the queried needle (%)"
set ylabel "checkpoint step"
set xtics ("0" 0, "10" 1, "20" 2, "30" 3, "40" 4, "50" 5, "60" 6, "70" 7, "80" 8, "90" 9, "100" 10)
set xtics rotate by 30 right
set ytics ("500" 0, "1000" 1, "1500" 2, "2000" 3, "2500" 4, "3000" 5)
set xrange [-0.5:10.5]
set yrange [-0.5:5.5]
set cbrange [0:0.537728]
set cblabel "mean share on the queried needle's tokens"
set palette defined (0 '#f7fbff', 0.5 '#6baed6', 1 '#08306b')
unset grid
unset key
$p0h << EOD
0 0 0.077854
1 0 0.085147
2 0 0.058571
3 0 0.038678
4 0 0.070869
5 0 0.095737
6 0 0.118024
7 0 0.081012
8 0 0.036199
9 0 0.052838
10 0 0.049618
0 1 0.069038
1 1 0.099589
2 1 0.059429
3 1 0.053431
4 1 0.066778
5 1 0.111583
6 1 0.144750
7 1 0.076707
8 1 0.044291
9 1 0.052929
10 1 0.065159
0 2 0.079045
1 2 0.100966
2 2 0.072488
3 2 0.067958
4 2 0.090975
5 2 0.129262
6 2 0.149848
7 2 0.083313
8 2 0.065794
9 2 0.068040
10 2 0.073284
0 3 0.122452
1 3 0.181546
2 3 0.212184
3 3 0.197797
4 3 0.207894
5 3 0.271936
6 3 0.321235
7 3 0.289289
8 3 0.319408
9 3 0.286944
10 3 0.310189
0 4 0.338250
1 4 0.398472
2 4 0.394871
3 4 0.410131
4 4 0.475085
5 4 0.468198
6 4 0.470285
7 4 0.460121
8 4 0.468880
9 4 0.537728
10 4 0.402434
0 5 0.329029
1 5 0.391556
2 5 0.392038
3 5 0.417650
4 5 0.426478
5 5 0.415452
6 5 0.443825
7 5 0.462511
8 5 0.458003
9 5 0.516883
10 5 0.383995
EOD
plot $p0h using 1:2:3 with image pixels, \
     $p0h using 1:2:(valid(3) ? sprintf("%.3f", $3) : ""):($3 > 0.268864 ? 0xffffff : 0x000000) with labels tc rgb variable font ',8'
unset output
