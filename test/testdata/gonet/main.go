// gonet is a riscv64 Go program that talks to itself over the loopback
// with Go's net package (epoll, accept4, non-blocking connect, SO_ERROR,
// its IPv4/IPv6 probes): an HTTP server and client on 127.0.0.1, a
// dual-stack listener, a UDP exchange. test/threads_test.go builds it
// with GOARCH=riscv64 and runs it under rvsim and qemu-riscv64.
package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
)

func main() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	go http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "hello %s", r.URL.Path)
	}))
	for _, p := range []string{"/one", "/two"} {
		resp, err := http.Get("http://" + ln.Addr().String() + p)
		if err != nil {
			panic(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Println(resp.Status, string(b))
	}
	l6, err := net.Listen("tcp", ":0")
	if err != nil {
		panic(err)
	}
	fmt.Println("listening on", l6.Addr().(*net.TCPAddr).IP)
	go func() {
		c, err := l6.Accept()
		if err == nil {
			c.Write([]byte("dual stack"))
			c.Close()
		}
	}()
	c, err := net.Dial("tcp4", fmt.Sprintf("127.0.0.1:%d", l6.Addr().(*net.TCPAddr).Port))
	if err != nil {
		panic(err)
	}
	b, _ := io.ReadAll(c)
	fmt.Println(string(b))
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	u, err := net.Dial("udp", pc.LocalAddr().String())
	if err != nil {
		panic(err)
	}
	u.Write([]byte("datagram"))
	buf := make([]byte, 16)
	n, from, _ := pc.ReadFrom(buf)
	fmt.Println(string(buf[:n]), "from", from.(*net.UDPAddr).IP, from.(*net.UDPAddr).Port == u.LocalAddr().(*net.UDPAddr).Port)
	_, err = net.Dial("tcp", "127.0.0.1:1")
	fmt.Println("refused:", err != nil)
}
