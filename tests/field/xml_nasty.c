/* xml_nasty.c -- tolerant scanning of hand-written hostile variants:
 * prefixes, attributes, pretty printing, trailing NULs, comments and CDATA
 * hiding look-alike tags, an unterminated attribute quote elsewhere, no end
 * tag, empty elements, entities, bad numbers, overflow, every truncation of
 * a document (no read beyond its length: ASan watches an exact-size copy). */
#include "fieldtest.h"

static int64_t get_int(const char *x, const char *tag, int expect_status)
{
    int64_t v = -999;
    CHECK_STATUS(lattio_xml_int(x, strlen(x), tag, &v), expect_status);
    return v;
}

static void variants(void)
{
    CHECK_INT(get_int("<a><lx>4</lx></a>", "lx", LATTIO_OK), 4);
    CHECK_INT(get_int("<ildg:a><ildg:lx >\n 16 \n</ildg:lx ></ildg:a>", "lx", LATTIO_OK), 16);
    CHECK_INT(get_int("<ildg:lx>16</ildg:lx>", "ildg:lx", LATTIO_OK), 16);
    CHECK_INT(get_int("<x:lx>16</x:lx>", "ildg:lx", LATTIO_ERR_NOT_FOUND), -999);
    CHECK_INT(get_int("<lxx>1</lxx><lx unit='a>b' k=\"q\">7</lx>", "lx", LATTIO_OK), 7);
    CHECK_INT(get_int("<!-- <lx>1</lx> --><![CDATA[<lx>2</lx>]]><lx>3</lx>", "lx", LATTIO_OK), 3);
    CHECK_INT(get_int("<?pi <lx>1</lx> ?><lx>-5</lx>", "lx", LATTIO_OK), -5);
    CHECK_INT(get_int("<f a=\"unterminated><lx>8</lx></f>", "lx", LATTIO_OK), 8);
    CHECK_INT(get_int("<lx>8", "lx", LATTIO_ERR_BAD_XML), -999);
    CHECK_INT(get_int("<lx>8</ly>", "lx", LATTIO_ERR_BAD_XML), -999);
    CHECK_INT(get_int("<lx", "lx", LATTIO_ERR_BAD_XML), -999);
    CHECK_INT(get_int("<lx/>", "lx", LATTIO_ERR_BAD_XML), -999);
    CHECK_INT(get_int("<lx>4x</lx>", "lx", LATTIO_ERR_BAD_XML), -999);
    CHECK_INT(get_int("<lx>4 5</lx>", "lx", LATTIO_ERR_BAD_XML), -999);
    CHECK_INT(get_int("<lx></lx>", "lx", LATTIO_ERR_BAD_XML), -999);
    CHECK_INT(get_int("<lx>99999999999999999999999</lx>", "lx", LATTIO_ERR_OVERFLOW), -999);
    CHECK_INT(get_int("", "lx", LATTIO_ERR_NOT_FOUND), -999);
    CHECK_INT(get_int("<<<<", "lx", LATTIO_ERR_NOT_FOUND), -999);
    CHECK_INT(get_int("<!--", "lx", LATTIO_ERR_NOT_FOUND), -999);
    /* a trailing NUL ends the text even when len says more */
    const char nul[] = "<lx>3</lx>\0<ly>4</ly>";
    int64_t v;
    CHECK_STATUS(lattio_xml_int(nul, sizeof nul, "ly", &v), LATTIO_ERR_NOT_FOUND);
    CHECK_OK(lattio_xml_int(nul, sizeof nul, "lx", &v));
    CHECK_INT(v, 3);
}

static void strings_and_lists(void)
{
    char s[32];
    const char *x = "<d> a &lt;&amp;&gt; &quot;b&apos; &bogus; </d><e/><dims>4 4\n4 8 </dims>";
    CHECK_OK(lattio_xml_string(x, strlen(x), "d", s, sizeof s));
    CHECK_STR(s, "a <&> \"b' &bogus;");
    CHECK_STATUS(lattio_xml_string(x, strlen(x), "d", s, 8), LATTIO_ERR_OVERFLOW);
    CHECK_STR(s, "a <&> \""); /* 7 characters and the NUL */
    CHECK_OK(lattio_xml_string(x, strlen(x), "e", s, sizeof s));
    CHECK_STR(s, "");
    int64_t d[4];
    int n;
    CHECK_OK(lattio_xml_ints(x, strlen(x), "dims", d, 4, &n));
    CHECK_INT(n, 4);
    CHECK_INT(d[3], 8);
    CHECK_STATUS(lattio_xml_ints(x, strlen(x), "dims", d, 3, &n), LATTIO_ERR_OVERFLOW);
    uint32_t h;
    const char *c = "<suma>37AFFB9C</suma><sumb>0x1</sumb><sumc>123456789</sumc><sumd>xyz</sumd>";
    CHECK_OK(lattio_xml_hex32(c, strlen(c), "suma", &h));
    CHECK_U64(h, 0x37affb9cu);
    CHECK_OK(lattio_xml_hex32(c, strlen(c), "sumb", &h));
    CHECK_U64(h, 1);
    CHECK_STATUS(lattio_xml_hex32(c, strlen(c), "sumc", &h), LATTIO_ERR_OVERFLOW);
    CHECK_STATUS(lattio_xml_hex32(c, strlen(c), "sumd", &h), LATTIO_ERR_BAD_XML);
    char e[64];
    size_t need;
    CHECK_OK(lattio_xml_escape("a<b&'\">", e, sizeof e, &need));
    CHECK_STR(e, "a&lt;b&amp;&apos;&quot;&gt;");
    CHECK_U64(need, strlen(e));
    CHECK_STATUS(lattio_xml_escape("a<b", e, 4, &need), LATTIO_ERR_OVERFLOW);
    CHECK_U64(need, 6);
}

/* Every prefix of a pretty-printed document, copied to an exact-size heap
 * buffer without NUL: no crash, no read beyond, and a sensible status. */
static void truncations(void)
{
    const char *doc = "<?xml version=\"1.0\"?>\n<ildgFormat xmlns=\"http://www.lqcd.org/ildg\">\n"
                      "  <!-- c --><precision>64</precision>\n  <lx>4</lx>\n</ildgFormat>\n";
    const size_t len = strlen(doc);
    for (size_t n = 0; n <= len; n++) {
        char *p = malloc(n ? n : 1);
        memcpy(p, doc, n);
        int64_t v = 0;
        const int rc = lattio_xml_int(p, n, "lx", &v);
        CHECK(rc == LATTIO_OK || rc == LATTIO_ERR_NOT_FOUND || rc == LATTIO_ERR_BAD_XML);
        if (rc == LATTIO_OK) CHECK_INT(v, 4);
        free(p);
    }
}

int main(void)
{
    variants();
    strings_and_lists();
    truncations();
    return test_finish();
}
