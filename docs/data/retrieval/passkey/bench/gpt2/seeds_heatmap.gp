set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 560,540
set output "seeds_heatmap.svg"
reset
set title "passkey: mean exact match over 3 seeds"
set xlabel "context length (tokens)"
set ylabel "depth of the queried needle (%)"
set xtics ("64" 0)
set ytics ("0" 0, "10" 1, "20" 2, "30" 3, "40" 4, "50" 5, "60" 6, "70" 7, "80" 8, "90" 9, "100" 10)
set xrange [-0.5:0.5]
set yrange [-0.5:10.5]
set cbrange [0:1]
set cblabel "mean exact-match accuracy"
set palette defined (0 '#f7fbff', 0.5 '#6baed6', 1 '#08306b')
unset grid
unset key
$p0h << EOD
0 0 0.923333
0 1 0.963333
0 2 0.970000
0 3 0.970000
0 4 0.970000
0 5 0.966667
0 6 0.960000
0 7 0.993333
0 8 0.970000
0 9 0.970000
0 10 0.926667
EOD
plot $p0h using 1:2:(0.5):(0.5):3 with boxxyerror fillstyle solid noborder lc palette, \
     $p0h using 1:2:(valid(3) ? sprintf("%.2f", $3) : ""):($3 > 0.5 ? 0xffffff : 0x000000) with labels tc rgb variable font ',8'
unset output
