//go:build !unix

package safefile

const noFollow = 0
