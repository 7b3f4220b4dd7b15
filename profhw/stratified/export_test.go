package stratified

// SetInlineCompressor keeps the compressor on the unit's goroutine (true)
// or lets NewUnit place it (false), for tests that compare the two.
func SetInlineCompressor(on bool) { inlineCompressor = on }
