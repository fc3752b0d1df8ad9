$v0len << EOD
32 0.833939393939394 0.5063636363636363 0.9990909090909091 0.9963636363636365
64 0.03393939393939394 0.03909090909090909 0.04454545454545455 0.018181818181818184
128 0.004242424242424243 0.006363636363636364 0.004545454545454546 0.0018181818181818182
EOD
$v1len << EOD
32 0.24666666666666673 0.15909090909090912 0.4518181818181819 0.1290909090909091
64 0.09000000000000001 0.035454545454545454 0.2009090909090909 0.03363636363636364
128 0.02363636363636364 0.019090909090909092 0.049090909090909095 0.002727272727272727
EOD
$v0depth << EOD
0.0 0.0033333333333333335
10.0 0.0
20.0 0.0033333333333333335
30.0 0.0
40.0 0.01
50.0 0.03
60.0 0.01
70.0 0.03666666666666667
80.0 0.04
90.0 0.04
100.0 0.20000000000000004
EOD
$v1depth << EOD
0.0 0.016666666666666666
10.0 0.04666666666666667
20.0 0.14
30.0 0.1366666666666667
40.0 0.13666666666666666
50.0 0.12
60.0 0.09666666666666666
70.0 0.09333333333333334
80.0 0.07333333333333335
90.0 0.06
100.0 0.06999999999999999
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
set title 'kv, qwen2 4x64, L = 32, randomized ids: mean of 3 seeds, circles: each' noenhanced
plot $v0len using 1:2 with linespoints lw 2 pt 7 lc rgb '#000000' title 'trained on ids 0..L-1' noenhanced, \
  $v0len using 1:3 with points pt 6 ps 0.8 lc rgb '#000000' notitle, \
  $v0len using 1:4 with points pt 6 ps 0.8 lc rgb '#000000' notitle, \
  $v0len using 1:5 with points pt 6 ps 0.8 lc rgb '#000000' notitle, \
  $v1len using 1:2 with linespoints lw 2 pt 7 lc rgb '#9400d3' title '--random-positions 128' noenhanced, \
  $v1len using 1:3 with points pt 6 ps 0.8 lc rgb '#9400d3' notitle, \
  $v1len using 1:4 with points pt 6 ps 0.8 lc rgb '#9400d3' notitle, \
  $v1len using 1:5 with points pt 6 ps 0.8 lc rgb '#9400d3' notitle, \
  $chance using 1:2 with lines dt 2 lw 1.5 lc rgb '#808080' title 'chance (1/pairs)'
unset logscale x
set xtics auto
set xrange [0:100]
set yrange [0:0.208]
set xlabel 'depth of the queried pair (%)'
set ylabel 'exact match, mean over seeds'
set title 'by depth at 2x the training length (L = 64)' noenhanced
plot $v0depth using 1:2 with linespoints lw 2 pt 7 lc rgb '#000000' title 'trained on ids 0..L-1' noenhanced, \
  $v1depth using 1:2 with linespoints lw 2 pt 7 lc rgb '#9400d3' title '--random-positions 128' noenhanced, \
  0.1 with lines dt 2 lw 1.5 lc rgb '#808080' title 'chance (1/10 pairs)'
unset multiplot
