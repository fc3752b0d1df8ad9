set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "gpt2-seed1-birth_shape.svg"
reset
set title "middle and minimum against the ends (position 0, query) by step"
set xlabel "training step + 1"
set ylabel "log10 ratio"
set logscale x
set format x "10^{%L}"
set grid
set xrange [1:701]
set autoscale yfixmin
set autoscale yfixmax
set offsets 0, 0, graph 0.04, graph 0.04
set key below nobox
$p0s0 << EOD
1 -1.886759224
2 -1.888555451
3 -1.901635953
4 -1.923484747
7 -1.968466723
12 -2.00570601
21 -2.000938021
37 -1.959867311
66 -1.800026928
101 -1.785991257
118 -1.793151755
201 -1.704508674
214 -1.798322932
301 -1.643933312
387 -1.739941692
401 -1.75485769
501 -1.849523652
601 -1.89346064
701 -1.946442394
EOD
$p0s1 << EOD
1 -1.987624043
2 -1.989563821
3 -1.999650703
4 -2.017099726
7 -2.05262809
12 -2.069869076
21 -2.06855532
37 -2.02476833
66 -1.905017817
101 -1.857179042
118 -1.917156705
201 -1.894314185
214 -1.895441116
301 -1.847600454
387 -1.883237652
401 -1.934188074
501 -2.114983057
601 -2.138851358
701 -2.153103146
EOD
plot $p0s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "middle / mean of the ends", \
     $p0s1 using 1:2 with linespoints lw 2 lc rgb "#009e73" title "dead zone (argmin) / mean of the ends"
unset output
