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

void tc_json_str_body(FILE *fp, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)(s ? s : ""), *end = p + (s ? n : 0);
    for (; p < end; p++) {
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
                int k = end - p >= 4 ? utf8_len(p) : 0;
                if (k == 0 && end - p < 4) { /* near the end: check on a NUL-padded copy */
                    unsigned char tmp[5] = {0};
                    memcpy(tmp, p, (size_t)(end - p));
                    k = utf8_len(tmp);
                }
                if (k == 0) {
                    fputs("\\ufffd", fp); /* a byte that is not UTF-8: U+FFFD, so the output stays valid JSON */
                } else {
                    fwrite(p, 1, (size_t)k, fp);
                    p += k - 1;
                }
            }
        }
    }
}

void tc_json_str(FILE *fp, const char *s)
{
    fputc('"', fp);
    tc_json_str_body(fp, s, s ? strlen(s) : 0);
    fputc('"', fp);
}

static int hex4(const char *s, unsigned *out)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = s[i];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            v |= (unsigned)(c - 'A' + 10);
        else
            return -1;
    }
    *out = v;
    return 0;
}

static size_t put_utf8(char *o, unsigned cp)
{
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xC0 | cp >> 6), o[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | cp >> 12), o[1] = (char)(0x80 | (cp >> 6 & 0x3F)), o[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | cp >> 18), o[1] = (char)(0x80 | (cp >> 12 & 0x3F));
    o[2] = (char)(0x80 | (cp >> 6 & 0x3F)), o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

long tc_json_unquote(const char *lit, char *out)
{
    size_t l = strlen(lit), n = 0;
    if (l < 2 || lit[0] != '"' || lit[l - 1] != '"')
        return -1;
    for (size_t i = 1; i < l - 1; i++) {
        unsigned cp, lo;
        if (lit[i] == '"')
            return -1;
        if (lit[i] != '\\') {
            out[n++] = lit[i];
            continue;
        }
        if (++i >= l - 1)
            return -1;
        switch (lit[i]) {
        case '"': case '\\': case '/': out[n++] = lit[i]; break;
        case 'b': out[n++] = '\b'; break;
        case 'f': out[n++] = '\f'; break;
        case 'n': out[n++] = '\n'; break;
        case 'r': out[n++] = '\r'; break;
        case 't': out[n++] = '\t'; break;
        case 'u':
            if (i + 4 >= l || hex4(lit + i + 1, &cp) != 0)
                return -1;
            i += 4;
            if (cp >= 0xD800 && cp <= 0xDBFF && i + 6 < l && lit[i + 1] == '\\' && lit[i + 2] == 'u' &&
                hex4(lit + i + 3, &lo) == 0 && lo >= 0xDC00 && lo <= 0xDFFF) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                i += 6;
            } else if (cp >= 0xD800 && cp <= 0xDFFF) {
                cp = 0xFFFD; /* a lone surrogate: no UTF-8 for it */
            }
            n += put_utf8(out + n, cp); /* at most 4 bytes for 6 or 12 characters of input */
            break;
        default: return -1;
        }
    }
    return (long)n;
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
        char *inner = malloc(l);
        long n = inner != NULL ? tc_json_unquote(text, inner) : -1;
        if (n >= 0) { /* its decoded text, escaped once */
            fputc('"', fp);
            tc_json_str_body(fp, inner, (size_t)n);
            fputc('"', fp);
            free(inner);
            return;
        }
        free(inner);
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
