/* tc_json.h — minimal JSON output helpers for `--json` modes: escaped strings and numbers (NaN/inf -> null). */
#ifndef TC_JSON_H
#define TC_JSON_H

#include <stddef.h>
#include <stdio.h>

/* Writes "..." with JSON escapes; bytes that are not well-formed UTF-8 become \ufffd (valid JSON always). */
void tc_json_str(FILE *fp, const char *s);
/* The same escapes for n bytes (NULs included), without the quotes: a string written in parts. */
void tc_json_str_body(FILE *fp, const char *s, size_t n);
/* Decodes the JSON string literal lit (quotes included) into out (room for strlen(lit) bytes; not NUL-terminated:
 * it may hold NULs). Returns the decoded length, or -1 when lit is not one well-formed literal. */
long tc_json_unquote(const char *lit, char *out);
void tc_json_num(FILE *fp, double v);       /* %.17g, or null when not finite */
/* A value as its JSON text read from a file (an imported parameter's value: "a", 1.5, true): a finite number,
 * true, false or null as it is; a string literal decoded and escaped again (so a"b stays a"b);
 * anything else as a JSON string of that text. Valid JSON always. */
void tc_json_value(FILE *fp, const char *text);

#endif
