set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 1200,540
set output "number_compare.svg"
reset
set title "number task: accuracy (all hops) against input length, per configuration (95% t band over seeds)"
set xlabel "input length (tokens, log scale)"
set ylabel "accuracy"
set logscale x
set format x "10^{%L}"
set grid
set xrange [17:850]
set format x "%g"
set xtics (17, 64, 256, 850)
set yrange [0:1.02]
set key below nobox
$p0s0 << EOD
17 1 1 1
64 0.1254166667 0.09741267326 0.1534206601
256 0.095 0.0519734727 0.1380265273
850 0.06625 0.04896113322 0.08353886678
EOD
$p0s1 << EOD
17 1 1 1
64 0.1291666667 0.061681243 0.1966520903
256 0.08291666667 0.05423231514 0.1116010182
850 0.06583333333 0.02827058905 0.1033960776
EOD
$p0s2 << EOD
17 1 1 1
64 0.1241666667 0.06588089546 0.1824524379
256 0.07958333333 0.06061041817 0.0985562485
850 0.0625 0.0314482786 0.0935517214
EOD
$p0s3 << EOD
17 1 1 1
64 0.1229166667 0.105814712 0.1400186213
256 0.08041666667 0.07567343787 0.08515989546
850 0.05333333333 0.0246489818 0.08201768486
EOD
$p0s4 << EOD
17 0.1270833333 0.1114543096 0.142712357
64 0.06791666667 0.0390647323 0.09676860104
256 0.03166666667 0.01634921623 0.0469841171
850 0.0225 0.01428448674 0.03071551326
EOD
$p0s5 << EOD
17 1 1 1
64 0.1345833333 0.06709790967 0.202068757
256 0.09458333333 0.04786794744 0.1412987192
850 0.07541666667 0.03102971801 0.1198036153
EOD
$p0s6 << EOD
17 0.9870833333 0.9572456612 1.016921006
64 0.09583333333 0.06765771017 0.1240089565
256 0.06416666667 0.02423973911 0.1040935942
850 0.06291666667 0.0340647323 0.09176860104
EOD
$p0s7 << EOD
17 0.125
64 0.125
256 0.125
850 0.125
EOD
plot $p0s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#9400d3" notitle, \
     $p0s0 using 1:2 with linespoints lw 2 lc rgb "#9400d3" title "default (rotary 16, θ 1e4) (3 seeds)", \
     $p0s1 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#009e73" notitle, \
     $p0s1 using 1:2 with linespoints lw 2 lc rgb "#009e73" title "rotary on 32 dims (3 seeds)", \
     $p0s2 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#56b4e9" notitle, \
     $p0s2 using 1:2 with linespoints lw 2 lc rgb "#56b4e9" title "rotary on 64 dims (3 seeds)", \
     $p0s3 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#e69f00" notitle, \
     $p0s3 using 1:2 with linespoints lw 2 lc rgb "#e69f00" title "rotary on every dim (128) (3 seeds)", \
     $p0s4 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#0072b2" notitle, \
     $p0s4 using 1:2 with linespoints lw 2 lc rgb "#0072b2" title "no positional encoding (3 seeds)", \
     $p0s5 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#e51e10" notitle, \
     $p0s5 using 1:2 with linespoints lw 2 lc rgb "#e51e10" title "θ 1e5 (3 seeds)", \
     $p0s6 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb "#000000" notitle, \
     $p0s6 using 1:2 with linespoints lw 2 lc rgb "#000000" title "θ 1e6 (3 seeds)", \
     $p0s7 using 1:2 with lines dt 2 lw 1 lc rgb "#a0522d" title "chance (a uniform guess among the input's candidates)"
unset output
