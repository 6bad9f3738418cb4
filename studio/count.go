package studio

import "fmt"

// countTokens puts the tokens in and out in v, and those of every row
// shown, counting what was not counted before: a path's tokens depend on
// the samples only, the output's on the mask, kept for the last masks.
func (s *Studio) countTokens(v *view, mask string, outs [][]byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tokensIn < 0 {
		s.tokensIn = 0
		for _, sm := range s.samples {
			s.tokensIn += int64(s.tk.Count(sm.data, -1))
		}
	}
	out, ok := s.outTokens[mask]
	if !ok {
		for _, o := range outs {
			out += int64(s.tk.Count(o, -1))
		}
		if len(s.outTokens) >= 16 {
			clear(s.outTokens)
		}
		s.outTokens[mask] = out
	}
	in := s.tokensIn
	v.TokensIn, v.TokensOut = &in, &out
	if in > 0 {
		saved := 1 - float64(out)/float64(in)
		v.Saved = &saved
	}
	targets := map[string]bool{}
	for _, p := range append([]string{""}, pathsOf(v.Rows)...) {
		if _, ok := s.tokens[p]; !ok {
			targets[p] = true
		}
	}
	if len(targets) > 0 {
		counts := map[string]int64{}
		prefixes := prefixesOf(targets)
		for _, sm := range s.samples {
			err := sm.docs(func(doc []byte) error {
				return pathTokens(doc, "", false, targets, prefixes, s.tk, counts)
			})
			if err != nil {
				return fmt.Errorf("studio: %s: %w", sm.name, err)
			}
		}
		for p := range targets {
			s.tokens[p] = counts[p]
		}
	}
	total := s.tokens[""]
	for _, r := range v.Rows {
		t := s.tokens[r.Path]
		r.Tokens = &t
		if total > 0 {
			// Values counted one by one may hold more tokens than the
			// text they are part of (BPE merges across their edges): a
			// share is at most the whole.
			share := min(1, float64(t)/float64(total))
			r.TokenShare = &share
		}
	}
	return nil
}

func pathsOf(rows []*row) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.Path
	}
	return out
}
