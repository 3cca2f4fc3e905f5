/* testhooks.h -- the library's test hooks.  They exist only in builds with
 * LATTIO_TEST_HOOKS (the lattio_testing library the tests link); the
 * installed libraries have none of them and none of the code they enable. */
#ifndef LATTIO_TESTHOOKS_H
#define LATTIO_TESTHOOKS_H
#ifdef LATTIO_TEST_HOOKS

#include "lattio.h"

#include <stdint.h>

/* field_stage.c: corrupt (one byte flipped after checksumming) the next `n`
 * sites this process stages for lattio_field_write and lattio_volumes_write. */
void lattio_field_test_corrupt_writes(int n);
/* volumes/publish.c: SIGKILL this process before step k of the next
 * set publications (0: the journal's rename; then each rename and removal
 * it lists; last: the journal's removal); -1 never. */
void lattio_volume_test_kill_at(int k);
/* container/geometry.c: container ids (and temporary-name suffixes) are `id`
 * from now on; 0 restores random ids. */
void lattio_cont_test_set_id(uint64_t id);

#ifndef LATTIO_NO_MPI
/* io/collective.c: a smaller staging buffer (bytes, 0: the default), the
 * OMPIO guard forced on, and a simulated corrupting MPI library. */
void lattio_collective_test_hooks(uint64_t staging_bytes, int force_guard, int inject);
/* io/container.c: close the file and free the handle without the final
 * trailers (a writer killed before close). */
void lattio_container_test_abandon(lattio_container *c);
/* hdf5/h5_write.c: SIGKILL this process once a write's data are in the
 * temporary file (before the checksum attributes and the rename). */
void lattio_h5_test_kill_after_data(int on);
#endif

#endif
#endif
