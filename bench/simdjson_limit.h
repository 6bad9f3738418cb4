// The C interface of simdjson_limit.cpp (build tag simdjson).
#include <stddef.h>

void *jm_simdjson_new(void);
void jm_simdjson_free(void *p);
int jm_simdjson_parse(void *p, const char *buf, size_t len, int padded, int ndjson);
