//go:build simdjson

// simdjson's DOM parse (C++), the limit:simdjson column: see simdjson.go.

#include <simdjson.h>

extern "C" {
#include "simdjson_limit.h"
}

void *jm_simdjson_new(void) { return new simdjson::dom::parser(); }

void jm_simdjson_free(void *p) { delete static_cast<simdjson::dom::parser *>(p); }

// jm_simdjson_parse parses buf[0:len] into the parser's DOM and returns 0 if
// it is valid JSON (every line, for ndjson), else simdjson's error code. padded
// says that SIMDJSON_PADDING bytes after buf may be read; otherwise simdjson
// copies the body into a padded buffer of its own first.
int jm_simdjson_parse(void *p, const char *buf, size_t len, int padded, int ndjson) {
	auto &parser = *static_cast<simdjson::dom::parser *>(p);
	if (!ndjson) {
		simdjson::dom::element doc;
		return parser.parse(reinterpret_cast<const uint8_t *>(buf), len, !padded).get(doc);
	}
	if (!padded) {
		return simdjson::INSUFFICIENT_PADDING;
	}
	simdjson::dom::document_stream docs;
	auto err = parser.parse_many(reinterpret_cast<const uint8_t *>(buf), len).get(docs);
	if (err) {
		return err;
	}
	for (auto doc : docs) {
		if (doc.error()) {
			return doc.error();
		}
	}
	return 0;
}
