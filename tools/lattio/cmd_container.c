/* cmd_container.c -- `lattio container`: inspect and convert task-local
 * containers (docs/format.md section 8), like SIONlib's siondump, sionsplit,
 * sioncat and siondefrag.  This file holds the dispatch and the parts the
 * subcommands share; the subcommands are in cmd_container_*.c. */
#include "cmd_container.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char container_help[] =
    "usage: lattio container dump FILE [--json] [--chunks] [--verify]\n"
    "       lattio container split FILE PREFIX [--recover] [--no-verify]\n"
    "       lattio container cat FILE [--task N] [--block B] [-o OUT] [--recover] [--no-verify]\n"
    "       lattio container defrag IN OUT [--chunk BYTES] [--recover]\n"
    "       lattio container repair FILE [-o OUT] [--no-verify]\n"
    "\n"
    "Task-local containers (one byte stream per MPI task in one file or a few,\n"
    "FILE, FILE.000001, ...; written by lattio_container_open/write/close;\n"
    "docs/format.md section 8).  FILE is always the container's name.\n"
    "\n"
    "  dump    id, tasks, physical files, chunk capacity, stride and alignment,\n"
    "          blocks, the state (complete, or INCOMPLETE with the reason), the\n"
    "          checksums recorded, and for each task its bytes, blocks, whether\n"
    "          its stream ended with a FINAL chunk and its stream CRC-32 (when\n"
    "          recorded).  An incomplete container is shown as recovery reads it\n"
    "          and the exit status is 1.  --json: one JSON document instead;\n"
    "          --chunks: every chunk's offset, bytes and CRC-32; --verify: read\n"
    "          every chunk and check its CRC-32 (exit status 1 if one fails).\n"
    "  split   write task T's stream to PREFIX.T (T zero-padded to the width of\n"
    "          the largest task number), one file per task.\n"
    "  cat     write streams to standard output (or OUT): every task's in task\n"
    "          order, or only task N's; --block B only the bytes of chunk B (of\n"
    "          task N, or of every task in order).\n"
    "  defrag  write a new container OUT holding the same streams contiguously:\n"
    "          one chunk per task large enough for the largest stream, or chunks\n"
    "          of BYTES data bytes; same tasks, files and alignment.  OUT appears\n"
    "          only after every stream was read back and compared (written as\n"
    "          OUT.lattio-tmp.* before).\n"
    "  repair  make a container whose writer was killed whole again (in place,\n"
    "          or as OUT): every task keeps the bytes of its complete chunks;\n"
    "          prints them per task.  The input is replaced only by a verified\n"
    "          copy; a complete container is left alone.\n"
    "\n"
    "Reading checks each chunk's CRC-32 (and the stream's, when recorded);\n"
    "--no-verify skips that.  split, cat and defrag need a complete container\n"
    "unless --recover is given; then an unfinished or damaged one is read as\n"
    "recovery does (each stream up to its last complete chunk).\n"
    "\n"
    "Exit status: 0 success, 1 unreadable, damaged or incomplete container or\n"
    "failed output, 2 unusable arguments.\n";

/* --- opening ------------------------------------------------------------- */

static int run_container(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*run)(int, char **);
    } subs[] = {{"dump", ct_dump}, {"split", ct_split}, {"cat", ct_cat},
                {"defrag", ct_defrag}, {"repair", ct_repair}};
    if (argc < 2) return tool_usage("container", "missing subcommand (dump, split, cat, defrag, repair)");
    for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++)
        if (strcmp(argv[1], subs[i].name) == 0) return subs[i].run(argc - 1, argv + 1);
    return tool_usage("container", "unknown subcommand '%s'", argv[1]);
}

const tool_command tool_cmd_container = {
    "container", "dump, split, cat, defrag or repair a task-local container", container_help,
    run_container, 0};
