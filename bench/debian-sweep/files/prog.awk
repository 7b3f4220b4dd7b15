BEGIN { FS = "," }
NR > 1 { qty[$1] += $2; val[$1] += $2 * $3; n++ }
END {
  PROCINFO["sorted_in"] = "@ind_str_asc"
  for (k in qty) printf "%-8s %5d %10.4f %e\n", k, qty[k], val[k], val[k]
  printf "%d rows, sqrt2=%.15g, exp=%g, int=%d\n", n, sqrt(2), exp(1), int(-3.7)
  s = "Hello, World"; gsub(/o/, "0", s); print s, toupper(s), length(s), index(s, "W")
  print match("foobar123", /[0-9]+/), RSTART, RLENGTH, substr("abcdef", 2, 3)
  print strftime("%Y-%m-%d %H:%M:%S", 0, 1), mktime("2020 01 02 03 04 05") > 0
  split("c b a", arr, " "); asort(arr); print arr[1] arr[2] arr[3]
  printf "%x %o %c %5.2f%%\n", 255, 8, 65, 99.5
  print sprintf("%.3f", 1/3), 2^53 + 1, 1e300 * 1e10, -0.0
}
