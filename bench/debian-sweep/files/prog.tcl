set d [dict create b 2 a 1 c 3]
foreach k [lsort [dict keys $d]] { puts "$k=[dict get $d $k]" }
puts [format "%.6f %e %x %5s|" [expr {acos(-1)}] 1e-5 255 ab]
puts [lsort -integer {10 2 33 4 -5}]
puts [regsub -all {(\d+)} "a1b22c333" {<\1>}]
puts [string map {a A e E} "banana tree"]
set f [open words.txt]; set n 0; while {[gets $f line] >= 0} { incr n }; close $f; puts "$n lines"
puts [clock format 0 -gmt 1 -format "%Y-%m-%d %H:%M:%S"]
puts [expr {2**64}] ; puts [expr {7/2}] ; puts [expr {7.0/2}]
proc fib {n} { if {$n < 2} { return $n }; expr {[fib [expr {$n-1}]] + [fib [expr {$n-2}]]} }
puts [fib 18]
puts [file size words.txt]
set o [open tclout.txt w]; puts $o hello; close $o; puts [file exists tclout.txt]
