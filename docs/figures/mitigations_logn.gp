set terminal pngcairo size 1300,520 font 'Sans,11'
set output 'docs/figures/mitigations_logn.png'
set multiplot layout 1,2
set key top right
set grid
set yrange [0:1.05]
set logscale x 2
set xtics (32, 64, 128)
set xrange [27.2:147.2]
set xlabel 'context length (tokens)'
set ylabel 'exact match, mean over depths'
set title 'kv, qwen2 RoPE 4x64, trained at L = 32: 3 seeds, log-n scale at evaluation only'
plot 'docs/figures/mitigations_logn.dat' index 6 using 1:2 with linespoints dt 2 lw 1.5 pt 0 lc rgb '#888888' title 'chance (1/pairs)', \
  'docs/figures/mitigations_logn.dat' index 0 using 1:2 with linespoints lw 2 pt 7 lc rgb '#000000' title 'no scaling', \
  'docs/figures/mitigations_logn.dat' index 0 using 1:3 with points pt 6 ps 0.8 lc rgb '#000000' notitle, \
  'docs/figures/mitigations_logn.dat' index 0 using 1:4 with points pt 6 ps 0.8 lc rgb '#000000' notitle, \
  'docs/figures/mitigations_logn.dat' index 0 using 1:5 with points pt 6 ps 0.8 lc rgb '#000000' notitle, \
  'docs/figures/mitigations_logn.dat' index 1 using 1:2 with linespoints lw 2 pt 7 lc rgb '#1f77b4' title 's = 0.2885 (1/ln 32)', \
  'docs/figures/mitigations_logn.dat' index 1 using 1:3 with points pt 6 ps 0.8 lc rgb '#1f77b4' notitle, \
  'docs/figures/mitigations_logn.dat' index 1 using 1:4 with points pt 6 ps 0.8 lc rgb '#1f77b4' notitle, \
  'docs/figures/mitigations_logn.dat' index 1 using 1:5 with points pt 6 ps 0.8 lc rgb '#1f77b4' notitle, \
  'docs/figures/mitigations_logn.dat' index 2 using 1:2 with linespoints lw 2 pt 7 lc rgb '#d62728' title 's = 0.3607 (1/ln 16)', \
  'docs/figures/mitigations_logn.dat' index 2 using 1:3 with points pt 6 ps 0.8 lc rgb '#d62728' notitle, \
  'docs/figures/mitigations_logn.dat' index 2 using 1:4 with points pt 6 ps 0.8 lc rgb '#d62728' notitle, \
  'docs/figures/mitigations_logn.dat' index 2 using 1:5 with points pt 6 ps 0.8 lc rgb '#d62728' notitle
unset logscale x
set xtics auto
set xrange [-5:105]
set yrange [0:0.3]
set arrow from -5,0.1 to 105,0.1 nohead dt 2 lc rgb '#888888'
set label 'chance (1/10 pairs)' at 2,0.10800000000000001 tc rgb '#666666'
set xlabel 'depth of the queried pair (%)'
set ylabel 'exact match, mean over seeds'
set title 'at 2x the training length (L = 64), y axis to 0.3'
plot 'docs/figures/mitigations_logn.dat' index 3 using 1:2 with linespoints lw 2 pt 7 lc rgb '#000000' title 'no scaling', \
  'docs/figures/mitigations_logn.dat' index 4 using 1:2 with linespoints lw 2 pt 7 lc rgb '#1f77b4' title 's = 0.2885 (1/ln 32)', \
  'docs/figures/mitigations_logn.dat' index 5 using 1:2 with linespoints lw 2 pt 7 lc rgb '#d62728' title 's = 0.3607 (1/ln 16)'
unset multiplot
