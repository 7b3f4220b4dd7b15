package collector

// The wireless link of hps-phase-aware-remote-profiling.md §5.4 (Fig. 14b):
// a Lucent/Orinoco Gold card drawing 5 V × 0.285 A = 1.425 W while it
// transmits at 11 Mb/s (10^6 bits per second, the networking convention).
// The paper turns this into joules per byte; so does WireCost. It counts
// the frame bytes only: no 802.11, IP or HTTP overhead, and no time to
// wake the card, as the paper's model has none.
const (
	WireVolts       = 5.0
	WireAmps        = 0.285
	WireWatts       = WireVolts * WireAmps // 1.425 J/s
	WireBitsPerSec  = 11e6
	WireJoulePerBit = WireWatts / WireBitsPerSec
)

// WireCost is the time and energy to transmit n bytes over the paper's
// wireless card: seconds = 8n / 11·10^6, joules = 1.425 W × seconds
// (about 1.04 µJ per byte).
func WireCost(n uint64) (joules, seconds float64) {
	seconds = float64(n) * 8 / WireBitsPerSec
	return WireWatts * seconds, seconds
}
