/* tc_json.h — minimal JSON output helpers for `--json` modes: escaped strings and numbers (NaN/inf -> null). */
#ifndef TC_JSON_H
#define TC_JSON_H

#include <stdio.h>

/* Writes "..." with JSON escapes; bytes that are not well-formed UTF-8 become \ufffd (valid JSON always). */
void tc_json_str(FILE *fp, const char *s);
void tc_json_num(FILE *fp, double v);       /* %.17g, or null when not finite */

#endif
