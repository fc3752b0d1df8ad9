set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 1000,255
set output "seeds_compare.svg"
reset
set title "number task: accuracy (all hops, mean over seeds; intervals in the CSV) by input length"
set xlabel "input length (tokens)"
set ylabel ""
set xtics ("17" 0, "32" 1, "64" 2, "128" 3, "256" 4, "512" 5, "850" 6)
set xtics rotate by 30 right
set ytics ("chance (uniform guess)" 0, "pose 1024 (3 seeds)" 1, "baseline (3 seeds)" 2)
set xrange [-0.5:6.5]
set yrange [-0.5:2.5]
set cbrange [0:1]
set cblabel "accuracy"
set palette defined (0 '#f7fbff', 0.5 '#6baed6', 1 '#08306b')
unset grid
unset key
$p0h << EOD
0 0 0.125000
1 0 0.125000
2 0 0.125000
3 0 0.125000
4 0 0.125000
5 0 0.125000
6 0 0.125000
0 1 0.378333
1 1 0.107917
2 1 0.065000
3 1 0.042500
4 1 0.039167
5 1 0.028750
6 1 0.026250
0 2 1.000000
1 2 0.229167
2 2 0.125417
3 2 0.123750
4 2 0.095000
5 2 0.079167
6 2 0.066250
EOD
plot $p0h using 1:2:3 with image pixels, \
     $p0h using 1:2:(valid(3) ? sprintf("%.2f", $3) : ""):($3 > 0.5 ? 0xffffff : 0x000000) with labels tc rgb variable font ',8'
unset output
