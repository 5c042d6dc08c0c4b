/* import_scan.c — the JSON files of `tunecost import`, mapped and walked at the top level without building
 * them: whitespace, one value parsed with json-c, a value skipped, an object's next key, and giving back the
 * mapped pages behind a position (import.h). */
#include "import.h"
#include "tc_err.h"

#include <errno.h>
#include <fcntl.h>
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

void imp_skip_ws(const struct src *s, size_t *pos)
{
    while (*pos < s->len && (s->buf[*pos] == ' ' || s->buf[*pos] == '\t' || s->buf[*pos] == '\n' ||
                             s->buf[*pos] == '\r'))
        (*pos)++;
}

int imp_is_null(const struct src *s, size_t pos)
{
    return s->len - pos >= 4 && memcmp(s->buf + pos, "null", 4) == 0 &&
           (s->len - pos == 4 || !isalnum((unsigned char)s->buf[pos + 4]));
}

/* Parse the one JSON value at *pos (advancing past it). Returns the value (the caller puts it), or NULL with
 * tc_errmsg set; *eof is set when the file ends inside the value. */
struct json_object *imp_parse_at(struct json_tokener *tok, const struct src *s, size_t *pos, const char *what,
                                    int *eof)
{
    struct json_object *v;
    size_t n = s->len - *pos;
    *eof = 0;
    json_tokener_reset(tok);
    if (n > INT_MAX)
        n = INT_MAX;
    v = json_tokener_parse_ex(tok, s->buf + *pos, (int)n);
    if (v == NULL) {
        enum json_tokener_error e = json_tokener_get_error(tok);
        if (e == json_tokener_continue) {
            /* a bare number at the very end needs a terminator: give it one */
            v = json_tokener_parse_ex(tok, " ", 1);
            if (v == NULL) {
                *eof = 1;
                tc_seterr("%s: %s: the file ends inside it (truncated JSON)", s->path, what);
                return NULL;
            }
            *pos = s->len;
            return v;
        }
        if (e == json_tokener_success && imp_is_null(s, *pos))
            tc_seterr("%s: %s: null at byte %zu, where a value was expected", s->path, what, *pos);
        else if (e == json_tokener_success) /* json-c gives up without an error of its own when malloc fails */
            tc_seterr_env("%s: %s: out of memory parsing the entry at byte %zu", s->path, what, *pos);
        else
            tc_seterr("%s: %s: malformed JSON at byte %zu (%s)", s->path, what,
                      *pos + json_tokener_get_parse_end(tok), json_tokener_error_desc(e));
        return NULL;
    }
    size_t end = *pos + json_tokener_get_parse_end(tok), lexical = *pos;
    /* json-c that runs out of memory inside an object or array gives back what it built so far, cut short, as if
     * it had succeeded: a container that ends before its closing bracket is memory, not the file */
    char open = s->buf[*pos];
    size_t last = end; /* json-c may have eaten whitespace after the value */
    while (last > *pos + 1 && (s->buf[last - 1] == ' ' || s->buf[last - 1] == '\n' || s->buf[last - 1] == '\t' ||
                               s->buf[last - 1] == '\r'))
        last--;
    if ((open == '{' || open == '[') && (last <= *pos + 1 || s->buf[last - 1] != (open == '{' ? '}' : ']') ||
                                         (imp_skip_value(s, &lexical) == 0 && last < lexical))) {
        json_object_put(v);
        return tc_seterr_env("%s: %s: out of memory parsing the entry at byte %zu", s->path, what, *pos), NULL;
    }
    *pos = end;
    return v;
}

/* Skip one JSON value without building it (strings, nesting). Returns 0, or -1 when the file ends first. */
int imp_skip_value(const struct src *s, size_t *pos)
{
    int depth = 0, in_str = 0;
    size_t i = *pos;
    for (; i < s->len; i++) {
        char c = s->buf[i];
        if (in_str) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_str = 0;
            else
                continue;
            if (depth == 0 && !in_str) {
                *pos = i + 1;
                return 0;
            }
            continue;
        }
        if (c == '"')
            in_str = 1;
        else if (c == '{' || c == '[')
            depth++;
        else if (c == '}' || c == ']') {
            if (--depth <= 0) {
                *pos = i + 1;
                return depth == 0 ? 0 : -1;
            }
        } else if (depth == 0 && (c == ',' || c == '}' || c == ']' || c == ' ' || c == '\n' || c == '\r' ||
                                  c == '\t')) {
            *pos = i;
            return 0;
        }
    }
    return -1;
}

/* Read a key string and the ':' after it. Returns 1 with the key in buf, 0 at the object's closing '}', -1 on
 * an error, -2 when the file ends here. */
int imp_next_key(struct json_tokener *tok, const struct src *s, size_t *pos, int first, char *buf, size_t len,
                    const char *what)
{
    struct json_object *k;
    int eof;
    imp_skip_ws(s, pos);
    if (*pos >= s->len)
        return -2;
    if (s->buf[*pos] == '}') {
        (*pos)++;
        return 0;
    }
    if (!first) {
        if (s->buf[*pos] != ',')
            return tc_seterr("%s: %s: malformed JSON at byte %zu (expected ',' or '}')", s->path, what, *pos);
        (*pos)++;
        imp_skip_ws(s, pos);
        if (*pos >= s->len)
            return -2;
    }
    if (s->buf[*pos] != '"')
        return tc_seterr("%s: %s: malformed JSON at byte %zu (expected a key)", s->path, what, *pos);
    if ((k = imp_parse_at(tok, s, pos, what, &eof)) == NULL)
        return eof ? -2 : -1;
    snprintf(buf, len, "%s", json_object_get_string(k));
    json_object_put(k);
    imp_skip_ws(s, pos);
    if (*pos >= s->len)
        return -2;
    if (s->buf[*pos] != ':')
        return tc_seterr("%s: %s: malformed JSON at byte %zu (expected ':')", s->path, what, *pos);
    (*pos)++;
    imp_skip_ws(s, pos);
    return 1;
}

int imp_map_file(struct src *s)
{
    struct stat st;
    int fd = open(s->path, O_RDONLY);
    if (fd < 0)
        return tc_seterr("%s: cannot open: %s", s->path, strerror(errno));
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return tc_seterr("%s: not a regular file", s->path);
    }
    if (st.st_size == 0) {
        close(fd);
        return tc_seterr("%s: empty file (expected JSON)", s->path);
    }
    void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (p == MAP_FAILED)
        return tc_seterr_env("%s: cannot map: %s", s->path, strerror(errno));
    (void)madvise(p, (size_t)st.st_size, MADV_SEQUENTIAL);
    s->buf = p;
    s->len = (size_t)st.st_size;
    return 0;
}

/* Let the kernel take back the pages of the mapped file behind `pos` (they are read again only by the next
 * pass): the file is never resident as a whole, so a 500 MB cache costs tens of MB of mapping, not 500. */
void imp_release_behind(const struct src *s, size_t pos, size_t *released)
{
    const size_t step = (size_t)64 << 20, page = (size_t)sysconf(_SC_PAGESIZE);
    if (pos < *released + step)
        return;
    size_t end = pos / page * page;
    (void)madvise((void *)(s->buf + *released), end - *released, MADV_DONTNEED);
    *released = end;
}
