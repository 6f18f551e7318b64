package agentdb

// ReadFactsAsRows makes transcripts read their fact rows row by row, never
// as text; the returned function restores it.
func ReadFactsAsRows() (restore func()) {
	old := factsAsText
	factsAsText = false
	return func() { factsAsText = old }
}
