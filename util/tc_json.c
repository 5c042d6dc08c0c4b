/* tc_json.c — JSON string escaping and number formatting (see tc_json.h). */
#include "tc_json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Length of the well-formed UTF-8 sequence at p (1 to 4 bytes, RFC 3629: no overlongs, no surrogates, nothing
 * past U+10FFFF), or 0 when the bytes there are not one. */
static int utf8_len(const unsigned char *p)
{
    unsigned char c = p[0];
    int n;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    else
        return 0;
    if (p[1] < lo || p[1] > hi)
        return 0;
    for (int i = 2; i < n; i++)
        if (p[i] < 0x80 || p[i] > 0xBF)
            return 0;
    return n;
}

void tc_json_str(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", fp); break;
        case '\\': fputs("\\\\", fp); break;
        case '\n': fputs("\\n", fp); break;
        case '\r': fputs("\\r", fp); break;
        case '\t': fputs("\\t", fp); break;
        default:
            if (*p < 0x20) {
                fprintf(fp, "\\u%04x", *p);
            } else {
                int n = utf8_len(p);
                if (n == 0) {
                    fputs("\\ufffd", fp); /* a byte that is not UTF-8: U+FFFD, so the output stays valid JSON */
                } else {
                    fwrite(p, 1, (size_t)n, fp);
                    p += n - 1;
                }
            }
        }
    }
    fputc('"', fp);
}

void tc_json_value(FILE *fp, const char *text)
{
    size_t l = strlen(text);
    char *end = NULL;
    if (strcmp(text, "true") == 0 || strcmp(text, "false") == 0 || strcmp(text, "null") == 0) {
        fputs(text, fp);
        return;
    }
    if ((text[0] == '-' || (text[0] >= '0' && text[0] <= '9')) && isfinite(strtod(text, &end)) && *end == '\0') {
        fputs(text, fp);
        return;
    }
    if (l >= 2 && text[0] == '"' && text[l - 1] == '"') {
        char *inner = malloc(l - 1);
        if (inner != NULL) {
            memcpy(inner, text + 1, l - 2);
            inner[l - 2] = '\0';
            tc_json_str(fp, inner); /* escaped and UTF-8-checked like any string */
            free(inner);
            return;
        }
    }
    tc_json_str(fp, text);
}

void tc_json_num(FILE *fp, double v)
{
    if (isfinite(v))
        fprintf(fp, "%.17g", v);
    else
        fputs("null", fp);
}
