package profile

import (
	"compress/gzip"
	"errors"
	"io"
	"strconv"

	pprof "github.com/google/pprof/profile"

	"github.com/rvsim/rvsim/profhw/tuple"
)

// WriteTuples writes, gzipped, the file that AddTuples(p) and then Write
// would write, byte for byte, but a sample at a time: no pprof.Sample,
// no label map per tuple (an exact profile runs to millions of tuples).
// It encodes profile.proto by hand, in the pprof package's order (its
// encode.go): sample types, samples, mappings, locations, functions,
// the string table, then the scalars. A string's index is its first
// use in that order (preEncode), and every string the samples use comes
// before the mappings' and functions', so the table is complete when
// the samples are written and goes out after the locations. The
// profile must have no samples yet.
func (b *Pprof) WriteTuples(w io.Writer, p *tuple.Profile) error {
	if len(b.samples) > 0 {
		return errors.New("pprof: WriteTuples: the profile already has samples")
	}
	typ := b.tupleColumn(p.Unit, p.Profile)
	zw := gzip.NewWriter(w)
	e := &protoEncoder{w: zw, strs: map[string]int64{}}
	e.str("")
	for _, st := range b.p.SampleType { // (preEncode's order: type, then unit)
		e.str(st.Type)
		e.str(st.Unit)
	}
	for _, st := range b.p.SampleType {
		e.valueType(1, st)
	}

	col := b.column[typ]
	values := make([]int64, len(b.p.SampleType))
	keyKind, keyTag, keyWord, keyWordAt := -1, -1, -1, -1 // the label keys' indices, once used
	var msg, lab []byte
	label := func(key *int, name, v string) {
		if *key < 0 {
			*key = int(e.str(name))
		}
		lab = appendVarintFieldOpt(lab[:0], 1, uint64(*key))
		lab = appendVarintFieldOpt(lab, 2, uint64(e.str(v)))
		msg = appendBytesField(msg, 3, lab)
	}
	p.Each(func(pc uint64, t *tuple.Entry) {
		if e.err != nil {
			return
		}
		msg = appendVarintField(msg[:0], 1, b.location(pc).ID)
		values[col] = int64(t.Count)
		msg = appendInt64s(msg, 2, values)
		// The labels in key order (preEncode sorts them): kind, tag,
		// word, word_at; each key's index before its value's.
		if t.Kind != "" {
			label(&keyKind, "kind", t.Kind)
		}
		label(&keyTag, "tag", strconv.Itoa(int(t.Tag)))
		label(&keyWord, "word", t.Word)
		if t.WordAt != "" {
			label(&keyWordAt, "word_at", t.WordAt)
		}
		e.out = appendBytesField(e.out, 2, msg)
		e.flushFull()
	})

	pp := b.p
	for _, m := range pp.Mapping {
		e.str(m.File)
		e.str(m.BuildID)
	}
	for _, f := range pp.Function {
		e.str(f.Name)
		e.str(f.SystemName)
		e.str(f.Filename)
	}
	dropX, keepX := e.str(pp.DropFrames), e.str(pp.KeepFrames)
	var periodX [2]int64
	if pt := pp.PeriodType; pt != nil {
		periodX = [2]int64{e.str(pt.Type), e.str(pt.Unit)}
	}
	var commentX []int64
	for _, c := range pp.Comments {
		commentX = append(commentX, e.str(c))
	}
	defaultX := int64(0)
	if len(pp.SampleType) > 0 {
		defaultX = e.str(pp.SampleType[0].Type) // (Profile's default sample type)
	}
	docX := e.str(pp.DocURL)

	for _, m := range pp.Mapping {
		msg = appendVarintFieldOpt(msg[:0], 1, m.ID)
		msg = appendVarintFieldOpt(msg, 2, m.Start)
		msg = appendVarintFieldOpt(msg, 3, m.Limit)
		msg = appendVarintFieldOpt(msg, 4, m.Offset)
		msg = appendVarintFieldOpt(msg, 5, uint64(e.str(m.File)))
		msg = appendVarintFieldOpt(msg, 6, uint64(e.str(m.BuildID)))
		for i, on := range []bool{m.HasFunctions, m.HasFilenames, m.HasLineNumbers, m.HasInlineFrames} {
			if on {
				msg = appendVarintField(msg, 7+i, 1)
			}
		}
		e.out = appendBytesField(e.out, 3, msg)
		e.flushFull()
	}
	for _, l := range pp.Location {
		msg = appendVarintFieldOpt(msg[:0], 1, l.ID)
		if l.Mapping != nil {
			msg = appendVarintFieldOpt(msg, 2, l.Mapping.ID)
		}
		msg = appendVarintFieldOpt(msg, 3, l.Address)
		for _, ln := range l.Line {
			lab = lab[:0]
			if ln.Function != nil {
				lab = appendVarintFieldOpt(lab, 1, ln.Function.ID)
			}
			lab = appendVarintFieldOpt(lab, 2, uint64(ln.Line))
			lab = appendVarintFieldOpt(lab, 3, uint64(ln.Column))
			msg = appendBytesField(msg, 4, lab)
		}
		if l.IsFolded {
			msg = appendVarintField(msg, 5, 1)
		}
		e.out = appendBytesField(e.out, 4, msg)
		e.flushFull()
	}
	for _, f := range pp.Function {
		msg = appendVarintFieldOpt(msg[:0], 1, f.ID)
		msg = appendVarintFieldOpt(msg, 2, uint64(e.str(f.Name)))
		msg = appendVarintFieldOpt(msg, 3, uint64(e.str(f.SystemName)))
		msg = appendVarintFieldOpt(msg, 4, uint64(e.str(f.Filename)))
		msg = appendVarintFieldOpt(msg, 5, uint64(f.StartLine))
		e.out = appendBytesField(e.out, 5, msg)
		e.flushFull()
	}
	for _, s := range e.table {
		e.out = appendBytesField(e.out, 6, []byte(s))
		e.flushFull()
	}
	e.out = appendVarintFieldOpt(e.out, 7, uint64(dropX))
	e.out = appendVarintFieldOpt(e.out, 8, uint64(keepX))
	e.out = appendVarintFieldOpt(e.out, 9, uint64(pp.TimeNanos))
	e.out = appendVarintFieldOpt(e.out, 10, uint64(pp.DurationNanos))
	if periodX != [2]int64{} {
		e.valueType(11, pp.PeriodType)
	}
	e.out = appendVarintFieldOpt(e.out, 12, uint64(pp.Period))
	e.out = appendInt64s(e.out, 13, commentX)
	e.out = appendVarintField(e.out, 14, uint64(defaultX))
	e.out = appendVarintFieldOpt(e.out, 15, uint64(docX))
	e.flush()
	if err := zw.Close(); e.err == nil {
		e.err = err
	}
	return e.err
}

// protoEncoder is a profile.proto's encoding on its way out: the bytes
// not yet written and the string table.
type protoEncoder struct {
	w     io.Writer
	err   error // w's first
	out   []byte
	strs  map[string]int64
	table []string
}

// str is s's index in the string table, added on first use.
func (e *protoEncoder) str(s string) int64 {
	i, ok := e.strs[s]
	if !ok {
		i = int64(len(e.table))
		e.strs[s] = i
		e.table = append(e.table, s)
	}
	return i
}

// valueType appends a ValueType message as field tag.
func (e *protoEncoder) valueType(tag int, vt *pprof.ValueType) {
	var m []byte
	m = appendVarintFieldOpt(m, 1, uint64(e.str(vt.Type)))
	m = appendVarintFieldOpt(m, 2, uint64(e.str(vt.Unit)))
	e.out = appendBytesField(e.out, tag, m)
}

// flushFull writes the pending bytes once they are 64 KiB.
func (e *protoEncoder) flushFull() {
	if len(e.out) >= 64<<10 {
		e.flush()
	}
}

func (e *protoEncoder) flush() {
	if e.err == nil {
		_, e.err = e.w.Write(e.out)
	}
	e.out = e.out[:0]
}

func appendVarint(b []byte, x uint64) []byte {
	for x >= 0x80 {
		b = append(b, byte(x)|0x80)
		x >>= 7
	}
	return append(b, byte(x))
}

// appendVarintField appends field tag, wire type varint.
func appendVarintField(b []byte, tag int, x uint64) []byte {
	return appendVarint(appendVarint(b, uint64(tag)<<3), x)
}

// appendVarintFieldOpt is appendVarintField but for a zero (the pprof
// package's encoder leaves zeros out).
func appendVarintFieldOpt(b []byte, tag int, x uint64) []byte {
	if x == 0 {
		return b
	}
	return appendVarintField(b, tag, x)
}

// appendBytesField appends field tag, length-delimited.
func appendBytesField(b []byte, tag int, data []byte) []byte {
	b = appendVarint(appendVarint(b, uint64(tag)<<3|2), uint64(len(data)))
	return append(b, data...)
}

// appendInt64s appends a repeated field as the pprof package does:
// packed when it has more than two values, else one field per value.
func appendInt64s(b []byte, tag int, xs []int64) []byte {
	if len(xs) <= 2 {
		for _, x := range xs {
			b = appendVarintField(b, tag, uint64(x))
		}
		return b
	}
	n := 0
	for _, x := range xs {
		n += varintLen(uint64(x))
	}
	b = appendVarint(appendVarint(b, uint64(tag)<<3|2), uint64(n))
	for _, x := range xs {
		b = appendVarint(b, uint64(x))
	}
	return b
}

func varintLen(x uint64) int {
	n := 1
	for ; x >= 0x80; x >>= 7 {
		n++
	}
	return n
}
