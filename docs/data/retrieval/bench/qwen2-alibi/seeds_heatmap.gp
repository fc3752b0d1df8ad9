set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 560,540
set output "seeds_heatmap.svg"
reset
set title "kv: mean exact match over 3 seeds"
set xlabel "context length (tokens)"
set ylabel "depth of the queried pair (%)"
set xtics ("32" 0, "64" 1, "128" 2)
set ytics ("0" 0, "10" 1, "20" 2, "30" 3, "40" 4, "50" 5, "60" 6, "70" 7, "80" 8, "90" 9, "100" 10)
set xrange [-0.5:2.5]
set yrange [-0.5:10.5]
set cbrange [0:1]
set cblabel "mean exact-match accuracy"
set palette defined (0 '#f7fbff', 0.5 '#6baed6', 1 '#08306b')
unset grid
unset key
$p0h << EOD
0 0 1.000000
1 0 0.770000
2 0 0.853333
0 1 1.000000
1 1 0.933333
2 1 0.803333
0 2 0.996667
1 2 0.933333
2 2 0.790000
0 3 0.993333
1 3 0.930000
2 3 0.870000
0 4 0.996667
1 4 0.983333
2 4 0.860000
0 5 1.000000
1 5 0.946667
2 5 0.900000
0 6 0.993333
1 6 0.956667
2 6 0.933333
0 7 1.000000
1 7 0.960000
2 7 0.943333
0 8 0.996667
1 8 0.983333
2 8 0.966667
0 9 1.000000
1 9 0.980000
2 9 0.966667
0 10 0.996667
1 10 1.000000
2 10 0.996667
EOD
plot $p0h using 1:2:3 with image pixels, \
     $p0h using 1:2:(valid(3) ? sprintf("%.2f", $3) : ""):($3 > 0.5 ? 0xffffff : 0x000000) with labels tc rgb variable font ',8'
unset output
