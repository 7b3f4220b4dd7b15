// Command gen writes the generated inputs of the real suite
// (suite/real.toml): the compressors' text corpus and sqlite3's SQL
// script, for the test and ref inputs. Its output is a function of its
// code alone (a fixed-seed generator, no clock, no map order), so every
// checkout gets the same bytes; `make real-inputs` runs it.
//
//	go run ./workloads/real/gen -out build/real
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The text corpora (bytes) the compressors read: one for the test
// inputs, and two for the ref inputs, sized to give each compressor
// 1-5 billion instructions (xz -6 retires about 2,400 instructions a byte,
// zstd -12 about 950, bzip2 -9 about 390, xz -d about 70; xz -d's ref
// input is the big corpus's stream twice over, made by make real-inputs).
var corpora = []struct {
	name  string
	bytes int
}{
	{"test", 32 << 10},
	{"ref", 1900 << 10},
	{"big", 11 << 20},
}

// sqlite3's scripts: orders per input (about 70,000 instructions each).
var scripts = []struct {
	name   string
	orders int
}{
	{"test", 500},
	{"ref", 30000},
}

func main() {
	out := flag.String("out", "build/real", "directory the inputs are written to")
	flag.Parse()
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	type file struct {
		name  string
		write func(*bufio.Writer)
	}
	var files []file
	for _, c := range corpora {
		files = append(files, file{"corpus-" + c.name + ".txt", func(w *bufio.Writer) { corpus(w, c.bytes) }})
	}
	for _, s := range scripts {
		files = append(files, file{"sqlite-" + s.name + ".sql", func(w *bufio.Writer) { sqlScript(w, s.orders) }})
	}
	for _, f := range files {
		if err := writeFile(filepath.Join(*out, f.name), f.write); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
	}
}

func writeFile(path string, write func(*bufio.Writer)) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	write(w)
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// rng is splitmix64: a fixed sequence for a fixed seed.
type rng uint64

func (r *rng) next() uint64 {
	*r += 0x9e3779b97f4a7c15
	z := uint64(*r)
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func (r *rng) below(n int) int { return int(r.next() % uint64(n)) }

// zipf draws 0..n-1 with probability falling as 1/(k+1), roughly: the
// square of a uniform draw, so low ranks (common words) dominate.
func (r *rng) zipf(n int) int {
	u := float64(r.next()>>11) / (1 << 53)
	return int(u * u * u * float64(n))
}

var syllables = strings.Fields("ka to ri ne sa mo lu pe di an or el ith ver con pro ster tion ly ment ing ex un qua")

// vocabulary makes n words of one to four syllables.
func vocabulary(r *rng, n int) []string {
	words := make([]string, n)
	for i := range words {
		var b strings.Builder
		for k := 1 + r.below(4); k > 0; k-- {
			b.WriteString(syllables[r.below(len(syllables))])
		}
		words[i] = b.String()
	}
	return words
}

// corpus writes about size bytes of text: paragraphs of prose drawn from a
// skewed vocabulary, log records with numbers, and tables of figures, in
// alternating sections, so compressors see both repetition and entropy.
func corpus(w *bufio.Writer, size int) {
	r := rng(2026)
	words := vocabulary(&r, 3000)
	n := 0
	put := func(s string) { w.WriteString(s); n += len(s) }
	for section := 0; n < size; section++ {
		switch section % 3 {
		case 0: // prose
			for p := 0; p < 4; p++ {
				var line strings.Builder
				for s := 0; s < 5+r.below(6); s++ {
					k := 6 + r.below(14)
					for i := 0; i < k; i++ {
						word := words[r.zipf(len(words))]
						if i == 0 {
							word = strings.ToUpper(word[:1]) + word[1:]
						}
						line.WriteString(word)
						if i < k-1 {
							line.WriteByte(' ')
						}
						if line.Len() > 68 {
							put(line.String() + "\n")
							line.Reset()
						}
					}
					line.WriteString(". ")
				}
				put(line.String() + "\n\n")
			}
		case 1: // log records
			for i := 0; i < 40; i++ {
				put(fmt.Sprintf("2026-%02d-%02dT%02d:%02d:%02d host%02d %s[%d]: %s %s status=%d bytes=%d\n",
					1+r.below(12), 1+r.below(28), r.below(24), r.below(60), r.below(60), r.below(16),
					words[r.below(40)], 100+r.below(900), words[r.zipf(len(words))], words[r.zipf(len(words))],
					[]int{200, 200, 200, 301, 404, 500}[r.below(6)], r.below(1<<20)))
			}
		case 2: // a table of figures
			for i := 0; i < 30; i++ {
				put(fmt.Sprintf("%6d %-12s %10.3f %10.3f %8d\n", i, words[r.below(200)],
					float64(r.below(1000000))/1000, float64(r.below(100000))/7, r.below(100000)))
			}
		}
	}
}

// sqlScript writes sqlite3's workload: a schema, bulk inserts in
// transactions, indexes, joins, aggregates and updates over `orders`
// orders; every query's result goes to standard output.
func sqlScript(w *bufio.Writer, orders int) {
	r := rng(1998)
	customers, products := orders/10+10, 200
	cities := []string{"Lisbon", "Oslo", "Kyiv", "Quito", "Hanoi", "Perth", "Accra", "Lima", "Riga", "Cork"}
	categories := []string{"tools", "books", "garden", "toys", "audio", "kitchen", "sport", "office"}
	words := vocabulary(&r, 400)
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	p("PRAGMA journal_mode=DELETE;\nPRAGMA cache_size=-2000;\n")
	p(`CREATE TABLE customers(id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT NOT NULL, joined INTEGER, vip INTEGER DEFAULT 0);
CREATE TABLE products(id INTEGER PRIMARY KEY, name TEXT NOT NULL, category TEXT NOT NULL, price REAL NOT NULL);
CREATE TABLE orders(id INTEGER PRIMARY KEY, customer INTEGER NOT NULL REFERENCES customers(id), product INTEGER NOT NULL REFERENCES products(id), qty INTEGER NOT NULL, day INTEGER NOT NULL, note TEXT);
`)
	batch := func(n int, row func(i int)) {
		for i := 0; i < n; i++ {
			if i%1000 == 0 {
				p("BEGIN;\n")
			}
			row(i)
			if i%1000 == 999 || i == n-1 {
				p("COMMIT;\n")
			}
		}
	}
	batch(customers, func(i int) {
		p("INSERT INTO customers(id,name,city,joined) VALUES(%d,'%s %s','%s',%d);\n", i+1,
			words[r.below(len(words))], words[r.below(len(words))], cities[r.below(len(cities))], r.below(3650))
	})
	batch(products, func(i int) {
		p("INSERT INTO products VALUES(%d,'%s-%d','%s',%d.%02d);\n", i+1, words[r.below(len(words))], i,
			categories[r.below(len(categories))], 1+r.below(500), r.below(100))
	})
	// orders before their indexes exist, as a bulk load would
	batch(orders, func(i int) {
		note := "NULL"
		if r.below(4) == 0 {
			note = "'" + words[r.zipf(len(words))] + " " + words[r.zipf(len(words))] + "'"
		}
		p("INSERT INTO orders VALUES(%d,%d,%d,%d,%d,%s);\n", i+1, 1+r.zipf(customers), 1+r.zipf(products),
			1+r.below(9), r.below(365), note)
	})
	w.WriteString(`CREATE INDEX orders_customer ON orders(customer);
CREATE INDEX orders_product ON orders(product, day);
CREATE INDEX customers_city ON customers(city);
ANALYZE;
SELECT 'rows', (SELECT count(*) FROM customers), (SELECT count(*) FROM products), (SELECT count(*) FROM orders);
SELECT c.city, p.category, count(*), sum(o.qty), printf('%.2f', sum(o.qty * p.price))
  FROM orders o JOIN customers c ON c.id = o.customer JOIN products p ON p.id = o.product
  GROUP BY c.city, p.category ORDER BY c.city, p.category;
SELECT c.id, c.name, printf('%.2f', sum(o.qty * p.price)) AS spent
  FROM customers c JOIN orders o ON o.customer = c.id JOIN products p ON p.id = o.product
  GROUP BY c.id ORDER BY sum(o.qty * p.price) DESC, c.id LIMIT 10;
SELECT o.day / 30 AS month, count(DISTINCT o.customer), avg(o.qty) FROM orders o GROUP BY month ORDER BY month;
SELECT p.category, count(*) FROM products p WHERE p.price > (SELECT avg(price) FROM products) GROUP BY p.category ORDER BY 1;
SELECT count(*), sum(length(note)) FROM orders WHERE note LIKE '%ka%';
BEGIN;
UPDATE products SET price = round(price * 1.1, 2) WHERE category IN ('tools', 'audio');
UPDATE customers SET vip = 1 WHERE id IN (SELECT customer FROM orders GROUP BY customer HAVING sum(qty) > 40);
UPDATE orders SET qty = qty + 1 WHERE day BETWEEN 100 AND 130;
DELETE FROM orders WHERE qty = 9 AND day % 7 = 0;
COMMIT;
SELECT 'vip', count(*) FROM customers WHERE vip = 1;
SELECT c.city, count(*), printf('%.2f', sum(o.qty * p.price))
  FROM orders o JOIN customers c ON c.id = o.customer JOIN products p ON p.id = o.product
  WHERE c.vip = 1 GROUP BY c.city ORDER BY 3 DESC;
SELECT p.id, p.name, count(o.id) FROM products p LEFT JOIN orders o ON o.product = p.id
  GROUP BY p.id HAVING count(o.id) < 3 ORDER BY p.id LIMIT 10;
SELECT 'rows', (SELECT count(*) FROM orders), (SELECT sum(qty) FROM orders);
PRAGMA integrity_check;
`)
}
