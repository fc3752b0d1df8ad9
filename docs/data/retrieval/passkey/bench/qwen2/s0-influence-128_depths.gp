set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "s0-influence-128_depths.svg"
reset
set title "share of the answer's influence on the queried needle (L = 128, 1 needle)"
set xlabel "depth of the queried needle (%)"
set ylabel "checkpoint step"
set xtics ("0" 0, "10" 1, "20" 2, "30" 3, "40" 4, "50" 5, "60" 6, "70" 7, "80" 8, "90" 9, "100" 10)
set xtics rotate by 30 right
set ytics ("500" 0, "1000" 1, "1500" 2, "2000" 3, "2500" 4, "3000" 5)
set xrange [-0.5:10.5]
set yrange [-0.5:5.5]
set cbrange [0:0.54908]
set cblabel "mean share on the queried needle's tokens"
set palette defined (0 '#f7fbff', 0.5 '#6baed6', 1 '#08306b')
unset grid
unset key
$p0h << EOD
0 0 0.083487
1 0 0.298987
2 0 0.104206
3 0 0.071418
4 0 0.073764
5 0 0.050569
6 0 0.209918
7 0 0.051317
8 0 0.031400
9 0 0.030789
10 0 0.037942
0 1 0.103893
1 1 0.269941
2 1 0.201989
3 1 0.226757
4 1 0.247762
5 1 0.184311
6 1 0.285011
7 1 0.197546
8 1 0.223184
9 1 0.242304
10 1 0.190546
0 2 0.224517
1 2 0.320683
2 2 0.388509
3 2 0.370692
4 2 0.340249
5 2 0.373480
6 2 0.450409
7 2 0.518137
8 2 0.521023
9 2 0.549080
10 2 0.529823
0 3 0.246102
1 3 0.403364
2 3 0.469327
3 3 0.436877
4 3 0.458978
5 3 0.452350
6 3 0.434413
7 3 0.533204
8 3 0.527064
9 3 0.530850
10 3 0.492964
0 4 0.166055
1 4 0.423194
2 4 0.516533
3 4 0.508710
4 4 0.432244
5 4 0.426802
6 4 0.465913
7 4 0.486956
8 4 0.505223
9 4 0.482989
10 4 0.464777
0 5 0.171034
1 5 0.419280
2 5 0.516203
3 5 0.484251
4 5 0.431481
5 5 0.349320
6 5 0.439589
7 5 0.492308
8 5 0.498421
9 5 0.496672
10 5 0.462752
EOD
plot $p0h using 1:2:3 with image pixels, \
     $p0h using 1:2:(valid(3) ? sprintf("%.3f", $3) : ""):($3 > 0.27454 ? 0xffffff : 0x000000) with labels tc rgb variable font ',8'
unset output
