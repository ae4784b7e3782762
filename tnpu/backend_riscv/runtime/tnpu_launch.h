/* The launch runtime's interface to a generated kernel.
 *
 * Each kernel ELF links tnpu_launch.c (this runtime), the kernel's assembly
 * and a generated tnpu_invoke.c that calls the kernel with typed C
 * arguments: buffers as pointers, scalars by value, then the grid size
 * along x, y and z.  One call runs every program of the grid.
 */
#ifndef TNPU_LAUNCH_H
#define TNPU_LAUNCH_H

#include <stdbool.h>
#include <stdint.h>

typedef union {
    int64_t i64;
    int32_t i32;
    int16_t i16;
    int8_t i8;
    bool i1;
    uint16_t bits16;
    float f32;
    double f64;
} tnpu_scalar;

/* Generated per kernel: run every program instance of the grid. */
void tnpu_invoke(void *const *buffers, const tnpu_scalar *scalars, const int32_t grid[3]);
extern const int tnpu_argument_count;

/* Called by the kernel when a tile.assert fails; does not return. */
void tnpu_assert_fail(const char *message);

#endif
