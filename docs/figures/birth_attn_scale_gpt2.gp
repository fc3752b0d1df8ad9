set terminal svg enhanced font 'Helvetica,13' background rgb 'white' size 900,540
set output "birth_attn_scale_gpt2.svg"
reset
set title "median |log10 error|, measured vs no-fit: 3 of 3 closest to their own"
set xlabel "no-fit prediction of run"
set ylabel "measured profile of run"
set xtics ("gpt2 s0.25" 0, "gpt2 s1" 1, "gpt2 s4" 2)
set ytics ("gpt2 s0.25" 0, "gpt2 s1" 1, "gpt2 s4" 2)
set xrange [-0.5:2.5]
set yrange [-0.5:2.5]
set cbrange [0:0.365205]
set cblabel "median |log10 error|"
set palette defined (0 '#f7fbff', 0.5 '#6baed6', 1 '#08306b')
unset grid
unset key
$p0h << EOD
0 0 0.004663
1 0 0.365205
2 0 0.247286
0 1 0.358831
1 1 0.004148
2 1 0.248581
0 2 0.248816
1 2 0.236847
2 2 0.004692
EOD
plot $p0h using 1:2:3 with image pixels, \
     $p0h using 1:2:(valid(3) ? sprintf("%.3f", $3) : ""):($3 > 0.182602 ? 0xffffff : 0x000000) with labels tc rgb variable font ',8'
unset output
