package mem

// pageTable maps page numbers to materialised pages. The 39-bit user
// address space (where every Linux program and bare-metal image lives) is
// a two-level radix table, so a TLB miss costs two loads rather than a hash
// lookup; pages above it go to a map.
type pageTable struct {
	dir  [1 << dirBits]*[1 << leafBits]*Page
	high map[uint64]*Page
	n    int
}

const (
	leafBits  = 13
	dirBits   = 39 - PageBits - leafBits
	radixPage = 1 << (dirBits + leafBits) // first page number kept in high
)

func (t *pageTable) get(pn uint64) *Page {
	if pn < radixPage {
		if leaf := t.dir[pn>>leafBits]; leaf != nil {
			return leaf[pn&(1<<leafBits-1)]
		}
		return nil
	}
	return t.high[pn]
}

func (t *pageTable) set(pn uint64, p *Page) {
	if pn < radixPage {
		leaf := t.dir[pn>>leafBits]
		if leaf == nil {
			leaf = new([1 << leafBits]*Page)
			t.dir[pn>>leafBits] = leaf
		}
		if leaf[pn&(1<<leafBits-1)] == nil {
			t.n++
		}
		leaf[pn&(1<<leafBits-1)] = p
		return
	}
	if t.high == nil {
		t.high = make(map[uint64]*Page)
	}
	if _, ok := t.high[pn]; !ok {
		t.n++
	}
	t.high[pn] = p
}

func (t *pageTable) del(pn uint64) {
	if pn < radixPage {
		if leaf := t.dir[pn>>leafBits]; leaf != nil && leaf[pn&(1<<leafBits-1)] != nil {
			leaf[pn&(1<<leafBits-1)] = nil
			t.n--
		}
		return
	}
	if _, ok := t.high[pn]; ok {
		delete(t.high, pn)
		t.n--
	}
}

// each calls f for every page in [start, end) (page numbers), in no
// particular order; f may delete the page it is given.
func (t *pageTable) each(start, end uint64, f func(pn uint64, p *Page)) {
	if end-start <= uint64(t.n) {
		for pn := start; pn < end; pn++ {
			if p := t.get(pn); p != nil {
				f(pn, p)
			}
		}
		return
	}
	for i, leaf := range t.dir {
		if leaf == nil {
			continue
		}
		base := uint64(i) << leafBits
		if base >= end || base+1<<leafBits <= start {
			continue
		}
		for j, p := range leaf {
			if pn := base + uint64(j); p != nil && pn >= start && pn < end {
				f(pn, p)
			}
		}
	}
	for pn, p := range t.high {
		if pn >= start && pn < end {
			f(pn, p)
		}
	}
}
