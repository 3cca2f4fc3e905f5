# The MPI stack the tests run under, discovered, and its launcher quirks:
# the one place that knows them (docs/cluster.md, "MPI stacks").
#   LATTIO_MPI_FLAVOR          openmpi, mpich or intel
#   LATTIO_MPI_PREFLAGS        launcher options every job takes
#   LATTIO_MPI_ENV             environment every test gets
#   LATTIO_ROMIO               Open MPI's ROMIO component (romio321 in 4.1,
#                              romio341 in 5.0; from ompi_info), else empty
#   LATTIO_MPI_IO_COMPONENTS   the MPI-IO components each MPI test runs under
#                              (Open MPI: ompio and ROMIO; others: default)
execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version OUTPUT_VARIABLE _mpiv ERROR_VARIABLE _mpiv)
set(LATTIO_ROMIO "")
if(_mpiv MATCHES "Open MPI|OpenRTE")
  set(LATTIO_MPI_FLAVOR openmpi)
  set(LATTIO_MPI_PREFLAGS --oversubscribe)
  # ompi_info beside the launcher (Debian's mpiexec is an alternatives link)
  get_filename_component(_mpibin ${MPIEXEC_EXECUTABLE} REALPATH)
  get_filename_component(_mpibin ${_mpibin} DIRECTORY)
  find_program(LATTIO_OMPI_INFO NAMES ompi_info HINTS ${_mpibin} NO_DEFAULT_PATH)
  if(NOT LATTIO_OMPI_INFO)
    find_program(LATTIO_OMPI_INFO NAMES ompi_info)
  endif()
  set(_ompi "")
  if(LATTIO_OMPI_INFO)
    execute_process(COMMAND ${LATTIO_OMPI_INFO} OUTPUT_VARIABLE _ompi ERROR_QUIET)
  endif()
  string(REGEX MATCH "MCA io: (romio[0-9]+)" _m "${_ompi}")
  set(LATTIO_ROMIO "${CMAKE_MATCH_1}")
  # the shared-memory transport: vader in 4.x, sm from 5.0
  set(_btl self,vader)
  if(_mpiv MATCHES "Open MPI\\) ([0-9]+)" AND CMAKE_MATCH_1 GREATER_EQUAL 5)
    set(_btl self,sm)
  endif()
  set(LATTIO_MPI_ENV OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=${_btl})
  if(_btl STREQUAL "self,sm")
    # Open MPI 5's UCX one-sided component, with no UCX transport here,
    # prints "OSC UCX component priority set inside component query failed"
    # on stderr at every window's creation (the window then works through
    # the next component): not the program's output
    list(APPEND LATTIO_MPI_ENV "OMPI_MCA_osc=^ucx")
  endif()
  set(LATTIO_MPI_IO_COMPONENTS ompio ${LATTIO_ROMIO})
  if(NOT LATTIO_ROMIO)
    message(STATUS "lattio tests: this Open MPI has no ROMIO component (ompi_info: ${LATTIO_OMPI_INFO}): "
                   "the ROMIO runs are not registered")
  endif()
elseif(_mpiv MATCHES "Intel\\(R\\) MPI")
  # Intel MPI (PyPI's impi-rt): its Hydra started by fork, libfabric's tcp
  # provider (no InfiniBand here), I_MPI_ROOT where the wheel put it
  set(LATTIO_MPI_FLAVOR intel)
  set(LATTIO_MPI_PREFLAGS)
  get_filename_component(_mpibin ${MPIEXEC_EXECUTABLE} DIRECTORY)
  get_filename_component(_iroot ${_mpibin} DIRECTORY)
  set(LATTIO_MPI_ENV I_MPI_HYDRA_BOOTSTRAP=fork FI_PROVIDER=tcp I_MPI_ROOT=${_iroot})
  set(LATTIO_MPI_IO_COMPONENTS default)
else()
  set(LATTIO_MPI_FLAVOR mpich)
  set(LATTIO_MPI_PREFLAGS)
  set(LATTIO_MPI_ENV HYDRA_LAUNCHER=fork)
  set(LATTIO_MPI_IO_COMPONENTS default)
endif()
# scripts read the ROMIO component from here (tests/tool_mpi/mpiutil.py)
list(APPEND LATTIO_MPI_ENV LATTIO_ROMIO=${LATTIO_ROMIO})
message(STATUS "lattio tests: MPI flavour ${LATTIO_MPI_FLAVOR}, launcher ${MPIEXEC_EXECUTABLE}, "
               "MPI-IO components: ${LATTIO_MPI_IO_COMPONENTS}")
