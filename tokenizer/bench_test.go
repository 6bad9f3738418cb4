package tokenizer

import (
	"testing"

	"github.com/jsonmask/jsonmask/corpus"
)

// benchDocs are the corpus documents (bench/testdata) the tokenizer's
// benchmarks read: text, escapes, numbers, small objects, pretty-printing.
var benchDocs = []string{"twitter", "twitterescaped", "citm_catalog", "canada", "github_events", "mesh.pretty", "conversation_items", "flow_document"}

// benchDoc reads a corpus document.
func benchDoc(b *testing.B, name string) []byte {
	doc := corpus.File(b, name+".json")
	return doc
}

// benchScan runs scan over each corpus document as one benchmark per
// document and op, as BenchmarkX/doc=<name>/op=<op>: throughput is of the
// document.
func benchScan(b *testing.B, ops []string, scan func(s *Scanner, dst, doc []byte, op string) ([]byte, error)) {
	for _, name := range benchDocs {
		doc := benchDoc(b, name)
		for _, op := range ops {
			b.Run("doc="+name+"/op="+op, func(b *testing.B) {
				var s Scanner
				dst := make([]byte, 0, len(doc))
				b.SetBytes(int64(len(doc)))
				b.ReportAllocs()
				for b.Loop() {
					var err error
					if dst, err = scan(&s, dst[:0], doc, op); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkValue measures SkipValue (what a dropped value costs) and
// AppendValue (a value kept whole) over whole documents.
func BenchmarkValue(b *testing.B) {
	benchScan(b, []string{"skip", "append"}, func(s *Scanner, dst, doc []byte, op string) ([]byte, error) {
		s.Reset(0)
		_, i, err := s.Peek(doc, 0)
		if err == nil {
			if op == "skip" {
				_, _, err = s.SkipValue(doc, i)
			} else {
				dst, _, _, err = s.AppendValue(dst, doc, i)
			}
		}
		return dst, err
	})
}

// BenchmarkTrusted measures SkipTrusted and AppendTrusted over whole
// documents, under each set of kernels this CPU can run.
func BenchmarkTrusted(b *testing.B) {
	for _, k := range kernelSets {
		if !k.available() || k.twins {
			continue
		}
		b.Run(k.name, func(b *testing.B) {
			withKernels(k, func() {
				benchScan(b, []string{"skip", "append"}, func(s *Scanner, dst, doc []byte, op string) ([]byte, error) {
					s.Reset(0)
					_, i, err := s.Peek(doc, 0)
					if err == nil {
						if op == "skip" {
							_, _, err = s.SkipTrusted(doc, i)
						} else {
							dst, _, _, err = s.AppendTrusted(dst, doc, i)
						}
					}
					return dst, err
				})
			})
		})
	}
}

// BenchmarkMembers measures the masked levels' reading: every object of a
// document read with Members and every array with Element, as the machine
// reads them where the mask recurses at every level, scalars taken with
// Scalar, nothing copied and no key looked up.
func BenchmarkMembers(b *testing.B) {
	benchScan(b, []string{"walk"}, func(s *Scanner, dst, doc []byte, _ string) ([]byte, error) {
		s.Reset(0)
		return dst, walkMembers(s, doc)
	})
}

// walkMembers reads doc, a whole document, as BenchmarkMembers says.
func walkMembers(s *Scanner, doc []byte) error {
	var spans [32]MemberSpan
	open := make([]bool, 0, 64) // per open container: an object
	k, i, err := s.Peek(doc, 0)
	if err != nil || k != ObjectStart && k != ArrayStart {
		return err
	}
	for {
		if k == ObjectStart || k == ArrayStart {
			if s.OpenFast(k == ObjectStart) { // as the machine opens a masked level
				i++
			} else if i, err = s.Open(doc, i); err != nil {
				return err
			}
			open = append(open, k == ObjectStart)
		}
		if len(open) == 0 {
			_, _, err = s.Peek(doc, i)
			if err == nil {
				err = s.End(len(doc))
			}
			return err
		}
		if open[len(open)-1] {
			n, at, closed := s.Members(doc, i, spans[:], false, ^uint64(0), nil)
			i = at
			if closed {
				open, k = open[:len(open)-1], None
				continue
			}
			if n == 0 || spans[n-1].ValueEnd != 0 {
				var tok Token
				if tok, i, err = s.Next(doc, i); err != nil {
					return err
				}
				if tok.Kind == ObjectEnd {
					open, k = open[:len(open)-1], None
					continue
				}
				if k, i, err = s.Peek(doc, i); err != nil {
					return err
				}
			} else {
				k = ValueKind(doc[i])
			}
		} else {
			var at int
			if k, at = s.Element(doc, i); k == None {
				if k, i, err = s.Peek(doc, i); err != nil {
					return err
				}
				at = i
				if k == ArrayEnd {
					_, at, _ = s.Next(doc, i)
				}
			}
			if i = at; k == ArrayEnd {
				open, k = open[:len(open)-1], None
				continue
			}
		}
		if k == None { // the document ended
			return s.End(len(doc))
		}
		if k != ObjectStart && k != ArrayStart {
			j, ok := s.Scalar(doc, i, false)
			if !ok {
				if j, _, err = s.SkipValue(doc, i); err != nil {
					return err
				}
			}
			i, k = j, None
		}
	}
}
