/* targets.c: the one table of code-generation targets (see targets.h). */
#include <string.h>

#include "targets.h"

#if JUKE_HAVE_COMPILER
#include "target.h"
#define OPS(x) (&(x))
#else
#define OPS(x) NULL
#endif

const char target_default_spec[] = "gfx90a";

static const char *const amdgpu_procs[] = {
    "gfx906",  "gfx908",  "gfx90a",  "gfx940",  "gfx941",  "gfx942", "gfx1030",
    "gfx1100", "gfx1101", "gfx1102", "gfx1200", "gfx1201", NULL,
};
static const char *const nvptx_procs[] = {
    "sm_50", "sm_52", "sm_53", "sm_60", "sm_61", "sm_62", "sm_70",  "sm_72",
    "sm_75", "sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_90a", NULL,
};
static const char *const cpu_procs[] = {
    "native",  "x86-64",         "x86-64-v2",   "x86-64-v3",      "x86-64-v4",      "haswell", "broadwell",
    "skylake", "skylake-avx512", "cascadelake", "icelake-server", "sapphirerapids", "znver1",  "znver2",
    "znver3",  "znver4",         NULL,
};

static const TargetInfo targets[] = {
    { .kind = TARGET_AMDGPU,
      .name = "amdgpu",
      .label = "AMDGPU",
      .proc_prefix = "gfx",
      .procs = amdgpu_procs,
      .default_proc = "gfx90a",
      .ext = "hsaco",
      .max_static_local = 65536,
      .devlib_env = "JUKE_DEVICE_LIBS",
      .atomic_scope = "agent",
      .object_what = "an AMDGPU ELF (.hsaco)",
      .ops = OPS(target_amdgpu_ops) },
    { .kind = TARGET_NVPTX,
      .name = "nvptx",
      .label = "NVPTX",
      .proc_prefix = "sm_",
      .procs = nvptx_procs,
      .default_proc = "sm_90",
      .ext = "ptx",
      .text_object = true,
      .max_static_local = 49152,
      .devlib_env = "JUKE_LIBDEVICE",
      .atomic_scope = "",
      .object_what = "PTX text (.ptx)",
      .ops = OPS(target_nvptx_ops) },
    { .kind = TARGET_CPU,
      .name = "cpu",
      .label = "CPU",
      .proc_separator = "cpu:",
      .procs = cpu_procs,
      .open_procs = true,
      .ext = "so",
      .max_static_local = 65536,
      .atomic_scope = "",
      .object_what = "a host shared object (.so)",
      .ops = OPS(target_cpu_ops) },
};

int target_count(void)
{
    return JK_ARRAY_LEN(targets);
}

const TargetInfo *target_at(int i)
{
    return i >= 0 && i < target_count() ? &targets[i] : NULL;
}

const TargetInfo *target_by_kind(TargetKind kind)
{
    for (int i = 0; i < target_count(); i++)
        if (targets[i].kind == kind)
            return &targets[i];
    return NULL;
}

bool target_proc_listed(const TargetInfo *t, const char *proc)
{
    for (int i = 0; proc && t->procs[i]; i++)
        if (strcmp(t->procs[i], proc) == 0)
            return true;
    return false;
}

void target_list_procs(const TargetInfo *t, StrBuf *sb)
{
    for (int i = 0; t->procs[i]; i++)
        sb_printf(sb, "%s%s", i ? ", " : "", t->procs[i]);
}

/* "gfx906, ..., sm_90a, cpu": what an unknown spec's message lists. */
static void list_all(StrBuf *sb)
{
    for (int i = 0; i < target_count(); i++) {
        const TargetInfo *t = &targets[i];
        if (i)
            sb_puts(sb, ", ");
        if (t->open_procs)
            sb_puts(sb, t->name);
        else
            target_list_procs(t, sb);
    }
}

bool target_parse(const char *spec, const TargetInfo **out, const char **proc, StrBuf *err)
{
    if (!spec || !*spec)
        spec = target_default_spec;
    *out = NULL;
    *proc = NULL;
    for (int i = 0; i < target_count(); i++) {
        const TargetInfo *t = &targets[i];
        const char *p = NULL;
        if (strcmp(spec, t->name) == 0)
            p = NULL;
        else if (t->proc_prefix && strncmp(spec, t->proc_prefix, strlen(t->proc_prefix)) == 0)
            p = spec;
        else if (t->proc_separator && strncmp(spec, t->proc_separator, strlen(t->proc_separator)) == 0 &&
                 spec[strlen(t->proc_separator)])
            p = spec + strlen(t->proc_separator);
        else
            continue;
        if (p && !t->open_procs && !target_proc_listed(t, p)) {
            sb_printf(err, "unknown %s target \"%s\"; known targets: ", t->label, spec);
            target_list_procs(t, err);
            return false;
        }
        *out = t;
        *proc = p;
        return true;
    }
    sb_printf(err, "unknown target \"%s\"; known targets: ", spec);
    list_all(err);
    return false;
}
