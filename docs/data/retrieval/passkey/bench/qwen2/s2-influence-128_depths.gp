set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "s2-influence-128_depths.svg"
reset
set title "share of the answer's influence on the queried needle (L = 128, 1 needle)"
set xlabel "depth of the queried needle (%)"
set ylabel "checkpoint step"
set xtics ("0" 0, "10" 1, "20" 2, "30" 3, "40" 4, "50" 5, "60" 6, "70" 7, "80" 8, "90" 9, "100" 10)
set xtics rotate by 30 right
set ytics ("500" 0, "1000" 1, "1500" 2, "2000" 3, "2500" 4, "3000" 5)
set xrange [-0.5:10.5]
set yrange [-0.5:5.5]
set cbrange [0:0.20932]
set cblabel "mean share on the queried needle's tokens"
set palette defined (0 '#f7fbff', 0.5 '#6baed6', 1 '#08306b')
unset grid
unset key
$p0h << EOD
0 0 0.098327
1 0 0.209320
2 0 0.141538
3 0 0.063330
4 0 0.068370
5 0 0.067838
6 0 0.097331
7 0 0.082583
8 0 0.058605
9 0 0.062003
10 0 0.060664
0 1 0.093049
1 1 0.134467
2 1 0.125694
3 1 0.064751
4 1 0.069334
5 1 0.092825
6 1 0.102199
7 1 0.098121
8 1 0.073160
9 1 0.081363
10 1 0.065716
0 2 0.088713
1 2 0.145356
2 2 0.115713
3 2 0.073544
4 2 0.060522
5 2 0.091990
6 2 0.097347
7 2 0.073671
8 2 0.055359
9 2 0.054605
10 2 0.057372
0 3 0.085381
1 3 0.134636
2 3 0.125882
3 3 0.084728
4 3 0.078272
5 3 0.100054
6 3 0.097539
7 3 0.088408
8 3 0.075783
9 3 0.088235
10 3 0.085882
0 4 0.085350
1 4 0.146737
2 4 0.115094
3 4 0.087290
4 4 0.086171
5 4 0.098399
6 4 0.104865
7 4 0.082390
8 4 0.087836
9 4 0.086183
10 4 0.086169
0 5 0.091387
1 5 0.146201
2 5 0.113278
3 5 0.082708
4 5 0.084983
5 5 0.096397
6 5 0.099479
7 5 0.087531
8 5 0.115201
9 5 0.107327
10 5 0.098325
EOD
plot $p0h using 1:2:3 with image pixels, \
     $p0h using 1:2:(valid(3) ? sprintf("%.3f", $3) : ""):($3 > 0.10466 ? 0xffffff : 0x000000) with labels tc rgb variable font ',8'
unset output
