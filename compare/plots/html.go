package plots

import (
	"encoding/csv"
	"fmt"
	"html"
	"strings"
)

// Page returns index.html: the title and notes, every table, then every
// figure (its SVG shown, its PNG linked). A script marks each image when
// it has loaded or failed, and shows a line under an image that failed,
// so a broken report says so (the browser test reads the marks).
func Page(r *Report, figs []Figure) string {
	var b strings.Builder
	title := r.Title
	if title == "" {
		title = "rvsim profiler comparison"
	}
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	fmt.Fprintf(&b, "<title>%s</title>\n", html.EscapeString(title))
	b.WriteString(pageStyle)
	b.WriteString("</head>\n<body>\n")
	fmt.Fprintf(&b, "<h1>%s</h1>\n", html.EscapeString(title))
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "<p class=\"note\">%s</p>\n", html.EscapeString(n))
	}
	if len(r.Tables) > 0 || len(figs) > 0 {
		b.WriteString("<nav><ul>\n")
		for i, t := range r.Tables {
			fmt.Fprintf(&b, "<li><a href=\"#table-%d\">%s</a></li>\n", i+1, html.EscapeString(tableTitle(t, i)))
		}
		for i, f := range figs {
			fmt.Fprintf(&b, "<li><a href=\"#figure-%d\">%s</a></li>\n", i+1, html.EscapeString(f.Title))
		}
		b.WriteString("</ul></nav>\n")
	}
	for i, t := range r.Tables {
		fmt.Fprintf(&b, "<section id=\"table-%d\">\n<h2>%s", i+1, html.EscapeString(tableTitle(t, i)))
		if t.File != "" {
			fmt.Fprintf(&b, " <a class=\"file\" href=\"%s\">%s</a>", html.EscapeString(t.File), html.EscapeString(t.File))
		}
		b.WriteString("</h2>\n")
		switch {
		case t.HTML != "":
			b.WriteString(t.HTML)
			b.WriteString("\n")
		case t.Markdown != "":
			b.WriteString(markdownHTML(t.Markdown))
		case t.CSV != "":
			b.WriteString(csvHTML(t.CSV))
		}
		b.WriteString("</section>\n")
	}
	for i, f := range figs {
		fmt.Fprintf(&b, "<section id=\"figure-%d\">\n<h2>%s</h2>\n<figure>\n", i+1, html.EscapeString(f.Title))
		fmt.Fprintf(&b, "<img src=\"%s\" alt=\"%s\">\n", html.EscapeString(f.SVG), html.EscapeString(f.Title))
		fmt.Fprintf(&b, "<figcaption>%s <a href=\"%s\">SVG</a> <a href=\"%s\">PNG</a></figcaption>\n",
			html.EscapeString(f.Caption), html.EscapeString(f.SVG), html.EscapeString(f.PNG))
		b.WriteString("</figure>\n</section>\n")
	}
	b.WriteString(script)
	b.WriteString("</body>\n</html>\n")
	return b.String()
}

func tableTitle(t Table, i int) string {
	if t.Title != "" {
		return t.Title
	}
	return fmt.Sprintf("Table %d", i+1)
}

const pageStyle = `<style>
body { font-family: sans-serif; margin: 2em; max-width: 90em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.6em; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
th { background: #f2f2f2; }
.note { color: #555; margin: 0.2em 0; }
a.file { font-size: 0.6em; font-weight: normal; }
figure { margin: 0.5em 0 2em; }
figure img { max-width: 100%; border: 1px solid #eee; }
.missing { color: #b00; font-weight: bold; }
</style>
`

// script marks every image: data-loaded="yes" once it has loaded with a
// size, "no" when it failed; then the body's data-images says
// "LOADED/TOTAL loaded" when all have settled.
const script = `<script>
(function () {
  var imgs = Array.prototype.slice.call(document.images), left = imgs.length, ok = 0;
  function settle() {
    if (--left === 0 || imgs.length === 0) document.body.setAttribute("data-images", ok + "/" + imgs.length + " loaded");
  }
  function mark(img) {
    if (img.naturalWidth > 0) { img.setAttribute("data-loaded", "yes"); ok++; }
    else {
      img.setAttribute("data-loaded", "no");
      var p = document.createElement("p");
      p.className = "missing";
      p.textContent = "missing image: " + img.getAttribute("src");
      img.parentNode.insertBefore(p, img.nextSibling);
    }
    settle();
  }
  if (imgs.length === 0) { left = 1; settle(); }
  imgs.forEach(function (img) {
    if (img.complete) mark(img);
    else {
      img.addEventListener("load", function () { mark(img); });
      img.addEventListener("error", function () { mark(img); });
    }
  });
})();
</script>
`

// markdownHTML renders Markdown's pipe tables as HTML tables and every
// other non-blank line as an escaped paragraph.
func markdownHTML(md string) string {
	var b strings.Builder
	lines := strings.Split(strings.ReplaceAll(md, "\r\n", "\n"), "\n")
	for i := 0; i < len(lines); {
		l := strings.TrimSpace(lines[i])
		if !strings.HasPrefix(l, "|") {
			if l != "" {
				fmt.Fprintf(&b, "<p>%s</p>\n", html.EscapeString(l))
			}
			i++
			continue
		}
		var rows [][]string
		for ; i < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i]), "|"); i++ {
			rows = append(rows, pipeCells(strings.TrimSpace(lines[i])))
		}
		header := 0
		if len(rows) >= 2 && isRule(rows[1]) {
			header = 1
			rows = append(rows[:1], rows[2:]...)
		}
		b.WriteString(tableHTML(rows, header))
	}
	return b.String()
}

// pipeCells splits "| a | b \| c |" into its cells.
func pipeCells(l string) []string {
	l = strings.TrimSuffix(strings.TrimPrefix(l, "|"), "|")
	var cells []string
	var cur strings.Builder
	for i := 0; i < len(l); i++ {
		switch {
		case l[i] == '\\' && i+1 < len(l) && l[i+1] == '|':
			cur.WriteByte('|')
			i++
		case l[i] == '|':
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(l[i])
		}
	}
	return append(cells, strings.TrimSpace(cur.String()))
}

func isRule(cells []string) bool {
	for _, c := range cells {
		if strings.Trim(c, ":-") != "" || !strings.Contains(c, "-") {
			return false
		}
	}
	return true
}

// csvHTML renders CSV as an HTML table whose first row is the header; text
// that is not valid CSV is shown as it is.
func csvHTML(text string) string {
	rows, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil {
		return "<pre>" + html.EscapeString(text) + "</pre>\n"
	}
	return tableHTML(rows, 1)
}

// tableHTML renders rows, the first `header` of them as headers; cells
// that read as numbers are right-aligned.
func tableHTML(rows [][]string, header int) string {
	var b strings.Builder
	b.WriteString("<table>\n")
	for i, row := range rows {
		b.WriteString("<tr>")
		for _, c := range row {
			tag, class := "td", ""
			if i < header {
				tag = "th"
			} else if numeric(c) {
				class = " class=\"num\""
			}
			fmt.Fprintf(&b, "<%s%s>%s</%s>", tag, class, html.EscapeString(c), tag)
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</table>\n")
	return b.String()
}

// numeric reports whether a cell reads as a number (with an optional sign,
// separators and a unit suffix such as % or x).
func numeric(c string) bool {
	c = strings.TrimSpace(strings.TrimRight(c, "%x×"))
	c = strings.TrimLeft(c, "+-−")
	if c == "" {
		return false
	}
	digits := 0
	for _, r := range c {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r == '.' || r == ',' || r == 'e' || r == 'E':
		default:
			return false
		}
	}
	return digits > 0
}
