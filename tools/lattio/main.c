/* main.c -- the `lattio` command: dispatch to subcommands.
 *
 * To add a subcommand: define a `const tool_command tool_cmd_NAME` in
 * tools/lattio/cmd_NAME.c, declare it in tool.h and list it in `commands`.
 * Under an MPI launcher (see mpi/launcher.c) every rank runs main: a command marked
 * parallel runs on every rank, any other on rank 0 alone. */
#include "tool.h"

#include <string.h>

static const tool_command *const commands[] = {
    &tool_cmd_info, &tool_cmd_check, &tool_cmd_extract, &tool_cmd_pack, &tool_cmd_unpack,
    &tool_cmd_verify, &tool_cmd_convert, &tool_cmd_container, &tool_cmd_bench, &tool_cmd_clean,
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void print_main_help(FILE *f)
{
    fputs("usage: lattio COMMAND [ARGS...]\n"
          "       lattio COMMAND --help | lattio --help | lattio --version\n"
          "\nTools for LIME / ILDG / SciDAC lattice files.  Commands:\n",
          f);
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %-9s %s\n", commands[i]->name, commands[i]->summary);
    fputs("\nExit status: 0 success, 1 failure or problems found, 2 unusable arguments.\n"
          "Records are numbered from 1 everywhere.\n",
          f);
}

static const tool_command *find_command(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(commands[i]->name, name) == 0) return commands[i];
    return NULL;
}

/* --help or -h anywhere before a "--" asks for the command's help. */
static int wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) return 0;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return 1;
    }
    return 0;
}

/* `lattio`, `lattio --help [CMD]`, `lattio --version`: printed (rank 0
 * alone under MPI); 1 when argv was one of them (*rc its status). */
static int general(int argc, char **argv, FILE *out, int *rc)
{
    *rc = TOOL_OK;
    if (argc < 2) {
        if (out) print_main_help(stderr);
        *rc = TOOL_USAGE;
        return 1;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || strcmp(name, "help") == 0) {
        const tool_command *c = argc > 2 ? find_command(argv[2]) : NULL;
        if (out) fputs(c ? c->help : "", out);
        if (out && !c) print_main_help(out);
        return 1;
    }
    if (strcmp(name, "--version") == 0) {
        if (out) printf("lattio %s\nbuilt with %s\n", lattio_version(), lattio_build_info());
        return 1;
    }
    return 0;
}

static int dispatch(int argc, char **argv)
{
    FILE *out = tool_rank() == 0 ? stdout : NULL; /* under MPI only rank 0 prints */
    int rc;
    if (general(argc, argv, out, &rc)) return rc;
    const char *name = argv[1];
    const tool_command *c = find_command(name);
    if (!c) {
        if (out) fprintf(stderr, "lattio: unknown command '%s' (try 'lattio --help')\n", name);
        return TOOL_USAGE;
    }
    if (wants_help(argc - 1, argv + 1)) {
        if (out) fputs(c->help, out);
        return TOOL_OK;
    }
    if (!c->parallel && tool_nranks() > 1) return tool_run_on_root(c, argc - 1, argv + 1);
    rc = c->run(argc - 1, argv + 1);
    if (fflush(stdout) != 0 && rc == TOOL_OK) {
        if (out) fprintf(stderr, "lattio %s: writing standard output failed\n", name);
        rc = TOOL_FAIL;
    }
    return tool_nranks() > 1 ? tool_mpi_share_status(rc) : rc;
}

int main(int argc, char **argv)
{
    if (tool_mpi_start(&argc, &argv) != 0) return TOOL_FAIL;
    return tool_mpi_finish(dispatch(argc, argv));
}
