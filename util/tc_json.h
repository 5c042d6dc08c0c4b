/* tc_json.h — minimal JSON output helpers for `--json` modes: escaped strings and numbers (NaN/inf -> null). */
#ifndef TC_JSON_H
#define TC_JSON_H

#include <stdio.h>

/* Writes "..." with JSON escapes; bytes that are not well-formed UTF-8 become \ufffd (valid JSON always). */
void tc_json_str(FILE *fp, const char *s);
void tc_json_num(FILE *fp, double v);       /* %.17g, or null when not finite */
/* A value as its JSON text read from a file (an imported parameter's value: "a", 1.5, true): a finite number,
 * true, false or null as it is; a string literal re-escaped by tc_json_str (its inner text taken literally);
 * anything else as a JSON string of that text. Valid JSON always. */
void tc_json_value(FILE *fp, const char *text);

#endif
