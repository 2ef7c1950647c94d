// Package literal reads the number grammar of a claim literal, the link
// text of a claim ([86/86](ev:…), [약 40초](ev:…)), and writes a number
// back in the style it was read in.
//
// ParseLiteral reads a literal in one pass with a hand-written lexer (no
// regular expressions): digits (ASCII or full-width, grouped by commas or
// spaces), signs, magnitudes and compound magnitudes (1만 2천), number
// words (두 번, 二回, ふたつ, three), unit and counter words in Korean,
// Japanese and English (package unit), rates (초당 N건, N件/秒), ±
// tolerances (relative after a unit: 120ms ±11%), compound durations
// (143h25m, 1분 30초, 11分16秒, PT1M30S) and clock times (14:03:22, 오후 2시
// 3분) as one quantity each, sign words (12% 감소), ranges, transitions,
// fractions, comparators and approximation words with their direction.
// Every byte of a literal is read: a byte that is no part of a quantity,
// space, punctuation or known word is a LiteralError at its offset (see
// account). Quantity.Format and ClockText write a value back as the
// literal wrote its number; the word tables (ApproxWords, NumberWords,
// WordNumbers) are the ones the translation checks read prose with.
//
// Files: literal.go is the lexer's driver and the literal's shape
// (finish); quantity.go one quantity (sign, digits, magnitudes, unit,
// qualifiers); compound.go compound durations, ISO 8601 durations and
// clock times; words.go number words; tables.go the grammar's words;
// text.go scripts and spaces; account.go the accounting of every byte;
// number.go the parsed form and its formatting.
package literal
