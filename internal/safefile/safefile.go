// Package safefile reads project files that evdoc publishes or parses
// (evidence manifests, raw evidence, figure specs) only when they are what
// they claim to be: regular files inside the project, reached without a
// symbolic link, no larger than a limit. A symbolic link could publish a
// file from outside the repository; a FIFO would block forever; a device
// such as /dev/zero would grow memory without bound.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
)

// DefaultMaxSize is the size limit of one evidence file unless configured
// otherwise: 256 MiB.
const DefaultMaxSize int64 = 256 << 20

// SpecMaxSize bounds hand-written files (manifests, figure specs, Hugo
// and evdoc configuration): 4 MiB.
const SpecMaxSize int64 = 4 << 20

// TextMaxSize bounds the other text files evdoc reads whole: pages,
// layouts, i18n files: 64 MiB.
const TextMaxSize int64 = 64 << 20

// tooLarge says that a file of size bytes passes maxSize and how to
// resolve it: the fixed limits of hand-written and text files cannot be
// raised (--max-file-size bounds evidence files only).
func tooLarge(size, maxSize int64) string {
	switch maxSize {
	case SpecMaxSize:
		return fmt.Sprintf("is %s, over the %s limit of a manifest, figure spec or configuration file (a fixed limit); expected a smaller file", Size(size), Size(maxSize))
	case TextMaxSize:
		return fmt.Sprintf("is %s, over the %s limit of a page, layout or i18n file (a fixed limit); expected a smaller file", Size(size), Size(maxSize))
	}
	return fmt.Sprintf("is %s, over the %s limit for one file (raise it with --max-file-size)", Size(size), Size(maxSize))
}

// Kind classifies why a file was refused.
type Kind int

// Kinds of refusal.
const (
	// NotFound: the file does not exist.
	NotFound Kind = iota
	// Escapes: an absolute path or one that leaves its directory by "..".
	Escapes
	// Symlink: the path or one of its directories is a symbolic link.
	Symlink
	// NotRegular: a directory, FIFO, socket or device.
	NotRegular
	// TooLarge: larger than the limit.
	TooLarge
	// IO: any other read error.
	IO
)

// Error is a refused or unreadable file.
type Error struct {
	Kind Kind
	// Path is the file, slash-separated, relative to the root.
	Path string
	// Detail says what was found ("a FIFO", "309 MB, over the 256 MiB limit").
	Detail string
	// Err is the underlying system error, if any.
	Err error
}

func (e *Error) Error() string {
	if e.Detail == "" && e.Err != nil {
		return fmt.Sprintf("%s: %v", e.Path, e.Err)
	}
	return fmt.Sprintf("%s: %s", e.Path, e.Detail)
}

func (e *Error) Unwrap() error { return e.Err }

// Check reports whether rel (slash-separated, relative to root) names a
// regular file inside root with no symbolic link on the way and at most
// maxSize bytes (no limit when maxSize <= 0). It returns the file's size.
func Check(root, rel string, maxSize int64) (int64, error) {
	if rel == "" || path.IsAbs(rel) || filepath.IsAbs(rel) || strings.Contains(rel, "\\") {
		return 0, &Error{Kind: Escapes, Path: rel, Detail: "expected a relative path inside the project"}
	}
	clean := path.Clean(rel)
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return 0, &Error{Kind: Escapes, Path: rel, Detail: "leaves the project (..); expected a path inside it"}
	}
	p := root
	parts := strings.Split(clean, "/")
	for i, part := range parts {
		p = filepath.Join(p, part)
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return 0, &Error{Kind: NotFound, Path: rel, Detail: "no such file", Err: err}
		}
		if err != nil {
			return 0, &Error{Kind: IO, Path: rel, Err: err}
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return 0, &Error{Kind: Symlink, Path: rel, Detail: fmt.Sprintf("%s is a symbolic link; expected a regular file inside the project", path.Join(parts[:i+1]...))}
		}
		if i < len(parts)-1 {
			if !fi.IsDir() {
				return 0, &Error{Kind: NotRegular, Path: rel, Detail: path.Join(parts[:i+1]...) + " is not a directory"}
			}
			continue
		}
		if !fi.Mode().IsRegular() {
			return 0, &Error{Kind: NotRegular, Path: rel, Detail: "is " + describe(fi.Mode()) + "; expected a regular file"}
		}
		if maxSize > 0 && fi.Size() > maxSize {
			return 0, &Error{Kind: TooLarge, Path: rel, Detail: tooLarge(fi.Size(), maxSize)}
		}
		return fi.Size(), nil
	}
	return 0, &Error{Kind: NotRegular, Path: rel, Detail: "is the project root; expected a file"}
}

// Open checks rel as Check does and opens it for reading without
// following a symbolic link and without blocking on a FIFO swapped in
// after the check; the opened file is checked again (fstat). The caller
// closes it.
func Open(root, rel string, maxSize int64) (*os.File, int64, error) {
	if _, err := Check(root, rel, maxSize); err != nil {
		return nil, 0, err
	}
	f, err := os.OpenFile(filepath.Join(root, filepath.FromSlash(path.Clean(rel))), os.O_RDONLY|syscall.O_NONBLOCK|noFollow, 0)
	if err != nil {
		return nil, 0, &Error{Kind: IO, Path: rel, Err: err}
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, &Error{Kind: IO, Path: rel, Err: err}
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, 0, &Error{Kind: NotRegular, Path: rel, Detail: "is " + describe(fi.Mode()) + "; expected a regular file"}
	}
	if maxSize > 0 && fi.Size() > maxSize {
		f.Close()
		return nil, 0, &Error{Kind: TooLarge, Path: rel, Detail: fmt.Sprintf("is %s, over the %s limit for one file", Size(fi.Size()), Size(maxSize))}
	}
	return f, fi.Size(), nil
}

// ReadFile returns the contents of rel, checked and opened as Open does.
// A file that grows past maxSize while being read is refused.
func ReadFile(root, rel string, maxSize int64) ([]byte, error) {
	f, size, err := Open(root, rel, maxSize)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	limit := maxSize
	if limit <= 0 {
		limit = 1<<63 - 2
	}
	b := make([]byte, 0, size+1)
	b, err = readAll(io.LimitReader(f, limit+1), b)
	if err != nil {
		return nil, &Error{Kind: IO, Path: rel, Err: err}
	}
	if int64(len(b)) > limit {
		return nil, &Error{Kind: TooLarge, Path: rel, Detail: fmt.Sprintf("grew past the %s limit while being read", Size(maxSize))}
	}
	return b, nil
}

func readAll(r io.Reader, b []byte) ([]byte, error) {
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

func describe(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO (named pipe)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "not a regular file (" + m.String() + ")"
}

// Size formats a byte count for messages: "256 MiB", "4.0 KiB", "12 B".
func Size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// ParseSize reads a size limit as written on the command line: a byte
// count with an optional unit B, KB, MB, GB (powers of 1000) or KiB, MiB,
// GiB (powers of 1024), such as "256MiB" or "500 MB".
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i == 0 || i > 15 {
		return 0, fmt.Errorf("size %q: expected a whole number of bytes with an optional unit (KB, MB, GB, KiB, MiB, GiB)", s)
	}
	var n int64
	for _, c := range t[:i] {
		n = n*10 + int64(c-'0')
	}
	mult := map[string]int64{"": 1, "B": 1, "KB": 1e3, "MB": 1e6, "GB": 1e9, "KIB": 1 << 10, "MIB": 1 << 20, "GIB": 1 << 30}[strings.ToUpper(strings.TrimSpace(t[i:]))]
	if mult == 0 {
		return 0, fmt.Errorf("size %q: unknown unit %q; expected KB, MB, GB, KiB, MiB or GiB", s, strings.TrimSpace(t[i:]))
	}
	if n > (1<<62)/mult {
		return 0, fmt.Errorf("size %q is too large", s)
	}
	return n * mult, nil
}

// ReadPath reads a file a user named explicitly (a command-line
// argument): symbolic links are followed, since the user chose the path,
// but the file must be a regular file (not a FIFO or device) of at most
// maxSize bytes (no limit when maxSize <= 0).
func ReadPath(p string, maxSize int64) ([]byte, error) {
	f, size, err := OpenPath(p, maxSize)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	limit := maxSize
	if limit <= 0 {
		limit = 1<<63 - 2
	}
	b, err := readAll(io.LimitReader(f, limit+1), make([]byte, 0, size+1))
	if err != nil {
		return nil, &Error{Kind: IO, Path: p, Err: err}
	}
	if int64(len(b)) > limit {
		return nil, &Error{Kind: TooLarge, Path: p, Detail: fmt.Sprintf("grew past the %s limit while being read", Size(maxSize))}
	}
	return b, nil
}

// OpenPath opens the file at p, given by the user (symbolic links
// followed), as ReadPath checks it: a regular file of at most maxSize
// bytes, opened without blocking. It returns the file and its size; the
// caller closes it and bounds its reads (a file may grow).
func OpenPath(p string, maxSize int64) (*os.File, int64, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return nil, 0, &Error{Kind: NotFound, Path: p, Err: err}
	}
	if !fi.Mode().IsRegular() {
		return nil, 0, &Error{Kind: NotRegular, Path: p, Detail: "is " + describe(fi.Mode()) + "; expected a regular file"}
	}
	if maxSize > 0 && fi.Size() > maxSize {
		return nil, 0, &Error{Kind: TooLarge, Path: p, Detail: tooLarge(fi.Size(), maxSize)}
	}
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, 0, &Error{Kind: IO, Path: p, Err: err}
	}
	if fi, err = f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, 0, &Error{Kind: NotRegular, Path: p, Detail: "changed while being opened; expected a regular file"}
	}
	return f, fi.Size(), nil
}
