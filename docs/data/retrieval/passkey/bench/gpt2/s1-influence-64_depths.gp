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
set cbrange [0:0.653249]
set cblabel "mean share on the queried needle's tokens"
set palette defined (0 '#f7fbff', 0.5 '#6baed6', 1 '#08306b')
unset grid
unset key
$p0h << EOD
0 0 0.215119
1 0 0.252921
2 0 0.237362
3 0 0.225287
4 0 0.247065
5 0 0.252370
6 0 0.254132
7 0 0.300242
8 0 0.279969
9 0 0.288017
10 0 0.298077
0 1 0.574760
1 1 0.587645
2 1 0.583471
3 1 0.582278
4 1 0.562060
5 1 0.529758
6 1 0.575637
7 1 0.557259
8 1 0.592877
9 1 0.564375
10 1 0.557612
0 2 0.644049
1 2 0.604049
2 2 0.596592
3 2 0.607621
4 2 0.599802
5 2 0.612897
6 2 0.625253
7 2 0.638524
8 2 0.631594
9 2 0.627404
10 2 0.640929
0 3 0.641392
1 3 0.640405
2 3 0.614337
3 3 0.622775
4 3 0.651723
5 3 0.611846
6 3 0.632892
7 3 0.614217
8 3 0.647033
9 3 0.653249
10 3 0.646872
0 4 0.625736
1 4 0.642572
2 4 0.601341
3 4 0.599090
4 4 0.598843
5 4 0.585624
6 4 0.615092
7 4 0.595247
8 4 0.633654
9 4 0.619476
10 4 0.605942
0 5 0.623350
1 5 0.611472
2 5 0.604414
3 5 0.588946
4 5 0.603779
5 5 0.588336
6 5 0.600831
7 5 0.587917
8 5 0.625554
9 5 0.599525
10 5 0.612216
EOD
plot $p0h using 1:2:3 with image pixels, \
     $p0h using 1:2:(valid(3) ? sprintf("%.3f", $3) : ""):($3 > 0.326624 ? 0xffffff : 0x000000) with labels tc rgb variable font ',8'
unset output
