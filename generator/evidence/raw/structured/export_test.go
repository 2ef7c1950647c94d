package structured

// What the tests of package structured_test need of its internals. They
// are an external test package because they read files by format name
// through package formats, which imports structured.

const MaxCompiledPatterns = maxCompiledPatterns

var AccessLogUnit = accessLogUnit

// CompiledPatterns is the number of patterns memoized.
func CompiledPatterns() int {
	compiledPatterns.Lock()
	defer compiledPatterns.Unlock()
	return len(compiledPatterns.m)
}
