set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 1000,480
set output "number_compare.svg"
reset
set title "number task: accuracy (all hops, mean over seeds; intervals in the CSV) by input length"
set xlabel "input length (tokens)"
set ylabel ""
set xtics ("17" 0, "64" 1, "256" 2, "850" 3)
set ytics ("chance (uniform guess)" 0, "θ 1e6 (3 seeds)" 1, "θ 1e5 (3 seeds)" 2, "no positional encoding (3 seeds)" 3, "rotary on every dim (128) (3 seeds)" 4, "rotary on 64 dims (3 seeds)" 5, "rotary on 32 dims (3 seeds)" 6, "default (rotary 16, θ 1e4) (3 seeds)" 7)
set xrange [-0.5:3.5]
set yrange [-0.5:7.5]
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
0 1 0.987083
1 1 0.095833
2 1 0.064167
3 1 0.062917
0 2 1.000000
1 2 0.134583
2 2 0.094583
3 2 0.075417
0 3 0.127083
1 3 0.067917
2 3 0.031667
3 3 0.022500
0 4 1.000000
1 4 0.122917
2 4 0.080417
3 4 0.053333
0 5 1.000000
1 5 0.124167
2 5 0.079583
3 5 0.062500
0 6 1.000000
1 6 0.129167
2 6 0.082917
3 6 0.065833
0 7 1.000000
1 7 0.125417
2 7 0.095000
3 7 0.066250
EOD
plot $p0h using 1:2:3 with image pixels, \
     $p0h using 1:2:(valid(3) ? sprintf("%.2f", $3) : ""):($3 > 0.5 ? 0xffffff : 0x000000) with labels tc rgb variable font ',8'
unset output
