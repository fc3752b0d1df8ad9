set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 560,540
set output "s1-eval-heatmap.svg"
reset
set title "passkey, gpt2 learned, step 3000: exact match (100 per cell)"
set xlabel "context length (tokens)"
set ylabel "depth of the queried needle (%)"
set xtics ("64" 0)
set ytics ("0" 0, "10" 1, "20" 2, "30" 3, "40" 4, "50" 5, "60" 6, "70" 7, "80" 8, "90" 9, "100" 10)
set xrange [-0.5:0.5]
set yrange [-0.5:10.5]
set cbrange [0:1]
set cblabel "exact-match accuracy"
set palette defined (0 '#f7fbff', 0.5 '#6baed6', 1 '#08306b')
unset grid
unset key
$p0h << EOD
0 0 1.000000
0 1 1.000000
0 2 1.000000
0 3 1.000000
0 4 1.000000
0 5 1.000000
0 6 1.000000
0 7 1.000000
0 8 1.000000
0 9 1.000000
0 10 1.000000
EOD
plot $p0h using 1:2:(0.5):(0.5):3 with boxxyerror fillstyle solid noborder lc palette, \
     $p0h using 1:2:(valid(3) ? sprintf("%.2f", $3) : ""):($3 > 0.5 ? 0xffffff : 0x000000) with labels tc rgb variable font ',8'
unset output
