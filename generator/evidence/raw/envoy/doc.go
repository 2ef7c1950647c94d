// Package envoy reads Envoy admin dumps: /stats in text ("envoy-stats",
// counters, gauges and histogram summaries) and JSON ("envoy-stats-json"),
// and /clusters in text ("envoy-clusters") and JSON
// ("envoy-clusters-json", including the host statuses istioctl prints).
// Each reader is a raw.ListReader; package formats lists them under those
// format names.
//
// The readers build their readings with package raw's Recorder and JSON
// tree; unlike the lab-format readers they keep a repeated key as it is
// and stop at raw.EnvoyMaxErrors errors with a note that more follow.
// They import raw and nothing else of evdoc but diag and unit. Their tests
// and fuzz targets read through package formats (package envoy_test,
// with raw/internal/rawtest's helpers).
package envoy
