/* replay.c: the cmocka test that replays every file of a fuzz target's
 * regression directory (and its seed corpus) through the target's
 * LLVMFuzzerTestOneInput, in a normal build without libFuzzer. Each crash the
 * fuzzers found is kept in tests/fuzz/regressions/<target>/, so a fix that
 * regresses fails here (under ASan/UBSan in CI, precisely).
 * usage: fuzz_replay_<target> DIR...   (every regular file in each DIR) */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Referenced by kernel_mutator.h; never called when replaying. */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size)
{
    (void)data;
    (void)max_size;
    return size;
}

int fz_replay_failed;

typedef struct Replay {
    int argc;
    char **argv;
} Replay;

static Replay replay;

static int replay_dir(const char *dir)
{
    DIR *dp = opendir(dir);
    if (!dp)
        return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(dp))) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat sb;
        if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
            continue;
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        uint8_t *buf = malloc((size_t)sb.st_size + 1);
        assert_non_null(buf);
        size_t len = fread(buf, 1, (size_t)sb.st_size, f);
        fclose(f);
        fz_replay_failed = 0;
        LLVMFuzzerTestOneInput(buf, len);
        free(buf);
        if (fz_replay_failed)
            fail_msg("%s: the fuzz target reports a finding (see above)", path);
        n++;
    }
    closedir(dp);
    return n;
}

static void test_replay(void **state)
{
    (void)state;
    int total = 0;
    for (int i = 1; i < replay.argc; i++) {
        int n = replay_dir(replay.argv[i]);
        printf("# %s: %d inputs replayed\n", replay.argv[i], n);
        total += n;
    }
    assert_true(total > 0);
}

int main(int argc, char **argv)
{
    replay.argc = argc;
    replay.argv = argv;
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_replay) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
