set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "qwen2-seeds-loss_gradient.svg"
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
1 -1.549208421 -1.583714945 -1.514701897
101 -0.4147925549 -0.4982864288 -0.3312986809
201 -0.2663993194 -0.3192295411 -0.2135690976
301 -0.2853108041 -0.3816755947 -0.1889460134
401 -0.2783080829 -0.337097455 -0.2195187108
501 -0.3022453928 -0.3236225288 -0.2808682568
601 -0.3030761278 -0.4167025964 -0.1894496592
701 -0.2763586115 -0.3976682172 -0.1550490058
EOD
$p0s1 << EOD
1 -1.577316239 -1.624550676 -1.530081802
101 -0.4454436937 -0.580694661 -0.3101927264
201 -0.3036740901 -0.4177823713 -0.1895658089
301 -0.376642513 -0.4201067898 -0.3331782361
401 -0.3894317 -0.4531793493 -0.3256840507
501 -0.4289885299 -0.5547496583 -0.3032274014
601 -0.4185996289 -0.5258220644 -0.3113771933
701 -0.4149433999 -0.515648311 -0.3142384889
EOD
plot $p0s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p0s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "middle fifth / position 0", \
     $p0s1 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#009e73" notitle, \
     $p0s1 using 1:2 with linespoints lw 2 lc rgb "#009e73" title "last position / position 0"
unset output
