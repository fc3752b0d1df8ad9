$v0len << EOD
32 0.833939393939394 0.5063636363636363 0.9990909090909091 0.9963636363636365
64 0.03393939393939394 0.03909090909090909 0.04454545454545455 0.018181818181818184
128 0.004242424242424243 0.006363636363636364 0.004545454545454546 0.0018181818181818182
EOD
$v1len << EOD
32 0.933939393939394 0.9990909090909091 0.8218181818181819 0.980909090909091
64 0.0203030303030303 0.03818181818181818 0.008181818181818182 0.014545454545454545
128 0.006666666666666668 0.0018181818181818182 0.008181818181818182 0.010000000000000002
EOD
$v0depth << EOD
0.0 0.7666666666666666
10.0 0.7966666666666667
20.0 0.9966666666666667
30.0 0.9966666666666667
40.0 0.9966666666666667
50.0 0.75
60.0 0.7566666666666667
70.0 0.7600000000000001
80.0 0.7333333333333334
90.0 0.8300000000000001
100.0 0.79
EOD
$v1depth << EOD
0.0 0.9466666666666667
10.0 0.9199999999999999
20.0 0.9266666666666667
30.0 0.9433333333333334
40.0 0.9700000000000001
50.0 0.9233333333333333
60.0 0.9266666666666667
70.0 0.9499999999999998
80.0 0.9266666666666667
90.0 0.93
100.0 0.91
EOD
$chance << EOD
32 0.25
64 0.1
128 0.05
EOD
set terminal pngcairo enhanced size 1300,560 font 'Helvetica,11'
set output 'docs/figures/mitigations_sink_eval.png'
set multiplot layout 1,2
set key below nobox
set grid
set yrange [0:1]
set logscale x 2
set xrange [30.2738:135.298]
set xtics ("32" 32, "64" 64, "128" 128)
set xlabel 'context length (tokens)'
set ylabel 'exact match, mean over depths'
set title 'kv, qwen2 RoPE, with and without --sink: mean of 3 seeds, circles: each' noenhanced
plot $v0len using 1:2 with linespoints lw 2 pt 7 lc rgb '#000000' title 'no sink' noenhanced, \
  $v0len using 1:3 with points pt 6 ps 0.8 lc rgb '#000000' notitle, \
  $v0len using 1:4 with points pt 6 ps 0.8 lc rgb '#000000' notitle, \
  $v0len using 1:5 with points pt 6 ps 0.8 lc rgb '#000000' notitle, \
  $v1len using 1:2 with linespoints lw 2 pt 7 lc rgb '#9400d3' title '--sink' noenhanced, \
  $v1len using 1:3 with points pt 6 ps 0.8 lc rgb '#9400d3' notitle, \
  $v1len using 1:4 with points pt 6 ps 0.8 lc rgb '#9400d3' notitle, \
  $v1len using 1:5 with points pt 6 ps 0.8 lc rgb '#9400d3' notitle, \
  $chance using 1:2 with lines dt 2 lw 1.5 lc rgb '#808080' title 'chance (1/pairs)'
unset logscale x
set xtics auto
set xrange [0:100]
set yrange [0:1.03653]
set xlabel 'depth of the queried pair (%)'
set ylabel 'exact match, mean over seeds'
set title 'by depth at 1x the training length (L = 32)' noenhanced
plot $v0depth using 1:2 with linespoints lw 2 pt 7 lc rgb '#000000' title 'no sink' noenhanced, \
  $v1depth using 1:2 with linespoints lw 2 pt 7 lc rgb '#9400d3' title '--sink' noenhanced, \
  0.25 with lines dt 2 lw 1.5 lc rgb '#808080' title 'chance (1/4 pairs)'
unset multiplot
