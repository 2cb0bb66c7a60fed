/* testutil.h: what several test programs share. */
#ifndef JUKE_TESTUTIL_H
#define JUKE_TESTUTIL_H

#include <stddef.h>

/* The whole file at path, with a NUL after its last byte (so a text file is a
 * string), or NULL if it cannot be opened or read. Its length goes to *size
 * when size is not NULL. The caller frees it. */
void *tu_read_file(const char *path, size_t *size);

#endif
