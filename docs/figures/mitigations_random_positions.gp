$v0len << EOD
32 0.5063636363636363 0.5063636363636363
64 0.03909090909090909 0.03909090909090909
128 0.006363636363636364 0.006363636363636364
EOD
$v1len << EOD
32 0.15909090909090912 0.15909090909090912
64 0.035454545454545454 0.035454545454545454
128 0.019090909090909092 0.019090909090909092
EOD
$v0depth << EOD
0.0 0.01
10.0 0.0
20.0 0.0
30.0 0.0
40.0 0.01
50.0 0.09
60.0 0.02
70.0 0.08
80.0 0.09
90.0 0.07
100.0 0.06
EOD
$v1depth << EOD
0.0 0.02
10.0 0.02
20.0 0.11
30.0 0.03
40.0 0.05
50.0 0.05
60.0 0.01
70.0 0.01
80.0 0.01
90.0 0.04
100.0 0.04
EOD
$chance << EOD
32 0.25
64 0.1
128 0.05
EOD
set terminal pngcairo enhanced size 1300,560 font 'Helvetica,11'
set output 'docs/figures/mitigations_random_positions.png'
set multiplot layout 1,2
set key below nobox
set grid
set yrange [0:1]
set logscale x 2
set xrange [30.2738:135.298]
set xtics ("32" 32, "64" 64, "128" 128)
set xlabel 'context length (tokens)'
set ylabel 'exact match, mean over depths'
set title 'kv, qwen2 4x64, L = 32, randomized ids: mean of 1 seed, circles: each' noenhanced
plot $v0len using 1:2 with linespoints lw 2 pt 7 lc rgb '#000000' title 'trained on ids 0..L-1' noenhanced, \
  $v0len using 1:3 with points pt 6 ps 0.8 lc rgb '#000000' notitle, \
  $v1len using 1:2 with linespoints lw 2 pt 7 lc rgb '#9400d3' title '--random-positions 128' noenhanced, \
  $v1len using 1:3 with points pt 6 ps 0.8 lc rgb '#9400d3' notitle, \
  $chance using 1:2 with lines dt 2 lw 1.5 lc rgb '#808080' title 'chance (1/pairs)'
unset logscale x
set xtics auto
set xrange [0:100]
set yrange [0:0.1144]
set xlabel 'depth of the queried pair (%)'
set ylabel 'exact match, mean over seeds'
set title 'by depth at 2x the training length (L = 64)' noenhanced
plot $v0depth using 1:2 with linespoints lw 2 pt 7 lc rgb '#000000' title 'trained on ids 0..L-1' noenhanced, \
  $v1depth using 1:2 with linespoints lw 2 pt 7 lc rgb '#9400d3' title '--random-positions 128' noenhanced, \
  0.1 with lines dt 2 lw 1.5 lc rgb '#808080' title 'chance (1/10 pairs)'
unset multiplot
