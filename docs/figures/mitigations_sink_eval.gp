$v0len << EOD
32 0.5063636363636363 0.5063636363636363
64 0.03909090909090909 0.03909090909090909
128 0.006363636363636364 0.006363636363636364
EOD
$v1len << EOD
32 0.9990909090909091 0.9990909090909091
64 0.03818181818181818 0.03818181818181818
128 0.0018181818181818182 0.0018181818181818182
EOD
$v0depth << EOD
0.0 0.3
10.0 0.39
20.0 0.99
30.0 1.0
40.0 0.99
50.0 0.27
60.0 0.27
70.0 0.28
80.0 0.22
90.0 0.49
100.0 0.37
EOD
$v1depth << EOD
0.0 1.0
10.0 1.0
20.0 1.0
30.0 1.0
40.0 1.0
50.0 0.99
60.0 1.0
70.0 1.0
80.0 1.0
90.0 1.0
100.0 1.0
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
set title 'kv, qwen2 RoPE, with and without --sink: mean of 1 seed, circles: each' noenhanced
plot $v0len using 1:2 with linespoints lw 2 pt 7 lc rgb '#000000' title 'no sink' noenhanced, \
  $v0len using 1:3 with points pt 6 ps 0.8 lc rgb '#000000' notitle, \
  $v1len using 1:2 with linespoints lw 2 pt 7 lc rgb '#9400d3' title '--sink' noenhanced, \
  $v1len using 1:3 with points pt 6 ps 0.8 lc rgb '#9400d3' notitle, \
  $chance using 1:2 with lines dt 2 lw 1.5 lc rgb '#808080' title 'chance (1/pairs)'
unset logscale x
set xtics auto
set xrange [0:100]
set yrange [0:1.04]
set xlabel 'depth of the queried pair (%)'
set ylabel 'exact match, mean over seeds'
set title 'by depth at 1x the training length (L = 32)' noenhanced
plot $v0depth using 1:2 with linespoints lw 2 pt 7 lc rgb '#000000' title 'no sink' noenhanced, \
  $v1depth using 1:2 with linespoints lw 2 pt 7 lc rgb '#9400d3' title '--sink' noenhanced, \
  0.25 with lines dt 2 lw 1.5 lc rgb '#808080' title 'chance (1/4 pairs)'
unset multiplot
