/* The launch runtime: read a launch description, run the grid, write back.
 *
 * usage: kernel.elf LAUNCH_FILE
 *
 * LAUNCH_FILE has one directive a line:
 *   grid X Y Z
 *   region REGION BYTES PATH     (a file of at least BYTES + 64 bytes, mapped shared:
 *                                 the kernel reads and writes it in place)
 *   buffer INDEX REGION OFFSET   (argument INDEX points OFFSET bytes into REGION;
 *                                 several arguments may point into one region)
 *   scalar INDEX TYPE VALUE      (TYPE: i1 i8 i16 i32 i64 f32 f64 bits16;
 *                                 floats in C99 hex notation, exact)
 * Program instances run one after another in Triton's order, x fastest.
 * Exit status: 0 ok, 2 bad launch, 3 a device assert failed.
 */
#include "tnpu_launch.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAX_ARGUMENTS 64
/* Bytes past a region's end that may be read (never used): one spare vector. */
#define SPARE_BYTES 64

static void fail(const char *what, const char *detail) {
    fprintf(stderr, "tnpu launch: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    exit(2);
}

void tnpu_assert_fail(const char *message) {
    fprintf(stderr, "tnpu launch: device assert failed: %s\n", message);
    fflush(stderr);
    exit(3);
}

static char *map_region(const char *path, unsigned long long bytes) {
    static _Alignas(SPARE_BYTES) char empty[SPARE_BYTES];
    if (bytes == 0) return empty;
    int fd = open(path, O_RDWR);
    if (fd < 0) fail("cannot open", path);
    void *data = mmap(NULL, bytes + SPARE_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (data == MAP_FAILED) fail("cannot map", path);
    close(fd);
    return data;
}

static void parse_scalar(tnpu_scalar *slot, const char *type, const char *text) {
    char *end;
    if (!strcmp(type, "f32")) slot->f32 = strtof(text, &end);
    else if (!strcmp(type, "f64")) slot->f64 = strtod(text, &end);
    else {
        long long value = strtoll(text, &end, 0);
        if (!strcmp(type, "i64")) slot->i64 = value;
        else if (!strcmp(type, "i32")) slot->i32 = (int32_t)value;
        else if (!strcmp(type, "i16")) slot->i16 = (int16_t)value;
        else if (!strcmp(type, "i8")) slot->i8 = (int8_t)value;
        else if (!strcmp(type, "i1")) slot->i1 = value != 0;
        else if (!strcmp(type, "bits16")) slot->bits16 = (uint16_t)value;
        else fail("unknown scalar type", type);
    }
    if (*end) fail("bad scalar value", text);
}

int main(int argc, char **argv) {
    if (argc != 2) fail("usage: kernel.elf LAUNCH_FILE", NULL);
    FILE *launch = fopen(argv[1], "r");
    if (!launch) fail("cannot open", argv[1]);

    void *buffers[MAX_ARGUMENTS] = {0};
    char *regions[MAX_ARGUMENTS] = {0};
    unsigned long long region_bytes[MAX_ARGUMENTS] = {0};
    tnpu_scalar scalars[MAX_ARGUMENTS];
    bool given[MAX_ARGUMENTS] = {0};
    int32_t grid[3] = {-1, -1, -1};
    char line[4096], kind[16], a[2048], b[2048];
    memset(scalars, 0, sizeof scalars);

    while (fgets(line, sizeof line, launch)) {
        int index, region;
        unsigned long long bytes, offset;
        if (sscanf(line, "%15s", kind) != 1) continue;
        if (!strcmp(kind, "grid")) {
            if (sscanf(line, "grid %d %d %d", &grid[0], &grid[1], &grid[2]) != 3) fail("bad grid", line);
        } else if (!strcmp(kind, "region")) {
            if (sscanf(line, "region %d %llu %2047s", &region, &bytes, a) != 3 ||
                region < 0 || region >= MAX_ARGUMENTS || regions[region])
                fail("bad region", line);
            regions[region] = map_region(a, bytes);
            region_bytes[region] = bytes;
        } else if (!strcmp(kind, "buffer")) {
            if (sscanf(line, "buffer %d %d %llu", &index, &region, &offset) != 3 ||
                index < 0 || index >= tnpu_argument_count || region < 0 || region >= MAX_ARGUMENTS ||
                !regions[region] || offset > region_bytes[region])
                fail("bad buffer", line);
            buffers[index] = regions[region] + offset;
            given[index] = true;
        } else if (!strcmp(kind, "scalar")) {
            if (sscanf(line, "scalar %d %15s %2047s", &index, a, b) != 3 ||
                index < 0 || index >= tnpu_argument_count)
                fail("bad scalar", line);
            parse_scalar(&scalars[index], a, b);
            given[index] = true;
        } else {
            fail("unknown directive", kind);
        }
    }
    fclose(launch);
    for (int i = 0; i < tnpu_argument_count; i++)
        if (!given[i]) fail("launch file misses an argument", NULL);
    if (grid[0] < 0 || grid[1] < 0 || grid[2] < 0) fail("launch file misses the grid", NULL);

    tnpu_invoke(buffers, scalars, grid);  /* the kernel loops over the programs itself */
    return 0;  /* the regions are shared mappings: what the kernel wrote is in their files */
}
