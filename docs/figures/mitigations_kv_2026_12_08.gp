$v0len << EOD
32 0.931818181818182 0.931818181818182
64 0.009090909090909092 0.009090909090909092
128 0.002727272727272727 0.002727272727272727
EOD
$v1len << EOD
32 0.8481818181818181 0.8481818181818181
64 0.020000000000000004 0.020000000000000004
128 0.0018181818181818182 0.0018181818181818182
EOD
$v2len << EOD
32 0.2136363636363636 0.2136363636363636
64 0.05909090909090909 0.05909090909090909
128 0.031818181818181815 0.031818181818181815
EOD
$v0depth << EOD
0.0 0.0
10.0 0.0
20.0 0.0
30.0 0.0
40.0 0.0
50.0 0.01
60.0 0.01
70.0 0.02
80.0 0.01
90.0 0.01
100.0 0.04
EOD
$v1depth << EOD
0.0 0.0
10.0 0.0
20.0 0.0
30.0 0.0
40.0 0.0
50.0 0.0
60.0 0.0
70.0 0.06
80.0 0.03
90.0 0.05
100.0 0.08
EOD
$v2depth << EOD
0.0 0.0
10.0 0.0
20.0 0.0
30.0 0.0
40.0 0.0
50.0 0.0
60.0 0.0
70.0 0.01
80.0 0.14
90.0 0.29
100.0 0.21
EOD
$chance << EOD
32 0.25
64 0.1
128 0.05
EOD
set terminal pngcairo enhanced size 1300,560 font 'Helvetica,11'
set output 'docs/figures/mitigations_kv_2026_12_08.png'
set multiplot layout 1,2
set key below nobox
set grid
set yrange [0:1]
set logscale x 2
set xrange [30.2738:135.298]
set xtics ("32" 32, "64" 64, "128" 128)
set xlabel 'context length (tokens)'
set ylabel 'exact match, mean over depths'
set title 'kv, qwen2 4x64, L = 32, trained log-n and PoSE: mean of 1 seed, circles: each' noenhanced
plot $v0len using 1:2 with linespoints lw 2 pt 7 lc rgb '#000000' title 'baseline (this build)' noenhanced, \
  $v0len using 1:3 with points pt 6 ps 0.8 lc rgb '#000000' notitle, \
  $v1len using 1:2 with linespoints lw 2 pt 7 lc rgb '#9400d3' title '--logn-scale 0.2885' noenhanced, \
  $v1len using 1:3 with points pt 6 ps 0.8 lc rgb '#9400d3' notitle, \
  $v2len using 1:2 with linespoints lw 2 pt 7 lc rgb '#009e73' title '--pose 128' noenhanced, \
  $v2len using 1:3 with points pt 6 ps 0.8 lc rgb '#009e73' notitle, \
  $chance using 1:2 with lines dt 2 lw 1.5 lc rgb '#808080' title 'chance (1/pairs)'
unset logscale x
set xtics auto
set xrange [0:100]
set yrange [0:0.3016]
set xlabel 'depth of the queried pair (%)'
set ylabel 'exact match, mean over seeds'
set title 'by depth at 2x the training length (L = 64)' noenhanced
plot $v0depth using 1:2 with linespoints lw 2 pt 7 lc rgb '#000000' title 'baseline (this build)' noenhanced, \
  $v1depth using 1:2 with linespoints lw 2 pt 7 lc rgb '#9400d3' title '--logn-scale 0.2885' noenhanced, \
  $v2depth using 1:2 with linespoints lw 2 pt 7 lc rgb '#009e73' title '--pose 128' noenhanced, \
  0.1 with lines dt 2 lw 1.5 lc rgb '#808080' title 'chance (1/10 pairs)'
unset multiplot
