package profhw

import (
	"encoding/json"
	"sort"
)

// Summary is a unit's NAME.summary.json and its --stats entry. The common
// fields are the same for every unit (docs/PROFHW.md); Extra holds the
// unit's own, written at the top level of the same object.
type Summary struct {
	Unit        string `json:"unit"`
	Kind        string `json:"kind"`
	Mode        string `json:"mode"`
	Events      uint64 `json:"events"`     // profiling events (tuples, branches…) the unit took in
	Messages    uint64 `json:"messages"`   // messages sent to software
	Interrupts  uint64 `json:"interrupts"` // times software was interrupted to drain them
	OverheadCyc uint64 `json:"overhead_cycles_analytic"`
	HandlerCyc  uint64 `json:"handler_cycles"` // timing mode with a real handler: measured cycles
	StallCyc    uint64 `json:"stall_cycles"`   // timing mode: commit stalls the unit caused
	StorageBits uint64 `json:"storage_bits"`
	// ErrorPercent is the unit's error against its exact profile, in the
	// paper's metric (named by ErrorMetric).
	ErrorPercent float64 `json:"error_percent"`
	ErrorMetric  string  `json:"error_metric"`
	// AppCycles is the run's cycles (the denominator of overhead percents).
	AppCycles uint64         `json:"run_cycles"`
	Extra     map[string]any `json:"-"`
	// NoAnalytic marks a unit without an analytic delivery model (the
	// path profiler's only cost is commit stalls): the summary then has
	// no overhead_cycles_analytic and overhead_percent_analytic, rather
	// than a 0 that reads as "free".
	NoAnalytic bool `json:"-"`
}

// OverheadPercent is the analytic overhead relative to the run's cycles.
func (s *Summary) OverheadPercent() float64 {
	if s.AppCycles == 0 {
		return 0
	}
	return 100 * float64(s.OverheadCyc) / float64(s.AppCycles)
}

// Set records a unit-specific field.
func (s *Summary) Set(key string, v any) {
	if s.Extra == nil {
		s.Extra = map[string]any{}
	}
	s.Extra[key] = v
}

// MarshalJSON writes the common fields and Extra in one object.
func (s *Summary) MarshalJSON() ([]byte, error) {
	type plain Summary
	base, err := json.Marshal((*plain)(s))
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(base, &m); err != nil {
		return nil, err
	}
	if s.NoAnalytic {
		delete(m, "overhead_cycles_analytic")
	} else {
		m["overhead_percent_analytic"] = s.OverheadPercent()
	}
	for k, v := range s.Extra {
		m[k] = v
	}
	return json.Marshal(m)
}

// Delivery is the interrupt-based delivery of messages to software
// (stratified-sampling.md §2.2) and its analytic cost model (§5.3.2): a
// buffer of Buffer messages interrupts the core when it fills; each
// interrupt costs InterruptCycles and each message MessageCycles.
type Delivery struct {
	Buffer          int
	InterruptCycles uint64
	MessageCycles   uint64
}

// PaperDelivery is §5.3.2's model: 100 messages per interrupt, 214 cycles
// per interrupt (Anderson et al.) and 30 cycles per message (the worst
// case the paper assumes).
var PaperDelivery = Delivery{Buffer: 100, InterruptCycles: 214, MessageCycles: 30}

// Cycles is the analytic cost of delivering messages in interrupts.
func (d Delivery) Cycles(messages, interrupts uint64) uint64 {
	return interrupts*d.InterruptCycles + messages*d.MessageCycles
}

// ReadDelivery reads the delivery keys of a unit's configuration.
func ReadDelivery(c *UnitConfig, def Delivery) Delivery {
	return Delivery{
		Buffer:          int(c.Int("delivery.buffer", int64(def.Buffer), 1, 1<<20)),
		InterruptCycles: uint64(c.Int("delivery.interrupt_cycles", int64(def.InterruptCycles), 0, 1<<32)),
		MessageCycles:   uint64(c.Int("delivery.message_cycles", int64(def.MessageCycles), 0, 1<<32)),
	}
}

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
