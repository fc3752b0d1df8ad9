set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 560,540
set output "seeds_heatmap.svg"
reset
set title "passkey: mean exact match over 3 seeds"
set xlabel "context length (tokens)"
set ylabel "depth of the queried needle (%)"
set xtics ("64" 0, "128" 1, "256" 2)
set ytics ("0" 0, "10" 1, "20" 2, "30" 3, "40" 4, "50" 5, "60" 6, "70" 7, "80" 8, "90" 9, "100" 10)
set xrange [-0.5:2.5]
set yrange [-0.5:10.5]
set cbrange [0:1]
set cblabel "mean exact-match accuracy"
set palette defined (0 '#f7fbff', 0.5 '#6baed6', 1 '#08306b')
unset grid
unset key
$p0h << EOD
0 0 0.666667
1 0 0.030000
2 0 0.040000
0 1 0.666667
1 1 0.113333
2 1 0.000000
0 2 0.666667
1 2 0.096667
2 2 0.000000
0 3 0.666667
1 3 0.163333
2 3 0.000000
0 4 0.666667
1 4 0.013333
2 4 0.000000
0 5 0.666667
1 5 0.076667
2 5 0.000000
0 6 0.666667
1 6 0.386667
2 6 0.016667
0 7 0.666667
1 7 0.580000
2 7 0.073333
0 8 0.666667
1 8 0.620000
2 8 0.070000
0 9 0.666667
1 9 0.626667
2 9 0.496667
0 10 0.666667
1 10 0.500000
2 10 0.373333
EOD
plot $p0h using 1:2:3 with image pixels, \
     $p0h using 1:2:(valid(3) ? sprintf("%.2f", $3) : ""):($3 > 0.5 ? 0xffffff : 0x000000) with labels tc rgb variable font ',8'
unset output
