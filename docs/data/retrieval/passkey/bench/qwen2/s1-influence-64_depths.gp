set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "s1-influence-64_depths.svg"
reset
set title "share of the answer's influence on the queried needle (L = 64, 1 needle)"
set xlabel "depth of the queried needle (%)"
set ylabel "checkpoint step"
set xtics ("0" 0, "10" 1, "20" 2, "30" 3, "40" 4, "50" 5, "60" 6, "70" 7, "80" 8, "90" 9, "100" 10)
set xtics rotate by 30 right
set ytics ("500" 0, "1000" 1, "1500" 2, "2000" 3, "2500" 4, "3000" 5)
set xrange [-0.5:10.5]
set yrange [-0.5:5.5]
set cbrange [0:0.7219]
set cblabel "mean share on the queried needle's tokens"
set palette defined (0 '#f7fbff', 0.5 '#6baed6', 1 '#08306b')
unset grid
unset key
$p0h << EOD
0 0 0.084696
1 0 0.081163
2 0 0.081532
3 0 0.087589
4 0 0.098707
5 0 0.098911
6 0 0.104254
7 0 0.108329
8 0 0.089658
9 0 0.092401
10 0 0.088845
0 1 0.116967
1 1 0.107913
2 1 0.090604
3 1 0.096279
4 1 0.090195
5 1 0.083878
6 1 0.093866
7 1 0.099081
8 1 0.096285
9 1 0.112549
10 1 0.107444
0 2 0.149407
1 2 0.120971
2 2 0.114921
3 2 0.123398
4 2 0.132682
5 2 0.103553
6 2 0.133980
7 2 0.124633
8 2 0.143565
9 2 0.139097
10 2 0.129919
0 3 0.322092
1 3 0.382305
2 3 0.377663
3 3 0.411206
4 3 0.346161
5 3 0.359429
6 3 0.340996
7 3 0.351110
8 3 0.380442
9 3 0.395025
10 3 0.330085
0 4 0.697417
1 4 0.694297
2 4 0.712413
3 4 0.697639
4 4 0.711201
5 4 0.707985
6 4 0.695344
7 4 0.707037
8 4 0.721900
9 4 0.683217
10 4 0.683002
0 5 0.685431
1 5 0.672581
2 5 0.691438
3 5 0.686463
4 5 0.673812
5 5 0.704875
6 5 0.678486
7 5 0.680150
8 5 0.681419
9 5 0.680939
10 5 0.674231
EOD
plot $p0h using 1:2:3 with image pixels, \
     $p0h using 1:2:(valid(3) ? sprintf("%.3f", $3) : ""):($3 > 0.36095 ? 0xffffff : 0x000000) with labels tc rgb variable font ',8'
unset output
