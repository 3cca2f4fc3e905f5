// qdp_h5_proof.cc -- QDP++'s own HDF5 against lattio's (scripts/qdpxx-proof.sh).
//
//   qdp_h5_proof L T write OUT.h5   QIO reads gauge.lime (ILDG), prop.lime and
//                                    real.lime (SciDAC, lattio-written; QIO checks
//                                    their checksums) and QDP++'s HDF5Writer writes
//                                    them to OUT.h5 as /cfg/U, /prop, /real
//   qdp_h5_proof L T read IN.h5     QDP++'s HDF5Reader reads /cfg/U and /prop of
//                                    IN.h5 (lattio-written) and compares them with
//                                    what QIO reads from the LIME files (QDP++'s
//                                    reader reads no LatticeReal: see below)
//
// Prints one line per field ("U: max |difference| 0", ...) and exits 1 when
// any differs.  Built by the proof script against the QDP++ it builds; no
// part of lattio's build.
#include "qdp.h"

#include <cstdlib>
#include <string>

using namespace QDP;

namespace {

struct Fields {
    multi1d<LatticeColorMatrixD3> u;
    LatticePropagatorD3 prop;
    LatticeRealD real;
    Fields() : u(Nd) {}
};

template <class F>
void read_lime(const std::string& name, F& f)
{
    XMLReader file_xml, rec_xml;
    QDPFileReader from(file_xml, name, QDPIO_SERIAL);
    read(from, rec_xml, f);
    close(from);
}

Fields from_lime()
{
    Fields f;
    read_lime("gauge.lime", f.u);
    read_lime("prop.lime", f.prop);
    read_lime("real.lime", f.real);
    return f;
}

// The gauge field and the propagator of h5 read by QDP++'s HDF5Reader; the
// real field is `real` (QDP++'s reader reads no LatticeReal, in QDP++'s
// layout, Nd dimensions: "wrong dimensionality", or with a trailing 1: its
// hyperslab then has Nd dimensions against Nd+1, an HDF5 error, nothing read)
Fields read_h5(const std::string& h5, const LatticeRealD& real)
{
    Fields f;
    f.real = real;
    HDF5Reader r;
    r.open(h5);
    r.read("cfg/U", f.u);
    r.read("prop", f.prop);
    r.close();
    return f;
}

double worst(const Fields& a, const Fields& b)
{
    double w = 0;
    for (int mu = 0; mu < Nd; ++mu) {
        double d = toDouble(globalMax(localNorm2(a.u[mu] - b.u[mu])));
        QDPIO::cout << "U[" << mu << "]: max |difference|^2 " << d << std::endl;
        if (d > w) w = d;
    }
    double d = toDouble(globalMax(localNorm2(a.prop - b.prop)));
    QDPIO::cout << "prop: max |difference|^2 " << d << std::endl;
    if (d > w) w = d;
    d = toDouble(globalMax(localNorm2(a.real - b.real)));
    QDPIO::cout << "real: max |difference|^2 " << d << std::endl;
    return d > w ? d : w;
}

}  // namespace

int main(int argc, char** argv)
{
    QDP_initialize(&argc, &argv);
    if (argc != 5) {
        QDPIO::cerr << "usage: qdp_h5_proof L T write|read FILE.h5" << std::endl;
        QDP_abort(2);
    }
    const int l = std::atoi(argv[1]), t = std::atoi(argv[2]);
    const std::string mode = argv[3], h5 = argv[4];
    multi1d<int> nrow(Nd);
    nrow[0] = nrow[1] = nrow[2] = l;
    nrow[3] = t;
    Layout::setLattSize(nrow);
    Layout::create();

    Fields lime = from_lime();
    int status = 0;
    if (mode == "write") {
        HDF5Writer w;
        w.open(h5, HDF5Base::trunc);
        w.push("cfg");
        w.write("U", lime.u, HDF5Base::trunc);
        w.cd("/");
        w.write("prop", lime.prop, HDF5Base::trunc);
        w.write("real", lime.real, HDF5Base::trunc);
        w.close();
        // QDP++'s own reader on what its writer wrote
        QDPIO::cout << "QDP++ reads its own " << h5 << " (U, prop)" << std::endl;
        status = worst(lime, read_h5(h5, lime.real)) > 0;
    } else if (mode == "read") {
        QDPIO::cout << "QDP++ reads " << h5 << " against QIO's reading of the LIME files" << std::endl;
        status = worst(lime, read_h5(h5, lime.real)) > 0;
    } else {
        QDPIO::cerr << "mode " << mode << ": write or read" << std::endl;
        status = 2;
    }
    QDPIO::cout << (status ? "DIFFERENT" : "IDENTICAL") << std::endl;
    QDP_finalize();
    return status;
}
