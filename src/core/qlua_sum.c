/* qlua_sum.c -- Qlua's per-site SHA-256 lattice checksum (lattio.h):
 * each site's digest over its dimension count, coordinates and values,
 * XORed over the sites.  The digest is OpenSSL's; a build without
 * libcrypto (a pip install on a machine without libssl-dev) says it cannot
 * compute it, so a Qlua file is read there only without verifying. */
#include "internal.h"

#include <string.h>

#ifndef LATTIO_HAVE_CRYPTO
int lattio_qlua_sum_sites(lattio_qlua_sum *sum, const void *sites, size_t site_bytes,
                          uint64_t nsites, int nd, const uint64_t *coord)
{
    (void)sum, (void)sites, (void)site_bytes, (void)nsites, (void)nd, (void)coord;
    lattio_detail_set("Qlua's SHA-256 checksum needs libcrypto, and this lattio was built without it "
                      "(apt install libssl-dev and reinstall, docs/install.md; or read without verifying)");
    return LATTIO_FAIL(LATTIO_ERR_UNSUPPORTED, "SHA-256: lattio was built without libcrypto");
}
#else
#include <openssl/evp.h>

static void le64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
}

int lattio_qlua_sum_sites(lattio_qlua_sum *sum, const void *sites, size_t site_bytes,
                          uint64_t nsites, int nd, const uint64_t *coord)
{
    RETURN_IF(!sum || !coord || nd < 1 || nd > 16 || (!sites && nsites), LATTIO_ERR_ARG);
    if (nsites == 0) return LATTIO_OK;
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    RETURN_IF(!ctx, LATTIO_FAIL(LATTIO_ERR_NOMEM, "digest context"));
    const EVP_MD *md = EVP_sha256();
    unsigned char head[8 * 17];
    const size_t hlen = 8 * (size_t)(nd + 1);
    le64(head, (uint64_t)nd);
    for (int d = 0; d < nd; d++) le64(head + 8 * (d + 1), coord[d]);
    const unsigned char *p = sites;
    int ok = 1;
    for (uint64_t i = 0; i < nsites && ok; i++, p += site_bytes) {
        unsigned char dig[32];
        unsigned int dlen = 0;
        le64(head + 8 * (size_t)nd, coord[nd - 1] + i);
        ok = EVP_DigestInit_ex(ctx, md, NULL) && EVP_DigestUpdate(ctx, head, hlen) &&
             EVP_DigestUpdate(ctx, p, site_bytes) && EVP_DigestFinal_ex(ctx, dig, &dlen) && dlen == 32;
        for (int k = 0; k < 32 && ok; k++) sum->x[k] ^= dig[k];
    }
    EVP_MD_CTX_free(ctx);
    return ok ? LATTIO_OK : LATTIO_FAIL(LATTIO_ERR_NOMEM, "SHA-256 failed");
}
#endif

void lattio_qlua_sum_combine(lattio_qlua_sum *into, const lattio_qlua_sum *part)
{
    if (!into || !part) return;
    for (int k = 0; k < 32; k++) into->x[k] ^= part->x[k];
}
