set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "gpt2-seeds_gradient.svg"
reset
set title "gradient reaching the input embeddings (3 training seeds, 95% t band)"
set xlabel "training step + 1"
set ylabel "log10 ratio to position 0"
set logscale x
set format x "10^{%L}"
set grid
set xrange [1:701]
set format x "%g"
set xtics (1, 101, 201, 401, 701)
set autoscale yfixmin
set autoscale yfixmax
set offsets 0, 0, graph 0.04, graph 0.04
set key outside right top box opaque
$p0s0 << EOD
1 -0.6367192171 -0.695732457 -0.5777059772
101 -0.2672354694 -0.3130781927 -0.2213927461
201 -0.2160574297 -0.2503223309 -0.1817925285
301 -0.2077835606 -0.2287691561 -0.1867979652
401 -0.2069333437 -0.2944713012 -0.1193953862
501 -0.2023207451 -0.264799957 -0.1398415332
601 -0.1669600701 -0.1902691294 -0.1436510107
701 -0.1438638412 -0.1591604477 -0.1285672346
EOD
$p0s1 << EOD
1 -0.6375615821 -0.6843709434 -0.5907522208
101 -0.2749217134 -0.3306541268 -0.2191892999
201 -0.2011715697 -0.2921042198 -0.1102389196
301 -0.2498737507 -0.3203843791 -0.1793631224
401 -0.2617918819 -0.3917316235 -0.1318521404
501 -0.3159643866 -0.452125636 -0.1798031371
601 -0.3347388785 -0.4189592455 -0.2505185115
701 -0.3438003555 -0.445221942 -0.2423787691
EOD
plot $p0s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p0s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "middle fifth / position 0", \
     $p0s1 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#009e73" notitle, \
     $p0s1 using 1:2 with linespoints lw 2 lc rgb "#009e73" title "last position / position 0"
unset output
