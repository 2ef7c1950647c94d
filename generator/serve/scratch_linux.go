package serve

import "golang.org/x/sys/unix"

// memFree returns the bytes free to a user on the file system at path,
// and whether it is a tmpfs.
func memFree(path string) (int64, bool) {
	var st unix.Statfs_t
	if err := unix.Statfs(path, &st); err != nil || st.Type != unix.TMPFS_MAGIC {
		return 0, false
	}
	return int64(st.Bavail) * int64(st.Bsize), true
}
