package studio

import (
	"sync"
)

// countTokens puts the tokens in and out in v, and those of every row
// shown, counting what was not counted before: a path's tokens depend on
// the samples only, the output's on the mask, kept for the last masks. A
// row's share is of the tokens in. The three counts run at once: the
// tokenizer (about 6 MB/s on one core) is where the time goes.
func (s *Studio) countTokens(v *view, mask string, outs [][]byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var wg sync.WaitGroup
	if s.tokensIn < 0 {
		wg.Go(func() {
			var in int64
			for _, sm := range s.samples {
				in += int64(s.tk.Count(sm.data, -1))
			}
			s.tokensIn = in
		})
	}
	out, counted := s.outTokens[mask]
	if !counted {
		wg.Go(func() {
			for _, o := range outs {
				out += int64(s.tk.Count(o, -1))
			}
		})
	}
	targets := map[string]bool{}
	for _, r := range v.Rows {
		if _, ok := s.tokens[r.Path]; !ok {
			targets[r.Path] = true
		}
	}
	var err error
	if len(targets) > 0 {
		counts := map[string]int64{}
		prefixes := prefixesOf(targets)
		for _, sm := range s.samples {
			err = sm.docs(func(doc []byte) error {
				return pathTokens(doc, "", false, targets, prefixes, s.tk, counts)
			})
			if err != nil {
				err = &studioError{sm.name, err}
				break
			}
		}
		if err == nil {
			for p := range targets {
				s.tokens[p] = counts[p]
			}
		}
	}
	wg.Wait()
	if err != nil {
		return err
	}
	if !counted {
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
	for _, r := range v.Rows {
		t := s.tokens[r.Path]
		r.Tokens = &t
		if in > 0 {
			// Values counted one by one may hold more tokens than the
			// text they are part of (BPE merges across their edges): a
			// share is at most the whole.
			share := min(1, float64(t)/float64(in))
			r.TokenShare = &share
		}
	}
	return nil
}
