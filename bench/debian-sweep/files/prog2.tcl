puts [lsort [glob *.txt]]
puts [file type sub]
puts [file readlink /proc/self/exe]
file stat a.txt st; puts "$st(size) $st(type) $st(nlink)"
puts [lsort [glob -directory sub *]]
