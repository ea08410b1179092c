package scoring

// The corpus loader is internal to the package; the agreement test needs the
// question bank, which imports this package, so it lives outside and reaches
// the loader through these names.
type (
	CorpusItem  = corpusItem
	MinimalPair = minimalPair
)

var (
	LoadCorpus = loadCorpus
	LoadPairs  = loadPairs
)
