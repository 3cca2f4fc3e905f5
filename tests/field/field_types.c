/* field_types.c -- the field-type table (src/field/types.c): QIO's
 * datatype strings and typesizes for every type at both precisions and
 * other colour counts (the numbers typed in here from QIO's conventions),
 * datatypes recognised with the USQCD_ and QDP_ prefixes and nothing else,
 * and the table's walk. */
#include "fieldtest.h"

#include <string.h>

static void check_type(const char *name, int colors, int spins, int precision, const char *datatype,
                       uint64_t typesize, int rank)
{
    const lattio_field_type *t = lattio_field_type_by_name(name);
    CHECK(t != NULL);
    if (!t) return;
    char dt[64];
    CHECK_OK(lattio_field_type_datatype(t, colors, precision, dt, sizeof dt));
    CHECK_STR(dt, datatype);
    int shape[LATTIO_TYPE_MAX_AXES], r = -1;
    uint64_t ts = 0;
    CHECK_OK(lattio_field_type_datum(t, colors, spins, precision, shape, &r, &ts));
    CHECK_U64(ts, typesize);
    CHECK_INT(r, rank);
    const lattio_field_type *back = lattio_field_type_of(dt);
    CHECK(back != NULL && strcmp(back->stem, t->stem) == 0);
}

int main(void)
{
    check_type("propagator", 3, 4, 64, "USQCD_D3_DiracPropagator", 2304, 4);
    check_type("propagator", 3, 4, 32, "USQCD_F3_DiracPropagator", 1152, 4);
    check_type("fermion", 3, 4, 32, "USQCD_F3_DiracFermion", 96, 2);
    check_type("fermion", 2, 4, 64, "USQCD_D2_DiracFermion", 128, 2);
    check_type("colorvector", 3, 0, 32, "USQCD_F3_ColorVector", 24, 1);
    check_type("colormatrix", 3, 0, 32, "USQCD_F3_ColorMatrix", 72, 2);
    check_type("colormatrix", 5, 0, 64, "USQCD_D5_ColorMatrix", 400, 2);
    check_type("staggered_propagator", 3, 0, 64, "USQCD_D3_ColorMatrix", 144, 2);
    check_type("complex", 0, 0, 32, "USQCD_F_Complex", 8, 0);
    check_type("real", 0, 0, 64, "USQCD_D_Real", 8, 0);
    /* defaults: 3 colours, 4 spins */
    uint64_t ts = 0;
    int r;
    CHECK_OK(lattio_field_type_datum(lattio_field_type_by_name("propagator"), 0, 0, 64, NULL, &r, &ts));
    CHECK_U64(ts, 2304);
    /* recognised: the prefixes and stems of the table; nothing else */
    CHECK(lattio_field_type_of("QDP_F3_ColorMatrix") == lattio_field_type_by_name("colormatrix"));
    CHECK(lattio_field_type_of("USQCD_D_Complex") == lattio_field_type_by_name("complex"));
    CHECK(lattio_field_type_of("Lattice") == NULL);
    CHECK(lattio_field_type_of("USQCD_X3_DiracFermion") == NULL);
    CHECK(lattio_field_type_of("USQCD_F3DiracFermion") == NULL);
    CHECK(lattio_field_type_of("USQCD_F3_DiracFermions") == NULL);
    CHECK(lattio_field_type_of("") == NULL && lattio_field_type_of(NULL) == NULL);
    /* bad arguments */
    CHECK_STATUS(lattio_field_type_datum(lattio_field_type_by_name("fermion"), 3, 4, 16, NULL, &r, &ts), LATTIO_ERR_ARG);
    CHECK_STATUS(lattio_field_type_datum(lattio_field_type_by_name("fermion"), -1, 4, 64, NULL, &r, &ts), LATTIO_ERR_ARG);
    char small[8];
    CHECK_STATUS(lattio_field_type_datatype(lattio_field_type_by_name("fermion"), 3, 64, small, sizeof small),
                 LATTIO_ERR_OVERFLOW);
    int n = 0;
    while (lattio_field_type_at(n)) n++;
    CHECK_INT(n, 7);
    CHECK(lattio_field_type_by_name("nonsense") == NULL);
    return test_finish();
}
