package envoy

// What the tests of package envoy_test need of its internals. They are
// an external test package because they read files by format name
// through package formats, which imports envoy.

var EnvoyUnit = envoyUnit
