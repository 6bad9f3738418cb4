//go:build !amd64 || noasm

package tokenizer

// dropWhole is skipWhole for a container that Members drops, at src[i] with
// no value scan under way (skipFrom{}), as the amd64 kernel's dropWhole:
// end is 0 where skipGo did not take the container; then pos, stack and
// depth are its checkpoint.
func dropWhole(src []byte, i, room, maxToken int) (end, pos int, stack uint64, depth int) {
	end, ok, ck := skipWhole(src, i, room, maxToken, skipFrom{})
	if !ok {
		end = 0
	}
	return end, ck.pos, ck.stack, ck.depth
}
