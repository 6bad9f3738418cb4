package tokenizer

// plainRunGo returns the index of the first byte at or after src[i], i at
// most len(src), that plain string content cannot hold (a quote, a
// backslash, a control byte, a byte that is not ASCII), or len(src): it is
// plainEnd, taken to the window's end. Members calls it, by plainRun, for a
// string value with no such byte in its first 16, whose end is often 20 to
// 90 bytes on (URLs, names, text): the AVX2 kernel takes 32 bytes in one
// step and one branch where the word loop takes 8. It is the kernel's Go
// twin, fuzzed against it.
func plainRunGo(src []byte, i int) int {
	i = plainEnd(src, i)
	for i < len(src) && !stopByte(src[i]) {
		i++
	}
	return i
}

// stopByte reports whether c is a byte that plain string content cannot hold.
func stopByte(c byte) bool { return c == '"' || c == '\\' || c < 0x20 || c >= 0x80 }
