/* colour.c: ANSI colours for the juke command (see colour.h). */
#include "colour.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RESET "\033[0m"
#define BOLD "\033[1m"
#define CYAN "\033[36m"
#define BOLD_RED "\033[1;31m"
#define BOLD_GREEN "\033[1;32m"
#define BOLD_MAGENTA "\033[1;35m"
#define BOLD_CYAN "\033[1;36m"

bool colour_parse_mode(const char *s, ColourMode *out)
{
    static const char *const names[] = { "auto", "always", "never" };
    for (int i = 0; i < 3; i++)
        if (s && strcmp(s, names[i]) == 0) {
            *out = (ColourMode)i;
            return true;
        }
    return false;
}

bool colour_wanted(ColourMode mode, int fd)
{
    if (mode != COLOUR_AUTO)
        return mode == COLOUR_ALWAYS;
    /* https://no-color.org: any non-empty value turns the default colours off */
    const char *no = getenv("NO_COLOR");
    if (no && *no)
        return false;
    /* an unset TERM is a pipe's or a cron job's environment, as GCC reads it */
    const char *term = getenv("TERM");
    return isatty(fd) && term && *term && strcmp(term, "dumb") != 0;
}

/* Can c start a type after "::"? Names, @NamedTuple, Unicode letters, and
 * the braces or parentheses of Tuple-like spellings. */
static bool type_start(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == '@' || c == '{' || c == '(' ||
           c >= 0x80;
}

static bool type_char(unsigned char c)
{
    return type_start(c) || (c >= '0' && c <= '9') || c == '.' || c == '!';
}

/* The length of the type that starts at s: a name with its balanced braces
 * (whose contents may hold spaces, commas and further `::`). */
static size_t type_len(const char *s)
{
    size_t i = 0;
    int depth = 0;
    for (; s[i] && s[i] != '\n'; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '{' || c == '(') {
            depth++;
        } else if (c == '}' || c == ')') {
            if (depth == 0)
                break;
            depth--;
        } else if (depth == 0 && !type_char(c)) {
            break;
        }
    }
    return i;
}

void colour_put_ir(FILE *f, const char *text)
{
    const char *s = text;
    bool comment = false;
    while (*s) {
        if (*s == '\n')
            comment = false;
        else if (*s == '#')
            comment = true;
        if (!comment && s[0] == ':' && s[1] == ':' && type_start((unsigned char)s[2])) {
            size_t n = 2 + type_len(s + 2);
            fputs(CYAN, f);
            fwrite(s, 1, n, f);
            fputs(RESET, f);
            s += n;
            continue;
        }
        fputc(*s++, f);
    }
}

/* A caret line: a gutter "   |" (or none) then only blanks, '^' and '~'
 * with at least one '^'. Returns where the marks start, or NULL. */
static const char *caret_marks(const char *line, size_t n)
{
    const char *bar = memchr(line, '|', n);
    size_t i = 0;
    if (bar) {
        for (const char *p = line; p < bar; p++)
            if (*p != ' ')
                return NULL;
        i = (size_t)(bar - line) + 1;
    }
    bool caret = false;
    for (size_t j = i; j < n; j++) {
        if (line[j] == '^')
            caret = true;
        else if (line[j] != ' ' && line[j] != '~')
            return NULL;
    }
    if (!caret)
        return NULL;
    while (line[i] == ' ')
        i++;
    return line + i;
}

void colour_put_diag(FILE *f, const char *text)
{
    static const struct {
        const char *word, *colour;
    } kinds[] = { { "error:", BOLD_RED }, { "warning:", BOLD_MAGENTA }, { "note:", BOLD_CYAN } };
    const char *s = text;
    while (*s) {
        size_t n = strcspn(s, "\n");
        const char *marks = caret_marks(s, n);
        bool done = false;
        if (marks) {
            fwrite(s, 1, (size_t)(marks - s), f);
            fputs(BOLD_GREEN, f);
            fwrite(marks, 1, n - (size_t)(marks - s), f);
            fputs(RESET, f);
            done = true;
        }
        /* "where: error: message", where names a file:line:col or "juke" */
        for (size_t k = 0; !done && k < sizeof kinds / sizeof kinds[0]; k++) {
            size_t wl = strlen(kinds[k].word);
            const char *at = NULL;
            if (n >= wl && strncmp(s, kinds[k].word, wl) == 0) {
                at = s;
            } else {
                for (const char *p = s; p + 2 + wl <= s + n; p++)
                    if (p[0] == ':' && p[1] == ' ' && strncmp(p + 2, kinds[k].word, wl) == 0) {
                        at = p + 2;
                        break;
                    }
            }
            if (!at)
                continue;
            if (at > s) {
                fputs(BOLD, f);
                fwrite(s, 1, (size_t)(at - s - 1), f); /* up to and with the ':' */
                fputs(RESET " ", f);
            }
            fprintf(f, "%s%s" RESET, kinds[k].colour, kinds[k].word);
            const char *msg = at + wl;
            size_t ml = n - (size_t)(msg - s);
            if (ml > 0 && *msg == ' ') {
                fputc(' ', f);
                msg++;
                ml--;
            }
            if (ml) {
                fputs(BOLD, f);
                fwrite(msg, 1, ml, f);
                fputs(RESET, f);
            }
            done = true;
        }
        if (!done)
            fwrite(s, 1, n, f);
        s += n;
        if (*s == '\n')
            fputc(*s++, f);
    }
}
