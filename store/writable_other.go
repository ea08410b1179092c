//go:build !unix

package store

// databaseWritable cannot ask the system without opening the file here, so
// it trusts the connection SQLite opened.
func databaseWritable(string) bool { return true }

// walFilesCreatable is true where the system cannot be asked (see above).
func walFilesCreatable(string) bool { return true }

// unwritableFile cannot ask the system here: it names no file.
func unwritableFile(string) (file, owner string) { return "", "" }

func euid() int { return -1 }
