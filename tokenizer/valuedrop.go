package tokenizer

// skipDropped is SkipValue for dropValue: its first case, as Members calls
// it (s.state stValue, a container at src[i]), written out, skipContainer's
// skipWhole, else value from the kernel's checkpoint. SkipValue's and
// skipContainer's two calls cost flow-document, whose dropped members hold
// small objects, 1.5 % of its instructions (callgrind). A function of its
// own, in a file of its own: as code in dropValue, its frame and spills
// cost trusted mode on flow-document 2 to 4 % of its time, and in
// members.go it moves every function after it (bench/REPORT.md, round 10).
func (s *Scanner) skipDropped(src []byte, i int) (int, bool, error) {
	if s.inValue || s.state != stValue {
		return s.SkipValue(src, i)
	}
	j, ok, ck := skipWhole(src, i, s.maxDepth-s.depth, s.maxToken, skipFrom{})
	if ok {
		s.base, s.state = s.depth, s.after()
		return j, true, nil
	}
	return s.value(src, s.handOver(i, ck), false)
}
