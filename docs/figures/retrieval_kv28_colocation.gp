set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 1100,420
set output "retrieval_kv28_colocation.svg"
set multiplot layout 1,2
reset
set title "accuracy (L = 28)"
set xlabel "depth of the queried pair (%)"
set ylabel "exact match"
set key below box opaque
set grid
set xrange [0.000000:100.000000]
$p0s0 << EOD
0 0.05 0.05 0.05
10 0.06 0.06 0.06
20 0.38 0.38 0.38
30 0.35 0.35 0.35
40 0.47 0.47 0.47
50 0.07 0.07 0.07
60 0.03 0.03 0.03
70 0 0 0
80 0.02 0.02 0.02
90 0.06 0.06 0.06
100 0.08 0.08 0.08
EOD
plot $p0s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc 1 notitle, \
     $p0s0 using 1:2 with linespoints lw 2 lc 1 title "one seed: no band"
reset
set title "influence on the queried pair"
set xlabel "depth of the queried pair (%)"
set ylabel "share of the answer's influence"
set key below box opaque
set grid
set xrange [0.000000:100.000000]
$p1s0 << EOD
0 0.2060393736 0.2060393736 0.2060393736
10 0.2306230861 0.2306230861 0.2306230861
20 0.2247408193 0.2247408193 0.2247408193
30 0.2402420871 0.2402420871 0.2402420871
40 0.2214287721 0.2214287721 0.2214287721
50 0.1360120737 0.1360120737 0.1360120737
60 0.1022889194 0.1022889194 0.1022889194
70 0.09146926534 0.09146926534 0.09146926534
80 0.1074660326 0.1074660326 0.1074660326
90 0.1981945799 0.1981945799 0.1981945799
100 0.2248169094 0.2248169094 0.2248169094
EOD
plot $p1s0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc 1 notitle, \
     $p1s0 using 1:2 with linespoints lw 2 lc 1 title "one seed: no band"
unset multiplot
unset output
