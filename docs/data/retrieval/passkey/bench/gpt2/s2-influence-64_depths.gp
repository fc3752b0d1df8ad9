set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "s2-influence-64_depths.svg"
reset
set title "share of the answer's influence on the queried needle (L = 64, 1 needle)"
set xlabel "depth of the queried needle (%)"
set ylabel "checkpoint step"
set xtics ("0" 0, "10" 1, "20" 2, "30" 3, "40" 4, "50" 5, "60" 6, "70" 7, "80" 8, "90" 9, "100" 10)
set xtics rotate by 30 right
set ytics ("500" 0, "1000" 1, "1500" 2, "2000" 3, "2500" 4, "3000" 5)
set xrange [-0.5:10.5]
set yrange [-0.5:5.5]
set cbrange [0:0.777767]
set cblabel "mean share on the queried needle's tokens"
set palette defined (0 '#f7fbff', 0.5 '#6baed6', 1 '#08306b')
unset grid
unset key
$p0h << EOD
0 0 0.185563
1 0 0.206277
2 0 0.202042
3 0 0.195707
4 0 0.197437
5 0 0.200682
6 0 0.214527
7 0 0.209937
8 0 0.217588
9 0 0.209938
10 0 0.214852
0 1 0.632410
1 1 0.650546
2 1 0.660750
3 1 0.700928
4 1 0.744148
5 1 0.650456
6 1 0.685572
7 1 0.672884
8 1 0.668850
9 1 0.605243
10 1 0.576482
0 2 0.648411
1 2 0.664619
2 2 0.660177
3 2 0.660175
4 2 0.709836
5 2 0.586479
6 2 0.696739
7 2 0.716170
8 2 0.777767
9 2 0.675217
10 2 0.600579
0 3 0.666518
1 3 0.709634
2 3 0.680112
3 3 0.724788
4 3 0.699456
5 3 0.681964
6 3 0.717619
7 3 0.777337
8 3 0.715651
9 3 0.766533
10 3 0.676723
0 4 0.652174
1 4 0.734067
2 4 0.698767
3 4 0.728265
4 4 0.754896
5 4 0.675831
6 4 0.756496
7 4 0.750626
8 4 0.763468
9 4 0.720819
10 4 0.665734
0 5 0.672141
1 5 0.714798
2 5 0.671268
3 5 0.736296
4 5 0.757767
5 5 0.764349
6 5 0.761010
7 5 0.776169
8 5 0.758806
9 5 0.729847
10 5 0.676491
EOD
plot $p0h using 1:2:3 with image pixels, \
     $p0h using 1:2:(valid(3) ? sprintf("%.3f", $3) : ""):($3 > 0.388883 ? 0xffffff : 0x000000) with labels tc rgb variable font ',8'
unset output
