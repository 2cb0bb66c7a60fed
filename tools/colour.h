/* colour.h: the juke command's colours. The library returns plain text
 * (juke_typed, juke_errmsg); the command colours it on a terminal by
 * recognising its structure: the `::T` annotations of typed IR in cyan, as
 * Julia's @code_typed prints them, and diagnostics as clang prints them. */
#ifndef JUKE_COLOUR_H
#define JUKE_COLOUR_H

#include <stdbool.h>
#include <stdio.h>

/* --color=auto|always|never */
typedef enum ColourMode { COLOUR_AUTO, COLOUR_ALWAYS, COLOUR_NEVER } ColourMode;

/* Parse "auto", "always" or "never" into *out. False for anything else. */
bool colour_parse_mode(const char *s, ColourMode *out);

/* Whether output to fd is coloured under mode: always, never, or (auto) when
 * fd is a terminal, TERM is set and not "dumb", and NO_COLOR is unset or empty. */
bool colour_wanted(ColourMode mode, int fd);

/* Write IR text to f with every `::T` annotation (the type's braces and what
 * they hold included) in cyan; comments (`# line 5`) and the rest stay plain. */
void colour_put_ir(FILE *f, const char *text);

/* Write diagnostics to f as clang colours them: "file:line:col:" bold,
 * "error:" bold red, "warning:" bold magenta, "note:" bold cyan, the message
 * bold, the caret line's marks bold green; other lines plain. */
void colour_put_diag(FILE *f, const char *text);

#endif
