// Package numscan reads the numbers of a page's text and claims as typed
// tokens (Number: a value in a base unit, with the comparator, sign and
// approximation the words around it state) in the number styles of
// Korean, Japanese and English prose (digits, full-width digits, 만/万
// magnitudes, number words and counters, dates, clock times, versions,
// ranges, symbols), and compares two such numbers written in different
// languages (Compare). Package translation's parity check reads both
// pages of a pair with it.
package numscan
