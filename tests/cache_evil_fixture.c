/* cache_evil_fixture.c: a shared object whose constructor leaves a marker
 * file ($JUKE_TEST_MARKER). tests/test_cache.c swaps it into a cache entry's
 * code section: the marker must never appear (juke must not dlopen it). */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((constructor)) static void leave_marker(void)
{
    const char *p = getenv("JUKE_TEST_MARKER");
    if (p) {
        int fd = open(p, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
        if (fd >= 0)
            close(fd);
    }
}

int juke_evil_fixture_symbol(void)
{
    return 42;
}
