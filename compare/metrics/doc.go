// Package metrics holds the accuracy metrics rvsim compare scores a
// profiler with, each against the exact profile of the same run
// (docs/COMPARISON.md, "Accuracy metrics", defines each once). A profile
// is a map from a key (a tuple, a path descriptor, a code region…) to its
// count; every metric sums in key order, so the same profiles give the
// same bits.
//
// By profile type:
//   - value and edge profiles: the invariance error (stratified-sampling.md
//     §5.3.1, Invariance), formula (1) (multi-hash-profiling.md §5.5.2 (1),
//     Error), and the top-k recall (TopKRecall);
//   - path profiles: the overlap percentage (hardware-path-profiling.md
//     §8 after its references [33, 15], Overlap), complete and dynamic,
//     and the top-k recall;
//   - code region, method and call pair profiles: the hps paper's §5.3
//     errors (region.go).
package metrics
