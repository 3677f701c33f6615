/* Checks of the invariants the tuned code relies on, compiled only in a debug build.
 *
 * KALAH_ASSERT(condition) aborts with the condition, file and line when the
 * condition is false, in a build with KALAH_DEBUG defined
 * (`KALAH_DEBUG=1 pip install -e .`, see DEVELOPING.md). In the release build
 * it compiles to nothing and does not evaluate its condition, so it costs no
 * time; it still names every variable in it (inside sizeof), so the condition
 * keeps compiling and its variables do not count as unused.
 *
 * The conditions may call the kalah_check_* helpers next to the code they
 * check: they are static inline and vanish from a release build.
 */
#ifndef KALAH_CHECK_H
#define KALAH_CHECK_H

#ifdef KALAH_DEBUG
#include <stdio.h>
#include <stdlib.h>
#if defined(__SANITIZE_ADDRESS__) && defined(__has_include)
#if __has_include(<sanitizer/common_interface_defs.h>)
#include <sanitizer/common_interface_defs.h>
#define KALAH_PRINT_STACK() __sanitizer_print_stack_trace()
#endif
#endif
#ifndef KALAH_PRINT_STACK
#define KALAH_PRINT_STACK() ((void)0)
#endif

static void kalah_check_failed(const char *condition, const char *file, int line, const char *function)
{
    fprintf(stderr, "kalah: internal check failed: %s (%s:%d, in %s)\n", condition, file, line, function);
    KALAH_PRINT_STACK();
    fflush(stderr);
    abort();
}

#define KALAH_ASSERT(condition) ((condition) ? (void)0 : kalah_check_failed(#condition, __FILE__, __LINE__, __func__))
#else
#define KALAH_ASSERT(condition) ((void)sizeof(condition))
#endif

#endif
