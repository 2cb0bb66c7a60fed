/* fuzz_npy.c: libFuzzer target for `juke run`'s .npy reader (npy_parse). An
 * accepted file must describe exactly the data it returns: length is the
 * product of the dims and every byte of data is readable (ASan checks). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "npy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    NpyArray a;
    memset(&a, 0, sizeof a);
    char *err = NULL;
    if (npy_parse(data, size, &a, &err) == 0) {
        size_t len = 1;
        for (int i = 0; i < a.ndims; i++)
            len *= (size_t)a.dims[i];
        if (len != a.length || a.ndims < 0 || a.ndims > NPY_MAXDIMS || a.elsize == 0)
            __builtin_trap();
        volatile uint8_t sum = 0;
        const uint8_t *p = a.data;
        for (size_t i = 0; p && i < a.length * a.elsize; i++)
            sum += p[i];
        (void)sum;
        (void)npy_julia_type_name(a.type);
        npy_free(&a);
    } else if (!err || !*err) {
        __builtin_trap(); /* a rejection must say why */
    }
    free(err);
    return 0;
}
