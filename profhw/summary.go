package profhw

import (
	"encoding/json"
	"math"
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
	// StallCyc (timing mode) is the cycles the unit's commit stalls really
	// cost: the run's cycles minus those it would have had without them,
	// measured at commit (pipeline/hookcost.go; the hub fills it in at the
	// end). StallReq is the stall cycles the unit asked commit for; most
	// of them are hidden while the rest of the core works on.
	StallCyc    uint64 `json:"stall_cycles"`
	StallReq    uint64 `json:"stall_cycles_requested"`
	StorageBits uint64 `json:"storage_bits"`
	// ErrorPercent is the unit's error against its exact profile, in the
	// paper's metric (named by ErrorMetric).
	ErrorPercent float64 `json:"error_percent"`
	ErrorMetric  string  `json:"error_metric"`
	// AppCycles is the run's cycles (the denominator of overhead percents).
	AppCycles uint64         `json:"run_cycles"`
	Extra     map[string]any `json:"-"`
	// NoAnswer holds the fields that have no value in this run (a common
	// field such as error_percent, or one of Extra's), each with the
	// reason: they are written as null, and the reasons under
	// "no_answer" (key -> reason). A 0 there would read as a measurement.
	NoAnswer map[string]string `json:"-"`
	// NoAnalytic marks a unit without an analytic delivery model (the
	// path profiler's only cost is commit stalls): the summary then has
	// no overhead_cycles_analytic and overhead_percent_analytic, rather
	// than a 0 that reads as "free".
	NoAnalytic bool `json:"-"`
}

// Null records that key has no value in this run, and why (NoAnswer).
func (s *Summary) Null(key, reason string) {
	if s.NoAnswer == nil {
		s.NoAnswer = map[string]string{}
	}
	s.NoAnswer[key] = reason
	delete(s.Extra, key)
}

// Answered reports whether key has a value (it is not Null).
func (s *Summary) Answered(key string) bool {
	_, null := s.NoAnswer[key]
	return !null
}

// OverheadPercent is the analytic overhead relative to the run's cycles.
func (s *Summary) OverheadPercent() float64 {
	if s.AppCycles == 0 {
		return 0
	}
	return 100 * float64(s.OverheadCyc) / float64(s.AppCycles)
}

// Number is the unit-specific field key as a number, NaN when the unit
// has no such numeric field (or it is Null).
func (s *Summary) Number(key string) float64 {
	switch v := s.Extra[key].(type) {
	case float64:
		return v
	case uint64:
		return float64(v)
	case int:
		return float64(v)
	case int64:
		return float64(v)
	}
	return math.NaN()
}

// Set records a unit-specific field.
func (s *Summary) Set(key string, v any) {
	if s.Extra == nil {
		s.Extra = map[string]any{}
	}
	s.Extra[key] = v
	delete(s.NoAnswer, key) // an answer after all: the last call wins
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
	for k := range s.NoAnswer {
		m[k] = nil
	}
	if len(s.NoAnswer) > 0 {
		m["no_answer"] = s.NoAnswer
	}
	return json.Marshal(m)
}

// Delivery is the interrupt-based delivery of messages to software
// (stratified-sampling.md §2.2) and its analytic cost (§5.3.2): a buffer
// of Buffer messages interrupts the core when it fills.
type Delivery struct {
	Buffer int
	Model  CostModel
	// MessageCycles is the cost of a message; InterruptCycles that of an
	// interrupt, charged by the Split model only.
	InterruptCycles uint64
	MessageCycles   uint64
}

// CostModel is how the analytic cost is computed.
type CostModel uint8

const (
	// PaperCost is §5.3.2's formula, Overhead = 30 × NumMessages: the 30
	// cycles of a message already include the 214-cycle interrupt spread
	// over the ≥ 100 messages it delivers ("under 3 cycles in fixed
	// interrupt costs per message"), so interrupts are not charged again.
	PaperCost CostModel = iota
	// SplitCost charges the interrupt apart: interrupts × InterruptCycles
	// + messages × MessageCycles (with 214 and 30, about 7% more than
	// PaperCost at 100 messages per interrupt; beyond the paper).
	SplitCost
)

// CostModelNames are the values of delivery.cost_model, in order.
var CostModelNames = []string{"paper", "split"}

// PaperDelivery is §5.3.2's model: 100 messages per interrupt, 30 cycles
// per message (the worst case the paper assumes, interrupt included);
// InterruptCycles is Anderson et al.'s 214, used by SplitCost only.
var PaperDelivery = Delivery{Buffer: 100, Model: PaperCost, InterruptCycles: 214, MessageCycles: 30}

// Cycles is the analytic cost of delivering messages in interrupts.
func (d Delivery) Cycles(messages, interrupts uint64) uint64 {
	if d.Model == SplitCost {
		return interrupts*d.InterruptCycles + messages*d.MessageCycles
	}
	return messages * d.MessageCycles
}

// maxDeliveryCycles bounds the per-message and per-interrupt costs (a
// million cycles; the sums stay far from overflowing 64 bits).
const maxDeliveryCycles = 1 << 20

// ReadDelivery reads the delivery keys of a unit's configuration.
// delivery.interrupt_cycles is an error unless delivery.cost_model is
// "split" (the paper's model has it inside message_cycles).
func ReadDelivery(c *UnitConfig, def Delivery) Delivery {
	d := Delivery{
		Buffer:          int(c.Int("delivery.buffer", int64(def.Buffer), 1, 1<<20)),
		Model:           def.Model,
		InterruptCycles: uint64(c.Int("delivery.interrupt_cycles", int64(def.InterruptCycles), 0, maxDeliveryCycles)),
		MessageCycles:   uint64(c.Int("delivery.message_cycles", int64(def.MessageCycles), 0, maxDeliveryCycles)),
	}
	m := c.String("delivery.cost_model", CostModelNames[def.Model], CostModelNames...)
	for i, n := range CostModelNames {
		if m == n {
			d.Model = CostModel(i)
		}
	}
	if d.Model != SplitCost && c.Has("delivery.interrupt_cycles") {
		c.Errorf("delivery.interrupt_cycles", "charged only by delivery.cost_model = \"split\" (the paper's model, the default, has the interrupt inside message_cycles: docs/PROFHW.md)")
	}
	return d
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
