define(`twice', `$1$1')dnl
twice(`ab') eval(2**10) len(`hello') substr(`abcdef', 1, 3)
ifelse(1,1,yes,no) translit(`hello', `lo', `01')
