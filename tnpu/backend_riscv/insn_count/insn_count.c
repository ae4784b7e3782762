/* A QEMU TCG plugin counting the guest instructions a program retires.
 *
 * Debian's qemu-user is built with plugin support but ships no plugins
 * and no qemu-plugin.h, so the few entry points used here are declared
 * below, as QEMU 7.2's plugin API (QEMU_PLUGIN_VERSION 1) defines them.
 *
 * At translation, each translation block gets an inline "add n" to a
 * counter, n being the block's instruction count; a block runs to its end
 * unless it faults, which these kernels do not.  At exit the total is
 * written to QEMU's log (stderr, with `-d plugin`) as "tnpu-insns: N".
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };

typedef void (*tb_trans_callback)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*exit_callback)(qemu_plugin_id_t id, void *data);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, tb_trans_callback cb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb, enum qemu_plugin_op op,
                                              void *ptr, uint64_t imm);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, exit_callback cb, void *data);
void qemu_plugin_outs(const char *string);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

static uint64_t retired;

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
    (void)id;
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &retired,
                                             qemu_plugin_tb_n_insns(tb));
}

static void on_exit(qemu_plugin_id_t id, void *data) {
    (void)id;
    (void)data;
    char line[64];
    snprintf(line, sizeof line, "tnpu-insns: %" PRIu64 "\n", retired);
    qemu_plugin_outs(line);
}

__attribute__((visibility("default"))) int qemu_plugin_install(qemu_plugin_id_t id,
                                                               const void *info, int argc,
                                                               char **argv) {
    (void)info;
    (void)argc;
    (void)argv;
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
    qemu_plugin_register_atexit_cb(id, on_exit, NULL);
    return 0;
}
