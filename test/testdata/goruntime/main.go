// goruntime is a riscv64 Go program that exercises Go's runtime under
// rvsim: eight goroutines computing, a ticker, net/http over the
// loopback, 20,000 allocations and a GC, and an os/exec of itself. Its
// long functions (Go's compiler lays them out as long runs with many
// entry points) once made the translator translate 40M instructions and
// flush its code buffer 54 times. test/threads_test.go builds it with
// GOARCH=riscv64.
package main

import (
	"crypto/sha256"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"sort"
	"sync"
	"time"
)

func main() {
	fmt.Println("cpus", runtime.NumCPU())
	// goroutines and channels
	var wg sync.WaitGroup
	res := make([]int, 8)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			s := 0
			for j := 0; j < 2000000; j++ {
				s += j % (i + 3)
			}
			res[i] = s
		}(i)
	}
	wg.Wait()
	fmt.Println("sums", res)
	// timers
	t0 := time.Now()
	tick := time.NewTicker(5 * time.Millisecond)
	n := 0
	for range tick.C {
		n++
		if n == 5 {
			break
		}
	}
	tick.Stop()
	fmt.Println("ticks", n, time.Since(t0) >= 20*time.Millisecond)
	// net/http over loopback
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Println("listen:", err)
		return
	}
	go http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "hello %s", r.URL.Path)
	}))
	for i := 0; i < 3; i++ {
		resp, err := http.Get("http://" + ln.Addr().String() + fmt.Sprintf("/p%d", i))
		if err != nil {
			fmt.Println("get:", err)
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Println(resp.StatusCode, string(b))
	}
	// GC pressure
	var keep [][]byte
	h := sha256.New()
	for i := 0; i < 20000; i++ {
		b := make([]byte, 1024+i%4096)
		b[0] = byte(i)
		h.Write(b[:64])
		if i%100 == 0 {
			keep = append(keep, b)
		}
	}
	runtime.GC()
	fmt.Printf("kept %d, hash %x\n", len(keep), h.Sum(nil)[:8])
	// os/exec of itself
	if len(os.Args) > 1 {
		fmt.Println("child", os.Args[1])
		return
	}
	out, err := exec.Command("/proc/self/exe", "x").Output()
	fmt.Printf("exec: %q %v\n", out[len(out)-8:], err)
	m := map[string]int{"b": 2, "a": 1, "c": 3}
	keys := make([]string, 0)
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Println(keys)
}
